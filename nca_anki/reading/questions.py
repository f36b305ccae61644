"""The question state machine: the body's lines, one at a time, into each question as
written (prompt -> choices -> ``Correct answer:`` lines -> explanation), with the problems
that show while reading (a mistyped header, text where choices belong, question structure
inside an explanation). Whether a question is whole is checked afterwards (checks.py).

``read_questions`` is a function of its arguments; the mutable draft of the question being
read never leaves this module.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.reading.lines import (
    ANSWER_RE,
    CHOICE_RE,
    FENCE_RE,
    LOOKALIKE_RE,
    OTHER_HEADER_RE,
    closes,
    correct_mark,
    invisible,
    is_fence,
    unhide,
)
from nca_anki.records import Choice

if TYPE_CHECKING:
    import re
    from collections.abc import Mapping, Sequence

    from nca_anki.reading.lines import Header


class _Part(enum.Enum):
    """Which part of a question the next line belongs to: prompt -> choices -> explanation."""

    PROMPT = "prompt"
    CHOICES = "choices"
    EXPLANATION = "explanation"


@dataclass(frozen=True, slots=True, kw_only=True)
class QuestionLines:
    """One question as its lines were read, before it is checked."""

    number: int
    line: int  # its header's
    prompt: tuple[str, ...]  # the header's prompt, then the prompt's further lines
    choices: tuple[Choice, ...]
    answers: tuple[tuple[str, int], ...]  # each 'Correct answer:' line: its text, its line
    explanation: tuple[tuple[int, str], ...]  # (line, text)
    explaining: bool  # its last line was read as explanation (or an answer line)
    broken: bool  # an error was said while reading it: it is not built
    fence: str  # a code block left open at its end ("```", "~~~~"); "" if none
    fence_line: int  # where that block opened


@dataclass(frozen=True, slots=True, kw_only=True)
class Body:
    questions: tuple[QuestionLines, ...]
    mistyped: frozenset[int]  # the numbers of mistyped headers (E114)
    diagnostics: tuple[Diagnostic, ...]


@dataclass
class _Draft:
    """A question while its lines are still arriving (mutable, private)."""

    number: int
    line: int
    prompt: list[str]
    choices: list[Choice] = field(default_factory=list)
    answers: list[tuple[str, int]] = field(default_factory=list)
    explanation: list[tuple[int, str]] = field(default_factory=list)
    explained: bool = False  # a line of explanation text has come (no more answer lines)
    state: _Part = _Part.PROMPT
    broken: bool = False
    bad_header: bool = False  # a mistyped header was reported in it: it explains what follows
    fence: str = ""  # the open fence ("```", "~~~~") of a code block in the prompt or a choice
    fence_line: int = 0

    def written(self) -> QuestionLines:
        return QuestionLines(number=self.number, line=self.line, prompt=tuple(self.prompt),
                       choices=tuple(self.choices), answers=tuple(self.answers),
                       explanation=tuple(self.explanation),
                       explaining=self.state is _Part.EXPLANATION, broken=self.broken,
                       fence=self.fence, fence_line=self.fence_line)


def read_questions(lines: Sequence[str], start: int, end: int, *, headers: Mapping[int, Header],
                   lookalikes: frozenset[int], inner_footer: Mapping[int, bool],
                   path: str) -> Body:
    """The questions of ``lines[start:end]``. ``headers``: the header lines by index
    (lines.headers); ``lookalikes``: the line numbers of choices written another way
    (lines.lookalike_choices); ``inner_footer``: a footer's line numbers inside the body,
    True for its title line (title.footers_inside)."""
    reader = _Reader(path, lookalikes, inner_footer)
    draft: _Draft | None = None
    for number, raw in enumerate(lines[start:end], start=start + 1):
        found = headers.get(number - 1)
        if found:
            draft = reader.header(draft, found, number, raw)
        elif draft is not None:
            reader.feed(draft, number, raw)
        elif unhide(raw)[0]:
            reader.warn("W112", number, "text before the first 'Question N:' line is ignored")
    return Body(questions=tuple(d.written() for d in reader.drafts),
                mistyped=frozenset(reader.mistyped), diagnostics=tuple(reader.diagnostics))


class _Reader:
    """The state of one body's reading: the drafts, what was said, the mistyped headers."""

    def __init__(self, path: str, lookalikes: frozenset[int],
                 inner_footer: Mapping[int, bool]) -> None:
        self.path = path
        self.lookalikes = lookalikes
        self.inner_footer = inner_footer
        self.drafts: list[_Draft] = []
        self.mistyped: set[int] = set()
        self.diagnostics: list[Diagnostic] = []

    def error(self, code: str, line: int, message: str) -> None:
        self.diagnostics.append(error(code, self.path, line, message))

    def warn(self, code: str, line: int, message: str) -> None:
        self.diagnostics.append(warning(code, self.path, line, message))

    def header(self, draft: _Draft | None, found: Header, number: int,
               raw: str) -> _Draft | None:
        """A header line: a readable one starts the next question; another is an error,
        and the question it interrupts is broken. The question read from here on."""
        if not found.readable:
            self.mistyped.add(found.number)
            self.error("E114", number, f"{found.written!r} looks like a mistyped question header; "
                       f"write 'Question {found.number}: <prompt>' if it starts a question, "
                       "or reword the line")
            if draft is not None:
                draft.broken = draft.bad_header = True
            return draft
        hidden = unhide(raw)[1]
        if hidden:
            self.warn("W105", number, invisible(
                hidden, f"the question header 'Question {found.number}:'"))
        if found.written:
            self.warn("W113", number, f"{found.written!r} read as a question header; write "
                      f"'Question {found.number}:'")
        draft = _Draft(found.number, number, [found.prompt])
        self.drafts.append(draft)
        return draft

    def feed(self, draft: _Draft, number: int, raw: str) -> None:
        """One line of the question being read, by the part it has reached."""
        if draft.state is _Part.EXPLANATION:
            if number in self.inner_footer:
                if self.inner_footer[number]:  # its title line: said once
                    self.warn("W111", number, "the footer (the title and the first prompt "
                              "again) is followed by more questions, so it is not the end of "
                              "the file; it is left off the card above: move it to the end or "
                              "delete it")
                return
            self.explanation_line(draft, number, raw)
        elif not self.code_line(draft, number, raw):
            self.prompt_or_choice_line(draft, number, raw)

    def explanation_line(self, draft: _Draft, number: int, raw: str) -> None:
        line, hidden = unhide(raw)
        if not draft.explained:
            if ANSWER_RE.match(line):  # the next of several answers' lines
                self.answer_line(draft, number, line, hidden)
                return
            draft.explained = bool(line)
        fence = is_fence(raw)
        if fence:
            if not draft.fence:
                draft.fence, draft.fence_line = fence.group("fence"), number
            elif closes(fence, draft.fence):
                draft.fence = ""
        elif not draft.fence:  # inside a code block, such lines are code
            self.check_explanation_line(draft, number, line)
        draft.explanation.append((number, raw.rstrip()))

    def prompt_or_choice_line(self, draft: _Draft, number: int, raw: str) -> None:
        line, hidden = unhide(raw)
        answer = ANSWER_RE.match(line)
        if answer:
            self.answer_line(draft, number, line, hidden)
            return
        choice = CHOICE_RE.match(line)
        if not choice and (number in self.lookalikes or draft.state is _Part.CHOICES):
            choice = self.lookalike(number, line)
        if choice:
            if hidden:
                self.warn("W105", number, invisible(hidden, "a choice"))
            text = choice.group("text")
            mark = correct_mark(text)
            text = text[: mark.start()].strip() if mark else text.strip()
            if not text:
                self.error("E116", number, "choice is empty")
                draft.broken = True
            draft.choices.append(Choice(text, bool(mark), number))
            draft.state = _Part.CHOICES
        elif draft.state is _Part.PROMPT:
            if correct_mark(line):
                self.error("E115", number, "line ending in '(Correct answer)' is not a choice; "
                           "write it as '- <choice> (Correct answer)'")
                draft.broken = True
            draft.prompt.append(raw.rstrip())
        elif line:
            self.error("E115", number, "unexpected text among the choices; expected '- <choice>' "
                       "or 'Correct answer: <choice>'")
            draft.broken = True

    def lookalike(self, number: int, line: str) -> re.Match[str] | None:
        """``line``, which sits among choices, read as a choice written another way, with a
        warning; None if it is not written like one."""
        found = LOOKALIKE_RE.match(line)
        if found:
            self.warn("W114", number, f"choice written with {found.group('mark').strip()!r}; "
                      f"read as a choice. Write it as '- {clip(found.group('text'), 40)}'")
        return found

    def answer_line(self, draft: _Draft, number: int, line: str, hidden: str) -> None:
        if hidden:
            self.warn("W105", number, invisible(hidden, "the 'Correct answer:' line"))
        match = ANSWER_RE.match(line)
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
            if fence and closes(fence, draft.fence):
                draft.fence = ""  # the closing fence: as long as the opening one, no info
        elif fence:
            draft.fence, draft.fence_line = fence.group("fence"), number
        elif not draft.choices or not _under_choice(text):
            return False
        if draft.state is _Part.PROMPT:
            draft.prompt.append(text)
        else:
            _extend_choice(draft, text)
        return True

    def check_explanation_line(self, draft: _Draft, number: int, line: str) -> None:
        """Question structure inside an explanation means a header above it is missing or
        mistyped: reading it as explanation would show another question on the card."""
        if draft.bad_header:
            return  # the mistyped header's error already covers it
        if ANSWER_RE.match(line):
            what = "'Correct answer:' line"
        elif correct_mark(line):
            what = "line ending in '(Correct answer)'"
        else:
            return
        # A line above it in the explanation written like a header in other words ("Quiz
        # 3:", "Frage 3:") is where the mistake is: said there, once.
        meant = next(((n, found) for n, text in reversed(draft.explanation)
                      if (found := OTHER_HEADER_RE.match(text))), None)
        if meant is not None:
            at, found = meant
            self.error("E114", at, f"{found['written']!r} is read as text of Question "
                       f"{draft.number}'s explanation, yet a {what} follows on line {number} (a "
                       "question's); if this line starts that question, write 'Question "
                       f"{found['number']}: <prompt>'")
            self.mistyped.add(int(found["number"]))
            draft.broken = draft.bad_header = True
            return
        self.error("E115", number, f"{what} inside Question {draft.number}'s explanation; start "
                   "its question with a 'Question N: <prompt>' line above it, or delete the line")
        draft.broken = True


def _under_choice(text: str) -> bool:
    """Whether ``text`` (a line after a choice, right-stripped) is indented under it as
    code: four spaces in, even "- x"; two, unless it is a choice or an answer line."""
    if text.startswith("    ") and text.strip():
        return True
    inner = text.strip()
    return text[:2] == "  " and bool(inner) and not CHOICE_RE.match(inner) \
        and not ANSWER_RE.match(inner)


def _extend_choice(draft: _Draft, text: str) -> None:
    """Add ``text`` to the last choice. Lines indented four spaces or more, outside a
    fenced block, are code or command output: a blank line before the first of them makes
    them Markdown's indented code block rather than more words of the choice."""
    last = draft.choices[-1]
    after_code = "\n" in last.text and last.text.rsplit("\n", 1)[-1].startswith("    ")
    if not draft.fence and text.startswith("    ") and not after_code:
        text = "\n" + text
    draft.choices[-1] = Choice(f"{last.text}\n{text}", last.correct, last.line)
