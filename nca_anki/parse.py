"""Parse one question file's text into a ``ParsedFile``, collecting every problem.

Knows the source format and nothing else (no Jinja, no genanki). Never raises: whatever
the text, the result is a ``ParsedFile`` plus diagnostics, each at its path and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .diagnostics import Diagnostic, clip, error, warning

TITLE_SUFFIX = "Questions and Answers"
_SEPARATORS = ("—", "–", "-", "--", "―")

_SUFFIX_RE = re.compile(r"\s*" + re.escape(TITLE_SUFFIX) + r"\s*$", re.IGNORECASE)
_PART_RE = re.compile(r"^(?P<name>.*?)\s+(?P<part>\d{1,4})$")
_QUESTION_RE = re.compile(r"^Question\s+(?P<number>\d{1,6})\s*[:.]\s*(?P<prompt>.*)$")
_CHOICE_RE = re.compile(r"^-(?:\s+|$)(?P<text>.*)$")  # "-1 is odd" is not a choice
_MARK_RE = re.compile(r"\s*\(\s*correct\s+answer\s*\)\s*$", re.IGNORECASE)
_ANSWER_RE = re.compile(r"^Correct\s+answer\s*:\s*(?P<text>.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Choice:
    text: str
    correct: bool
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Question:
    """One question as written; ``prompt``, choices and ``explanation`` are Markdown."""

    number: int
    prompt: str
    choices: tuple[Choice, ...]
    explanation: str
    path: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)

    @property
    def correct_indexes(self) -> tuple[int, ...]:
        return tuple(i for i, choice in enumerate(self.choices) if choice.correct)


@dataclass(frozen=True)
class ParsedFile:
    path: str
    title: str  # as written, without the "— Questions and Answers" suffix
    name: str  # the title without its part number
    part: int
    questions: tuple[Question, ...]


@dataclass(frozen=True)
class ParseResult:
    file: ParsedFile
    diagnostics: tuple[Diagnostic, ...]


def _norm(text: str) -> str:
    return " ".join(text.split())


@dataclass
class _Draft:
    """A question while its lines are still arriving (mutable, private)."""

    number: int
    line: int
    prompt: list[str]
    choices: list[Choice] = field(default_factory=list)
    answer: str | None = None
    answer_line: int = 0
    explanation: list[tuple[int, str]] = field(default_factory=list)
    state: str = "prompt"  # prompt -> choices -> explanation
    broken: bool = False


class _Parser:
    def __init__(self, text: str, path: str) -> None:
        self.path = path
        self.lines = text.split("\n")
        self.diagnostics: list[Diagnostic] = []
        self.drafts: list[_Draft] = []
        self.damaged_separator: str | None = None

    def error(self, line: int, message: str) -> None:
        self.diagnostics.append(error(self.path, line, message))

    def warn(self, line: int, message: str) -> None:
        self.diagnostics.append(warning(self.path, line, message))

    # --- title -------------------------------------------------------------------------
    def parse_title(self) -> tuple[int, str]:
        """The title line's number and the title without its suffix (0, "" if none)."""
        for number, raw in enumerate(self.lines, start=1):
            if raw.strip():
                break
        else:
            self.error(1, f"file is empty; expected a first line '<title> — {TITLE_SUFFIX}'")
            return 0, ""
        if number != 1:
            self.warn(number, "title is not on the first line; blank lines before it ignored")
        line = raw.strip()
        if _QUESTION_RE.match(line):
            self.error(number, f"missing title line; expected '<title> — {TITLE_SUFFIX}' "
                       "before the first question")
            return number - 1, ""
        suffix = _SUFFIX_RE.search(line)
        if not suffix:
            self.warn(number, f"title line does not end with '— {TITLE_SUFFIX}'; "
                      "the whole line is taken as the title")
            return number, line
        title = line[: suffix.start()].strip()
        head, _, last = title.rpartition(" ")
        if title and title[-1] in "".join(_SEPARATORS):
            title = title.rstrip("".join(_SEPARATORS) + " ")
        elif head.rpartition(" ")[2].isdigit() and len(last) <= 3 and not last.isascii():
            # Between the part number and the suffix, where only a dash belongs, a short
            # non-ASCII token is what an em dash becomes when its bytes are decoded with
            # the wrong code page (the seed has 'β').
            self.damaged_separator = last
            self.warn(number, f"damaged character {last!r} where the title's dash "
                      "separator belongs (encoding damage); read as '—'")
            title = head.strip()
        elif head and len(last) <= 3 and not last.isalnum():
            title = head.strip()  # an unusual but plain separator such as ':' or '|'
        if not title:
            self.error(number, "title is empty")
        return number, title

    # --- questions ---------------------------------------------------------------------
    def parse_body(self, start: int) -> None:
        draft: _Draft | None = None
        for number, raw in enumerate(self.lines[start:], start=start + 1):
            line = raw.strip()
            question = _QUESTION_RE.match(line)
            if question:
                draft = _Draft(int(question.group("number")), number,
                               [question.group("prompt").strip()])
                self.drafts.append(draft)
            elif draft is None:
                if line:
                    self.warn(number, "text before the first 'Question N:' line is ignored")
            else:
                self.feed(draft, number, raw, line)

    def feed(self, draft: _Draft, number: int, raw: str, line: str) -> None:
        answer = _ANSWER_RE.match(line)
        choice = _CHOICE_RE.match(line)
        if draft.state == "explanation":
            draft.explanation.append((number, raw.rstrip()))
        elif answer:
            draft.answer = answer.group("text").strip()
            draft.answer_line = number
            draft.state = "explanation"
        elif choice:
            text = choice.group("text")
            mark = _MARK_RE.search(text)
            text = text[: mark.start()].strip() if mark else text.strip()
            if not text:
                self.error(number, "choice is empty")
                draft.broken = True
            draft.choices.append(Choice(text, bool(mark), number))
            draft.state = "choices"
        elif draft.state == "prompt":
            draft.prompt.append(raw.rstrip())
        elif line:
            self.error(number, "unexpected text among the choices; expected '- <choice>' "
                       "or 'Correct answer: <choice>'")
            draft.broken = True

    # --- checks ------------------------------------------------------------------------
    def strip_footer(self, title: str) -> None:
        """Drop the trailing footer (the title, then the first prompt) from the last
        question's explanation: it repeats the header and is not part of any question."""
        if not self.drafts:
            return
        body = self.drafts[-1].explanation
        filled = [i for i, (_, text) in enumerate(body) if text.strip()]
        first_prompt = _norm(" ".join(self.drafts[0].prompt))
        if len(filled) >= 2 and _norm(body[filled[-2]][1]) == _norm(title) \
                and _norm(body[filled[-1]][1]) == first_prompt:
            del body[filled[-2]:]
        elif filled and _norm(body[filled[-1]][1]) == _norm(title):
            del body[filled[-1]:]

    def finish(self, draft: _Draft) -> Question | None:
        prompt = "\n".join(draft.prompt).strip()
        ok = not draft.broken
        if not prompt:
            self.error(draft.line, f"Question {draft.number} has no prompt")
            ok = False
        if not draft.choices:
            self.error(draft.line, f"Question {draft.number} has no choices; "
                       "list them as '- <choice>' lines after the prompt")
            return None
        if len(draft.choices) < 2:
            self.error(draft.line, f"Question {draft.number} has only one choice; "
                       "a multiple-choice question needs at least two")
            ok = False
        marked = [c for c in draft.choices if c.correct]
        if len(marked) > 1:
            lines = ", ".join(str(c.line) for c in marked)
            self.error(marked[1].line, f"Question {draft.number} marks {len(marked)} choices "
                       f"'(Correct answer)' (lines {lines}); mark exactly one")
            ok = False
        texts = [_norm(c.text).casefold() for c in draft.choices]
        for i, text in enumerate(texts):
            if text and text in texts[:i]:
                self.warn(draft.choices[i].line, f"Question {draft.number} lists the choice "
                          f"{draft.choices[i].text!r} twice")
        if draft.answer is None:
            self.error(draft.line, f"Question {draft.number} has no 'Correct answer: <choice>' "
                       "line after its choices")
            ok = False
        elif not marked:
            hint = ""
            if _norm(draft.answer).casefold() in texts:
                hint = (f"; the 'Correct answer:' line names the choice at line "
                        f"{draft.choices[texts.index(_norm(draft.answer).casefold())].line}")
            self.error(draft.line, f"Question {draft.number} has no choice ending in "
                       f"'(Correct answer)'{hint}")
            ok = False
        elif len(marked) == 1 and _norm(draft.answer).casefold() != texts[
                draft.choices.index(marked[0])]:
            self.error(draft.answer_line, f"'Correct answer: {clip(draft.answer)}' disagrees "
                       f"with the choice marked '(Correct answer)' at line {marked[0].line}: "
                       f"{clip(marked[0].text)!r}")
            ok = False
        explanation = "\n".join(text for _, text in draft.explanation).strip()
        if ok and not explanation:
            self.warn(draft.line, f"Question {draft.number} has no explanation")
        if not ok:
            return None
        return Question(draft.number, prompt, tuple(draft.choices), explanation,
                        self.path, draft.line)

    def check_numbers(self) -> None:
        expected = 1
        for draft in self.drafts:
            if draft.number != expected:
                self.warn(draft.line, f"Question {draft.number} is numbered out of sequence "
                          f"(expected Question {expected})")
            expected = draft.number + 1

    def check_damage(self, title_line: int) -> None:
        """Where the title separator was damaged, the same character standing alone
        between words elsewhere is probably the same damage. It may also be real text
        (a Greek letter), so it is reported, not repaired."""
        sep = self.damaged_separator
        if not sep:
            return
        for number, raw in enumerate(self.lines, start=1):
            if number != title_line and f" {sep} " in raw:
                self.warn(number, f"{sep!r} between words: probably the same encoding damage "
                          "as the title's separator (a lost '—'); not repaired because it may "
                          "be meant; fix the source file")


def parse(text: str, path: str) -> ParseResult:
    """Parse ``text`` (already decoded, ``\\n`` line endings) read from ``path``."""
    parser = _Parser(text, path)
    title_line, title = parser.parse_title()
    parser.parse_body(title_line)
    parser.strip_footer(title)
    questions = tuple(q for q in map(parser.finish, parser.drafts) if q is not None)
    if not parser.drafts and title_line:
        parser.error(title_line, "no questions found; expected 'Question 1: <prompt>' lines")
    parser.check_numbers()
    parser.check_damage(title_line)
    name, part = title, 1
    match = _PART_RE.match(title)
    if match:
        name, part = match.group("name").strip(), int(match.group("part"))
    elif title:
        parser.warn(title_line, "title has no part number at its end; taken as part 1")
    return ParseResult(ParsedFile(path, title, name, part, questions),
                       tuple(parser.diagnostics))

