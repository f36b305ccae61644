"""XML that is no Moodle export, read as records, by the same role inference as JSON:

    <questions>
      <question text="Which …?" answer_idx="1" context="Because …">
        <option>…</option>
        <option>…</option>
      </question>
    </questions>

Each element is an object whose keys are its attributes and its child elements; a child
element that repeats (anywhere under elements of the same name, so a question with one
``<option>`` is read as its siblings are) is a list; an element with only text is that
text, unless others of its name have attributes or children (``<option correct="yes">``
beside ``<option>``); an element with attributes or children keeps its text under
``text``; text with inline markup (``Which is <b>bold</b>?``) is text, its HTML read as
Moodle's is (bank.html_to_markdown). The records are then found by their shape and their
keys' roles inferred (containers.py, shape.py), and each message names the element by
its place (``<question> 12``) and its line.

moodle_xml.py parses the file (expat through handlers that refuse every entity
declaration and nest no deeper than MAX_DEPTH) and hands a document whose root is not
``<quiz>`` to ``read_tree``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from nca_anki.diagnostics import clip, error
from nca_anki.importing.bank import Reading, html_to_markdown, title_from_name
from nca_anki.importing.containers import read_records
from nca_anki.importing.shape import Found, Path_, find_lists

_LANG = "xml:lang"  # a text's language: one of several variants, not a key of its own


def read_tree(root: ET.Element, lines: Mapping[ET.Element, int], path: str,
              overrides: Mapping[str, str]) -> Reading:
    """The questions of a parsed XML document that is no Moodle export (``lines``: each
    element's line)."""
    values = _Values(root, lines)
    data = values.value(root, ())
    title = title_from_name(path)
    line_of = values.line
    if isinstance(data, dict) and not find_lists(data) and find_lists([data]):
        # the document is one question (<pickQuestion>, one a file): a list of one
        data = {root.tag: [data]}
        line_of = lambda where: values.line(where[2:])  # noqa: E731
    sections, problems = read_records(
        data, path=path, line_of=line_of, overrides=overrides, default_title=title,
        noun=lambda lists: _noun(lists, values), shown=_shown, lines=False)
    tags = {_humane(tag) for _, tag in values.repeated} | {_humane(root.tag)}
    sections = tuple(s if s.title not in tags else type(s)(title=title, items=s.items,
                                                           path=s.path) for s in sections)
    if not sections and not any(d.is_error for d in problems):
        problems.append(error("E701", path, 1, (
            f"not a Moodle XML bank (its root is <{clip(root.tag, 40)}>, not <quiz>), and no "
            "repeated element in it holds questions (an element with a question's text and "
            "its choices, as attributes or child elements); nothing converted")))
    return Reading(sections, tuple(problems))


class _Values:
    """Plain values of a document's elements, and each one's line by its path."""

    def __init__(self, root: ET.Element, lines: Mapping[ET.Element, int]) -> None:
        self.element_lines = lines
        self.lines: dict[Path_, int] = {}
        self.order: list[Path_] = []  # the paths of ``lines``, as they were added
        # (parent, child) tags where some parent holds two or more such children, and
        # where some such child has attributes or elements of its own (then every one is
        # an object, its text under "text": <option correct="yes"> beside <option>)
        self.repeated: set[tuple[str, str]] = set()
        self.objects: set[tuple[str, str]] = set()
        self.attributed: set[tuple[str, str]] = set()  # some such child has attributes
        self.language = _language(root)
        self.languages: set[str] = set()  # of the texts written in several
        for element in root.iter():
            seen: set[str] = set()
            for child in self.kept(element):
                if child.tag in seen:
                    self.repeated.add((element.tag, child.tag))
                seen.add(child.tag)
                if _attributes(child):
                    self.attributed.add((element.tag, child.tag))
                if _attributes(child) or (len(child) and not _mixed(child)):
                    self.objects.add((element.tag, child.tag))

    def line(self, where: Path_) -> int:
        """The line of the element at ``where``, or of the one holding it (an
        attribute's is its element's)."""
        while where and where not in self.lines:
            where = where[:-1]
        return self.lines.get(where, 1)

    def value(self, element: ET.Element, where: Path_, kind: tuple[str, str] | None = None
              ) -> object:
        """The element as a text, or an object of its attributes, child elements and
        text (``kind``: its parent's tag and its own)."""
        # Recursive: moodle_xml's reader refuses elements nested more than MAX_DEPTH deep.
        self.lines[where] = self.element_lines.get(element, 1)
        self.order.append(where)
        mixed = _mixed(element)
        children = [] if mixed else self.kept(element)
        if mixed:
            text = html_to_markdown(_tidy((element.text or "") + "".join(
                ET.tostring(c, encoding="unicode") for c in element)))
        else:
            text = _tidy(element.text or "")
        attributes = _attributes(element)
        if not attributes and not children and kind not in self.objects:
            return text
        mark = len(self.order)
        out: dict[str, object] = dict(attributes)
        for child in children:
            tag = child.tag
            pair = (element.tag, tag)
            if pair in self.repeated:
                listed = out.setdefault(tag, [])
                if isinstance(listed, list):  # not an attribute of that name
                    self.lines.setdefault((*where, tag), self.element_lines.get(child, 1))
                    listed.append(self.value(child, (*where, tag, len(listed)), pair))
                    continue
            out.setdefault(tag, self.value(child, (*where, tag), pair))
        if text:
            out.setdefault("text", text)
        if not attributes and not text and where and len(out) == 1 and len(
                {c.tag for c in children}) == 1:
            return self._inner(out, where, mark, kind in self.attributed)
        return out


    def kept(self, element: ET.Element) -> list[ET.Element]:
        """``element``'s children, of the texts written in several languages (``<text
        xml:lang="de">`` beside ``<text xml:lang="en">``) only the document's language."""
        children = list(element)
        langs = [c.get(_LANG) for c in children]
        if sum(lang is not None for lang in langs) < 2:
            return children
        self.languages.update(lang for lang in langs if lang)
        tags = {c.tag for c in children if c.get(_LANG) is not None}
        chosen = {tag: next((c for c in children if c.tag == tag and _same(c.get(_LANG),
                                                                           self.language)),
                            next(c for c in children if c.tag == tag)) for tag in tags}
        return [c for c in children if c.tag not in tags or chosen[c.tag] is c]

    def _inner(self, out: dict[str, object], where: Path_, mark: int, kin: bool) -> object:
        """What an element without attributes or text of its own that only wraps others
        (``out``: its one key) is: ``<stem><text>…</text></stem>`` its one text,
        ``<options><option>…</option>…</options>`` the list of its children when they are
        no questions (their lines then known by their places in the list); else ``out``
        (``kin``: others of its name have attributes, so it is an object as they are)."""
        tag, inner = next(iter(out.items()))
        if isinstance(inner, str):
            return out if kin else inner
        if not isinstance(inner, list) or find_lists(inner):
            return out
        depth = len(where)
        for path in self.order[mark:]:
            if path[depth:depth + 1] == (tag,):
                self.lines.setdefault((*where, *path[depth + 1:]), self.lines[path])
        return inner


def _language(root: ET.Element) -> str:
    """The language a document's texts are read in, when they are written in several:
    English if it has English, else its first."""
    langs = [lang for e in root.iter() if (lang := e.get(_LANG))]
    return next((lang for lang in langs if _same(lang, "en")), langs[0] if langs else "")


def _same(lang: str | None, other: str) -> bool:
    return (lang or "").casefold().split("-")[0] == other.casefold().split("-")[0]


def _attributes(element: ET.Element) -> dict[str, object]:
    """An element's attributes as keys; one whose value is its own name
    (``correct="correct"``, XML's way of writing a flag) is ``True``."""
    return {k: True if v.strip() == k else v for k, v in element.attrib.items()
            if k != _LANG and k != "xmlns" and not k.startswith("xmlns:")}


def _mixed(element: ET.Element) -> bool:
    """Whether ``element`` holds text with elements inside it (inline markup)."""
    return len(element) > 0 and (bool((element.text or "").strip()) or any(
        (c.tail or "").strip() for c in element))


def _tidy(text: str) -> str:
    """An element's text without the indentation the document's layout gave its lines."""
    lines = text.strip().split("\n")
    if len(lines) == 1:
        return lines[0]
    indents = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    cut = min(indents, default=0)
    return "\n".join([lines[0], *(line[cut:].rstrip() for line in lines[1:])])


def _noun(lists: list[Found], values: _Values) -> str:
    tags = sorted({str(found.path[-1]) for found in lists if found.path})
    named = ", ".join(f"<{clip(tag, 30)}>" for tag in tags[:3]) or "question"
    said = f"{named} elements"  # their attributes and child elements are the keys
    if len(values.languages) > 1:
        said += f" (texts in {clip(values.language, 12)!r} of {len(values.languages)} languages)"
    return said


def _shown(where: Path_) -> str:
    """A place in the document as its author sees it: "<question> 12, <option> 3"."""
    parts: list[str] = []
    k = 0
    while k < len(where):
        step = where[k]
        if k + 1 < len(where) and isinstance(where[k + 1], int):
            parts.append(f"<{clip(str(step), 30)}> {where[k + 1] + 1}")  # type: ignore[operator]
            k += 2
        else:
            parts.append(clip(str(step), 30))
            k += 1
    return f"{', '.join(parts)}: " if parts else ""


def _humane(key: str) -> str:
    """The title shape.py gives a list by its key (a tag names the records' kind, not
    their topic)."""
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", key).replace("_", " ").replace("-", " ")
    return " ".join(w[:1].upper() + w[1:] for w in words.split())
