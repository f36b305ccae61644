"""An answer key written apart from the questions, as quiz pages end: a section headed
"Answers", "Answer key", "Corrigé", "Respuestas", "Lösungen", "Gabarito", "答案" … whose
lines pair question numbers with letters, or, with no heading, a last run of such pairs
at the end of the file::

    ## Corrigé                      ## Answer key           | Question | Answer |
    1. b) La simulation …          1-b, 2-c, 3-a           |----------|--------|
    2. c                           4-d                     | 1        | B      |

Both Markdown readers (markdown.py, lettered.py) read the file with the key's lines
blanked out (they are no question's text), then give each question the key names by its
number, and none it does not name, its answer from it. Pure functions over the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing import page

# The words a key's heading starts with, in the languages quiz pages are written in.
_KEY_WORDS = (r"(?:(?:the\s+)?answers?(?:\s+key|\s+sheet)?|key|(?:answer\s+)?solutions?|"
              r"correct\s+answers|corrig[ée]s?|r[ée]ponses|cl[ée]\s+de\s+r[ée]ponses|"
              r"respuestas(?:\s+correctas)?|soluci[óo]n(?:es)?|clave(?:\s+de\s+respuestas)?|"
              r"l[öo]sungen|l[öo]sungsschl[üu]ssel|antworten|gabarito|respostas|"
              r"risposte|soluzioni|odpowiedzi|cevap\s+anahtar[ıi]|kunci\s+jawaban|"
              r"ответы|відповіді|参考答案|答案|正解|解答|정답)")
_HEADING_RE = re.compile(r"^\W*" + _KEY_WORDS + r"(?![^\W\d_])", re.I)
_LABEL_RE = re.compile(r"\W*" + _KEY_WORDS + r"\s*[:：]?\s*", re.I)
_LETTERS = r"[A-Ja-j](?:\s*[,&/]\s*[A-Ja-j]|\s+(?:and|et|y|und|e)\s+[A-Ja-j])*"
# "1. b", "1. b) La simulation …", "**2.** C", "Q3: A, C", "4 → d", "- 5) (b)"; never
# "1. A loop runs" (a step of a list: the letter must stand apart from what follows).
_PAIR_RE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:Q(?:uestion)?\s*)?#?(?P<number>\d{1,4})"
                      r"(?:\*\*|__)?\s*(?:[.):=\-–—→>]+|\s)\s*(?:(?:\*\*|__)\s*){0,2}\(?(?P<letters>"
                      + _LETTERS + r")(?![^\W\d_])(?:\)|\*\*|__)*"
                      r"(?P<rest>(?:[.):]?\s*$|[.):]\s|\s+[-–—(]).*)$")
# Several pairs on one line: "1-b, 2-c, 3-a", "1.B 2.C 3.A", "1) b; 2) d".
_INLINE_PAIR_RE = re.compile(r"(?<![\w.])(?P<number>\d{1,4})\s*[.):=\-–—→]\s*\(?(?P<letters>"
                             r"[A-Ja-j])(?![^\W\d_])\)?")
_INLINE_LINE_RE = re.compile(r"^\s*(?:\d{1,4}\s*[.):=\-–—→]\s*\(?[A-Ja-j]\)?\s*[,;|]?\s*){2,}$")
_TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


@dataclass(frozen=True)
class Entry:
    number: int
    letters: str  # as written: "b", "A, C"
    line: int  # 1-based
    rest: str = ""  # what follows the letters on a line of one pair ("b) Lisbonne", "- see …")


@dataclass(frozen=True)
class Key:
    """The answer key of a file: its entries by question number, where it is (1-based
    lines, its heading included), and its first line."""

    entries: dict[int, Entry]
    lines: frozenset[int]
    line: int


def _pairs(line: str, at: int) -> list[Entry] | None:
    """The pairs ``line`` (at line ``at``) writes: one ("1. b) text"), several ("1-b, 2-c"),
    or a table's row ("| 1 | b |"); [] for a table's header or rule; None if it is none."""
    if line.lstrip().startswith("|"):
        cells = [c.strip(" *_`") for c in line.strip().strip("|").split("|")]
        if _TABLE_RULE_RE.match(line) or not any(c[:1].isdigit() for c in cells):
            return []
        numbers = [c for c in cells if c.isdigit()]
        letters = [c for c in cells if re.fullmatch(r"\(?" + _LETTERS + r"\)?", c)]
        if len(numbers) == len(letters) and numbers:  # "| 1 | b | 2 | c |"
            return [Entry(int(n), x, at) for n, x in zip(numbers, letters)]
        return None
    if _INLINE_LINE_RE.match(line):
        return [Entry(int(m["number"]), m["letters"], at) for m in _INLINE_PAIR_RE.finditer(line)]
    found = _PAIR_RE.match(line)
    return [Entry(int(found["number"]), found["letters"], at,
                  found["rest"].strip().lstrip(".):-–— \t").strip())] if found else None


def _is_wrapper(line: str) -> bool:
    """A line of tags that wraps a key (``<details>``, ``<summary>Answers</summary>``)."""
    if "<" not in line:
        return False
    bare = re.sub(r"<[^<>]*>", "", line).strip(" *_:")
    return not bare or "<summary" in line.lower() or bool(_LABEL_RE.fullmatch(bare))


def _section(lines: list[str], code: list[bool], start: int, level: int) -> Key | None:
    """The key under the heading at ``start`` (0-based) of ``level``: up to the next
    heading as high, every line of text a pair (sub-headings such as "Module 1" and rules
    aside); None if a line is something else or it holds no pair."""
    entries: dict[int, Entry] = {}
    k = start + 1
    while k < len(lines):
        line = lines[k]
        heading = re.match(r"^\s{0,3}(#{1,6})\s", line)
        if heading and not code[k] and len(heading[1]) <= level:
            break
        k += 1
        if not line.strip() or heading or re.fullmatch(r"\s*(?:-{3,}|\*{3,}|_{3,})\s*", line) \
                or _is_wrapper(line):
            continue
        pairs = None if code[k - 1] else _pairs(line, k)
        if pairs is None:
            return None
        entries.update((e.number, e) for e in pairs if e.number not in entries)
    if not entries:
        return None
    return Key(entries, frozenset(range(start + 1, k + 1)), start + 1)


def _on_its_line(words: str, at: int) -> Key | None:
    """The key a line writes after its label ("Answers: 1-a, 2-b"), or None."""
    label = re.match(r"\W*" + _KEY_WORDS + r"\s*[:：]\s*", words, re.I)
    rest = words[label.end():] if label else ""
    if not _INLINE_LINE_RE.match(rest):
        return None
    entries = {int(m["number"]): Entry(int(m["number"]), m["letters"], at)
               for m in _INLINE_PAIR_RE.finditer(rest)}
    return Key(entries, frozenset({at}), at)


def _headless(lines: list[str], code: list[bool]) -> Key | None:
    """A last run of at least three lines of pairs at the end of the file, each nothing
    but numbers and letters ("1. b", "2-c, 3-a"), with no heading over it."""
    entries: dict[int, Entry] = {}
    k = len(lines)
    first = k
    while k > 0:
        line = lines[k - 1]
        if code[k - 1]:
            break
        if line.strip():
            pairs = _pairs(line, k) if not line.lstrip().startswith("|") else None
            if not pairs or _rest(line).strip(" \t).:*_"):
                break
            entries.update((e.number, e) for e in pairs if e.number not in entries)
            first = k
        k -= 1
    if len(entries) < 3:
        return None
    return Key(entries, frozenset(range(first, len(lines) + 1)), first)


def _rest(line: str) -> str:
    """What follows a single pair's letters on ``line`` ("" for several pairs a line)."""
    if _INLINE_LINE_RE.match(line):
        return ""
    found = _PAIR_RE.match(line)
    return found["rest"] if found else "x"


def find(text: str) -> Key | None:
    """The answer key ``text`` ends with or holds under its own heading, or None."""
    lines = text.split("\n")
    code = page.code_lines(text)
    for block in page.blocks(text):
        words = re.sub(r"<[^<>]*>|[*_`]", "", block.content).strip()
        if block.parent != -1 or not _HEADING_RE.match(words):
            continue
        if block.kind == "heading" and not block.setext:
            key = _section(lines, code, block.first - 1, block.level)
        elif block.kind == "paragraph" and block.first == block.last and \
                _LABEL_RE.fullmatch(words):  # "**Answer key:**" over its list, to the end
            key = _section(lines, code, block.first - 1, 6)
        elif block.kind == "paragraph" and block.first == block.last:
            key = _on_its_line(words, block.first)  # "Answers: 1-a, 2-b, 3-d"
        elif block.kind == "html" and _is_wrapper(lines[block.first - 1]) and \
                _LABEL_RE.fullmatch(words.split("\n")[0]):
            key = _section(lines, code, block.first - 1, 6)  # <summary>Answers</summary>
        else:
            continue
        if key is not None:
            return key
    return _headless(lines, code)


def blanked(text: str, key: Key) -> str:
    """``text`` with the key's lines empty, line for line: no question's text."""
    return "\n".join("" if k in key.lines else line
                     for k, line in enumerate(text.split("\n"), start=1))


_NUMBER_RE = re.compile(r"^\s{0,3}(?:#{1,6}\s+)?(?:\*\*|__|<b>|<strong>)?\s*"
                        r"(?:(?:Q|Question|Pregunta|Frage|Questão|Question|Domanda|Soru|Вопрос|"
                        r"Питання|问题|問題)\s*#?\s*)?(?P<number>\d{1,4})(?!\d)", re.I)


def number(line: str) -> int | None:
    """The number a question's header line gives it ("**12. Which …**", "### Q3: What",
    "7) …"), or None."""
    found = _NUMBER_RE.match(line)
    return int(found["number"]) if found else None


def unused(key: Key, numbers: set[int], path: str) -> list[Diagnostic]:
    """A warning (W718) at each entry of ``key`` for a number no question of the file has."""
    return [warning("W718", path, entry.line, f"the answer key gives {entry.letters!r} for "
                    f"question {entry.number}, which the file does not have; not used")
            for n, entry in sorted(key.entries.items()) if n not in numbers]


def missing(key: Key, asked: int | None, path: str, line: int) -> Diagnostic:
    """The error (E703) for a question at ``line`` that marks no choice, numbered ``asked``
    (or not numbered), for which ``key`` has no entry."""
    which = f"question {asked}" if asked is not None else "a question without a number"
    return error("E703", path, line, f"marks no choice correct, and the answer key at line "
                 f"{key.line} has no entry for {which}; not converted")
