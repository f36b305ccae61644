"""Which format an input is in: by its extension first, then by its content when the
extension says nothing (``.txt``, none) or is not one a bank uses. ``--from`` overrides.

Also which files of a folder given as an input may be banks: every file, at any depth,
whose extension is one of ``EXTENSIONS`` or ``.txt`` (told by content). Hidden folders,
``node_modules`` and the like are skipped; a file that holds no questions (a README) is
skipped with a warning (run.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from nca_anki.importing.spreadsheet import lines_of, separator

EXTENSIONS = {
    ".json": "json", ".yaml": "yaml", ".yml": "yaml",
    ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".js": "typescript", ".jsx": "typescript", ".mjs": "typescript", ".cjs": "typescript",
    ".md": "markdown", ".markdown": "markdown",
    ".gift": "gift",
    ".csv": "csv", ".tsv": "tsv",
    ".xml": "moodle-xml",
    ".aiken": "aiken",
}
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", "dist", "build",
                             "site-packages"})

NAMES = {"markdown": "Markdown", "json": "JSON", "typescript": "TypeScript/JavaScript",
         "yaml": "YAML", "csv": "CSV", "tsv": "TSV", "aiken": "Aiken", "gift": "GIFT",
         "moodle-xml": "Moodle XML"}
# A tie goes to the format named first.
_ORDER = ("moodle-xml", "json", "typescript", "aiken", "gift", "markdown", "yaml", "csv",
          "tsv")


@dataclass(frozen=True)
class Guess:
    """A format the content speaks for, how strongly, and what in it says so."""

    form: str
    weight: int
    evidence: str  # as a message says it: "3 lines 'ANSWER: <letter>'"


def by_name(path: str) -> str | None:
    """The format ``path``'s extension names, if it names one."""
    return EXTENSIONS.get(PurePath(path).suffix.casefold())


def detect(path: str, text: str) -> str | None:
    """The format of ``text`` (read from ``path``), or None if it is none this reads."""
    if named := by_name(path):
        return named
    found = guesses(text)
    return found[0].form if found else None


def guesses(text: str) -> list[Guess]:
    """Every format ``text``'s content speaks for, the strongest first. The whole text is
    weighed, not its first character: an Aiken file may start "[Networking]", and what
    looks like GIFT's answers ("{~0, 1}") inside Markdown's code is code."""
    prose = _outside_code(text)
    found = [g for g in (_xml(text), _json(text), _typescript(text), _aiken(text),
                         _gift(prose), _markdown(text, prose), _yaml(text), _sheet(text))
             if g is not None and g.weight > 0]
    return sorted(found, key=lambda g: (-g.weight, _ORDER.index(g.form)))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_FENCED_RE = re.compile(r"^ {0,3}(?P<fence>`{3,}+|~{3,}+)[^\n]*\n(?:.*?\n)?? {0,3}(?P=fence)[`~]*"
                        r"[ \t]*$|^ {0,3}(?:`{3,}+|~{3,}+).*\Z", re.M | re.S)
_CODE_SPAN_RE = re.compile(r"(`{1,8})[^`]*?\1|`+")  # bounded: no run is tried at length


def _outside_code(text: str) -> str:
    """``text`` without Markdown's fenced code blocks and code spans."""
    return _CODE_SPAN_RE.sub("", _FENCED_RE.sub("", text))


def _xml(text: str) -> Guess | None:
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    if head.startswith("<") and ("<quiz" in head or "<question" in head):
        return Guess("moodle-xml", 1000, "it is XML with a <quiz> or <question> element")
    return None


_JSON_START_RE = re.compile(r'[\[{]\s*(?:["{\[\]}\d-]|true\b|false\b|null\b)')


def _json(text: str) -> Guess | None:
    body = text.strip("\ufeff \t\r\n")
    if body[:1] not in ("[", "{"):
        return None
    if body[-1:] == {"[": "]", "{": "}"}[body[0]] and _JSON_START_RE.match(body):
        return Guess("json", 500, f"it starts with {body[0]!r} and ends with {body[-1]!r}")
    return Guess("json", 1, f"it starts with {body[0]!r}")


_TS_LINE_RE = re.compile(r"(?:export\s+(?:default|const|let|var)|module\.exports\s*=|"
                         r"window\.\w+\s*=|(?:const|let|var)\s+[\w$]+)\b[^\n]*")


def _typescript(text: str) -> Guess | None:
    found = _TS_LINE_RE.match(text, _first_code(text))
    if found is None:
        return None
    return Guess("typescript", 400, f"its first line of code is {found[0][:40]!r}")


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


def _aiken(text: str) -> Guess | None:
    n = len(_AIKEN_RE.findall(text))
    return Guess("aiken", 20 * n, f"{_plural(n, 'line')} 'ANSWER: <letter>'") if n else None


_GIFT_ANSWERS_RE = re.compile(r"(?<!\\)\{\s*(?:[=~]|%-?\d|(?:T|F|TRUE|FALSE)\s*\})")
_GIFT_HEADS_RE = re.compile(r"^[ \t]*(?:::[^\n]*?::|\$CATEGORY:)", re.M)


def _gift(prose: str) -> Guess | None:
    answers = len(_GIFT_ANSWERS_RE.findall(prose))
    heads = len(_GIFT_HEADS_RE.findall(prose))
    if not answers:
        return None
    return Guess("gift", 10 * answers + 5 * heads, (
        f"{_plural(answers, 'set')} of answers in braces ('{{=…', '{{~…', '{{T}}') outside "
        "code" + (f", {_plural(heads, 'title')} '::…::' or '$CATEGORY:'" if heads else "")))


_TASK_RE = re.compile(r"^\s{0,3}[-*+]\s+\[[ xX]\]", re.M)
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s", re.M)
# A lettered quiz's answer: "**Answer: B**", "Correct answer: A, C", "<details>".
_ANSWER_LINE_RE = re.compile(r"^[ \t>*_-]*(?:correct[ \t]+)?answers?[ \t*_]*[:：][ \t*_]*\(?"
                             r"[A-J]\b|^[ \t]*<details>", re.M | re.I)
_FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\n(?:[^\n]*\n)*?---[ \t]*\n")


def _markdown(text: str, prose: str) -> Guess | None:
    tasks = len(_TASK_RE.findall(prose))
    answers = len(_ANSWER_LINE_RE.findall(prose)) - len(_AIKEN_RE.findall(prose))
    headings = len(_HEADING_RE.findall(prose))
    front = _FRONT_MATTER_RE.match(text.lstrip("\ufeff")) is not None and (tasks or answers)
    said = [_plural(tasks, "checkbox choice") + " ('- [ ]', '- [x]')" if tasks else "",
            _plural(answers, "answer line") + " ('Answer: B')" if answers > 0 else "",
            _plural(headings, "heading") if headings else "",
            "YAML front matter over them" if front else ""]
    weight = 10 * tasks + 10 * max(answers, 0) + 2 * headings + 100 * front
    return Guess("markdown", weight, ", ".join(s for s in said if s)) if weight else None


# A line YAML reads as structure: "key: value", "- item", "- key: value", "---".
_YAML_KEY_RE = re.compile(r"^[ \t]*(?:-[ \t]+)*(?:[\w$][\w .$/-]{0,60}|\"[^\"\n]*\"|'[^'\n]*')"
                          r":(?:[ \t]|$)", re.M)
_YAML_LINE_RE = re.compile(r"^(?:[ \t]*-(?:[ \t]+(?!\[[ xX]\])\S.*)?|[ \t]+\S.*|---.*|\.\.\.)$|"
                           + _YAML_KEY_RE.pattern, re.M)


def _yaml(text: str) -> Guess | None:
    significant = [line for line in text.split("\n")
                   if line.strip() and not line.lstrip().startswith("#")]
    keys = len(_YAML_KEY_RE.findall(text))
    if keys < 2 or sum(_YAML_LINE_RE.match(line) is not None for line in significant) < \
            0.9 * len(significant):
        return None
    return Guess("yaml", 5 * keys, f"its lines are YAML: {_plural(keys, 'key')} "
                 "('question: …'), list items and indented blocks")


def _sheet(text: str) -> Guess | None:
    cut = len(text) > _SHEET_SAMPLE
    lines = lines_of(text[:_SHEET_SAMPLE])
    found = separator(lines[:-1] if cut else lines)
    if found is None or found.width < 3 and not found.skip:
        return None
    # Rows that keep the header's cells count; a header of three or more cells alone
    # counts a little (rows may leave out their last, empty cells).
    weight = 1000 if found.skip else 2 * found.kept if found.kept >= 0.8 * found.rows else 1
    return Guess("tsv" if found.char == "\t" else "csv", weight,
                 f"cells separated by {found.name}: {found.why}")


_SHEET_SAMPLE = 1 << 16


def bank_files(names: list[str]) -> list[str]:
    """Of a folder's files (relative POSIX paths, sorted), those that may be banks."""
    return [n for n in names
            if PurePath(n).suffix.casefold() in (*EXTENSIONS, ".txt")  # .txt: by content
            and not any(part.startswith(".") or part in SKIPPED_FOLDERS
                        for part in PurePath(n).parts[:-1])
            and not PurePath(n).name.startswith(".")
            and PurePath(n).name.casefold() not in ("package.json", "package-lock.json",
                                                    "tsconfig.json", "composer.json")]
