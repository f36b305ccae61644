"""Obsidian and GitHub callouts that hold a quiz, as the page shows them: a question box
(``> [!question] Which …?``, its choices inside) and a folded answer box under it or
inside it (``> > [!success]- Answer`` over ``> > b) …``). Rewritten, line for line, as the
Markdown the readers know: the question's title a heading, its box's lines without
their quote marks, the answer box an answer line ("Answer: b) …") with the rest of its
lines the explanation. Other callouts (a note, a tip) stay quotes::

    > [!question] Which address is invalid?      ### Which address is invalid?
    > a) `10.0.0.1`                              a) `10.0.0.1`
    > b) `300.1.1.1`                       ->    b) `300.1.1.1`
    >> [!success]- Answer                        Answer: b) `300.1.1.1`
    >> b) `300.1.1.1`                            (blank: said on the line above)
"""

from __future__ import annotations

import re

from nca_anki.importing import cues

# "> [!question] Title", "> > [!success]- Answer", ">[!FAQ]+ Why …?": the quote marks, the
# type, the fold sign and the title.
_HEADER_RE = re.compile(r"^(?P<marks>[ \t]{0,3}(?:>[ \t]?)+)\[!(?P<kind>[\w-]+)(?:\|[^\]]*)?\]"
                        r"[+-]?[ \t]*(?P<title>.*)$")
_MARKS_RE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+")
_QUESTION_KINDS = frozenset({"question", "faq", "help", "quiz"})
_ANSWER_KINDS = frozenset({"success", "check", "done", "answer"})


def _depth(marks: str) -> int:
    return marks.count(">")


def _without(line: str, depth: int) -> str:
    """``line`` without its first ``depth`` quote marks (and the space after each)."""
    for _ in range(depth):
        line = re.sub(r"^[ \t]{0,3}>[ \t]?", "", line, count=1)
    return line


def has_quiz(text: str) -> bool:
    """Whether ``text`` holds a question or answer callout (a cheap test, done first)."""
    return "[!" in text and any(
        (found := _HEADER_RE.match(line)) and _kind(found) for line in text.split("\n")
        if "[!" in line)


def _kind(header: re.Match[str]) -> str:
    """"question", "answer" or "" for a callout's header."""
    kind = header["kind"].lower()
    title = header["title"].strip()
    if kind in _ANSWER_KINDS or cues.answer_line(title) or cues.answer_label(title):
        return "answer"
    return "question" if kind in _QUESTION_KINDS else ""


_ITEM_RE = re.compile(r"^[ \t]{0,3}[-*+][ \t]+(?P<text>\S.*?)[ \t]*$")


def _words(text: str) -> str:
    """What a reader compares of a choice's text: its letters and digits, case aside."""
    return re.sub(r"[\W_]+", "", text).casefold()


def unfolded(text: str, code: list[bool]) -> str:
    """``text`` with its quiz callouts written as headings, lines and answer lines (see
    the module's docstring), line for line; ``code``: which lines are code. An answer
    box whose words are one of the question box's unlettered items ("- Trigger" over
    "Trigger") marks that item right ("- Trigger ✅", see cues.choice_mark) instead."""
    lines = text.split("\n")
    inside = 0  # the depth of the callout whose lines are being unwrapped (0: none)
    answer_at = -1  # the answer line written, waiting for its first line of text
    items: dict[str, int] = {}  # the question box's list items: their words -> their line
    for k, line in enumerate(lines):
        if code[k]:
            continue
        marks = _MARKS_RE.match(line)
        depth = _depth(marks[0]) if marks else 0
        if inside and depth < inside:
            inside, answer_at = 0, -1  # the box ends where its quote marks stop
        header = _HEADER_RE.match(line)
        kind = _kind(header) if header else ""
        if header and kind:
            lines[k], answer_at = _header_line(header, kind, k)
            inside = _depth(header["marks"])
            items = {} if kind == "question" else items
            continue
        if not inside:
            continue
        shown = _without(line, inside)
        item = _ITEM_RE.match(shown)
        if item and answer_at < 0:
            items.setdefault(_words(item["text"]), k)
        if answer_at >= 0 and shown.strip():
            named = items.get(_words(shown))
            if named is not None:  # the answer is a choice's words: that choice is right
                lines[named] += " ✅"
                lines[answer_at] = ""
            else:
                lines[answer_at] += " " + shown.strip()  # "Answer:" then its first words
            lines[k], answer_at = "", -1
            continue
        lines[k] = shown
    return "\n".join(lines)


def _header_line(header: re.Match[str], kind: str, k: int) -> tuple[str, int]:
    """The line a callout's header is written as, and the line of an answer line still
    waiting for its words (-1 if none: a question's heading, or "Answer: B" whole)."""
    title = header["title"].strip()
    if kind == "question":
        return f"### {title or 'Question'}", -1
    if cues.answer_line(title):
        return title, -1  # "[!success]- Answer: B"
    return "Answer:", k
