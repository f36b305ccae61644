"""What one line of a question file is: a question header (exact, mistyped, or only like
one), a choice or a line written like one, a ``Correct answer:`` line, a code fence, a
conflict marker. Pure functions of the line; the parser's other modules ask these.

Invisible (format) characters at a line's start are taken off (``unhide``) before a line
is classified, and said by the caller (W105), whose message ``invisible`` words.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nca_anki.reading.seen import seen

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

QUESTION_RE = re.compile(r"^Question\s+(?P<number>\d{1,6})\s*[:.]\s*(?P<prompt>.*)$")
# Anything a reader would take for a question header, exact or not.
_HEADER_LIKE_RE = re.compile(
    r"^(?P<word>question|ques|qn|q)\.?\s*(?P<sign>\#|no\.?|nr\.?|number)?\s*"
    r"(?P<number>\d{1,6})\s*(?P<punct>[:.)]|$)\s*(?P<prompt>.*)$", re.IGNORECASE)
CHOICE_RE = re.compile(r"^-(?:\s+|$)(?P<text>.*)$")  # "-1 is odd" is not a choice
# A choice as editors and other formats write it: an autocorrected dash, another list
# bullet, a dash with no space before a word, a letter ("A)", "b."). Read as a choice only
# next to real choices (lookalike_choices), so a Markdown list in a prompt stays the prompt's.
LOOKALIKE_RE = re.compile(r"^(?P<mark>[–—•*+]\s+|-(?=[^\W\d_])|[A-Ja-j][).]\s+)(?P<text>\S.*)$")
_LOOKALIKE_START_RE = re.compile(r"^[ \t]*(?:[–—•*+]\s|-[^\W\d_]|[A-Ja-j][).]\s)", re.MULTILINE)
# Git's conflict markers: a merge left both sides of a conflict in the file.
CONFLICT_RE = re.compile(r"^(<{7}|>{7})(?: |$)|^\|{7}(?: |$)")
CONFLICT_MIDDLE_RE = re.compile(r"^={7}$")
MARK_RE = re.compile(r"\s*\(\s*correct\s+answer\s*\)\s*$", re.IGNORECASE)
ANSWER_RE = re.compile(r"^Correct\s+answer\s*:\s*(?P<text>.*)$", re.IGNORECASE)
# A CommonMark code fence: three or more backticks (no backtick in the info after them) or
# tildes, indented at most three spaces, and the first word of its info (the language).
# Inside a block, a line is code, never structure. (lint.py finds the languages with it.)
FENCE_RE = re.compile(r"^ {0,3}(?P<fence>`{3,}(?=[^`\n]*$)|~{3,})[ \t]*(?P<info>[^\s`]*)",
                      re.MULTILINE)

# "Qestion 3:", "Quesiton 3:", "Questoin 3:": a word of letters that starts with Q, a
# number and a colon, the word two edits or fewer from "question" (a letter left out,
# added, changed, or two swapped). Read as a mistyped header (E114, at its line), not as
# text in the question before it, where its choices were blamed on other lines.
_MISSPELT_RE = re.compile(r"^(?P<word>[Qq][^\W\d_]{3,10})\s*(?P<sign>)(?P<number>\d{1,6})\s*"
                          r"(?P<punct>[:.)])\s*(?P<prompt>.*)$")

# A line that starts as a header does in any words: up to three words, a number, a colon.
OTHER_HEADER_RE = re.compile(r"^(?P<written>(?:[^\W\d_]+\s+){1,3}(?P<number>\d{1,6})\s*[:.)])")


@dataclass(frozen=True, slots=True, kw_only=True)
class Header:
    """A line that starts, or looks as if it should start, a question."""

    number: int
    prompt: str
    written: str  # the header as written when it is not exact, e.g. "QUESTION 3:"; "" if exact
    readable: bool  # False: it may be ordinary text, so it is an error, not read either way


def first_line(text: str) -> str:
    """A choice's own line, without the code it may carry under it."""
    return text.split("\n", 1)[0]


def correct_mark(text: str) -> re.Match[str] | None:
    """The ``(Correct answer)`` mark that ends ``text``, if any. The last character is
    looked at first: the mark ends in ")", and a search for a pattern that starts with
    ``\\s*`` tries it at every character (over a third of all parsing, on choice and
    explanation lines that nearly all end otherwise)."""
    if text.rstrip()[-1:] != ")":
        return None
    return MARK_RE.search(text)


def unhide(raw: str) -> tuple[str, str]:
    """``raw`` stripped of whitespace and of invisible (format) characters at its start,
    and the invisible characters that were removed."""
    line = raw.strip()
    if not line or line[0] < "\xad":  # U+00AD is the first invisible (format) character
        return line, ""
    start = 0
    while start < len(line) and (line[start].isspace()
                                 or unicodedata.category(line[start]) == "Cf"):
        start += 1
    return line[start:].strip(), "".join(c for c in line[:start] if not c.isspace())


def invisible(chars: str, what: str) -> str:
    """The W105 message for the invisible characters ``chars`` before ``what``."""
    names = [f"U+{ord(c):04X} ({unicodedata.name(c, 'unnamed')})" for c in dict.fromkeys(chars)]
    noun, pronoun = ("character", "it") if len(names) == 1 else ("characters", "them")
    return (f"invisible {noun} {', '.join(names)} at the start of the line; read as {what}; "
            f"delete {pronoun}")


def _misspelt_header(line: str) -> re.Match[str] | None:
    found = _MISSPELT_RE.match(line)
    if found is None:
        return None
    from rapidfuzz.distance import DamerauLevenshtein  # only for such a line
    return found if DamerauLevenshtein.distance(found["word"].casefold(), "question") <= 2 \
        else None


def header(line: str) -> Header | None:
    """The header ``line`` (already unhidden) is or looks like; None for any other line."""
    if line[:1] not in ("q", "Q"):
        return None  # both patterns start with the letter: most lines are ruled out here
    exact = QUESTION_RE.match(line)
    if exact:
        return Header(number=int(exact.group("number")), prompt=exact.group("prompt").strip(),
                      written="", readable=True)
    like = _HEADER_LIKE_RE.match(line) or _misspelt_header(line)
    if not like:
        return None
    word, punct = like.group("word"), like.group("punct")
    if not punct and word.casefold() != "question":
        return None  # "Q4" alone is too likely to be text ("released in\nQ4")
    spelled_out = word.casefold() == "question"
    readable = spelled_out and (punct == ":" or punct == "." and word == "Question")
    written = line[: like.start("prompt")].strip()
    return Header(number=int(like.group("number")), prompt=like.group("prompt").strip(),
                  written=written, readable=readable)


def headers(lines: Sequence[str], start: int) -> Mapping[int, Header]:
    """Every line from ``start`` on that ``header`` reads as a header (mistyped ones too),
    by line index."""
    return {i: h for i in range(start, len(lines)) if (h := header(unhide(lines[i])[0]))}


def prompts(found: Mapping[int, Header]) -> frozenset[str]:
    """Each readable header's prompt, as the learner sees it (for recognising a footer)."""
    return frozenset(seen(h.prompt) for h in found.values() if h.readable)


def is_fence(raw: str) -> re.Match[str] | None:
    """The code fence ``raw`` is, if it is one (``raw`` as written, not yet stripped)."""
    return FENCE_RE.match(raw.rstrip()) if raw[:1] in ("`", "~", " ") else None


def closes(fence: re.Match[str], opened: str) -> bool:
    """Whether ``fence`` closes the block ``opened`` opened: as long, with no info."""
    return fence.group("fence").startswith(opened) and not fence.group("info")


def lookalike_choices(lines: Sequence[str], start: int, end: int) -> frozenset[int]:
    """Line numbers of lines written like a choice in another way (LOOKALIKE_RE) that sit
    among choices: the next non-blank line is a choice, or one such line."""
    found: set[int] = set()
    if not _LOOKALIKE_START_RE.search("\n".join(lines[start:end])):
        return frozenset()  # the common case: nothing written like that at all
    next_is_choice = False
    for index in range(end - 1, start - 1, -1):
        line = lines[index].strip()
        if not line:
            continue
        if CHOICE_RE.match(line) and not ANSWER_RE.match(line):
            next_is_choice = True
        elif LOOKALIKE_RE.match(line) and next_is_choice:
            found.add(index + 1)
        else:
            next_is_choice = False
    return frozenset(found)


def conflict_markers(lines: Sequence[str]) -> tuple[int, ...]:
    """The line numbers of git's conflict markers, in order; a middle ``=======`` only
    beside an outer one (alone, it may be a Markdown heading's underline)."""
    markers = [n for n, line in enumerate(lines, start=1) if CONFLICT_RE.match(line)]
    if not markers:
        return ()
    markers += [n for n, line in enumerate(lines, start=1) if CONFLICT_MIDDLE_RE.match(line)]
    return tuple(sorted(markers))
