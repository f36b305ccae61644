"""YAML banks -> questions, read by their shape (importing/shape.py), as JSON is.

PyYAML composes the document into nodes, each with its line, and this module turns the
nodes into plain values itself, so every question keeps its line and nothing but plain
data is made: no tags that build objects (PyYAML's safe rules), and no aliases (``*a``
to an ``&a``), which a bank has no need for and which let a few lines stand for billions
of values (an alias bomb): both are an error at their line. Nesting deeper than
json_bank.DEPTH is an error too; a key written twice in one mapping is a warning (W705).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing.bank import Reading, title_from_name
from nca_anki.importing.json_bank import DEPTH
from nca_anki.importing.shape import Path_, Structured, path_text


class _Refused(Exception):
    def __init__(self, line: int, message: str) -> None:
        self.line, self.message = line, message


def _values(root, path: str) -> tuple[object, dict[Path_, int], list[Diagnostic]]:
    """The plain value of ``root`` (a composed node), each value's line by its path, and
    the warnings; raises _Refused at an alias, an anchor, or too deep a nesting."""
    import yaml

    lines: dict[Path_, int] = {}
    problems: list[Diagnostic] = []
    loader = yaml.SafeLoader("")
    # Iterative: (node, path, a setter for the parent container)
    out: list[object] = [None]
    stack: list[tuple[Any, Path_, Callable[[object], None]]] = [
        (root, (), lambda v: out.__setitem__(0, v))]
    met: set[int] = set()  # the nodes met: an alias is a node met again
    while stack:
        node, where, put = stack.pop()
        line = node.start_mark.line + 1
        lines[where] = line
        if id(node) in met:
            raise _Refused(line, f"{path_text(where)}: an alias (*name) to the value written "
                           f"at line {line}; write the value out where it is used (aliases "
                           "can make a few lines stand for billions of values)")
        met.add(id(node))
        if len(where) > DEPTH:
            raise _Refused(line, f"nested more than {DEPTH} levels deep")
        if isinstance(node, yaml.MappingNode):
            value: dict[str, object] = {}
            put(value)
            seen: dict[str, int] = {}
            children: list[tuple[Any, Path_, Callable[[object], None]]] = []
            for key_node, value_node in node.value:
                try:
                    key = str(loader.construct_object(key_node)) if isinstance(
                        key_node, yaml.ScalarNode) else None
                except yaml.YAMLError:
                    key = None
                if key is None:
                    raise _Refused(key_node.start_mark.line + 1,
                                   f"{path_text(where)}: a key that is not text")
                if key in seen:
                    problems.append(warning("W705", path, key_node.start_mark.line + 1, (
                        f"{path_text(where)}: the key {key!r} is written twice in one mapping "
                        f"(lines {seen[key]} and {key_node.start_mark.line + 1}); the second "
                        "is read, so the first was not: delete one")))
                seen[key] = key_node.start_mark.line + 1
                value[key] = None
                children.append((value_node, (*where, key), partial(value.__setitem__, key)))
            stack.extend(reversed(children))  # in the document's order
        elif isinstance(node, yaml.SequenceNode):
            items: list[object] = [None] * len(node.value)
            put(items)
            stack.extend(reversed([(item, (*where, k), partial(items.__setitem__, k))
                                   for k, item in enumerate(node.value)]))
        else:
            try:
                scalar = loader.construct_object(node)
            except yaml.YAMLError as exc:  # a tag that would build an object
                raise _Refused(line, f"{path_text(where)}: {getattr(exc, 'problem', exc)}; "
                               "this reads plain data only") from None
            if isinstance(scalar, bool) and node.value.casefold() not in ("true", "false"):
                scalar = node.value  # YAML 1.1's yes/no/on/off: the word as written
            put(scalar if isinstance(scalar, (str, int, float, bool)) or scalar is None
                else str(scalar))
    return out[0], lines, problems


def read(text: str, path: str, overrides: Mapping[str, str] | None = None) -> Reading:
    import yaml

    try:
        # libyaml's parser (C) where it is installed (PyYAML's wheels have it): 10x faster
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
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
    if root is None:
        return Reading((), (error("E701", path, 1, "is empty; nothing converted"),))
    try:
        data, lines, problems = _values(root, path)
    except _Refused as exc:
        return Reading((), (error("E701", path, exc.line, (
            f"{exc.message}; nothing in the file was converted")),))
    reader = Structured(path, lambda where: lines.get(where, 1), overrides or {})
    sections = reader.read(data, default_title=title_from_name(path))
    if not sections and not any(d.is_error for d in reader.problems):
        reader.problems.append(error("E701", path, 1, (
            "no list of questions found: no list of mappings each with a question's text "
            "and its choices; nothing in the file was converted")))
    return Reading(sections, (*problems, *reader.problems))
