"""YAML banks -> questions, read by their shape (importing/shape.py), as JSON is.

PyYAML composes the document into nodes, each with its line, and this module turns the
nodes into plain values itself, so every question keeps its line and nothing but plain
data is made: no tags that build objects (PyYAML's safe rules), and no aliases (``*a``
to an ``&a``), which a bank has no need for and which let a few lines stand for billions
of values (an alias bomb): both are an error at their line. Nesting deeper than
json_bank.DEPTH is an error too; a key written twice in one mapping is a warning (W705).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing.bank import Reading, title_from_name
from nca_anki.importing.json_bank import DEPTH
from nca_anki.importing.containers import read_records
from nca_anki.importing.shape import Path_, path_text


class _Refused(Exception):
    def __init__(self, line: int, message: str) -> None:
        self.line, self.message = line, message


@dataclass
class _Open:
    """A mapping or sequence being filled, and for a mapping the key read last."""

    value: dict[str, object] | list[object]
    where: Path_
    key: str | None = None
    seen: dict[str, int] = field(default_factory=dict)  # a mapping's keys: their lines


def _values(text: str, path: str) -> tuple[object, dict[Path_, int], list[Diagnostic]]:
    """The plain value of the document ``text``, each value's line by its path, and the
    warnings; raises _Refused at an alias, a second document, a key that is no text, or
    too deep a nesting, and yaml.YAMLError where it is no YAML.

    Built from the parser's events as they come, never from PyYAML's composed nodes:
    those (a node and two marks for every value) were the import's largest memory, 6.5 KB
    a question, all held until the values were made (issue 46: 1.3 GB for 100,000)."""
    import yaml

    loader = yaml.SafeLoader("")  # its resolver and constructor, for the scalars
    lines: dict[Path_, int] = {}
    problems: list[Diagnostic] = []
    anchors: dict[str, int] = {}  # each anchor's line: an alias to it is refused
    out: list[object] = [None]
    stack: list[_Open] = []
    documents = 0
    for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        line = event.start_mark.line + 1 if event.start_mark else 0
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise _Refused(line, "not read: expected a single document in the stream, "
                               "found another")
        elif isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
        elif isinstance(event, yaml.NodeEvent):
            top = stack[-1] if stack else None
            if top is not None and isinstance(top.value, dict) and top.key is None:
                _key(event, top, loader, path, problems)
                continue
            where = () if top is None else (*top.where, top.key if isinstance(
                top.value, dict) else len(top.value))
            lines[where] = line
            value = _value(event, where, line, loader, anchors)
            if top is None:
                out[0] = value
            elif isinstance(top.value, dict):
                top.value[top.key], top.key = value, None  # type: ignore[index]
            else:
                top.value.append(value)
            if isinstance(value, (dict, list)) and isinstance(event, yaml.CollectionStartEvent):
                stack.append(_Open(value, where))
    return out[0], lines, problems


def _value(event, where: Path_, line: int, loader, anchors: dict[str, int]) -> object:
    """A node event's value: an empty mapping or list to fill, or the scalar's value."""
    import yaml

    if isinstance(event, yaml.AliasEvent):
        if event.anchor in anchors:
            raise _Refused(line, f"{path_text(where)}: an alias (*name) to the value written "
                           f"at line {anchors[event.anchor]}; write the value out where it "
                           "is used (aliases can make a few lines stand for billions of "
                           "values)")
        raise _Refused(line, "not read: found undefined alias")
    if event.anchor is not None:
        anchors[event.anchor] = line
    if len(where) > DEPTH:
        raise _Refused(line, f"nested more than {DEPTH} levels deep")
    if isinstance(event, yaml.MappingStartEvent):
        return {}
    if isinstance(event, yaml.SequenceStartEvent):
        return []
    try:
        scalar = _scalar(event, loader)
    except yaml.YAMLError as exc:  # a tag that would build an object
        raise _Refused(line, f"{path_text(where)}: {getattr(exc, 'problem', exc)}; "
                       "this reads plain data only") from None
    if isinstance(scalar, bool) and event.value.casefold() not in ("true", "false"):
        return event.value  # YAML 1.1's yes/no/on/off: the word as written
    return scalar if isinstance(scalar, (str, int, float, bool)) or scalar is None \
        else str(scalar)


def _key(event, top: _Open, loader, path: str, problems: list[Diagnostic]) -> None:
    """Read a mapping's key (``top.key``), with a warning if it is written twice."""
    import yaml

    line = event.start_mark.line + 1
    key = None
    if isinstance(event, yaml.ScalarEvent):
        try:
            key = str(_scalar(event, loader))
        except yaml.YAMLError:
            key = None
    if key is None:
        raise _Refused(line, f"{path_text(top.where)}: a key that is not text")
    if key in top.seen:
        problems.append(warning("W705", path, line, (
            f"{path_text(top.where)}: the key {key!r} is written twice in one mapping "
            f"(lines {top.seen[key]} and {line}); the second is read, so the first was "
            "not: delete one")))
    top.seen[key] = line
    top.key = key


def _scalar(event, loader) -> object:
    """A scalar event's value, as PyYAML's safe loader makes it (its tag resolved as its
    composer does, constructed, and forgotten by the constructor at once)."""
    import yaml

    tag = event.tag
    if tag is None or tag == "!":
        tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark,
                           style=event.style)
    try:
        return loader.construct_object(node)
    finally:
        loader.constructed_objects.pop(node, None)


def read(text: str, path: str, overrides: Mapping[str, str] | None = None) -> Reading:
    import yaml

    try:
        # libyaml's parser (C) where it is installed (PyYAML's wheels have it): 10x faster
        data, lines, problems = _values(text, path)
    except _Refused as exc:
        return Reading((), (error("E701", path, exc.line, (
            f"{exc.message}; nothing in the file was converted")),))
    except yaml.composer.ComposerError as exc:  # an alias ("*a") to an anchor
        mark = exc.problem_mark or exc.context_mark
        return Reading((), (error("E701", path, mark.line + 1 if mark else 0, (
            f"not read: {exc.problem}; nothing in the file was converted")),))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return Reading((), (error("E701", path, mark.line + 1 if mark else 0, (
            f"not valid YAML: {getattr(exc, 'problem', None) or exc}; nothing in the file "
            "was converted")),))
    except RecursionError:
        return Reading((), (error("E701", path, 0, (
            f"nested more than {DEPTH} levels deep; nothing in the file was converted")),))
    if not lines:
        return Reading((), (error("E701", path, 1, "is empty; nothing converted"),))

    def line_of(where: Path_) -> int:  # a place made by the reading: its holder's line
        while where and where not in lines:
            where = where[:-1]
        return lines.get(where, 1)

    # The records are found by their shape whatever holds them, as JSON's (containers.py)
    sections, said = read_records(data, path=path, line_of=line_of, overrides=overrides or {},
                                  default_title=title_from_name(path))
    if not sections and not any(d.is_error for d in said):
        said.append(error("E701", path, 1, (
            "no list of questions found: no list of mappings each with a question's text "
            "and its choices; nothing in the file was converted")))
    return Reading(sections, (*problems, *said))
