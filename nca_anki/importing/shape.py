"""Structured banks (JSON, JavaScript/TypeScript literals, spreadsheets) read by their
shape, not by a list of key names.

A bank is any list of question-like objects, wherever it sits in the data: the top level,
under any key, several lists (several topic parts). An object is question-like when one of
its values can be a prompt (text) and one can be the choices: a list of at least two texts,
a list of objects each with a text, an object of texts by letter (``{"A": …, "B": …}``),
or flat keys ``A`` … ``J`` / ``option1`` … / ``optionA`` … (a spreadsheet's row).

Which key plays which part is decided once for the whole bank (importing/roles.py), from
the values first and the key's name second, and said once (W704) so the author can check
it; ``--map KEY=ROLE`` overrides any of it. What one value says (a placeholder, a boolean,
an answer in words) is importing/choice_values.py's; here each question is read with the
bank's roles, and each one that cannot be is named at its place.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import quote

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.importing import choice_values as cv
from nca_anki.importing.bank import (Choice, Item, Section, html_to_markdown, one_line,
                                     one_paragraph)
from nca_anki.importing.messages import LIMIT, readable_message
from nca_anki.importing.pictures import Pictures
from nca_anki.importing.roles import (ROLES, Roles, answer_of, as_list, as_map, infer,
                                      number_of)
from nca_anki.importing.values import aligned, choice_columns, indexes_in, unpaired
from nca_anki.reading.parse import FENCE_RE

__all__ = ["ROLES", "Path_", "Structured", "find_lists", "path_text"]

Path_ = tuple[object, ...]
# A question's choices as written: their texts, their marks (None: the answer key says),
# their letters or labels, and whether they are a row's cells (flat keys, columns).
_Listed = tuple[list[str], list[bool] | None, list[str], bool]
# An answer written as a letter: "B", "b", "(B)", "B)", "B.", "Option B", "Choice B".
_LETTER_RE = re.compile(r"^(?:option|choice|answer)?\s*\(?([A-Za-z])[).:]?$", re.I)
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
# What Excel writes into a cell whose formula fails ("=CONCAT(…)" in a question about
# Excel): the text the author meant is not in the file. "#N/A" is a placeholder (cv).
_EXCEL_ERRORS = frozenset(("#NAME?", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NULL!",
                           "#ERROR!", "#SPILL!", "#CALC!", "#GETTING_DATA"))
# A detail of the opening said in brackets: "(it splits the header … into 6 cells each)".
_PARENTHESISED = re.compile(r" \([^()]*\)")
_GENERIC = frozenset("questions items data quiz quizzes bank list entries records results "
                     "default exports module.exports".split())


@dataclass(frozen=True)
class Found:
    """A list of question objects in the data: where, and the title its place gives."""

    path: Path_
    objects: tuple[tuple[Path_, object], ...]
    title: str


@dataclass
class Structured:
    """Reads one file's decoded data: ``line_of`` gives the line a value starts on."""

    path: str
    line_of: Callable[[Path_], int]
    overrides: Mapping[str, str] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)
    shown: Callable[[Path_], str] = lambda where: f"{path_text(where)}: "
    noun: str = "question objects"
    # Whether a line break in a text is one its readers see (a JSON string's "\n", a
    # spreadsheet cell's), not the layout of the file (XML's indented elements).
    lines: bool = True

    def fail(self, code: str, where: Path_, message: str) -> None:
        self.problems.append(error(code, self.path, self.line_of(where),
                                   f"{self.shown(where)}{message}; not converted"))

    def read(self, data: object, *, default_title: str,
             is_code: Callable[[object], str | None] = lambda v: None) -> tuple[Section, ...]:
        self.is_code = is_code
        self.pictures = Pictures(self.path)
        lists = find_lists(data)
        if not lists:
            return ()
        objects = [o for found in lists for _, o in found.objects if isinstance(o, dict)]
        _lift(objects, self.overrides)
        roles = infer(objects, self.overrides, lambda message: self.problems.append(
            error("E701", self.path, self.line_of(()), message)))
        if roles is None:
            return ()
        self.problems.append(warning("W704", self.path, self.line_of(lists[0].path),
                                     self._read_said(len(objects), len(lists), roles)))
        sections: list[Section] = []
        for found in lists:
            by_topic: dict[str, list[Item]] = {}
            for where, obj in found.objects:
                item = self.item(obj, where, roles)
                if item is None:
                    continue
                topic = found.title or default_title
                if roles.topic is not None and isinstance(obj, dict) and isinstance(
                        obj.get(roles.topic), str) and str(obj[roles.topic]).strip():
                    topic = one_line(str(obj[roles.topic]))
                by_topic.setdefault(topic, []).append(item)
            sections += [Section(title=title, items=tuple(items), path=self.path,
                                 roles=as_map(roles)) for title, items in by_topic.items()]
        return tuple(sections)

    def _read_said(self, objects: int, lists: int, roles: Roles) -> str:
        """W704: what was read and how, in ``LIMIT`` characters. The decisions come first:
        the opening gives up its details for them (where the objects were found, why a
        separator was chosen), then its noun, where cutting the keys quoted in the
        decisions (messages.readable_message) is not enough."""
        in_lists = f" in {lists} lists" if lists > 1 and " from " not in self.noun else ""
        full = f"read {objects} {self.noun}{in_lists}: "
        bare = f"read {objects} {_PARENTHESISED.sub('', self.noun).split(' from ')[0]}"
        for read in (full, f"{bare}{in_lists}: ", f"read {objects} records: "):
            said = readable_message(read + roles.said(LIMIT - len(read)))
            if len(said) <= LIMIT:
                break
        return said

    # --- one question ---------------------------------------------------------------------

    def item(self, obj: object, where: Path_, roles: Roles) -> Item | None:
        code = self.is_code(obj)
        if code is not None:
            self.fail("E704", where, f"holds code, not a value: {code}; write it out as text")
            return None
        if not isinstance(obj, dict):
            self.fail("E702", where, "a question must be an object (with its text and "
                      "choices), among the others of its list")
            return None
        prompt = _prompt(obj, roles.prompt_keys(), roles.html, self.lines)
        if not prompt:
            keys = roles.prompt_keys()
            self.fail("E702", where, "no question text under " + (
                f"{keys[0]!r}" if len(keys) == 1 else
                f"any of {', '.join(map(repr, keys))}"))
            return None
        explanation = next((obj[k] for k in (roles.explanation, *roles.explanation_also)
                            if k is not None and not _empty(obj.get(k))), "")
        if isinstance(explanation, list) and all(isinstance(e, str) for e in explanation):
            explanation = "\n\n".join(explanation)
        if explanation is None:
            explanation = ""
        if not isinstance(explanation, str):
            self.fail("E702", where, f"the explanation {roles.explanation!r} is not text")
            return None
        read = self.choices(obj, where, roles)
        if read is None:
            return None
        choices, letters = read
        for text in (prompt, explanation, *(c.text for c in choices)):
            if _SURROGATE_RE.search(text):
                self.fail("E702", where, "holds a lone UTF-16 surrogate (an escape such as "
                          "\\ud800 that is half a character); write the character itself")
                return None
        right = [c.text for c in choices if c.correct]
        if not explanation.strip() and not roles.wrong and isinstance(
                said := answer_of(obj, roles.answers), str):
            explanation = cv.remark_after(said, len(choices))  # "D; as the docs say"
        if roles.html:
            explanation = html_to_markdown(explanation)
        explanation = lines_after_lists(explanation, hard=self.lines and not roles.html)
        if cv.restates(explanation, right, [x for x, c in zip(letters, choices) if c.correct]):
            explanation = ""  # "Answer: B" under an answer key says nothing more
        shown = self._picture(obj, where, roles)
        if shown is None:
            return None
        return Item(prompt=shown[0] + prompt, choices=choices,
                    explanation=explanation.strip(), path=self.path, line=self.line_of(where),
                    where=self.shown(where).removesuffix(": "), media=shown[1])

    def _picture(self, obj: dict[str, object], where: Path_, roles: Roles
                 ) -> tuple[str, tuple[tuple[str, bytes], ...]] | None:
        """The question's picture (importing/pictures.py) as Markdown above its prompt and
        the bytes it carries; None (said at its place) if it is not there."""
        written = obj.get(roles.picture) if roles.picture else None
        if not isinstance(written, str) or not written.strip():
            return "", ()
        name, data, why = self.pictures.picture(written.strip())
        if why:
            self.fail("E704", where, why)
            return None
        return f"![]({quote(name)})\n\n", ((name, data),) if data else ()

    def choices(self, obj: dict[str, object], where: Path_, roles: Roles
                ) -> tuple[tuple[Choice, ...], list[str]] | None:
        """The question's choices, and each one's letter (or label) as the bank names it;
        placeholders (``N/A``, ``-``, an empty cell) that are not the answer left out."""
        listed = self._flat(obj, roles) if roles.choices is None else \
            self._listed(obj, where, roles)
        if listed is None:
            return None
        texts, marks, letters, cells = listed
        lost = [k for k, t in enumerate(texts) if cells and t.strip() in _EXCEL_ERRORS]
        if lost:
            said = ", ".join(f"{cv.LETTERS[k]} {texts[k].strip()!r}" for k in lost[:3])
            self.problems.append(warning("W720", self.path, self.line_of(where), (
                f"{self.shown(where)}choice{'s' if len(lost) > 1 else ''} {said}: Excel's "
                "error for a formula that failed when the sheet was saved, the text meant "
                "is not in the file; converted as written, write the text itself")))
        if sum(not cv.is_placeholder(t, cells=cells) for t in texts) < 2:
            self.fail("E702", where, "no choices: not a multiple-choice question (a fill-in "
                      "or a short answer?)" if not texts else "only one choice")
            return None
        if marks is None:
            found = next((k for k in roles.answers if not _empty(obj.get(k))), None)
            if found is None:
                self.fail("E703", where, (
                    f"no correct answer under {' or '.join(repr(k) for k in roles.answers)}"
                    if roles.answers else "no key was found to mark the correct answer (the "
                    "guess of roles found none); say which with --map KEY=answer"))
                return None
            picked = self.answer(obj[found], texts, letters, roles, (*where, found))
            if picked is None:
                return None
            marks = [k in picked for k in range(len(texts))]
        drop = cv.unused(texts, marks, cells=cells)
        kept = [k for k in range(len(texts)) if k not in drop]
        if len(kept) < 2:
            self.fail("E702", where, "only one choice besides placeholders (N/A, -)")
            return None
        # A choice is one line of a question file: a line break inside its text (a value
        # wrapped in the source) is a space, as a page shows it; a fenced code block stays.
        shown = html_to_markdown if roles.html else str
        return (tuple(Choice(one_paragraph(shown(texts[k])), marks[k]) for k in kept),
                [letters[k] if k < len(letters) else "" for k in kept])

    def _flat(self, obj: dict[str, object], roles: Roles) -> _Listed:
        keys = [k for k in roles.flat if (t := cv.choice_text(obj.get(k))) is not None
                and t.strip()]
        texts = [str(cv.choice_text(obj[k])).strip() for k in keys]
        letters = [cv.LETTERS[roles.flat.index(k)] for k in keys]
        if roles.flat_labels:  # each choice's own label beside it: "(2)" names the second
            letters = [str(cv.choice_text(obj.get(roles.flat_labels[roles.flat.index(k)]))
                           or letters[n]).strip().upper() for n, k in enumerate(keys)]
        return texts, None, letters, True

    def _listed(self, obj: dict[str, object], where: Path_, roles: Roles) -> _Listed | None:
        key = next((k for k in roles.choice_keys if cv.choice_list(obj.get(k)) is not None),
                   roles.choices or "")
        value = obj.get(key)
        if isinstance(value, list) and (by_letter := cv.lettered(value)) is not None:
            value = by_letter
        listed = cv.choice_list(value)
        trivia = roles.wrong and key == roles.choices
        if listed is None and trivia and isinstance(value, list) and value and all(
                isinstance(c, str) for c in value):
            listed = value  # one wrong answer beside the right one: a true/false question
        if listed is None and roles.flat and sum(
                cv.choice_text(obj.get(k)) is not None for k in roles.flat) >= 2:
            return self._flat(obj, roles)  # this one's choices are written flat
        told = (roles.prompt, roles.explanation or "", roles.topic or "")
        if listed is None and value is None and (truths := aligned(obj, told)) is not None:
            return truths[1], truths[2], list(cv.LETTERS), False  # each text's truth
        if listed is None and trivia and _empty(value):
            self.fail("E702", (*where, key), "only one choice: the right answer, with no wrong "
                      "ones beside it")
            return None
        if listed is None:
            if value is None:
                self.fail("E702", where, unpaired(obj, told) or "no choices (" + " or ".join(
                    map(repr, roles.choice_keys)) + " is not there)")
            else:
                self.fail("E702", (*where, key), "not a list of at least two choices")
            return None
        letters = [str(k).strip().upper() for k in value] if isinstance(value, dict) else \
            list(cv.LETTERS)
        texts: list[str] = []
        marks: list[bool] = []
        for k, c in enumerate(listed):
            one = self._one(c, roles, (*where, key, k))
            if one is None:
                return None
            texts.append(one[0])
            marks.append(one[1])
        if roles.label is not None and all(isinstance(c, dict) and roles.label in c
                                           for c in listed):
            letters = [str(c[roles.label]).strip().upper() for c in listed]  # type: ignore[index]
        found: list[bool] | None = marks if any(marks) else None
        if found is None and trivia and (right := _right_texts(answer_of(obj, roles.answers))):
            # {"correct_answer": …, "incorrect_answers": […]}: the right one, then the rest
            if (twice := _also_wrong(right, texts)) is not None:
                self.fail("E703", (*where, key), f"the right answer {clip(twice)!r} is also "
                          "listed among the wrong ones; delete it from one of them")
                return None
            return ([*right, *texts], [True] * len(right) + [False] * len(texts),
                    list(cv.LETTERS), False)
        return texts, found, letters, False

    def _one(self, c: object, roles: Roles, where: Path_) -> tuple[str, bool] | None:
        """One choice's text and whether it is marked right."""
        if not isinstance(c, dict):
            return str(cv.choice_text(c)).strip(), False
        if (marked := cv.marked(c)) is not None and roles.text is None:
            return marked.strip(), True
        text = c.get(roles.text) if roles.text else None
        said = cv.choice_text(text)
        if said is None or isinstance(text, bool):
            self.fail("E702", where, f"a choice without its text {roles.text!r}")
            return None
        return said.strip(), roles.flag is not None and _truthy(c.get(roles.flag))

    def answer(self, value: object, texts: list[str], letters: list[str], roles: Roles,
               where: Path_) -> set[int] | None:
        picked: set[int] = set()
        listed = as_list(value)
        if isinstance(value, str) and _text_index(value, texts, letters) is None and (
                several := indexes_in(value, len(texts))) is not None:
            listed = list(several)  # "2,3": two choices by number
        for one in listed:
            index = self._answer_one(one, texts, letters, roles, where)
            if index is None:
                return None
            picked.update(index)
        if not picked:
            self.fail("E703", where, "the answer is empty")
            return None
        return picked

    def _answer_one(self, one: object, texts: list[str], letters: list[str], roles: Roles,
                    where: Path_) -> set[int] | None:
        if isinstance(one, bool):
            one = cv.choice_text(one)  # true: the choice "True"
        if isinstance(one, str) and len(same := [k for k, t in enumerate(texts)
                                                 if t == one.strip()]) > 1:
            return set(same)  # a choice listed twice, named: each copy (convert.py keeps one)
        index = _text_index(one, texts, letters)
        if index is None and isinstance(one, str) and (bare := cv.without_link(one)) != one:
            index = _text_index(bare, texts, letters)  # "Lisbon https://…"
        if index is not None:
            return {index}
        number = number_of(one, texts)
        if number is not None:
            if roles.base is None:
                self.fail("E703", where, (
                    f"the answer {one!r} may count from 0 or 1 (no answer is 0 or its "
                    f"number of choices); say which: --map {roles.answer}=answer0 or "
                    "answer1"))
                return None
            if 0 <= number - roles.base < len(texts):
                return {number - roles.base}
        elif isinstance(one, str) and letters[:1] == ["A"] and \
                (several := cv.letters_in(one, len(texts))) is not None:
            return set(several)
        counted = "" if roles.base is None else f" counted from {roles.base}"
        shown = clip(one) if isinstance(one, str) else one
        self.fail("E703", where, f"the answer {shown!r} names none of the "
                  f"{len(texts)} choices (an index{counted}, a letter or a choice's text)")
        return None


# --- finding the lists ----------------------------------------------------------------------

def _question_like(obj: object) -> bool:
    """Whether ``obj`` can be one question: a text and something that can be its
    choices, and no list of questions inside it (an object holding one is a group of
    questions, a quiz or a topic, whatever other lists it holds beside them)."""
    return _one_question(obj) and not _holds_questions(obj)  # type: ignore[arg-type]


def _one_question(obj: object) -> bool:
    if not isinstance(obj, dict):
        return False
    has_text = any(isinstance(v, str) and v.strip() for v in obj.values())
    has_choices = any(cv.choice_list(v) is not None or cv.wrong_answers(k, v)
                      for k, v in obj.items()) or len(cv.flat_keys(obj)) >= 2
    return has_text and has_choices


def _holds_questions(obj: dict[str, object]) -> bool:
    """Whether one of ``obj``'s values is a list of questions (most of its objects
    questions): then ``obj`` groups them (a quiz of one question too)."""
    for value in obj.values():
        if isinstance(value, list) and value:
            objects = [v for v in value if isinstance(v, dict)]
            questions = sum(_one_question(v) for v in objects)
            if questions and 2 * questions >= len(objects):
                return True
    return False


def _columns(objects: list[tuple[int, dict[str, object]]]) -> bool:
    """Whether a list of objects none of which is question-like by itself is a bank whose
    choices are columns named otherwise (a spreadsheet's ``Opcion_A`` …): the values of
    the whole list say (importing/values.py)."""
    if len(objects) < 2:
        return False
    rows = [v for _, v in objects]
    keys = list(dict.fromkeys(k for v in rows for k in v))
    return len(choice_columns(rows, keys)) >= 2


def find_lists(data: object) -> list[Found]:
    """Every list whose objects are mostly question-like, in the data's order (not inside
    a question), each with the title its place gives; lists of rows whose choices are
    columns told by their values (``_columns``) only where no list is question-like, so
    that a table beside a bank never changes how the bank is read. Iterative: any depth,
    no recursion."""
    found: list[Found] = []
    tables: list[Found] = []
    stack: list[tuple[object, Path_, str]] = [(data, (), "")]
    while stack:
        value, path, title = stack.pop()
        if isinstance(value, list):
            objects = [(i, v) for i, v in enumerate(value) if isinstance(v, dict)]
            like = [(i, v) for i, v in objects if _question_like(v)]
            # Questions of other kinds (a fill-in without choices) beside them are still
            # questions: they share a text key with the multiple-choice ones.
            texts = {k for _, v in like for k, x in v.items() if isinstance(x, str)}
            kin = [i for i, v in objects if any(isinstance(v.get(k), str) for k in texts)]
            table = not like and not found and _columns(objects)
            if (like and 2 * len(kin) >= len(objects)) or table:
                # Every element, question-like or not: each one that does not convert is
                # named at its place, never dropped without a word.
                (tables if table else found).append(Found(
                    path, tuple(((*path, i), v) for i, v in enumerate(value)), title))
                continue
            stack.extend((v, (*path, i), title) for i, v in reversed(list(enumerate(value)))
                         if isinstance(v, (list, dict)))
        elif isinstance(value, dict):
            if _question_like(value):
                continue
            named = _title(value)
            children = []
            for k, v in value.items():
                if isinstance(v, (list, dict)):
                    # a function's name (calls of "addQuestion()") is no topic: the file's
                    here = named or ("" if cv.norm(str(k)) in _GENERIC or str(k).endswith("()")
                                     else _humane(str(k)))
                    children.append((v, (*path, k), here or title))
            stack.extend(reversed(children))
    return found or tables


_TITLE_KEYS = ("title", "name", "topic", "category", "subject")


def _title(value: dict[str, object]) -> str:
    """The title an object gives the questions inside it: its ``title`` (``name``,
    ``topic``…), else a key ending so (``quiz_name``, ``quizTitle``); "" if none."""
    named = next((v for k in _TITLE_KEYS if isinstance(v := value.get(k), str) and v.strip()),
                 None)
    if named is None:
        named = next((v for k, v in value.items() if isinstance(v, str) and v.strip()
                      and cv.norm(str(k)).endswith(_TITLE_KEYS)), "")
    return named


def _humane(key: str) -> str:
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", key).replace("_", " ").replace("-", " ")
    return " ".join(w[:1].upper() + w[1:] for w in words.split())


# --- helpers -----------------------------------------------------------------------------------

def _lift(objects: list[dict[str, object]], overrides: Mapping[str, str]) -> None:
    """A --map key path into a nested object of the question (``meta.why=explanation``)
    made a key of the question itself, so a role can be given to it."""
    for key, role in overrides.items():
        if "." not in key or role.startswith("choice-"):
            continue
        parts = key.split(".")
        for o in objects:
            value: object = o
            for part in parts:
                value = value.get(part) if isinstance(value, dict) else None
            if value is not None and key not in o:
                o[key] = value


def _prompt(obj: dict[str, object], keys: tuple[str, ...], html: bool = False,
            lines: bool = True) -> str:
    """The prompt a reader sees: the texts under ``keys`` in order, a paragraph each (a
    list of text lines, one line each; HTML as Markdown if the bank's texts are HTML);
    "" if none holds text."""
    parts = []
    for key in keys:
        value = obj.get(key)
        if isinstance(value, list) and all(isinstance(x, str) for x in value):
            value = "\n\n".join(x.strip() for x in value if x.strip())
        if isinstance(value, str) and value.strip():
            parts.append(html_to_markdown(value).strip() if html else value.strip())
    return as_text("\n\n".join(p for p in parts if p), hard=lines and not html)


# A line a question file reads as structure, not text: a choice ("- x"), or a line written
# like one ("* x", "• x", "A) x", "-x"), which its Markdown escape (an entity for a
# bullet or a dash, which have none) keeps text.
_STRUCTURE_RE = re.compile(r"^(\s*)(?:(-(?=\s|[^\W\d_]|$)|[*+](?=\s))|([A-Ja-j])([).])(?=\s)"
                           r"|([•–—])(?=\s))")
_ENTITIES = {"•": "&bull;", "–": "&ndash;", "—": "&mdash;"}


def as_text(text: str, hard: bool = False) -> str:
    """A prompt's text, each line after its first (which follows "Question N:") that the
    format would take for a choice escaped as Markdown escapes it (``\\- Active log``:
    shown as written), code in fences left as it is; a list ends where its lines do, and
    with ``hard`` each line stays a line (``lines_after_lists``)."""
    if "\n" not in text:
        return text
    lines = text.split("\n")
    fenced = False
    for k, line in enumerate(lines):
        if not k:
            fenced = FENCE_RE.match(line) is not None
        elif FENCE_RE.match(line):
            fenced = not fenced
        elif not fenced:
            lines[k] = _STRUCTURE_RE.sub(_escaped, line, count=1)
    return lines_after_lists("\n".join(lines), hard)


def _runs_on(before: str, line: str) -> bool:
    """Whether Markdown would run ``line`` on into the paragraph line ``before`` (a line
    of text after a line of text; a table's rows and a heading are left as they are)."""
    return bool(line.strip()) and not any(
        x.lstrip().startswith(("|", "#")) for x in (before, line))


def _hard_break(line: str) -> str:
    """``line`` ending in a hard break. A backslash it already ends with is its text
    ('C:\\'), which Markdown would take for the break and drop: it is escaped first."""
    trailing = len(line) - len(line.rstrip("\\"))
    return line + ("\\" if trailing % 2 else "") + "\\"


# A line Markdown reads as a list's item: "1. x", "2) x", "- x", "* x", "+ x".
_ITEM_RE = re.compile(r"^ {0,3}(?:\d{1,9}[.)]|[-*+])[ \t]+\S")
# The items that begin a list on a paragraph's next line: "1." (not "2.") or a bullet.
_OPENS_RE = re.compile(r"^ {0,3}(?:0{0,8}1[.)]|[-*+])[ \t]")


def lines_after_lists(text: str, hard: bool = False) -> str:
    """A structured bank's text as Markdown keeps its lines: a line written after a list's
    last item, not indented under it ("1. …", "2. …", then "Which of these…?"), is the
    author's next line, not more of that item (which Markdown would make it), so a blank
    line ends the list before it. With ``hard`` (a plain text, not HTML, whose line
    breaks its app shows), a line after a paragraph's line stays a line of its own: a
    hard break (``\\``) ends the line before it, which Markdown would else run on into
    it. Code in fences and tables are left as they are."""
    if "\n" not in text:
        return text
    out: list[str] = []
    fenced = item = False
    paragraph = False  # the line before is a paragraph's, which only "1." or "-" interrupts
    for line in text.split("\n"):
        if FENCE_RE.match(line):
            fenced = not fenced
            item = paragraph = False
        elif not fenced:
            starts = _ITEM_RE.match(line)
            if starts and paragraph and not item and not _OPENS_RE.match(line):
                starts = None  # "2. …" inside a paragraph: no list
            if item and not starts and line.strip() and not line[:1].isspace():
                out.append("")  # the author's next line, not more of the item
            elif hard and paragraph and not starts and _runs_on(out[-1], line):
                out[-1] = _hard_break(out[-1])
            item = starts is not None or (item and line[:1].isspace() and bool(line.strip()))
            paragraph = bool(line.strip()) and not item
        out.append(line)
    return "\n".join(out)


def _escaped(match: re.Match[str]) -> str:
    if match[5]:
        return f"{match[1]}{_ENTITIES[match[5]]}"
    if match[2]:
        return f"{match[1]}\\{match[2]}"
    return f"{match[1]}{match[3]}\\{match[4]}"


def _empty(value: object) -> bool:
    return value is None or value in ("", [], {}) or (isinstance(value, str)
                                                       and not value.strip())


def _truthy(value: object) -> bool:
    return value is True or value == 1 or (isinstance(value, str) and
                                           value.strip().casefold() in ("true", "yes", "1"))


def _right_texts(value: object) -> list[str]:
    """The right answers' texts beside a list of the wrong ones: a text, or a list of
    texts (several right); [] if it is neither."""
    given = as_list(value)
    if not given or not all(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                            and str(v).strip() for v in given):
        return []
    return [str(v).strip() for v in given]


def _also_wrong(right: list[str], wrong: list[str]) -> str | None:
    """The first right answer the list of the wrong ones also holds (however spaced or
    quoted), else None."""
    listed = {cv.loose(t) for t in wrong}
    return next((r for r in right if cv.loose(r) in listed), None)


def _text_index(value: object, texts: list[str], letters: list[str]) -> int | None:
    """The choice ``value`` names by its text or its letter; None if it is no such name."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    exact = [k for k, t in enumerate(texts) if t == text]
    if len(exact) == 1:
        return exact[0]
    folded = [k for k, t in enumerate(texts) if t.casefold() == text.casefold()]
    if len(folded) == 1:
        return folded[0]
    near = [k for k, t in enumerate(texts) if cv.loose(t) == cv.loose(text)] \
        if len(text) > 1 else []
    if len(near) == 1:
        return near[0]  # the same words, spaced or quoted otherwise
    labelled = [k for k, x in enumerate(letters[:len(texts)]) if x == text.upper()]
    if len(labelled) == 1:
        return labelled[0]  # a choice's own label: "B", "1" of {value: "1", label: …}
    match = _LETTER_RE.match(text)
    if match:
        letter = match[1].upper()
        if letter in letters[:len(texts)]:
            return letters.index(letter)
    return None


def path_text(path: Path_) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
                   for i, p in enumerate(path)) or "(the document)"
