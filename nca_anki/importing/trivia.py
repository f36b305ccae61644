"""OpenTriviaQA's plain text -> questions. Its files have no extension; the content tells
the format (recognise.trivia).

    #Q Which planet is known as the red one?
    ^ Mars
    A Venus
    B Mars
    C Jupiter

A question starts at a ``#Q`` line; its prompt runs from there to the ``^`` line (over
several lines, blank ones and lines that look like choices included: the ``^`` line ends
it). The ``^`` line holds the right answer's text; the lines after it are the choices, a
capital letter, a space, the text, up to a blank line or the next ``#Q``. The right
choice is the one whose text is the ``^`` line's (compared with its spaces evened out).
There is no explanation. Text is plain: shown as typed (moodle_text.moodle_plain escapes
what Markdown would read). What does not fit is reported at its line; one pass over the
lines, so the time is linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.importing.bank import (MAX_ANSWERS, Choice, Item, Reading, Section,
                                     title_from_name, too_many)
from nca_anki.importing.moodle_text import moodle_plain

_CHOICE_RE = re.compile(r"(?P<letter>[A-Z])[ \t]+(?P<text>\S.*)")


@dataclass
class _Question:
    """A question as its lines are read."""

    line: int  # of its "#Q"
    prompt: list[str] = field(default_factory=list)
    answer: tuple[int, str] | None = None  # the "^" line's number and text
    choices: list[tuple[int, str]] = field(default_factory=list)
    broken: bool = False  # refused already, at one of its lines


def read(text: str, path: str) -> Reading:
    problems: list[Diagnostic] = []
    items: list[Item] = []
    current: _Question | None = None
    stray: int | None = None  # the first line of text outside any question, said once
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if line.startswith("#Q"):
            _finish(current, path, items, problems)
            current = _Question(number, [line[2:].strip()])
        elif current is None:
            stray = stray or (number if line.strip() else None)
        elif current.answer is not None and not line.strip():
            _finish(current, path, items, problems)  # a blank line ends its choices
            current = None
        else:
            _line(current, number, line, path, problems)
    _finish(current, path, items, problems)
    if stray is not None:
        problems.append(warning("W701", path, stray, "text outside any question ('#Q' "
                                "line, '^' line, 'A …' choices) was not converted"))
    section = Section(title=title_from_name(path), items=tuple(items), path=path)
    return Reading((section,) if items else (), tuple(problems))


def _line(question: _Question, number: int, line: str, path: str,
          problems: list[Diagnostic]) -> None:
    """Read ``question``'s line ``number`` into it."""
    if question.answer is None:
        if line.startswith("^"):
            question.answer = (number, line[1:].strip())
        else:
            question.prompt.append(line.strip())
        return
    choice = _CHOICE_RE.fullmatch(line.strip())
    if choice and not question.broken:
        question.choices.append((number, choice["text"].strip()))
    elif line.strip() and not question.broken:
        blank = re.fullmatch(r"[A-Z]", line.strip())  # "C " with no text after its letter
        problems.append(error("E702", path, number, (
            f"the choice {line.strip()!r} has no text; write its text" if blank else
            f"a line among the choices that is no choice ('A <text>'): "
            f"{clip(line.strip(), 60)!r}") + "; the question was not converted"))
        question.broken = True


def _finish(question: _Question | None, path: str, items: list[Item],
            problems: list[Diagnostic]) -> None:
    """``question``, read to its end, as an item of ``items``, or its reason at its line."""
    if question is None or question.broken:
        return
    prompt = "\n".join(question.prompt).strip()
    if question.answer is None:
        problems.append(error("E703", path, question.line, "no '^ <right answer>' line after "
                              "the prompt; the question was not converted"))
        return
    if not prompt:
        problems.append(error("E702", path, question.line, "no question text after '#Q'; "
                              "not converted"))
        return
    if len(question.choices) > MAX_ANSWERS:
        problems.append(too_many(len(question.choices), path, question.line))
        return
    if len(question.choices) < 2:
        problems.append(error("E702", path, question.line, f"{len(question.choices)} "
                              "choice" + ("" if len(question.choices) == 1 else "s") +
                              " ('A <text>' lines after the '^' line); a question needs two; "
                              "not converted"))
        return
    right = " ".join(question.answer[1].split())
    marks = [" ".join(text.split()) == right for _, text in question.choices]
    if not any(marks):
        problems.append(error("E703", path, question.answer[0], f"the right answer "
                              f"{clip(right, 60)!r} ('^') is the text of none of its choices; "
                              "not converted"))
        return
    items.append(Item(prompt=_plain(prompt), path=path, line=question.line,
                      choices=tuple(Choice(moodle_plain(text, answer=True), mark)
                                    for (_, text), mark in zip(question.choices, marks))))


def _plain(prompt: str) -> str:
    """A prompt of plain lines as Markdown showing them as typed, each line on its own."""
    return "\n".join(moodle_plain(line) for line in prompt.split("\n"))
