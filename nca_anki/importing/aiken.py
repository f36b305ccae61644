"""Moodle's Aiken format -> questions. Hand-written: the format is five rules, and no
maintained Python library reads it.

    What does CUDA stand for?
    A. Compute Unified Device Architecture
    B) Central Unit for Data Access
    ANSWER: A

A question is its text, its choices (a capital letter, "." or ")", a space, the text)
and an "ANSWER: <letter>" line; a blank line ends it. Aiken has one answer per question
and no explanations. Moodle shows its text as typed (its import escapes every "<" and
"&"), so "*", "_", "<b>", "&lt;" or a "#" at a line's start show as written on the card
too (moodle_text.moodle_plain). What does not fit is reported at its line.
"""

from __future__ import annotations

import re

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing.bank import Choice, Item, Reading, Section, title_from_name
from nca_anki.importing.moodle_text import moodle_plain

_CHOICE_RE = re.compile(r"^(?P<letter>[A-Z])[.)]\s+(?P<text>.*\S)\s*$")
_ANSWER_RE = re.compile(r"^ANSWER\s*:\s*(?P<letter>\S*)\s*$")
_BLANK_CHOICE_RE = re.compile(r"^(?P<label>[A-Z][.)])\s*$")  # "B." with no text


def read(text: str, path: str) -> Reading:
    problems: list[Diagnostic] = []
    items: list[Item] = []
    block: list[tuple[int, str]] = []

    def finish() -> None:
        if block:
            item = _question(block, path, problems)
            if item is not None:
                items.append(item)
            block.clear()

    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            block.append((number, line.rstrip()))
        else:
            finish()
    finish()
    section = Section(title=title_from_name(path), items=tuple(items), path=path)
    return Reading((section,) if items else (), tuple(problems))


def _question(block: list[tuple[int, str]], path: str, problems: list[Diagnostic]
              ) -> Item | None:
    first = block[0][0]
    prompt: list[str] = []
    choices: list[tuple[str, str]] = []
    answer: tuple[int, str] | None = None
    for number, line in block:
        choice = _CHOICE_RE.match(line)
        found = _ANSWER_RE.match(line)
        if answer is not None:
            problems.append(warning("W701", path, number, f"text after the ANSWER line was not "
                                    f"converted: {line.strip()[:60]!r}"))
        elif found:
            answer = (number, found.group("letter"))
        elif choice and (choices or prompt):
            choices.append((choice.group("letter"), choice.group("text")))
        elif choices or prompt and _BLANK_CHOICE_RE.match(line.strip()):
            blank = _BLANK_CHOICE_RE.match(line.strip())
            problems.append(error("E702", path, number, (
                f"the choice {blank['label']!r} has no text, and Moodle reads no choice "
                "without one; write its text" if blank else "a line among the choices "
                "that is no choice ('A. <text>')") + "; the question was not converted"))
            return None
        else:
            prompt.append(line.strip())
    if answer is None:
        problems.append(error("E703", path, first, "no 'ANSWER: <letter>' line; the question "
                              "was not converted"))
        return None
    if len(choices) < 2:
        problems.append(error("E702", path, first, "fewer than two choices ('A. <text>'); "
                              "the question was not converted"))
        return None
    letters = [letter for letter, _ in choices]
    if answer[1] not in letters:
        problems.append(error("E703", path, answer[0], f"ANSWER {answer[1]!r} names none of "
                              f"the choices {', '.join(letters)}; the question was not "
                              "converted"))
        return None
    return Item(prompt=moodle_plain("\n".join(prompt)), path=path, line=first,
                choices=tuple(Choice(moodle_plain(text, answer=True), letter == answer[1])
                              for letter, text in choices))
