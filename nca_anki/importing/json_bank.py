"""JSON banks -> questions. Two shapes (docs/importing.md):

- **This project's shape**, documented: ``{"title": …, "questions": [{"prompt": …,
  "choices": [{"text": …, "correct": true}, …], "explanation": …}]}``, or a list of
  such objects (one topic part each).
- **The shape common in prep repositories**: a list of ``{"question": …, "options": […],
  "correct": …, "explanation": …}`` (or an object with such a list under "questions").
  ``correct`` (also ``answer``, ``answers``, ``correctAnswer``, ``correct_answer``) is a
  0-based index into the options, a letter ("B"), an option's text, or a list of these
  for several answers; ``options`` may also be an object ``{"A": …, "B": …}``.

Texts are Markdown, kept exactly. The standard library reads the JSON (its messages give
the line and column of a syntax error); a second pass over the same text finds where
each question object starts, so every problem names its line and its JSON path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]  # public, untyped

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing.bank import Choice, Item, Reading, Section, one_line, title_from_name

LETTERS = "ABCDEFGHIJ"
PROMPT_KEYS = ("prompt", "question", "text")
CHOICE_KEYS = ("choices", "options", "answers")
CORRECT_KEYS = ("correct", "answer", "answers", "correctAnswer", "correct_answer",
                "correctAnswers", "correct_answers")
EXPLANATION_KEYS = ("explanation", "rationale", "feedback")
_SPACE = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


def _starts(text: str) -> dict[tuple[object, ...], int]:
    """Where each value of valid JSON ``text`` starts, by its path (keys and indexes)."""
    starts: dict[tuple[object, ...], int] = {}

    def value(at: int, path: tuple[object, ...]) -> int:
        at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
        starts[path] = at
        char = text[at]
        if char == "{":
            at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
            if text[at] == "}":
                return at + 1
            while True:
                key, at = scanstring(text, at + 1)
                at = _SPACE.match(text, at).end() + 1  # type: ignore[union-attr]  # ":"
                at = _SPACE.match(text, value(at, (*path, key))).end()  # type: ignore[union-attr]
                if text[at] == "}":
                    return at + 1
                at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]  # ","
        if char == "[":
            at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
            if text[at] == "]":
                return at + 1
            index = 0
            while True:
                at = _SPACE.match(text, value(at, (*path, index))).end()  # type: ignore[union-attr]
                if text[at] == "]":
                    return at + 1
                at += 1
                index += 1
        if char == '"':
            return scanstring(text, at + 1)[1]
        return _SCALAR.match(text, at).end()  # type: ignore[union-attr]

    value(0, ())
    return starts


def _path_text(path: tuple[object, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
                   for i, p in enumerate(path)) or "(the document)"


@dataclass(frozen=True)
class Code:
    """A value an input gives as code, not as a literal (a variable, a call: typescript.py
    reads such files): where it is and what it says."""

    line: int
    text: str


def _code_in(value: object) -> Code | None:
    """The first Code in a value, at any depth."""
    if isinstance(value, Code):
        return value
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) \
        else ()
    return next((c for v in inner if (c := _code_in(v)) is not None), None)


class Reader:
    """Questions from decoded data (JSON, or literals from typescript.py), with every
    problem at its line: ``line_of`` gives the line a value starts on, by its path."""

    def __init__(self, path: str, line_of: Callable[[tuple[object, ...]], int]) -> None:
        self.path = path
        self.line = line_of
        self.problems: list[Diagnostic] = []
        self.ignored: set[str] = set()

    def fail(self, code: str, path: tuple[object, ...], message: str) -> None:
        self.problems.append(error(code, self.path, self.line(path),
                                   f"{_path_text(path)}: {message}; not converted"))

    def section(self, data: object, path: tuple[object, ...]) -> Section | None:
        """A topic part: an object with "questions" (and a "title"), or a list of questions."""
        title = ""
        questions: object = data
        if isinstance(data, dict):
            title = data.get("title") or data.get("topic") or ""
            if not isinstance(title, str):
                self.problems.append(warning("W703", self.path, self.line((*path, "title")),
                                             f"{_path_text((*path, 'title'))} is not text; "
                                             "the title was taken from the file name"))
                title = ""
            if "questions" not in data:
                self.fail("E702", path, 'an object without "questions"')
                return None
            questions = data["questions"]
            path = (*path, "questions")
        if not isinstance(questions, list):
            self.fail("E702", path, "expected a list of questions")
            return None
        items = [item for k, q in enumerate(questions)
                 if (item := self.question(q, (*path, k))) is not None]
        return Section(title=title.strip() or title_from_name(self.path), items=tuple(items),
                       path=self.path)

    def question(self, data: object, path: tuple[object, ...]) -> Item | None:
        code = _code_in(data)
        if code is not None:
            shown = one_line(code.text)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            self.fail("E704", path, f"holds code, not a value: `{shown}` (line {code.line}); "
                      "write it out as text")
            return None
        if not isinstance(data, dict):
            self.fail("E702", path, "a question must be an object")
            return None
        prompt = next((data[k] for k in PROMPT_KEYS if k in data), None)
        raw = next(((k, data[k]) for k in CHOICE_KEYS if k in data), None)
        explanation = next((data[k] for k in EXPLANATION_KEYS if k in data), "")
        for key in data:
            if key not in (*PROMPT_KEYS, *CHOICE_KEYS, *CORRECT_KEYS, *EXPLANATION_KEYS) \
                    and key not in self.ignored:
                self.ignored.add(key)
                self.problems.append(warning("W703", self.path, self.line((*path, key)),
                                             f"{_path_text((*path, key))}: key {key!r} is not "
                                             "part of a question file and was left out (said "
                                             "once per file)"))
        if not isinstance(prompt, str) or not prompt.strip():
            self.fail("E702", path, f"no question text (one of {', '.join(PROMPT_KEYS)})")
            return None
        if raw is None:
            self.fail("E702", path, f"no choices (one of {', '.join(CHOICE_KEYS)})")
            return None
        if not isinstance(explanation, str):
            self.fail("E702", path, "the explanation is not text")
            return None
        choices = self.choices(data, raw, path)
        if choices is None:
            return None
        return Item(prompt=prompt.strip(), choices=choices, explanation=explanation.strip(),
                    path=self.path, line=self.line(path), where=_path_text(path))

    def choices(self, data: dict[str, object], raw: tuple[str, object],
                path: tuple[object, ...]) -> tuple[Choice, ...] | None:
        key, value = raw
        where = (*path, key)
        if isinstance(value, dict):  # {"A": "...", "B": "..."}
            letters = list(value)
            value = list(value.values())
        else:
            letters = list(LETTERS)
        if not isinstance(value, list) or not value:
            self.fail("E702", where, "the choices must be a list")
            return None
        if all(isinstance(c, dict) for c in value):  # [{"text": …, "correct": …}]
            texts, marks = [], []
            for k, c in enumerate(value):
                text, correct = c.get("text"), c.get("correct", False)
                if not isinstance(text, str) or not isinstance(correct, bool):
                    self.fail("E702", (*where, k), 'a choice needs "text" and a true or '
                              'false "correct"')
                    return None
                texts.append(text.strip())
                marks.append(correct)
            if any(k in data for k in CORRECT_KEYS if k != key):
                self.problems.append(warning("W703", self.path, self.line(path), (
                    f"{_path_text(path)}: the choices mark the correct ones; the separate "
                    "answer key was left out")))
            if not any(marks):
                self.fail("E703", where, "no choice is marked correct")
                return None
            return tuple(Choice(t, m) for t, m in zip(texts, marks))
        if not all(isinstance(c, str) for c in value):
            self.fail("E702", where, "each choice must be text (or an object with \"text\")")
            return None
        texts = [c.strip() for c in value]
        answer_key = next((k for k in CORRECT_KEYS if k in data and k != key), None)
        if answer_key is None:
            self.fail("E703", path, f"no correct answer (one of {', '.join(CORRECT_KEYS)})")
            return None
        answers = data[answer_key]
        wanted = answers if isinstance(answers, list) else [answers]
        picked: set[int] = set()
        for one in wanted:
            index = self.index(one, texts, letters)
            if index is None:
                self.fail("E703", (*path, answer_key), f"the answer {one!r} names none of the "
                          f"{len(texts)} choices (a 0-based index, a letter or a choice's text)")
                return None
            picked.add(index)
        if not picked:
            self.fail("E703", (*path, answer_key), "the answer list is empty")
            return None
        return tuple(Choice(t, k in picked) for k, t in enumerate(texts))

    @staticmethod
    def index(answer: object, texts: list[str], letters: list[str]) -> int | None:
        if isinstance(answer, bool):
            return None
        if isinstance(answer, int):
            return answer if 0 <= answer < len(texts) else None
        if not isinstance(answer, str):
            return None
        text = answer.strip()
        if text in letters[:len(texts)]:
            return letters.index(text)
        matches = [k for k, t in enumerate(texts) if t == text]
        return matches[0] if len(matches) == 1 else None


def sections(data: object, reader: Reader, root: tuple[object, ...] = ()) -> tuple[Section, ...]:
    """The topic parts of a decoded bank: a list of parts, or one part."""
    if isinstance(data, list) and data and all(isinstance(d, dict) and "questions" in d
                                               for d in data):
        found = [reader.section(d, (*root, k)) for k, d in enumerate(data)]
    else:
        found = [reader.section(data, root)]
    return tuple(s for s in found if s is not None and s.items)


def read(text: str, path: str) -> Reading:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Reading((), (error("E701", path, exc.lineno, f"not valid JSON: {exc.msg} "
                                  f"(column {exc.colno}); nothing in the file was converted"),))
    starts = _starts(text)
    reader = Reader(path, lambda where: text.count("\n", 0, starts.get(where, 0)) + 1)
    return Reading(sections(data, reader), tuple(reader.problems))
