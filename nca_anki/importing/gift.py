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
what they stand for; "[markdown]" text is kept as Markdown, Moodle's own format and
"[html]" are read as the HTML Moodle shows and "[plain]" as typed (moodle_text.py: math
as a card shows it, Markdown's punctuation escaped). Letters written into every answer
("~a) …") are left out, said once (W716).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.importing.bank import (FEEDBACK_JOINED, FULL_CREDIT, MAX_ANSWERS, Choice,
                                     Credited, Item, Reading, Section, category_name,
                                     choices_problem, credit, credited_choices, one_paragraph,
                                     title_from_name, too_many)
from nca_anki.importing.moodle_text import (blank_answers_problem, moodle_html,
                                            moodle_markdown, moodle_plain, without_labels)

_CATEGORY_RE = re.compile(r"^\s*\$CATEGORY:\s*(?P<path>(?:.*\S)?)\s*$")
_FORMAT_RE = re.compile(r"^\s*\[(?P<format>html|moodle|plain|markdown)\]", re.I)
# An answer's weight, "~%50%": a number (checked by bank.credit), or a word or a number
# written wrong ("%fifty%", "%50,5%", "%%"), which is reported, not read as the answer's text.
_WEIGHT_RE = re.compile(r"%(?P<weight>[^%\s]{0,24}|[-+0-9.,\s]{0,24})%")
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


def _unescaped_token(text: str, token: str, start: int = 0) -> int:
    """The index of the first ``token`` at or after ``start`` whose first character is not
    escaped by a backslash (-1 if none)."""
    k = start
    while (k := _unescaped(text, token[0], k)) >= 0:
        if text.startswith(token, k):
            return k
        k += 1
    return -1


def _split(text: str, chars: str) -> list[tuple[int, str]]:
    """``text`` cut before each unescaped one of ``chars``: each piece (stripped, starting
    with it) and where it starts."""
    starts, k = [], 0
    while (k := _unescaped(text, chars, k)) >= 0:
        starts.append(k)
        k += 1
    return [(a, text[a:b].strip()) for a, b in zip(starts, [*starts[1:], len(text)])]


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
    reader = _Reader(path)
    for number, line in enumerate(text.split("\n"), start=1):
        reader.take(number, line)
    reader.finish()
    if reader.items:
        reader.sections.append(Section(title=reader.title, items=tuple(reader.items),
                                       path=path))
    sections, said = without_labels(reader.sections, path, reader.shown)
    return Reading(tuple(sections), tuple(_titles_said_once(reader.problems) + said))


# A question whose only words are its title ("::Which layer routes packets?::{=…}"): Moodle
# imports it with an empty text and shows the title (its name) to teachers only. The
# author meant the title as the question, so the card asks it; said once per file.
_TITLE_AS_TEXT = "has no text but its title ('::…::'), which Moodle shows only to teachers"


def _titles_said_once(problems: list[Diagnostic]) -> list[Diagnostic]:
    """``problems`` with the notes that a question's title was taken as its text made one,
    at the first such question, counting them."""
    titled = [p for p in problems if p.code == "W702" and p.message == _TITLE_AS_TEXT]
    if not titled:
        return problems
    n = len(titled)
    said = warning("W702", titled[0].path, titled[0].line, (
        f"{n} question{'s' if n > 1 else ''} without text but a title ('::…::', which Moodle "
        "shows only to teachers): the title was taken as the text; write the text after "
        "the title to say otherwise"))
    later = {id(p) for p in titled[1:]}
    return [said if p is titled[0] else p for p in problems if id(p) not in later]


@dataclass
class _Block:
    """The lines of one question (or category line, or description) as they are read, and
    where its answers stand: "none" before their '{', "open" inside, "closed" after '}'."""

    lines: list[tuple[int, str]] = field(default_factory=list)
    state: str = "none"
    opened: int = 0  # the index in ``lines`` of the line holding the last '{'
    sets: int = 0  # answer sets opened ({…} … {…} is a cloze question)
    blank: int = 0  # the index in ``lines`` after the last blank line inside the answers
    damage: tuple[int, str] | None = None  # the first brace or title out of place
    cut_by: int = 0  # the line of the question that began while the answers were open


class _Reader:
    """GIFT's lines -> blocks -> questions, in one pass. A blank line ends a question, but
    not inside its answers (authors put blank lines there); a question also ends where
    its answers close (authors forget the blank line). While answers are open, a line
    that begins another question (a '::title::', a $CATEGORY, a second '{') ends them
    unclosed: that question is an error at its '{', and the next one is read."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Diagnostic] = []
        self.sections: list[Section] = []
        self.title = title_from_name(path)
        self.items: list[Item] = []
        self.shown: list[str] = []  # the descriptions' texts (moodle_text.without_labels)
        self.block = _Block()

    def take(self, number: int, line: str) -> None:
        stripped = line.strip()
        if stripped.startswith("//"):
            return  # a comment
        block = self.block
        if not stripped:
            if block.state == "open":
                block.blank = len(block.lines)
            else:
                self.finish()
            return
        category = _CATEGORY_RE.match(line) is not None
        starts = category or stripped.startswith("::")
        braces, damage = _scan(stripped)
        if block.state == "open" and (starts or "{" in braces):
            self._cut(number, starts)
        elif block.lines and (block.state == "closed" or starts):
            self.finish()
        self._add(number, line, braces, damage)
        if category and len(self.block.lines) == 1:
            self.finish()

    def _cut(self, number: int, starts: bool) -> None:
        """End the open block before the question that begins at ``number``: with it go
        the lines of its text above that line (after the last answer or blank line)."""
        block = self.block
        cut = len(block.lines)
        if not starts:  # "Next question? {" on a line of its own: its text may be above
            floor = max(block.opened + 1, block.blank)
            while cut > floor and not block.lines[cut - 1][1].lstrip().startswith(
                    ("=", "~", "#")):
                cut -= 1
        moved = block.lines[cut:]
        del block.lines[cut:]
        block.cut_by = moved[0][0] if moved else number
        self.finish()
        for moved_number, moved_line in moved:  # no braces: they would have closed or cut
            self._add(moved_number, moved_line, [], "")

    def _add(self, number: int, line: str, braces: list[str], damage: str) -> None:
        block = self.block
        block.lines.append((number, line.rstrip()))
        if damage and block.damage is None:
            block.damage = (number, damage)
        for brace in braces:
            if brace == "{" and block.state != "open":
                block.state, block.opened, block.sets = "open", len(block.lines) - 1, \
                    block.sets + 1
            elif brace == "}" and block.state == "open":
                block.state = "closed"
            elif block.damage is None:
                block.damage = (number, _BRACE_DAMAGE[brace, block.state])
                block.state = "closed" if brace == "}" else block.state

    def finish(self) -> None:
        block, self.block = self.block, _Block()
        if not block.lines:
            return
        category = _CATEGORY_RE.match(block.lines[0][1])
        if category and len(block.lines) == 1:
            if self.items:
                self.sections.append(Section(title=self.title, items=tuple(self.items),
                                             path=self.path))
            name = category_name(category.group("path"))
            self.title, self.items = name or title_from_name(self.path), []
            return
        item = _question(block, self.path, self.problems)
        if item is not None:
            self.items.append(item)
        elif not block.sets:  # a description: the letters of answers may name its parts
            self.shown.append(moodle_html(_text("\n".join(line for _, line in block.lines))))


_BRACE_DAMAGE = {
    ("}", "none"): "a '}' that closes no '{' (the answers' '{' is missing, or a '}' in the "
                   "text is not written '\\}'); the question was not converted",
    ("}", "closed"): "a '}' after the answers have closed (a '}' in the text is written "
                     "'\\}'); the question was not converted",
    ("{", "open"): "a '{' inside the answers (a '{' in an answer is written '\\{', and the "
                   "next question starts on a line of its own); the question was not "
                   "converted",
}
_TITLE_DAMAGE = ("the title's '::' does not close on its line, before the answers' '{' "
                 "(write '::title::'; a ':', '{' or '}' in a title is written '\\:', '\\{', "
                 "'\\}'); the question was not converted")


def _scan(stripped: str) -> tuple[list[str], str]:
    """The unescaped braces of a line, in order, after its '::title::' if it begins with
    one; and what is wrong with that title ("")."""
    start, damage = 0, ""
    if stripped.startswith("::"):
        end = _title_end(stripped)
        if end < 0 or _unescaped(stripped[:end], "{}", 2) >= 0:
            damage = _TITLE_DAMAGE
        else:
            start = end + 2
    braces, k = [], start
    while (k := _unescaped(stripped, "{}", k)) >= 0:
        braces.append(stripped[k])
        k += 1
    return braces, damage


def _title(whole: str) -> str:
    """The text of the '::title::' ``whole`` starts with ("" if none)."""
    start = len(whole) - len(whole.lstrip())
    if not whole.startswith("::", start):
        return ""
    end = _title_end(whole[start:])
    return _text(whole[start + 2:start + end]) if end > 2 else ""


def _title_end(text: str) -> int:
    """Where the '::' that closes a title opened at the start of ``text`` is (-1: none)."""
    return _unescaped_token(text, "::", 2)


def _question(block: _Block, path: str, problems: list[Diagnostic]) -> Item | None:
    first = block.lines[0][0]
    if block.damage is not None:
        problems.append(error("E707", path, *block.damage))
        return None
    if block.state == "open":
        where = (f"before the next question begins at line {block.cut_by}" if block.cut_by
                 else "by the end of the file")
        problems.append(error("E707", path, block.lines[block.opened][0], "the answers' '{' "
                              f"never closes {where}; the question was not converted (close "
                              "its answers with '}')"))
        return None
    whole = "\n".join(line for _, line in block.lines)
    head = len(whole) - len(whole.lstrip())
    if whole.startswith("::", head):
        head += _title_end(whole[head:]) + 2
    open_at = _unescaped(whole, "{", head)
    if open_at < 0:
        problems.append(warning("W701", path, first, "text without answers ({…}) is a "
                                f"description, not a question, and was not converted: "
                                f"{' '.join(whole[head:].split())[:60]!r}"))
        return None
    close_at = _unescaped(whole, "}", open_at)
    if whole[close_at + 1:].lstrip().startswith("::"):
        problems.append(error("E707", path, first, "another question ('::…') begins on the "
                              "line where this one's answers close; put it on a line of its "
                              "own; neither was converted"))
        return None
    if block.sets > 1:
        problems.append(error("E702", path, first, "two sets of answers ({…} … {…}) in one "
                              "question: a cloze question (Moodle reads only one set), not one "
                              "multiple-choice question; split it in two; not converted"))
        return None
    return _converted(block, whole, (head, open_at, close_at), path, problems)


def _converted(block: _Block, whole: str, cuts: tuple[int, int, int], path: str,
               problems: list[Diagnostic]) -> Item | None:
    """The question of a block whose answers open and close once, at ``cuts``: where its
    text begins, its '{' and its '}'."""
    first = block.lines[0][0]
    head, open_at, close_at = cuts
    before, answers, after = whole[head:open_at], whole[open_at + 1:close_at], \
        whole[close_at + 1:].strip()
    fmt = _FORMAT_RE.match(before)
    form = "moodle"  # Moodle's own format (the default) and [html] take HTML
    if fmt:
        before = before[fmt.end():]
        form = fmt.group("format").lower()
    prompt = _shown(_text(before), form) + (
        f" _____ {_shown(_text(after), form)}" if after else "")
    if not _text(before) and not after:
        title = _title(whole)
        if not title:
            problems.append(error("E702", path, first, "no question text; not converted"))
            return None
        prompt = moodle_plain(title)  # a name is plain text
        problems.append(warning("W702", path, first, _TITLE_AS_TEXT))
    skipped = len(answers) - len(answers.lstrip())
    answers = answers.strip()
    cloze = _CLOZE_RE.match(answers)
    if cloze:  # Moodle's embedded-answer syntax written in GIFT: {1:MC:~a~=b}
        if cloze["kind"].upper() not in _CLOZE_CHOICE:
            problems.append(error("E702", path, first, "an embedded-answer "
                                  f"({clip(cloze['kind'], 40)}) question, not multiple "
                                  "choice; not converted"))
            return None
        answers, skipped = answers[cloze.end():], skipped + cloze.end()
    kind = _not_multiple_choice(answers)
    if kind:
        problems.append(error("E702", path, first, f"{kind} question, not multiple choice; "
                              "not converted"))
        return None
    general = ""
    k = _general_feedback(answers)
    if k >= 0:
        answers, general = answers[:k], _shown(_text(answers[k + 4:]), form)
    word = _before_feedback(answers).strip().upper()
    if word in _TRUE_FALSE:
        truth = _TRUE_FALSE[word]
        problems.append(warning("W702", path, first, "a true/false question became two "
                                "choices, 'True' and 'False'"))
        return Item(prompt=prompt, explanation=general, path=path, line=first,
                    choices=(Choice("True", truth), Choice("False", not truth)))
    lines = _Lines(block)
    return _choices(answers, lambda at: lines.at(open_at + 1 + skipped + at), form,
                    Item(prompt=prompt, choices=(), explanation=general, path=path,
                         line=first), problems)


class _Lines:
    """The line of a character of a block's joined text."""

    def __init__(self, block: _Block) -> None:
        self.numbers = [number for number, _ in block.lines]
        self.starts, k = [], 0
        for _, line in block.lines:
            self.starts.append(k)
            k += len(line) + 1

    def at(self, offset: int) -> int:
        return self.numbers[bisect_right(self.starts, offset) - 1]


def _shown(text: str, form: str, answer: bool = False) -> str:
    """GIFT text in its format as the question file's Markdown, showing what Moodle shows:
    Moodle's own format and [html] are HTML, [plain] is shown as typed, [markdown] kept
    but for its ``$$…$$`` math; an ``answer``'s math is inline (moodle_text.moodle_html)."""
    if form in ("html", "moodle"):
        return moodle_html(text, answer)
    return moodle_plain(text, answer) if form == "plain" else moodle_markdown(text, answer)


def _choices(answers: str, line_of: Callable[[int], int], form: str, item: Item,
             problems: list[Diagnostic]) -> Item | None:
    """``item`` with the choices of its ``answers`` ("=right ~wrong ~%50%half"), each
    answer's line given by ``line_of`` its place in them; None if they make no question."""
    path, first = item.path, item.line
    pieces = _split(answers, "=~")
    if len(pieces) > MAX_ANSWERS:
        problems.append(too_many(len(pieces), path, first))
        return None
    credited, feedback, empty, single, empty_right = [], [], 0, False, False
    for at, piece in pieces:
        mark, piece = piece[0], piece[1:]
        single = single or mark == "="  # as Moodle reads it: any '=' makes one answer right
        weight = _WEIGHT_RE.match(piece)
        value = FULL_CREDIT if mark == "=" else 0.0
        if weight:
            parsed = credit(weight["weight"].replace(",", "."))
            if parsed is None:
                problems.append(error("E703", path, line_of(at), f"the weight "
                                      f"{weight[0]!r} of an answer is no number from -100 to "
                                      "100 (a percentage of the marks, '%50%'); the question "
                                      "was not converted"))
                return None
            value, piece = parsed, piece[weight.end():]
        cut = _unescaped(piece, "#")
        text, note = (piece[:cut], piece[cut + 1:]) if cut >= 0 else (piece, "")
        if not _text(text):
            empty += 1  # "~=" or "~~": nothing between two marks; Moodle skips it too
            empty_right = empty_right or value > 0
            continue
        shown = _shown(_text(text), form, answer=True)
        credited.append(Credited(one_paragraph(shown), value, line_of(at)))
        if _text(note):
            feedback.append(f"{shown}: {_shown(_text(note), form)}")
    choices, notes = credited_choices(credited, single, path, first)
    no_right = ("no answer is fully right ('=' without a weight, or '%100%')" if single else
                "no answer is right ('=' or a positive %weight%)")
    if (problem := blank_answers_problem(choices, empty, empty_right, path, first) or
            choices_problem(choices, path, first, no_right)) is not None:
        problems.append(problem)
        return None
    problems.extend(notes)
    if empty:
        problems.append(warning("W702", path, first, f"{empty} empty answer"
                                f"{'s' if empty > 1 else ''} (nothing between two of its "
                                "'~'/'=' marks) left out"))
    if feedback:
        problems.append(warning("W702", path, first, FEEDBACK_JOINED))
    explanation = "\n\n".join(p for p in (item.explanation, *feedback) if p)
    return Item(prompt=item.prompt, choices=tuple(choices), explanation=explanation,
                path=path, line=first)


def _before_feedback(answers: str) -> str:
    """``answers`` up to its first unescaped '#' (feedback, or a numerical question's)."""
    k = _unescaped(answers, "#")
    return answers if k < 0 else answers[:k]


def _general_feedback(answers: str) -> int:
    """Where the '####' that opens a question's general feedback is (-1: none)."""
    return _unescaped_token(answers, "####")


def _not_multiple_choice(answers: str) -> str:
    """The kind of a question that is not multiple choice, from its answers; "" if it is."""
    if not answers or answers.startswith("####"):
        return "an essay"
    if answers.startswith("#"):
        return "a numerical"
    body = answers[:k] if (k := _general_feedback(answers)) >= 0 else answers
    if "->" in body:
        return "a matching"
    word = _before_feedback(body).strip().upper()
    if word in _TRUE_FALSE:
        return ""
    if _unescaped(body, "~") < 0:
        return "a short-answer"
    return ""
