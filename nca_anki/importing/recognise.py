"""How each format's content is recognised: one function per format that weighs a whole
text and says how strongly it speaks for that format, and from what (readers.py names
each reader's function; detect.py asks them all and takes the strongest).

The whole text is weighed, not its first character: an Aiken file may start
"[Networking]", and what looks like GIFT's answers ("{~0, 1}") inside Markdown's code is
code. Every function here is linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nca_anki.importing.spreadsheet import Separator


@dataclass(frozen=True)
class Evidence:
    """How strongly a text speaks for a format, and what in it says so."""

    weight: int
    said: str  # as a message says it: "3 lines 'ANSWER: <letter>'"


@dataclass(frozen=True)
class Content:
    """A text whose format is asked, with what several formats look at worked out once."""

    text: str

    @cached_property
    def prose(self) -> str:
        """The text without Markdown's fenced code blocks and code spans."""
        return _CODE_SPAN_RE.sub("", _FENCED_RE.sub("", self.text))

    @cached_property
    def sheet(self) -> Separator | None:
        """What separates the cells, if the text's start is a spreadsheet's."""
        # The spreadsheet reader's own test, loaded only when a text's format is asked.
        from nca_anki.importing.spreadsheet import lines_of, separator

        cut = len(self.text) > _SHEET_SAMPLE
        lines = lines_of(self.text[:_SHEET_SAMPLE])
        return separator(lines[:-1] if cut else lines)


_SHEET_SAMPLE = 1 << 16


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_FENCED_RE = re.compile(r"^ {0,3}(?P<fence>`{3,}+|~{3,}+)[^\n]*\n(?:.*?\n)?? {0,3}(?P=fence)[`~]*"
                        r"[ \t]*$|^ {0,3}(?:`{3,}+|~{3,}+).*\Z", re.M | re.S)
_CODE_SPAN_RE = re.compile(r"(`{1,8})[^`]*?\1|`+")  # bounded: no run is tried at length


def moodle_xml(content: Content) -> Evidence | None:
    head = content.text.lstrip("\ufeff \t\r\n")[:4096]
    if head.startswith("<") and ("<quiz" in head or "<question" in head):
        return Evidence(1000, "it is XML with a <quiz> or <question> element")
    return None


_JSON_START_RE = re.compile(r'[\[{]\s*(?:["{\[\]}\d-]|true\b|false\b|null\b)')


def json(content: Content) -> Evidence | None:
    body = content.text.strip("\ufeff \t\r\n")
    if body[:1] not in ("[", "{"):
        return None
    if body[-1:] == {"[": "]", "{": "}"}[body[0]] and _JSON_START_RE.match(body):
        return Evidence(500, f"it starts with {body[0]!r} and ends with {body[-1]!r}")
    return Evidence(1, f"it starts with {body[0]!r}")


_TS_LINE_RE = re.compile(r"(?:export\s+(?:default|const|let|var)|module\.exports\s*=|"
                         r"window\.\w+\s*=|(?:const|let|var)\s+[\w$]+)\b[^\n]*")


def typescript(content: Content) -> Evidence | None:
    found = _TS_LINE_RE.match(content.text, _first_code(content.text))
    if found is None:
        return None
    return Evidence(400, f"its first line of code is {found[0][:40]!r}")


def _first_code(text: str) -> int:
    """Where ``text``'s first line of code starts, after white space, comments, "use
    strict" and imports (a loop, not a pattern: a pattern of repeated comments tried
    again after every way of splitting them takes time that grows exponentially)."""
    at = 0
    while at < len(text):
        if text[at] in "\ufeff \t\r\n":
            at += 1
        elif text.startswith(("//", "import ", "'use strict'", '"use strict"'), at):
            end = text.find("\n", at)
            at = len(text) if end < 0 else end + 1
        elif text.startswith("/*", at):
            end = text.find("*/", at + 2)
            at = len(text) if end < 0 else end + 2
        else:
            break
    return at


_AIKEN_RE = re.compile(r"^ANSWER:\s*[A-Z]\s*$", re.M)


def aiken(content: Content) -> Evidence | None:
    n = len(_AIKEN_RE.findall(content.text))
    return Evidence(20 * n, f"{_plural(n, 'line')} 'ANSWER: <letter>'") if n else None


_GIFT_ANSWERS_RE = re.compile(r"(?<!\\)\{\s*(?:[=~]|%-?\d|(?:T|F|TRUE|FALSE)\s*\})")
_GIFT_HEADS_RE = re.compile(r"^[ \t]*(?:::[^\n]*?::|\$CATEGORY:)", re.M)


def gift(content: Content) -> Evidence | None:
    answers = len(_GIFT_ANSWERS_RE.findall(content.prose))
    heads = len(_GIFT_HEADS_RE.findall(content.prose))
    if not answers:
        return None
    return Evidence(10 * answers + 5 * heads, (
        f"{_plural(answers, 'set')} of answers in braces ('{{=…', '{{~…', '{{T}}') outside "
        "code" + (f", {_plural(heads, 'title')} '::…::' or '$CATEGORY:'" if heads else "")))


# OpenTriviaQA: a "#Q" line, then (its prompt may run over lines) a "^" line.
_TRIVIA_RE = re.compile(r"^#Q[^\n]*\n(?:(?!#Q|\^)[^\n]*\n){0,40}\^", re.M)


def trivia(content: Content) -> Evidence | None:
    n = len(_TRIVIA_RE.findall(content.text))
    return Evidence(20 * n, f"{_plural(n, 'question')} '#Q …' with a '^' line") if n else None


_TASK_RE = re.compile(r"^\s{0,3}[-*+]\s+\[[ xX]\]", re.M)
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s", re.M)
# A lettered quiz's answer: "**Answer: B**", "Correct answer: A, C", "<details>".
_ANSWER_LINE_RE = re.compile(r"^[ \t>*_-]*(?:correct[ \t]+)?answers?[ \t*_]*[:：][ \t*_]*\(?"
                             r"[A-J]\b|^[ \t]*<details>", re.M | re.I)
_FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\n(?:[^\n]*\n)*?---[ \t]*\n")


def markdown(content: Content) -> Evidence | None:
    text, prose = content.text, content.prose
    tasks = len(_TASK_RE.findall(prose))
    answers = len(_ANSWER_LINE_RE.findall(prose)) - len(_AIKEN_RE.findall(prose))
    headings = len(_HEADING_RE.findall(prose))
    front = _FRONT_MATTER_RE.match(text.lstrip("\ufeff")) is not None and (tasks or answers)
    said = [_plural(tasks, "checkbox choice") + " ('- [ ]', '- [x]')" if tasks else "",
            _plural(answers, "answer line") + " ('Answer: B')" if answers > 0 else "",
            _plural(headings, "heading") if headings else "",
            "YAML front matter over them" if front else ""]
    weight = 10 * tasks + 10 * max(answers, 0) + 2 * headings + 100 * front
    return Evidence(weight, ", ".join(s for s in said if s)) if weight else None


# A line YAML reads as structure: "key: value", "- item", "- key: value", "---".
_YAML_KEY_RE = re.compile(r"^[ \t]*(?:-[ \t]+)*(?:[\w$][\w .$/-]{0,60}|\"[^\"\n]*\"|'[^'\n]*')"
                          r":(?:[ \t]|$)", re.M)
_YAML_LINE_RE = re.compile(r"^(?:[ \t]*-(?:[ \t]+(?!\[[ xX]\])\S.*)?|[ \t]+\S.*|---.*|\.\.\.)$|"
                           + _YAML_KEY_RE.pattern, re.M)


def yaml(content: Content) -> Evidence | None:
    significant = [line for line in content.text.split("\n")
                   if line.strip() and not line.lstrip().startswith("#")]
    keys = len(_YAML_KEY_RE.findall(content.text))
    if keys < 2 or sum(_YAML_LINE_RE.match(line) is not None for line in significant) < \
            0.9 * len(significant):
        return None
    return Evidence(5 * keys, f"its lines are YAML: {_plural(keys, 'key')} "
                    "('question: …'), list items and indented blocks")


def csv(content: Content) -> Evidence | None:
    """A spreadsheet whose cells a character other than a tab separates."""
    return _sheet(content) if content.sheet and content.sheet.char != "\t" else None


def tsv(content: Content) -> Evidence | None:
    """A spreadsheet whose cells tabs separate."""
    return _sheet(content) if content.sheet and content.sheet.char == "\t" else None


def _sheet(content: Content) -> Evidence | None:
    found = content.sheet
    if found is None or found.width < 3 and not found.skip:
        return None
    # Rows that keep the header's cells count; a header of three or more cells alone
    # counts a little (rows may leave out their last, empty cells).
    weight = 1000 if found.skip else 2 * found.kept if found.kept >= 0.8 * found.rows else 1
    return Evidence(weight, f"cells separated by {found.name}: {found.why}")
