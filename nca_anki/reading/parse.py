"""Parse one question file's text into a ``ParsedFile``, collecting every problem.

Knows the source format and nothing else (no Jinja, no genanki). Never raises: whatever
the text, the result is a ``ParsedFile`` plus diagnostics, each at its path and line.

Nothing that merely looks like text is put on a card when it is really structure gone wrong:

- **Question headers.** ``Question N: <prompt>`` (or ``Question N.``) starts a question,
  wherever it appears. A line that is clearly a mistyped header is read as one, with a
  warning naming the fix: ``question`` in another case, or without the space, or with ``#``
  or ``No.`` before the number, followed by ``:`` (``QUESTION 3:``, ``Question3:``,
  ``Question #3:``; also ``Question3.``). Other header-like lines (``Q3:``, ``Qn 3:``,
  ``Question 3)``, ``QUESTION 3.``, a lone ``Question 3``) may be ordinary text, so they are
  an error at their line, never read either way.
- **Invisible characters** (format characters such as U+FEFF, U+200B-U+200D, U+2060) at the
  start of a title, header, choice or ``Correct answer:`` line are ignored with a warning;
  whitespace, NBSP included, is just whitespace.
- **Inside an explanation**, a line ending in ``(Correct answer)`` or a ``Correct answer:``
  line means a question header is missing or mistyped above it: an error at that line.
- **The footer**: the title (with or without its suffix) alone on a line near the end,
  followed by at most one non-empty line (the first question's prompt), is dropped; a
  prompt or title there that no longer matches is reported, never put on a card.
- **Encoding damage**: when the title's dash separator is a damaged character, the same
  character standing alone between words elsewhere (``data β each``) is the same lost
  ``—`` and is repaired with a warning; as part of a word or formula (``β1``, ``β-VAE``,
  ``(β)``, ``β = 0.9``) it stays.
"""

from __future__ import annotations

import enum
import itertools
import os
import re
import unicodedata
from dataclasses import dataclass, field

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.reading.duplicates import question_key
from nca_anki.reading.seen import invisibles, named, seen
from nca_anki.records import Choice, ParsedFile, Question

TITLE_SUFFIX = "Questions and Answers"
_SEPARATORS = ("—", "–", "-", "--", "―")
_DASHES = "—–-―‒−"

_SUFFIX_FOLDED = TITLE_SUFFIX.casefold()
# (The name is greedy up to its last non-space: "lazy, then spaces" tried every space.)
_PART_RE = re.compile(r"^(?P<name>(?:.*\S)?)\s+(?P<part>\d{1,4})$")
_QUESTION_RE = re.compile(r"^Question\s+(?P<number>\d{1,6})\s*[:.]\s*(?P<prompt>.*)$")
# Anything a reader would take for a question header, exact or not.
_HEADER_LIKE_RE = re.compile(
    r"^(?P<word>question|ques|qn|q)\.?\s*(?P<sign>\#|no\.?|nr\.?|number)?\s*"
    r"(?P<number>\d{1,6})\s*(?P<punct>[:.)]|$)\s*(?P<prompt>.*)$", re.IGNORECASE)
_CHOICE_RE = re.compile(r"^-(?:\s+|$)(?P<text>.*)$")  # "-1 is odd" is not a choice
# A choice as editors and other formats write it: an autocorrected dash, another list
# bullet, a dash with no space before a word, a letter ("A)", "b."). Read as a choice only
# next to real choices (parse_body), so a Markdown list in a prompt stays the prompt's.
_LOOKALIKE_RE = re.compile(r"^(?P<mark>[–—•*+]\s+|-(?=[^\W\d_])|[A-Ja-j][).]\s+)(?P<text>\S.*)$")
_LOOKALIKE_START_RE = re.compile(r"^[ \t]*(?:[–—•*+]\s|-[^\W\d_]|[A-Ja-j][).]\s)", re.MULTILINE)
# Git's conflict markers: a merge left both sides of a conflict in the file.
_CONFLICT_RE = re.compile(r"^(<{7}|>{7})(?: |$)|^\|{7}(?: |$)")
_CONFLICT_MIDDLE_RE = re.compile(r"^={7}$")
_MARK_RE = re.compile(r"\s*\(\s*correct\s+answer\s*\)\s*$", re.IGNORECASE)
_ANSWER_RE = re.compile(r"^Correct\s+answer\s*:\s*(?P<text>.*)$", re.IGNORECASE)
# A CommonMark code fence: three or more backticks (no backtick in the info after them) or
# tildes, indented at most three spaces, and the first word of its info (the language).
# Inside a block, a line is code, never structure. (lint.py finds the languages with it.)
FENCE_RE = re.compile(r"^ {0,3}(?P<fence>`{3,}(?=[^`\n]*$)|~{3,})[ \t]*(?P<info>[^\s`]*)",
                      re.MULTILINE)


# The suffix as it is mistyped: another dash or none, "&", "+" or "n" for "and", "Q&A", a
# singular, a slip of a letter or two ("Questons"), a closing stop. Tried on the title's
# last characters only (where the suffix is), so a long line costs nothing.
_NEAR_SUFFIX_RE = re.compile(
    r"(?:^|\s)(?P<written>(?:[-–—―‒−:|]{1,2}\s*)?(?:q\s*(?:&|and|\+|n|/)\s*a(?:'?s)?|"
    r"(?P<q>[^\W\d_]{5,12})\s*(?:&amp;|&|and|\+|'?n'?|/)\s*(?P<a>[^\W\d_]{4,10}))"
    r"\s*[.:!]?)\s*$", re.IGNORECASE)
_SUFFIX_ROOM = 60  # characters: the longest mistyped suffix and its dash, with spaces


def _near_suffix(line: str) -> tuple[int, str] | None:
    """Where a mistyped '— Questions and Answers' starts at the end of ``line``, and the
    suffix as written; None if the line does not end with one."""
    line = line.rstrip()
    offset = max(0, len(line) - _SUFFIX_ROOM)
    found = _NEAR_SUFFIX_RE.search(line, offset)
    if found is None:
        return None
    if found["q"]:
        from rapidfuzz.distance import DamerauLevenshtein  # only for such a line
        if DamerauLevenshtein.distance(found["q"].casefold(), "questions") > 2 \
                or DamerauLevenshtein.distance(found["a"].casefold(), "answers") > 2:
            return None
    return found.start("written"), found["written"].strip()


def _suffix_at(line: str) -> int | None:
    """Where '— Questions and Answers' (in any case) that ends ``line`` starts, with the
    spaces before it; None if it does not end so. (A search for ``\\s*Questions…$`` tried
    every space of a long run of them: time that grew with the square of the line.)"""
    line = line.rstrip()
    end = len(line) - len(TITLE_SUFFIX)
    if end < 0 or line[end:].casefold() != _SUFFIX_FOLDED:
        return None
    return len(line[:end].rstrip())


def without_suffix(name: str) -> str:
    """A topic's name as a title line would give it if the line were read as meant: no
    '— Questions and Answers' (as written or mistyped) at its end, and no part number."""
    exact = _suffix_at(name)
    name = name[:exact] if exact is not None else name
    near = _near_suffix(name)
    name = name[: near[0]] if near is not None else name
    name = name.rstrip().rstrip(_DASHES + ":| ")
    found = _PART_RE.match(name)
    return found["name"].strip() if found else name


def _first_line(text: str) -> str:
    """A choice's own line, without the code it may carry under it."""
    return text.split("\n", 1)[0]


def _correct_mark(text: str) -> re.Match[str] | None:
    """The ``(Correct answer)`` mark that ends ``text``, if any. The last character is
    looked at first: the mark ends in ")", and a search for a pattern that starts with
    ``\\s*`` tries it at every character (over a third of all parsing, on choice and
    explanation lines that nearly all end otherwise)."""
    if text.rstrip()[-1:] != ")":
        return None
    return _MARK_RE.search(text)


@dataclass(frozen=True)
class ParseResult:
    file: ParsedFile
    diagnostics: tuple[Diagnostic, ...]


def _where_they_differ(a: str, b: str, room: int = 30) -> tuple[str, str]:
    """``a`` and ``b`` as a message shows them: whole when both are short; else each cut to
    the same few words around the first place they differ, with "…" where text is left
    out, so that the difference is on the screen."""
    a, b = " ".join(a.split()), " ".join(b.split())
    same = len(os.path.commonprefix([a, b]))
    if len(a) <= 2 * room and len(b) <= 2 * room or same < room:
        return clip(a), clip(b)  # short, or different from the start: each as it begins
    start = max(0, same - room)
    start = a.rfind(" ", 0, start) + 1 if start else 0  # from a word's start

    def cut(text: str) -> str:
        end = min(len(text), same + room)
        return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")

    return cut(a), cut(b)


def _norm(text: str) -> str:
    return seen(text)


def _unhide(raw: str) -> tuple[str, str]:
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


def _invisible(chars: str, what: str) -> str:
    names = [f"U+{ord(c):04X} ({unicodedata.name(c, 'unnamed')})" for c in dict.fromkeys(chars)]
    noun, pronoun = ("character", "it") if len(names) == 1 else ("characters", "them")
    return (f"invisible {noun} {', '.join(names)} at the start of the line; read as {what}; "
            f"delete {pronoun}")


@dataclass(frozen=True, slots=True, kw_only=True)
class _Header:
    """A line that starts, or looks as if it should start, a question."""

    number: int
    prompt: str
    written: str  # the header as written when it is not exact, e.g. "QUESTION 3:"; "" if exact
    readable: bool  # False: it may be ordinary text, so it is an error, not read either way


# "Qestion 3:", "Quesiton 3:", "Questoin 3:": a word of letters that starts with Q, a
# number and a colon, the word two edits or fewer from "question" (a letter left out,
# added, changed, or two swapped). Read as a mistyped header (E114, at its line), not as
# text in the question before it, where its choices were blamed on other lines.
_MISSPELT_RE = re.compile(r"^(?P<word>[Qq][^\W\d_]{3,10})\s*(?P<sign>)(?P<number>\d{1,6})\s*"
                          r"(?P<punct>[:.)])\s*(?P<prompt>.*)$")


# A line that starts as a header does in any words: up to three words, a number, a colon.
_OTHER_HEADER_RE = re.compile(r"^(?P<written>(?:[^\W\d_]+\s+){1,3}(?P<number>\d{1,6})\s*[:.)])")


def _misspelt_header(line: str) -> re.Match[str] | None:
    found = _MISSPELT_RE.match(line)
    if found is None:
        return None
    from rapidfuzz.distance import DamerauLevenshtein  # only for such a line
    return found if DamerauLevenshtein.distance(found["word"].casefold(), "question") <= 2 \
        else None


def _header(line: str) -> _Header | None:
    if line[:1] not in ("q", "Q"):
        return None  # both patterns start with the letter: most lines are ruled out here
    exact = _QUESTION_RE.match(line)
    if exact:
        return _Header(number=int(exact.group("number")), prompt=exact.group("prompt").strip(),
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
    return _Header(number=int(like.group("number")), prompt=like.group("prompt").strip(),
                   written=written, readable=readable)


class _Part(enum.Enum):
    """Which part of a question the next line belongs to: prompt -> choices -> explanation."""

    PROMPT = "prompt"
    CHOICES = "choices"
    EXPLANATION = "explanation"


@dataclass
class _Draft:
    """A question while its lines are still arriving (mutable, private)."""

    number: int
    line: int
    prompt: list[str]
    choices: list[Choice] = field(default_factory=list)
    # Each 'Correct answer:' line (its text, its line): one per correct choice.
    answers: list[tuple[str, int]] = field(default_factory=list)
    explanation: list[tuple[int, str]] = field(default_factory=list)
    explained: bool = False  # a line of explanation text has come (no more answer lines)
    state: _Part = _Part.PROMPT
    broken: bool = False
    bad_header: bool = False  # a mistyped header was reported in it: it explains what follows
    fence: str = ""  # the open fence ("```", "~~~~") of a code block in the prompt or a choice
    fence_line: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class _Footer:
    start: int  # 0-based index of the footer's title line: the body ends before it
    title_line: int  # 1-based line numbers
    title_text: str
    title_matches: bool
    prompt_line: int = 0  # 0: the footer has no prompt line
    prompt_text: str = ""


class _Parser:
    def __init__(self, text: str, path: str) -> None:
        self.path = path
        self.lines = text.split("\n")
        self.diagnostics: list[Diagnostic] = []
        self.drafts: list[_Draft] = []
        self.mistyped: set[int] = set()  # the numbers of mistyped headers (E114)
        self.damaged_separator: str | None = None
        self.lookalikes: set[int] = set()  # lookalike_choices, per body
        self.inner_footer: dict[int, bool] = {}  # footers_inside, per body
        self._headers: tuple[int, dict[int, _Header]] | None = None  # headers()
        self._prompts: set[str] | None = None

    def error(self, code: str, line: int, message: str) -> None:
        self.diagnostics.append(error(code, self.path, line, message))

    def warn(self, code: str, line: int, message: str) -> None:
        self.diagnostics.append(warning(code, self.path, line, message))

    # --- title -------------------------------------------------------------------------
    def parse_title(self) -> tuple[int, int, str]:
        """The title's line (0 if none), the number of lines before the body, and the
        title without its suffix ("" if none)."""
        for number, raw in enumerate(self.lines, start=1):  # noqa: B007 - read after the loop
            if raw.strip():
                break
        else:
            self.error("E110",
                       1, f"file is empty; expected a first line '<title> — {TITLE_SUFFIX}'")
            return 0, len(self.lines), ""
        line, hidden = _unhide(raw)
        if _header(line):
            self.error("E111", number, f"missing title line; expected '<title> — {TITLE_SUFFIX}' "
                       "before the first question")
            return 0, number - 1, ""
        if number != 1:
            self.warn("W110",
                      number, "title is not on the first line; blank lines before it ignored")
        if hidden:
            self.warn("W105", number, _invisible(hidden, "the title"))
        suffix = _suffix_at(line)
        if suffix is None:
            near = _near_suffix(line)
            if near is None:
                self.warn("W110", number, f"title line does not end with '— {TITLE_SUFFIX}'; "
                          "the whole line is taken as the title")
                return number, number, line
            start, written = near
            # Read as the suffix, not as part of the topic's name: taken whole, the line
            # would make a new deck of this file's questions.
            self.warn("W110", number, f"title ends with {written!r}, read as '— "
                      f"{TITLE_SUFFIX}' (the deck keeps its name); write '— {TITLE_SUFFIX}'")
            title = line[:start].rstrip().rstrip(_DASHES + ":| ").strip()
            if not title:
                self.error("E111", number, "title is empty")
            return number, number, title
        title = line[:suffix].strip()
        head, _, last = title.rpartition(" ")
        if title and title[-1] in "".join(_SEPARATORS):
            title = title.rstrip("".join(_SEPARATORS) + " ")
        elif head.rpartition(" ")[2].isdigit() and len(last) <= 3 and not last.isascii():
            # Between the part number and the suffix, where only a dash belongs, a short
            # non-ASCII token is what an em dash becomes when its bytes are decoded with
            # the wrong code page (the seed has 'β'). This is the one place that decides
            # which character is damaged; repair_damage() reuses it for the body.
            self.damaged_separator = last
            self.warn("W102", number, f"damaged character {last!r} where the title's dash "
                      "separator belongs (encoding damage); read as '—'")
            title = head.strip()
        elif head and len(last) <= 3 and not last.isalnum():
            title = head.strip()  # an unusual but plain separator such as ':' or '|'
        if not title:
            self.error("E111", number, "title is empty")
        return number, number, title

    def title_key(self, text: str) -> str:
        """``text`` compared as a title: without the suffix, trailing separators, case,
        spacing, or the difference between dashes."""
        exact = _suffix_at(text)
        text = text[:exact] if exact is not None else text
        near = _near_suffix(text)
        if near is not None:
            text = text[: near[0]]
        while True:
            trimmed = text.rstrip().rstrip(_DASHES)
            if self.damaged_separator and trimmed.endswith(" " + self.damaged_separator):
                trimmed = trimmed[: -len(self.damaged_separator)]
            if trimmed == text:
                break
            text = trimmed
        for dash in _DASHES:
            text = text.replace(dash, "-")
        return _norm(text).casefold()

    # --- footer ------------------------------------------------------------------------
    def find_footer(self, title: str, start: int) -> _Footer | None:
        """The footer: a line that repeats the title, alone, after the last question's
        header, followed by at most one non-empty line that is not question structure."""
        if not title:
            return None
        filled = [i for i in range(start, len(self.lines)) if self.lines[i].strip()]
        wanted = self.title_key(title)
        candidates: list[tuple[int, int | None]] = [(filled[-1], None)] if filled else []
        if len(filled) >= 2:
            candidates.append((filled[-2], filled[-1]))
        for index, prompt_at in candidates:
            text = _unhide(self.lines[index])[0]
            key = self.title_key(text)
            same = key == wanted
            if not key or not same and not self.is_other_title(text, key, wanted):
                continue
            prompt = _unhide(self.lines[prompt_at])[0] if prompt_at is not None else ""
            if _header(prompt) or _ANSWER_RE.match(prompt) or _CHOICE_RE.match(prompt):
                continue  # part of a question, not a footer
            if not same and _suffix_at(text) is None and _near_suffix(text) is None \
                    and _norm(prompt) not in self.prompts(start):
                # "See Topic 3" at the end of an explanation is explanation, not another
                # part's footer: that needs its whole title line or one of the prompts.
                continue
            if not any(_header(_unhide(raw)[0]) for raw in self.lines[start:index]):
                continue  # not after a question
            return _Footer(start=index, title_line=index + 1, title_text=text,
                           title_matches=same,
                           prompt_line=prompt_at + 1 if prompt_at is not None else 0,
                           prompt_text=prompt)
        return None

    def headers(self, start: int) -> dict[int, _Header]:
        """Every line from ``start`` on that ``_header`` reads as a header (mistyped ones
        too), by line index: worked out once a file, for the body and the footer checks."""
        if self._headers is None or self._headers[0] != start:
            found = {i: h for i in range(start, len(self.lines))
                     if (h := _header(_unhide(self.lines[i])[0]))}
            self._headers = (start, found)
        return self._headers[1]

    def prompts(self, start: int) -> set[str]:
        """Each question's first prompt line, as written (for recognising a footer)."""
        if self._prompts is None:
            self._prompts = {_norm(h.prompt) for h in self.headers(start).values()
                             if h.readable}
        return self._prompts

    def is_other_title(self, text: str, key: str, wanted: str) -> bool:
        """Whether ``text`` is a title, though not this file's: the same topic with another
        part number, or a whole title line, '<title> — Questions and Answers'."""
        theirs, ours = _PART_RE.match(key), _PART_RE.match(wanted)
        if theirs and ours and theirs.group("name") == ours.group("name"):
            return True
        suffix = _suffix_at(text)
        if suffix is None:
            near = _near_suffix(text)
            return near is not None and near[1][:1] in f"{_DASHES}:|"
        head = text[:suffix].rstrip()
        sep = self.damaged_separator
        return head.rstrip(_DASHES) != head or (bool(sep) and head.endswith(f" {sep}"))

    def check_footer(self, footer: _Footer, title: str) -> None:
        if not footer.title_matches:
            self.warn("W111", footer.title_line, f"footer repeats the title "
                      f"{clip(footer.title_text, 60)!r} but the title is now {clip(title, 60)!r}; "
                      "update or delete the footer")
        if not footer.prompt_line or not self.drafts:
            return
        first = self.drafts[0]
        written = _norm(footer.prompt_text)
        prompt = _norm(" ".join(first.prompt))
        if written not in (prompt, _norm(first.prompt[0])):
            self.warn("W111",
                      footer.prompt_line, f"footer repeats {clip(footer.prompt_text, 60)!r} "
                      f"but Question {first.number} is now {clip(prompt, 60)!r}; update or "
                      "delete the footer")

    # --- encoding damage ---------------------------------------------------------------
    def repair_damage(self, start: int, skip: int | None) -> None:
        """Where the title's separator was damaged, the same character standing alone
        between words elsewhere is the same lost '—': repair it, with a warning."""
        sep = self.damaged_separator
        if not sep:
            return
        alone = re.compile(r"(?<=[\w)\]\"'’”.,;:!?%*`]) " + re.escape(sep)
                           + r" (?=[\w(\[\"'‘“*`])")
        for index in range(start, len(self.lines)):
            raw = self.lines[index]
            if index == skip or sep not in raw:
                continue
            fixed = alone.sub(" — ", raw)
            if fixed != raw:
                self.lines[index] = fixed
                self.warn("W102", index + 1, f"damaged character {sep!r} between words, the same "
                          "encoding damage as the title's separator; read as '—'. Write '—' "
                          "in the source file")

    # --- questions ---------------------------------------------------------------------
    def lookalike_choices(self, start: int, end: int) -> set[int]:
        """Line numbers of lines written like a choice in another way (_LOOKALIKE_RE) that
        sit among choices: the next non-blank line is a choice, or one such line."""
        found: set[int] = set()
        if not _LOOKALIKE_START_RE.search("\n".join(self.lines[start:end])):
            return found  # the common case: nothing written like that at all
        next_is_choice = False
        for index in range(end - 1, start - 1, -1):
            line = self.lines[index].strip()
            if not line:
                continue
            if _CHOICE_RE.match(line) and not _ANSWER_RE.match(line):
                next_is_choice = True
            elif _LOOKALIKE_RE.match(line) and next_is_choice:
                found.add(index + 1)
            else:
                next_is_choice = False
        return found

    def footers_inside(self, title: str, start: int, end: int) -> dict[int, bool]:
        """Line numbers of a footer that questions were appended after: the title alone
        on a line, then the first question's prompt, then a question header. Value: True
        for its title line."""
        if not title:
            return {}
        headers = self.headers(start)
        prompts = self.prompts(start)
        wanted = self.title_key(title)
        found: dict[int, bool] = {}
        for index, header in headers.items():
            if index >= end or not header.readable:
                continue
            before = list(itertools.islice(
                (i for i in range(index - 1, start - 1, -1) if self.lines[i].strip()), 2))
            if len(before) < 2:
                continue
            prompt_at, at = before  # the two filled lines above the header, nearest first
            if (_norm(_unhide(self.lines[prompt_at])[0]) in prompts
                    and self.title_key(_unhide(self.lines[at])[0]) == wanted):
                found.update({at + 1: True, prompt_at + 1: False})
        return found

    def parse_body(self, start: int, end: int, title: str = "") -> None:
        draft: _Draft | None = None
        self.lookalikes = self.lookalike_choices(start, end)
        self.inner_footer = self.footers_inside(title, start, end)
        headers = self.headers(start)
        for number, raw in enumerate(self.lines[start:end], start=start + 1):
            line, hidden = _unhide(raw)
            header = headers.get(number - 1)
            if header and header.readable:
                if hidden:
                    self.warn("W105", number, _invisible(
                        hidden, f"the question header 'Question {header.number}:'"))
                if header.written:
                    self.warn("W113",
                              number, f"{header.written!r} read as a question header; write "
                              f"'Question {header.number}:'")
                draft = _Draft(header.number, number, [header.prompt])
                self.drafts.append(draft)
            elif header:
                self.mistyped.add(header.number)
                self.error("E114",
                           number, f"{header.written!r} looks like a mistyped question header; "
                           f"write 'Question {header.number}: <prompt>' if it starts a "
                           "question, or reword the line")
                if draft is not None:
                    draft.broken = draft.bad_header = True
            elif draft is None:
                if line:
                    self.warn("W112", number, "text before the first 'Question N:' line is ignored")
            else:
                self.feed(draft, number, raw, line, hidden)

    def feed(self, draft: _Draft, number: int, raw: str, line: str, hidden: str) -> None:  # noqa: C901 - the question state machine's step; to split (issue 47)
        if draft.state is _Part.EXPLANATION and number in self.inner_footer:
            if self.inner_footer[number]:  # its title line: said once
                self.warn("W111", number, "the footer (the title and the first prompt again) is "
                          "followed by more questions, so it is not the end of the file; "
                          "it is left off the card above: move it to the end or delete it")
            return
        if draft.state is _Part.EXPLANATION:
            if not draft.explained:
                if _ANSWER_RE.match(line):  # the next of several answers' lines
                    self.answer_line(draft, number, line, hidden)
                    return
                draft.explained = bool(line)
            if raw[:1] in ("`", "~", " ") and (fence := FENCE_RE.match(raw.rstrip())):
                if not draft.fence:
                    draft.fence, draft.fence_line = fence.group("fence"), number
                elif fence.group("fence").startswith(draft.fence) and not fence.group("info"):
                    draft.fence = ""
            elif not draft.fence:  # inside a code block, such lines are code
                self.check_explanation_line(draft, number, line)
            draft.explanation.append((number, raw.rstrip()))
            return
        if self.code_line(draft, number, raw):
            return
        answer = _ANSWER_RE.match(line)
        choice = _CHOICE_RE.match(line)
        lookalike = _LOOKALIKE_RE.match(line) if not (answer or choice) and (
            number in self.lookalikes or draft.state is _Part.CHOICES) else None
        if lookalike:
            mark = lookalike.group("mark").strip()
            self.warn("W114",
                      number, f"choice written with {mark!r}; read as a choice. Write it as "
                      f"'- {clip(lookalike.group('text'), 40)}'")
            choice = lookalike
        if hidden and choice and not answer:
            self.warn("W105", number, _invisible(hidden, "a choice"))
        if answer:
            self.answer_line(draft, number, line, hidden)
        elif choice:
            text = choice.group("text")
            mark = _correct_mark(text)
            text = text[: mark.start()].strip() if mark else text.strip()
            if not text:
                self.error("E116", number, "choice is empty")
                draft.broken = True
            draft.choices.append(Choice(text, bool(mark), number))
            draft.state = _Part.CHOICES
        elif draft.state is _Part.PROMPT:
            if _correct_mark(line):
                self.error("E115",
                           number, "line ending in '(Correct answer)' is not a choice; write "
                           "it as '- <choice> (Correct answer)'")
                draft.broken = True
            draft.prompt.append(raw.rstrip())
        elif line:
            self.error("E115", number, "unexpected text among the choices; expected '- <choice>' "
                       "or 'Correct answer: <choice>'")
            draft.broken = True

    def answer_line(self, draft: _Draft, number: int, line: str, hidden: str) -> None:
        if hidden:
            self.warn("W105", number, _invisible(hidden, "the 'Correct answer:' line"))
        match = _ANSWER_RE.match(line)
        draft.answers.append((match.group("text").strip() if match else "", number))
        draft.state = _Part.EXPLANATION

    def code_line(self, draft: _Draft, number: int, raw: str) -> bool:
        """Take ``raw`` as code if it is: a line of the code block open in the prompt or
        under the last choice, a fence that opens one, or a line indented under a choice
        (real banks put code and command output there). True if it was taken."""
        if not draft.fence and raw[:1] not in ("`", "~", " "):
            return False  # most lines: neither a fence nor indented (a tenth of parsing)
        text = raw.rstrip()
        fence = FENCE_RE.match(text)
        if draft.fence:
            if fence and fence.group("fence").startswith(draft.fence) and not fence.group("info"):
                draft.fence = ""  # the closing fence: as long as the opening one, no info
        elif fence:
            draft.fence, draft.fence_line = fence.group("fence"), number
        elif not draft.choices or not (text.startswith("    ") and text.strip() or (
                text[:2] == "  " and text.strip() and not _CHOICE_RE.match(text.strip())
                and not _ANSWER_RE.match(text.strip()))):
            return False  # (four spaces in: code, even "- x"; two: a choice stays a choice)
        if draft.state is _Part.PROMPT:
            draft.prompt.append(text)
        else:
            self.extend_choice(draft, text)
        return True

    @staticmethod
    def extend_choice(draft: _Draft, text: str) -> None:
        """Add ``text`` to the last choice. Lines indented four spaces or more, outside a
        fenced block, are code or command output: a blank line before the first of them
        makes them Markdown's indented code block rather than more words of the choice."""
        last = draft.choices[-1]
        after_code = "\n" in last.text and last.text.rsplit("\n", 1)[-1].startswith("    ")
        if not draft.fence and text.startswith("    ") and not after_code:
            text = "\n" + text
        draft.choices[-1] = Choice(f"{last.text}\n{text}", last.correct, last.line)

    def check_explanation_line(self, draft: _Draft, number: int, line: str) -> None:
        """Question structure inside an explanation means a header above it is missing or
        mistyped: reading it as explanation would show another question on the card."""
        if draft.bad_header:
            return  # the mistyped header's error already covers it
        if _ANSWER_RE.match(line):
            what = "'Correct answer:' line"
        elif _correct_mark(line):
            what = "line ending in '(Correct answer)'"
        else:
            return
        # A line above it in the explanation written like a header in other words ("Quiz
        # 3:", "Frage 3:") is where the mistake is: said there, once.
        meant = next(((n, found) for n, text in reversed(draft.explanation)
                      if (found := _OTHER_HEADER_RE.match(text))), None)
        if meant is not None:
            at, found = meant
            self.error("E114", at, f"{found['written']!r} is read as text of Question "
                       f"{draft.number}'s explanation, yet a {what} follows on line {number} (a "
                       "question's); if this line starts that question, write 'Question "
                       f"{found['number']}: <prompt>'")
            self.mistyped.add(int(found["number"]))
            draft.broken = draft.bad_header = True
            return
        self.error("E115",
                   number, f"{what} inside Question {draft.number}'s explanation; start its "
                   "question with a 'Question N: <prompt>' line above it, or delete the line")
        draft.broken = True

    # --- checks ------------------------------------------------------------------------
    def check_conflicts(self) -> None:
        """An error at each of git's conflict markers: read as text they reach the card
        as a heading and quotes, or keep both versions of a question."""
        markers = [n for n, line in enumerate(self.lines, start=1) if _CONFLICT_RE.match(line)]
        if not markers:
            return
        markers += [n for n, line in enumerate(self.lines, start=1)
                    if _CONFLICT_MIDDLE_RE.match(line)]
        for number in sorted(markers):
            self.error("E113",
                       number, "merge conflict marker: a merge left both sides of a conflict "
                       "in this file; keep the right lines, delete the marker lines "
                       "(<<<<<<<, =======, >>>>>>>), and build again")

    def check_repeats(self, questions: tuple[Question, ...]) -> tuple[Question, ...]:
        """An error at a question that repeats an earlier one word for word (prompt and
        choices), and at the one it repeats: learners would review the same card twice,
        and deleting one copy later could withdraw the one they studied. Neither copy is
        built until one is deleted."""
        seen: dict[tuple[str, tuple[str, ...]], Question] = {}
        repeated: set[int] = set()
        for question in questions:
            first = seen.setdefault(repeat_key(question), question)
            if first is not question:
                self.error("E130", first.line, f"Question {first.number} is repeated word for "
                           f"word by Question {question.number} (line {question.line}); "
                           "delete one")
                self.error("E130", question.line, f"Question {question.number} repeats "
                           f"Question {first.number} (line {first.line}) word for word; "
                           "delete one")
                repeated.update((id(first), id(question)))
        return tuple(q for q in questions if id(q) not in repeated)

    def finish(self, draft: _Draft) -> Question | None:
        prompt = "\n".join(draft.prompt).strip()
        if draft.fence and draft.state is _Part.EXPLANATION:
            # As in a prompt: Markdown would close it at the field's end and show the rest
            # of the explanation as code; the author meant to close it somewhere.
            end = draft.explanation[-1][0] if draft.explanation else draft.fence_line
            self.error("E119", draft.fence_line, f"the code block opened here with "
                       f"{draft.fence} in Question {draft.number}'s explanation never closes "
                       f"(the explanation ends on line {end}); end the block with a line of "
                       f"{draft.fence} alone")
            return None
        if draft.fence:  # everything after it was read as code: one error says why
            self.error("E119", draft.fence_line, f"the code block opened here with {draft.fence} "
                       f"never closes, so Question {draft.number}'s later lines were read as "
                       f"code; end the block with a line of {draft.fence} alone")
            return None
        ok = not draft.broken
        if not prompt:
            self.error("E116", draft.line, f"Question {draft.number} has no prompt")
            ok = False
        if not draft.choices:
            self.error("E117", draft.line, f"Question {draft.number} has no choices; "
                       "list them as '- <choice>' lines after the prompt")
            return None
        if len(draft.choices) < 2:
            self.error("E117", draft.line, f"Question {draft.number} has only one choice; "
                       "a multiple-choice question needs at least two")
            ok = False
        # Choices and the answer compare as the learner sees them (reading/seen.py):
        # spacing, invisible characters and Unicode's two forms aside, never case-folded
        # ("declare -a" and "declare -A" are two commands).
        texts = [seen(c.text) for c in draft.choices]
        if not self.check_twice(draft, texts):
            ok = False
        if not draft.answers:
            self.error("E120",
                       draft.line, f"Question {draft.number} has no 'Correct answer: <choice>' "
                       "line after its choices")
            ok = False
        elif not self.check_answers(draft, texts):
            ok = False
        explanation = "\n".join(text for _, text in draft.explanation).strip()
        if ok and not explanation:
            self.warn("W120", draft.line, f"Question {draft.number} has no explanation")
        if not ok:
            return None
        explained_at = next((n for n, text in draft.explanation if text.strip()), 0)
        return Question(number=draft.number, prompt=prompt, choices=tuple(draft.choices),
                        explanation=explanation, path=self.path, line=draft.line,
                        explanation_line=explained_at)

    def check_twice(self, draft: _Draft, texts: list[str]) -> bool:
        """An error at each choice the learner sees twice: the card would judge the
        unmarked copy wrong. False if there is one."""
        first_at: dict[str, int] = {}
        ok = True
        for i, text in enumerate(texts):
            at = first_at.setdefault(text, i)
            if not text or at == i:
                continue
            first, again = draft.choices[at], draft.choices[i]
            self.error("E118", again.line, f"Question {draft.number} lists the choice "
                       f"{clip(_first_line(again.text))!r} twice (also at line {first.line})"
                       f"{_how_alike(first.text, again.text)}; delete one")
            ok = False
        return ok

    def check_answers(self, draft: _Draft, texts: list[str]) -> bool:
        """Whether the choices marked '(Correct answer)' and the 'Correct answer:' lines
        name the same choices, one line per marked choice; an error at each place that
        differs. A line names a choice by its text, or (for a choice that carries code) by
        its first line."""
        firsts = [seen(_first_line(c.text)) for c in draft.choices]
        marked = [i for i, c in enumerate(draft.choices) if c.correct]
        named: dict[int, int] = {}  # choice index -> the line that names it
        unresolved: list[tuple[str, int]] = []
        ok = True
        for text, line in draft.answers:
            wanted = seen(text)
            # The choices it names by their text, else by their first line (choices over
            # code can share one, ":" say): the marked one among them if there is one.
            named_by = [i for i, t in enumerate(texts) if t == wanted] \
                or [i for i, f in enumerate(firsts) if f == wanted]
            at = next((i for i in named_by if draft.choices[i].correct and i not in named),
                      named_by[0] if named_by else -1)
            single = len(marked) == 1 and len(draft.answers) == 1
            if at < 0 or single and at != marked[0]:  # one of each: they disagree
                unresolved.append((text, line))
            elif at in named:
                self.error("E121", line, f"'Correct answer: {clip(text)}' names the same choice as "
                           f"line {named[at]}; delete one of them")
                ok = False
            else:
                named[at] = line
        if not marked:
            hint = ""
            if named:
                at = min(named)
                hint = (f"; the 'Correct answer:' line names the choice at line "
                        f"{draft.choices[at].line}")
            self.error("E120", draft.line, f"Question {draft.number} has no choice ending in "
                       f"'(Correct answer)'{hint}")
            return False
        for at, line in sorted(named.items(), key=lambda item: item[1]):
            if not draft.choices[at].correct:
                self.error("E121",
                           line, f"'Correct answer: {clip(_first_line(draft.choices[at].text))}'"
                           f" names the choice at line {draft.choices[at].line}, which is not "
                           "marked '(Correct answer)'; mark that choice too, or delete this "
                           "line")
                ok = False
        unnamed = [i for i in marked if i not in named]
        for text, line in unresolved:
            ok = False
            near = [i for i in unnamed if seen(text).casefold() == firsts[i].casefold()]
            if len(near) == 1 or len(unnamed) == 1:
                at = near[0] if near else unnamed[0]
                unnamed.remove(at)
                # Both cut at the same place, around where they first differ: cut at the
                # end, a typo at the end of a long line was hidden in both.
                said, marked_text = _where_they_differ(
                    text.strip(), _first_line(draft.choices[at].text).strip())
                if near:
                    self.error("E121", line, f"'Correct answer: {said}' differs only in case "
                               f"from the choice marked '(Correct answer)' at line "
                               f"{draft.choices[at].line}: {marked_text!r}; letter case can "
                               "change what a choice means: copy the marked choice exactly")
                else:
                    self.error("E121", line, f"'Correct answer: {said}' disagrees with the "
                               f"choice marked '(Correct answer)' at line "
                               f"{draft.choices[at].line}: {marked_text!r}; copy the marked "
                               "choice exactly")
            else:
                self.error("E121", line, f"'Correct answer: {clip(text)}' names none of Question "
                           f"{draft.number}'s choices; copy the text of a choice marked "
                           "'(Correct answer)'")
        if not unresolved:
            for at in unnamed:
                first = _first_line(draft.choices[at].text)
                self.error("E121",
                           draft.choices[at].line, f"choice marked '(Correct answer)' but no "
                           f"'Correct answer:' line names it; add 'Correct answer: "
                           f"{clip(first)}' after the choices (one line per correct choice), "
                           "or remove the mark")
                ok = False
        return ok

    def check_numbers(self) -> None:
        expected = 1
        for draft in self.drafts:
            while expected in self.mistyped and draft.number != expected:
                expected += 1  # its header is mistyped (E114 says so): not out of sequence
            if draft.number != expected:
                self.warn("W121",
                          draft.line, f"Question {draft.number} is numbered out of sequence "
                          f"(expected Question {expected})")
            expected = draft.number + 1


def repeat_key(question: Question) -> tuple[str, tuple[str, ...]]:
    """What two questions share when one repeats the other word for word: the prompt and
    the set of choices, as the learner sees them (reading/seen.py)."""
    return seen(question.prompt), tuple(sorted(seen(c.text) for c in question.choices))


def _how_alike(first: str, again: str) -> str:
    """What makes two texts the learner sees as one differ, said in a message ("" if
    nothing but the spaces around them)."""
    hidden = invisibles(first + again)
    if hidden:
        return f"; they differ only in invisible characters ({named(hidden)})"
    if " ".join(first.split()) != " ".join(again.split()):
        return "; they differ only in how their characters are encoded (NFC and NFD)"
    return "; they differ only in spacing" if first.strip() != again.strip() else ""


def parse(text: str, path: str) -> ParseResult:
    """Parse ``text`` (already decoded, ``\\n`` line endings) read from ``path``."""
    parser = _Parser(text, path)
    parser.check_conflicts()
    title_line, body_start, title = parser.parse_title()
    footer = parser.find_footer(title, body_start)
    parser.repair_damage(body_start, footer.start if footer else None)
    parser.parse_body(body_start, footer.start if footer else len(parser.lines), title)
    if footer:
        parser.check_footer(footer, title)
    questions = parser.check_repeats(
        tuple(q for q in map(parser.finish, parser.drafts) if q is not None))
    if not parser.drafts and title_line:
        parser.error("E112",
                     title_line, "no questions found; expected 'Question 1: <prompt>' lines")
    parser.check_numbers()
    name, part = title, 1
    match = _PART_RE.match(title)
    if match:
        name, part = match.group("name").strip(), int(match.group("part"))
    elif title:
        parser.warn("W110", title_line, "title has no part number at its end; taken as part 1")
    return ParseResult(ParsedFile(path=path, title=title, name=name, part=part,
                                  questions=questions, title_line=title_line,
                                  keys=tuple(question_key(q) for q in questions)),
                       tuple(parser.diagnostics))
