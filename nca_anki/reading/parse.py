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

This module is the sequence; the steps are in ``lines.py`` (what a line is), ``title.py``
(title, footer, damage), ``questions.py`` (the state machine) and ``checks.py`` (each
question whole, repeats, numbering). The names other modules import are here.
"""

from __future__ import annotations

from dataclasses import dataclass

from nca_anki.diagnostics import Diagnostic, error
from nca_anki.reading.checks import (
    check_conflicts,
    check_numbers,
    check_question,
    check_repeats,
    repeat_key,
)
from nca_anki.reading.duplicates import question_key
from nca_anki.reading.lines import FENCE_RE, headers, lookalike_choices, prompts
from nca_anki.reading.questions import read_questions
from nca_anki.reading.title import (
    TITLE_SUFFIX,
    check_footer,
    find_footer,
    footers_inside,
    name_and_part,
    read_title,
    repair_damage,
    without_suffix,
)
from nca_anki.records import ParsedFile

__all__ = ["FENCE_RE", "TITLE_SUFFIX", "ParseResult", "parse", "repeat_key", "without_suffix"]


@dataclass(frozen=True)
class ParseResult:
    file: ParsedFile
    diagnostics: tuple[Diagnostic, ...]


def parse(text: str, path: str) -> ParseResult:
    """Parse ``text`` (already decoded, ``\\n`` line endings) read from ``path``."""
    written = tuple(text.split("\n"))
    said = list(check_conflicts(written, path))
    title = read_title(written, path)
    said += title.diagnostics
    start = title.body_start
    found = headers(written, start)
    asked = prompts(found)
    footer = find_footer(written, title, asked)
    repair = repair_damage(written, title, footer.start if footer else None, path)
    said += repair.diagnostics
    lines = repair.lines
    if lines is not written:
        # The body reads its headers from the repaired lines, whatever the footer search
        # compared: a prompt shows what W102 says it was read as.
        found = headers(lines, start)
        asked = prompts(found)
    end = footer.start if footer else len(lines)
    body = read_questions(
        lines, start, end, headers=found, lookalikes=lookalike_choices(lines, start, end),
        inner_footer=footers_inside(lines, title, end, found, asked), path=path)
    said += body.diagnostics
    if footer:
        first = (body.questions[0].number, body.questions[0].prompt) if body.questions else None
        said += check_footer(footer, title.text, first, path)
    checked = [check_question(q, path) for q in body.questions]
    said += [d for _, diagnostics in checked for d in diagnostics]
    questions, repeats = check_repeats(tuple(q for q, _ in checked if q is not None), path)
    said += repeats
    if not body.questions and title.line:
        said.append(error("E112", path, title.line,
                          "no questions found; expected 'Question 1: <prompt>' lines"))
    said += check_numbers(body.questions, body.mistyped, path)
    name, part, unnumbered = name_and_part(title, path)
    said += unnumbered
    return ParseResult(ParsedFile(path=path, title=title.text, name=name, part=part,
                                  questions=questions, title_line=title.line,
                                  keys=tuple(question_key(q) for q in questions)),
                       tuple(said))
