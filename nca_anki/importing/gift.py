"""Moodle's GIFT format -> questions. Hand-written: the Python GIFT parsers on PyPI
(pygiftparser 1.1, pygiftparserrgmf 0.0.5) are unmaintained student projects, and the
part of GIFT this needs is small and documented (docs.moodle.org, "GIFT format").

    // a comment
    $CATEGORY: $course$/GPU Basics           <- the topic of the questions after it
    ::Q1:: What does CUDA stand for? {
      =Compute Unified Device Architecture   # feedback on this answer
      ~Central Unit for Data Access
      #### General feedback: the explanation.
    }

Multiple choice ("=" right, "~" wrong), several answers ("~%50%" and other positive
weights are right), true/false ({T}, {F}: two choices) and the missing-word form (text
after the answers: the prompt shows "_____" where they were) are converted. Short
answer, numerical, matching and essay questions are not multiple choice and are
reported. A question's general feedback becomes its explanation, and feedback on an
answer is added to it. Backslash escapes (\\~ \\= \\# \\{ \\} \\:) and \\n are read as
what they stand for; "[markdown]" text is kept as Markdown, "[html]" as written.
"""

from __future__ import annotations

import re

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing.bank import (FEEDBACK_JOINED, Choice, Item, Reading, Section,
                                     category_name, choices_problem, html_to_markdown,
                                     one_paragraph, title_from_name)

_CATEGORY_RE = re.compile(r"^\s*\$CATEGORY:\s*(?P<path>(?:.*\S)?)\s*$")
_FORMAT_RE = re.compile(r"^\s*\[(?P<format>html|moodle|plain|markdown)\]", re.I)
_WEIGHT_RE = re.compile(r"^%(?P<weight>-?\d+(?:\.\d+)?)%")
# Moodle's embedded-answer (cloze) prefix inside GIFT braces, "{1:MC:" or "{:SHORTANSWER:";
# its choice kinds are multiple choice, its others (SA, NM, ...) are not.
_CLOZE_RE = re.compile(r"^\s*\d*:(?P<kind>[A-Z_]+):", re.I)
_CLOZE_CHOICE = frozenset({"MC", "MCV", "MCH", "MCS", "MCVS", "MCHS", "MULTICHOICE",
                           "MULTICHOICE_V", "MULTICHOICE_H", "MULTICHOICE_S",
                           "MULTICHOICE_VS", "MULTICHOICE_HS", "MULTIRESPONSE", "MR", "MRS",
                           "MULTIRESPONSE_H", "MULTIRESPONSE_S", "MULTIRESPONSE_HS"})
_TRUE_FALSE = {"T": True, "TRUE": True, "F": False, "FALSE": False}


def _unescaped(text: str, chars: str, start: int = 0) -> int:
    """The index of the first of ``chars`` at or after ``start`` not escaped by a backslash
    (-1 if none)."""
    k = start
    while k < len(text):
        if text[k] == "\\":
            k += 2
            continue
        if text[k] in chars:
            return k
        k += 1
    return -1


def _split(text: str, chars: str) -> list[str]:
    """``text`` cut before each unescaped one of ``chars``; each piece starts with it."""
    starts, k = [], 0
    while (k := _unescaped(text, chars, k)) >= 0:
        starts.append(k)
        k += 1
    return [text[a:b].strip() for a, b in zip(starts, [*starts[1:], len(text)])]


def _text(raw: str) -> str:
    """GIFT text as it reads: escapes undone, "\\n" a line break."""
    out, k = [], 0
    while k < len(raw):
        if raw[k] == "\\" and k + 1 < len(raw):
            nxt = raw[k + 1]
            out.append("\n" if nxt == "n" else nxt if nxt in "~=#{}:\\" else raw[k:k + 2])
            k += 2
            continue
        out.append(raw[k])
        k += 1
    return "\n".join(line.strip() for line in "".join(out).strip().split("\n"))


def read(text: str, path: str) -> Reading:
    problems: list[Diagnostic] = []
    sections: list[Section] = []
    title = title_from_name(path)
    items: list = []
    block: list[tuple[int, str]] = []

    def finish() -> None:
        nonlocal title, items
        if not block:
            return
        category = _CATEGORY_RE.match(block[0][1])
        if category and len(block) == 1:
            if items:
                sections.append(Section(title=title, items=tuple(items), path=path))
            name = category_name(category.group("path"))
            title, items = name or title_from_name(path), []
        else:
            item = _question(block, path, problems)
            if item is not None:
                items.append(item)
        block.clear()

    for number, line in enumerate(text.split("\n"), start=1):
        if line.lstrip().startswith("//"):
            continue  # a comment
        if line.strip():
            if _CATEGORY_RE.match(line) and not _open(block) or _answered(block):
                finish()  # a category line, or a line after a whole question: a new block
            block.append((number, line.rstrip()))
            if _CATEGORY_RE.match(line) and len(block) == 1:
                finish()
        elif not _open(block):  # a blank line ends a question, not inside its answers
            finish()
    finish()
    if items:
        sections.append(Section(title=title, items=tuple(items), path=path))
    return Reading(tuple(sections), tuple(problems))


def _answered(block: list[tuple[int, str]]) -> bool:
    """Whether ``block`` holds a whole question already: its answers opened and closed.
    The next line starts another, blank line or not (Moodle needs one; authors forget)."""
    joined = "\n".join(line for _, line in block)
    start = _unescaped(joined, "{")
    return start >= 0 and _unescaped(joined, "}", start) >= 0


def _open(block: list[tuple[int, str]]) -> bool:
    """Whether the answers of the question in ``block`` are still open (a "{" not closed)."""
    joined = "\n".join(line for _, line in block)
    start = _unescaped(joined, "{")
    return start >= 0 and _unescaped(joined, "}", start) < 0


def _question(block: list[tuple[int, str]], path: str, problems: list[Diagnostic]
              ) -> Item | None:
    first = block[0][0]
    whole = "\n".join(line for _, line in block)
    body = whole.strip()
    if body.startswith("::"):
        end = body.find("::", 2)
        body = body[end + 2:] if end >= 0 else body
    open_at = _unescaped(body, "{")
    if open_at < 0:
        problems.append(warning("W701", path, first, "text without answers ({…}) is a "
                                f"description, not a question, and was not converted: "
                                f"{' '.join(body.split())[:60]!r}"))
        return None
    close_at = _unescaped(body, "}", open_at)
    if close_at < 0:
        problems.append(error("E701", path, first, "the answers' '{' never closes; the "
                              "question was not converted"))
        return None
    before, answers, after = body[:open_at], body[open_at + 1:close_at].strip(), \
        body[close_at + 1:].strip()
    if _unescaped(after, "{") >= 0:
        problems.append(error("E702", path, first, "two sets of answers ({…} … {…}) in one "
                              "question: a cloze question (Moodle reads only one set), not one "
                              "multiple-choice question; split it in two; not converted"))
        return None
    fmt = _FORMAT_RE.match(before)
    html_ok = True  # Moodle's own format (the default) and [html] take HTML
    if fmt:
        before = before[fmt.end():]
        html_ok = fmt.group("format").lower() in ("html", "moodle")
    prompt = html_to_markdown(_text(before), html_ok) + (
        f" _____ {html_to_markdown(_text(after), html_ok)}" if after else "")
    if not _text(before) and not after:
        problems.append(error("E702", path, first, "no question text; not converted"))
        return None
    cloze = _CLOZE_RE.match(answers)
    if cloze:  # Moodle's embedded-answer syntax written in GIFT: {1:MC:~a~=b}
        if cloze["kind"].upper() not in _CLOZE_CHOICE:
            problems.append(error("E702", path, first, f"an embedded-answer ({cloze['kind']}) "
                                  "question, not multiple choice; not converted"))
            return None
        answers = answers[cloze.end():]
    kind = _not_multiple_choice(answers)
    if kind:
        problems.append(error("E702", path, first, f"{kind} question, not multiple choice; "
                              "not converted"))
        return None
    general = ""
    k = _general_feedback(answers)
    if k >= 0:
        answers, general = answers[:k], html_to_markdown(_text(answers[k + 4:]), html_ok)
    word = answers.split("#", 1)[0].strip().upper()
    if word in _TRUE_FALSE:
        truth = _TRUE_FALSE[word]
        problems.append(warning("W702", path, first, "a true/false question became two "
                                "choices, 'True' and 'False'"))
        return Item(prompt=prompt, explanation=general, path=path, line=first,
                    choices=(Choice("True", truth), Choice("False", not truth)))
    choices, feedback, empty = [], [], 0
    for piece in _split(answers, "=~"):
        right = piece[0] == "="
        piece = piece[1:]
        weight = _WEIGHT_RE.match(piece)
        if weight:
            right = float(weight.group("weight")) > 0
            piece = piece[weight.end():]
        cut = _unescaped(piece, "#")
        text, note = (piece[:cut], piece[cut + 1:]) if cut >= 0 else (piece, "")
        if not _text(text):
            empty += 1  # "~=" or "~~": nothing between two marks; Moodle skips it too
            continue
        shown = html_to_markdown(_text(text), html_ok)
        choices.append(Choice(one_paragraph(shown), right))
        if _text(note):
            feedback.append(f"{shown}: {html_to_markdown(_text(note), html_ok)}")
    if (problem := choices_problem(choices, path, first, "no answer is right ('=' or a "
                                   "positive %weight%)")) is not None:
        problems.append(problem)
        return None
    if empty:
        problems.append(warning("W702", path, first, f"{empty} empty answer"
                                f"{'s' if empty > 1 else ''} (nothing between two of its "
                                "'~'/'=' marks) left out"))
    if feedback:
        problems.append(warning("W702", path, first, FEEDBACK_JOINED))
    explanation = "\n\n".join(p for p in (general, *feedback) if p)
    return Item(prompt=prompt, choices=tuple(choices), explanation=explanation, path=path,
                line=first)


def _general_feedback(answers: str) -> int:
    k = 0
    while (k := _unescaped(answers, "#", k)) >= 0:
        if answers.startswith("####", k):
            return k
        k += 1
    return -1


def _not_multiple_choice(answers: str) -> str:
    """The kind of a question that is not multiple choice, from its answers; "" if it is."""
    if not answers or answers.startswith("####"):
        return "an essay"
    if answers.startswith("#"):
        return "a numerical"
    body = answers[:k] if (k := _general_feedback(answers)) >= 0 else answers
    if "->" in body:
        return "a matching"
    word = body.split("#", 1)[0].strip().upper()
    if word in _TRUE_FALSE:
        return ""
    if _unescaped(body, "~") < 0:
        return "a short-answer"
    return ""
