"""Structured banks (JSON, JavaScript/TypeScript literals, spreadsheets) read by their
shape, not by a list of key names.

A bank is any list of question-like objects, wherever it sits in the data: the top level,
under any key, several lists (several topic parts). An object is question-like when one of
its values can be a prompt (text) and one can be the choices: a list of at least two texts,
a list of objects each with a text, an object of texts by letter (``{"A": …, "B": …}``),
or flat keys ``A`` … ``J`` / ``option1`` … / ``optionA`` … (a spreadsheet's row).

Which key plays which part is decided once for the whole bank (``Roles``), from the values
first and the key's name second, and said once (W704) so the author can check it; ``--map
KEY=ROLE`` overrides any of it. The answer may be a 0- or 1-based index (the base decided
over the whole bank: a 0 anywhere means from 0, an index equal to a question's number of
choices means from 1; if neither, the bank could be read two ways, and the author is asked
to say which rather than the importer guessing), a letter, a choice's text, a list of
these, or a true flag on each correct choice object. An answer given as text is compared
with the choices' texts before it is read as a number, so a choice "2" is never mistaken
for an index.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing.bank import Choice, Item, Section, one_line

LETTERS = "ABCDEFGHIJ"
ROLES = ("prompt", "choices", "answer", "answer0", "answer1", "explanation", "topic",
         "ignore")
Path_ = tuple[object, ...]

# Names that say a key's part, compared without case, "_", "-" or spaces; earlier is likelier.
_HINTS = {
    "prompt": ("question", "prompt", "questiontext", "stem", "query", "q", "text", "title",
               "body", "content"),
    "choices": ("choices", "options", "answers", "alternatives", "answeroptions",
                "responses", "opts", "possibleanswers", "answerchoices", "variants"),
    "answer": ("correct", "answer", "correctanswer", "correctanswers", "correctanswerindex",
               "correctindex", "correctoption", "correctoptions", "correctchoice",
               "rightanswer", "solution", "key", "answerkey", "answerindex", "right"),
    "explanation": ("explanation", "rationale", "feedback", "reason", "explain", "why",
                    "answerexplanation", "explanations", "solutionexplanation", "details",
                    "description", "reference", "notes", "note"),
    "topic": ("category", "topic", "domain", "section", "subject", "module", "chapter",
              "area", "objective"),
}
# A choice object's text, and its "this one is correct" flag.
_TEXT_HINTS = ("text", "value", "label", "content", "option", "answer", "body", "title",
               "choice")
_FLAG_HINTS = ("correct", "iscorrect", "iscorrectanswer", "isanswer", "right", "isright",
               "answer", "valid", "istrue", "true")
# Flat choice columns: "A", "option1", "Option A", "choice_b", "answer3", "ans_c", "c2".
_FLAT_RE = re.compile(r"^(?:option|choice|answer|ans|opt|alternative|ch|c|o)?[ _-]?"
                      r"([a-j]|10|[1-9])$", re.I)
# An answer written as a letter: "B", "b", "(B)", "B)", "B.", "Option B", "Choice B".
_LETTER_RE = re.compile(r"^(?:option|choice|answer)?\s*\(?([A-Ja-j])[).:]?$", re.I)
_LETTERS_RE = re.compile(r"^[A-J](?:\s*[,;/&]\s*[A-J]|\s+and\s+[A-J])+$|^[A-J]{2,10}$")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_GENERIC = frozenset("questions items data quiz quizzes bank list entries records results "
                     "default exports module.exports".split())


def norm(key: str) -> str:
    return re.sub(r"[\s_\-.]+", "", key).casefold()


@dataclass(frozen=True)
class Roles:
    """What each key of one bank's question objects was read as."""

    prompt: str
    choices: str | None  # None: flat choice keys (``flat``)
    choice_keys: tuple[str, ...] = ()  # every key that may hold the choices, likeliest first
    flat: tuple[str, ...] = ()  # the flat choice keys, in order
    answer: str | None = None  # the first of ``answers`` (said, and named by --map)
    answers: tuple[str, ...] = ()  # every key that may hold the answer, likeliest first
    base: int | None = None  # how integer answers count: 0, 1, or None (undecided)
    base_said: str = ""  # why that base
    text: str | None = None  # a choice object's text key
    flag: str | None = None  # a choice object's correctness flag
    label: str | None = None  # a choice object's own letter ("B"), if it has one
    explanation: str | None = None
    topic: str | None = None
    ignored: tuple[str, ...] = ()

    def said(self) -> str:
        parts = [f"{self.prompt!r} as the prompt"]
        if self.choices is not None:
            parts.append(f"{self.choices!r} as the choices" + (
                f" (or {', '.join(repr(k) for k in self.choice_keys[1:])})"
                if len(self.choice_keys) > 1 else ""))
        else:
            parts.append(f"{', '.join(repr(k) for k in self.flat)} as the choices")
        if self.text is not None:
            parts.append(f"each choice's {self.text!r} as its text")
        if self.flag is not None:
            parts.append(f"each choice's {self.flag!r} as its mark")
        if self.label is not None:
            parts.append(f"each choice's {self.label!r} as its letter")
        if self.answer is not None:
            base = "" if self.base is None else f", counted from {self.base}{self.base_said}"
            parts.append(f"{self.answer!r} as the correct choice{base}")
            if len(self.answers) > 1:
                parts.append(f"{', '.join(repr(k) for k in self.answers[1:])} as the correct "
                             f"choice where {self.answer!r} is not there")
        if self.explanation is not None:
            parts.append(f"{self.explanation!r} as the explanation")
        if self.topic is not None:
            parts.append(f"{self.topic!r} as the topic")
        if self.ignored:
            parts.append(f"left out {', '.join(repr(k) for k in self.ignored)}")
        return "; ".join(parts)


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

    def fail(self, code: str, where: Path_, message: str) -> None:
        self.problems.append(error(code, self.path, self.line_of(where),
                                   f"{self.shown(where)}{message}; not converted"))

    def read(self, data: object, *, default_title: str,
             is_code: Callable[[object], str | None] = lambda v: None) -> tuple[Section, ...]:
        self.is_code = is_code
        lists = find_lists(data)
        if not lists:
            return ()
        objects = [o for found in lists for _, o in found.objects if isinstance(o, dict)]
        roles = self.roles(objects)
        if roles is None:
            return ()
        self.problems.append(warning("W704", self.path, self.line_of(lists[0].path), (
            f"read {len(objects)} {self.noun}"
            + (f" in {len(lists)} lists" if len(lists) > 1 else "")
            + f": {roles.said()}; if that is wrong, say what a key is with --map KEY=ROLE "
            "(roles: " + ", ".join(ROLES) + ")")))
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
            sections += [Section(title=title, items=tuple(items), path=self.path)
                         for title, items in by_topic.items()]
        return tuple(sections)

    # --- the roles ------------------------------------------------------------------------

    def roles(self, objects: list[dict[str, object]]) -> Roles | None:
        keys = Counter(k for o in objects for k in o)
        given = {k: r for k, r in self.overrides.items() if k in keys}  # this bank's keys
        fits: dict[str, Counter[str]] = {role: Counter() for role in
                                         ("prompt", "choices", "answer")}
        for o in objects:
            for k, v in o.items():
                if isinstance(v, str) and v.strip():
                    fits["prompt"][k] += 1
                if _choice_list(v) is not None:
                    fits["choices"][k] += 1
        choices = _pick(given, "choices", fits["choices"], keys, len(objects))
        flat: tuple[str, ...] = ()
        if choices is None:
            flat = _flat_keys(keys)
            if len(flat) < 2:
                first = next(iter(keys), "")
                self.problems.append(error("E701", self.path, self.line_of(()), (
                    "found a list of objects but none of their keys holds a list of choices "
                    f"(keys: {', '.join(repr(k) for k in list(keys)[:8])}); say which is with "
                    f"--map KEY=choices{'' if not first else ''}; nothing converted")))
                return None
        choice_keys: tuple[str, ...] = ()
        if choices is not None:
            others = [k for k in fits["choices"] if k != choices and k not in given
                      and norm(k) in _HINTS["choices"]]
            choice_keys = (choices, *sorted(others, key=lambda k: _HINTS["choices"].index(
                norm(k))))
        taken = {*choice_keys, *flat}
        prompt = _pick(given, "prompt", Counter({k: n for k, n in fits["prompt"].items()
                                                 if k not in taken}), keys, len(objects),
                       longest=objects)
        if prompt is None:
            self.problems.append(error("E701", self.path, self.line_of(()), (
                "found a list of objects with choices but no key that holds the question's "
                "text; say which is with --map KEY=prompt; nothing converted")))
            return None
        taken.add(prompt)
        text = flag = label = None
        if choices is not None:
            inner = [c for o in objects for k in choice_keys
                     if isinstance(listed := o.get(k), list)
                     for c in listed if isinstance(c, dict)]
            if inner and not all(_marked(c) is not None for c in inner):
                text, flag = _choice_keys(inner)
                label = next((k for k in Counter(k for c in inner for k in c)
                              if k not in (text, flag) and all(
                                  isinstance(c.get(k), str) and re.fullmatch(
                                      r"[A-Ja-j]", str(c.get(k)).strip())
                                  for c in inner)), None)
        answer = next((k for k, r in given.items() if r in ("answer", "answer0", "answer1")),
                      None)
        answers: tuple[str, ...] = (answer,) if answer is not None else tuple(
            k for _, k in sorted((_HINTS["answer"].index(norm(k)), k) for k in keys
                                 if k not in taken and norm(k) in _HINTS["answer"]))
        answer = answers[0] if answers else None
        taken.update(answers)
        explanation = _given(given, "explanation") or _named(
            [k for k in keys if k not in taken and k != answer and _mostly_text(objects, k)],
            "explanation")
        topic = _given(given, "topic") or _named(
            [k for k in keys if k not in taken and k not in (answer, explanation)
             and _mostly_text(objects, k, short=True)], "topic")
        ignored = tuple(k for k in keys if k not in taken and k not in
                        (answer, explanation, topic))
        base, why = self.base(objects, choices, flat, answers, given.get(answer or "", ""))
        return Roles(prompt=prompt, choices=choices, choice_keys=choice_keys, flat=flat,
                     answer=answer,
                     answers=answers, base=base,
                     base_said=why, text=text, flag=flag, label=label,
                     explanation=explanation,
                     topic=topic, ignored=ignored)

    @staticmethod
    def base(objects: list[dict[str, object]], choices: str | None, flat: tuple[str, ...],
             answers: tuple[str, ...], role: str) -> tuple[int | None, str]:
        if role in ("answer0", "answer1"):
            return int(role[-1]), " (--map)"
        if not answers:
            return None, ""
        answer = answers[0]
        # Which base fits more of the bank's answers: an index outside its question's
        # choices under one reading is a misfit of that reading.
        misfit = [0, 0]
        seen_zero = False
        for o in objects:
            texts = _texts_of(o, choices, flat)
            if texts is None:
                continue
            for value in _as_list(_answer_of(o, answers)):
                number = _number(value, texts)
                if number is None:
                    continue
                seen_zero |= number == 0
                misfit[0] += not 0 <= number < len(texts)
                misfit[1] += not 1 <= number <= len(texts)
        if misfit[0] < misfit[1] or (misfit[0] == misfit[1] and misfit[0] and seen_zero):
            return 0, " (an answer is 0)" if seen_zero else " (that fits more answers)"
        if misfit[1] < misfit[0] or misfit[1]:
            return 1, " (an answer equals its number of choices)"
        if "index" in norm(answer) or "idx" in norm(answer):
            return 0, f" (the name {answer!r} says index)"
        return None, ""  # every number fits both readings: the author says which

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
        prompt = obj.get(roles.prompt)
        if not isinstance(prompt, str) or not prompt.strip():
            self.fail("E702", where, f"no question text under {roles.prompt!r}")
            return None
        explanation = obj.get(roles.explanation, "") if roles.explanation else ""
        if isinstance(explanation, list) and all(isinstance(e, str) for e in explanation):
            explanation = "\n\n".join(explanation)
        if explanation is None:
            explanation = ""
        if not isinstance(explanation, str):
            self.fail("E702", where, f"the explanation {roles.explanation!r} is not text")
            return None
        choices = self.choices(obj, where, roles)
        if choices is None:
            return None
        for text in (prompt, explanation, *(c.text for c in choices)):
            if _SURROGATE_RE.search(text):
                self.fail("E702", where, "holds a lone UTF-16 surrogate (an escape such as "
                          "\\ud800 that is half a character); write the character itself")
                return None
        return Item(prompt=prompt.strip(), choices=choices, explanation=explanation.strip(),
                    path=self.path, line=self.line_of(where),
                    where=self.shown(where).removesuffix(": "))

    def choices(self, obj: dict[str, object], where: Path_, roles: Roles
                ) -> tuple[Choice, ...] | None:
        letters = list(LETTERS)
        if roles.choices is None:
            keys = [k for k in roles.flat if isinstance(obj.get(k), str) and
                    str(obj[k]).strip()]
            texts = [str(obj[k]).strip() for k in keys]
            letters = [_flat_letter(k) for k in keys]
            marks: list[bool] | None = None
        else:
            key = next((k for k in roles.choice_keys if _choice_list(obj.get(k)) is not None),
                       roles.choices)
            value = obj.get(key)
            listed = _choice_list(value)
            if listed is None:
                if value is None:
                    named = " or ".join(map(repr, roles.choice_keys))
                    self.fail("E702", where, f"no choices ({named} is not there)")
                else:
                    self.fail("E702", (*where, key), "not a list of at least two choices")
                return None
            if isinstance(value, dict):
                letters = [str(k).strip().upper() for k in value]
            texts, marks = [], []
            for k, c in enumerate(listed):
                if isinstance(c, str):
                    texts.append(c.strip())
                    marks.append(False)
                    continue
                if (marked := _marked(c)) is not None and roles.text is None:
                    texts.append(marked.strip())
                    marks.append(True)
                    continue
                if not isinstance(c, dict):
                    self.fail("E702", (*where, key, k), "a choice is neither text "
                              "nor an object with a text")
                    return None
                text = c.get(roles.text) if roles.text else None
                if not isinstance(text, (str, int, float)) or isinstance(text, bool):
                    self.fail("E702", (*where, key, k),
                              f"a choice without its text {roles.text!r}")
                    return None
                texts.append(str(text).strip())
                marks.append(roles.flag is not None and _truthy(c.get(roles.flag)))
            if roles.label is not None and all(isinstance(c, dict) and roles.label in c
                                               for c in listed):
                letters = [str(c[roles.label]).strip().upper() for c in listed]  # type: ignore[index]
            if not any(marks):
                marks = None
        if roles.choices is not None and re.search(r"incorrect|wrong|distract|other",
                                                   norm(key)) and marks is None \
                and isinstance(right := _answer_of(obj, roles.answers), str):
            # {"correct_answer": …, "incorrect_answers": […]}: the right one, then the rest
            texts, marks = [right.strip(), *texts], [True] + [False] * len(texts)
            letters = list(LETTERS)
        if len(texts) < 2:
            self.fail("E702", where, "no choices: not a multiple-choice question (a fill-in "
                      "or a short answer?)" if not texts else "only one choice")
            return None
        if marks is None:
            found = next((k for k in roles.answers if obj.get(k) not in (None, "", [])), None)
            if found is None:
                self.fail("E703", where, "no correct answer" + (
                    f" under {' or '.join(repr(k) for k in roles.answers)}" if roles.answers
                    else " (no key holds it; say which with --map KEY=answer)"))
                return None
            picked = self.answer(obj[found], texts, letters, roles, (*where, found))
            if picked is None:
                return None
            marks = [k in picked for k in range(len(texts))]
        return tuple(Choice(t, m) for t, m in zip(texts, marks))

    def answer(self, value: object, texts: list[str], letters: list[str], roles: Roles,
               where: Path_) -> set[int] | None:
        wanted = _as_list(value)
        if len(wanted) == 1 and isinstance(wanted[0], str) and \
                _LETTERS_RE.match(wanted[0].strip().upper()) and \
                not any(t.casefold() == wanted[0].strip().casefold() for t in texts):
            wanted = re.findall(r"[A-J]", wanted[0].upper().replace("AND", ""))
        picked: set[int] = set()
        for one in wanted:
            index = _text_index(one, texts, letters)
            if index is None:
                number = _number(one, texts)
                if number is not None:
                    if roles.base is None:
                        self.fail("E703", where, (
                            f"the answer {one!r} is a number, and this bank's numbers could "
                            "count from 0 or from 1 (no answer is 0, none equals its number "
                            f"of choices); say which with --map {roles.answer}=answer0 or "
                            f"--map {roles.answer}=answer1"))
                        return None
                    index = number - roles.base
                    if not 0 <= index < len(texts):
                        index = None
            if index is None:
                counted = "" if roles.base is None else f" counted from {roles.base}"
                self.fail("E703", where, f"the answer {one!r} names none of the {len(texts)} "
                          f"choices (an index{counted}, a letter or a choice's text)")
                return None
            picked.add(index)
        if not picked:
            self.fail("E703", where, "the answer is empty")
            return None
        return picked


# --- finding the lists ----------------------------------------------------------------------

def _choice_list(value: object) -> list[object] | None:
    """The choices, if ``value`` can be a question's choices. (Asked of every value of
    every object: the common answers, a text or a list of texts, are told first.)"""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return None
    if kind is list:
        items: list[object] = value  # type: ignore[assignment]
        if len(items) < 2:
            return None
        if all(type(v) is str or _marked(v) is not None for v in items):
            return items  # texts, the right ones perhaps written {"correct": text}
        if all(isinstance(v, dict) and _choice_object(v) for v in items):
            return items
        return None
    if isinstance(value, dict) and len(value) >= 2 and all(
            isinstance(v, str) for v in value.values()) and all(
            _FLAT_RE.match(str(k)) for k in value):
        return list(value.values())
    return None


# A choice marked right by a one-key mapping around its text: {"correct": "Lisbon"}.
_MARK_KEYS = frozenset({"correct", "right", "true", "answer", "x", "yes"})


def _marked(value: object) -> str | None:
    """The text of a choice written ``{correct: text}``, else None."""
    if isinstance(value, dict) and len(value) == 1:
        (key, text), = value.items()
        if str(key).casefold() in _MARK_KEYS and isinstance(text, (str, int, float)) \
                and not isinstance(text, bool):
            return str(text)
    return None


def _choice_object(value: dict[str, object]) -> bool:
    """Whether ``value`` can be one choice: plain values only, one of them a text or a
    number (a question object, with lists inside, cannot)."""
    plain = False
    for x in value.values():
        if isinstance(x, (list, dict)):
            return False
        plain = plain or (isinstance(x, (str, int, float)) and not isinstance(x, bool))
    return plain


def _flat_letter(key: str) -> str:
    """The letter a flat choice key stands for: "option2" -> "B", "Option C" -> "C"."""
    match = _FLAT_RE.match(key)
    found = match[1].upper() if match else key
    return LETTERS[int(found) - 1] if found.isdigit() else found


def _flat_keys(keys: Iterable[str]) -> tuple[str, ...]:
    found = [(m[1].upper(), k) for k in keys if (m := _FLAT_RE.match(k))]
    letters = [(LETTERS.index(x) if not x.isdigit() else int(x) - 1, k) for x, k in found]
    by_index = dict(sorted(letters))
    ordered = []
    for i in range(len(LETTERS)):
        if i not in by_index:
            break
        ordered.append(by_index[i])
    return tuple(ordered)


def _question_like(obj: object) -> bool:
    if not isinstance(obj, dict):
        return False
    has_text = any(isinstance(v, str) and v.strip() for v in obj.values())
    has_choices = any(_choice_list(v) is not None for v in obj.values()) or \
        len(_flat_keys(obj)) >= 2
    return has_text and has_choices


def find_lists(data: object) -> list[Found]:
    """Every list whose objects are mostly question-like, in the data's order (not inside
    a question), each with the title its place gives. Iterative: any depth, no recursion."""
    found: list[Found] = []
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
            if like and 2 * len(kin) >= len(objects):
                # Every element, question-like or not: each one that does not convert is
                # named at its place, never dropped without a word.
                found.append(Found(path, tuple(((*path, i), v) for i, v in enumerate(value)),
                                   title))
                continue
            stack.extend((v, (*path, i), title) for i, v in reversed(list(enumerate(value)))
                         if isinstance(v, (list, dict)))
        elif isinstance(value, dict):
            if _question_like(value):
                continue
            named = next((v for k in ("title", "name", "topic", "category", "subject")
                          if isinstance(v := value.get(k), str) and v.strip()), "")
            children = []
            for k, v in value.items():
                if isinstance(v, (list, dict)):
                    here = named or ("" if norm(str(k)) in _GENERIC else _humane(str(k)))
                    children.append((v, (*path, k), here or title))
            stack.extend(reversed(children))
    return found


def _humane(key: str) -> str:
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", key).replace("_", " ").replace("-", " ")
    return " ".join(w[:1].upper() + w[1:] for w in words.split())


# --- helpers -----------------------------------------------------------------------------------

def _pick(given: Mapping[str, str], role: str, fits: Counter[str], keys: Counter[str],
          total: int, longest: list[dict[str, object]] | None = None) -> str | None:
    if (named := _given(given, role)) is not None:
        return named
    candidates = [k for k, n in fits.items() if 2 * n >= total and given.get(k) != "ignore"
                  and k not in given]
    if not candidates:
        return None
    hinted = _named(candidates, role)
    if hinted is not None:
        return hinted
    if longest is not None:  # the prompt: the longest texts
        return max(candidates, key=lambda k: (sum(len(str(o.get(k, ""))) for o in longest),
                                              k))
    return max(candidates, key=lambda k: (fits[k], k))


def _given(given: Mapping[str, str], role: str) -> str | None:
    return next((k for k, r in given.items() if r == role), None)


def _named(keys: list[str], role: str) -> str | None:
    hints = _HINTS[role]
    ranked = [(hints.index(norm(k)), k) for k in keys if norm(k) in hints]
    return min(ranked)[1] if ranked else None


def _choice_keys(choices: list[dict[str, object]]) -> tuple[str | None, str | None]:
    keys = Counter(k for c in choices for k in c)
    texty = [k for k in keys if all(isinstance(c.get(k), (str, int, float)) and
                                    not isinstance(c.get(k), bool) for c in choices
                                    if k in c) and keys[k] * 2 >= len(choices)]
    flags = [k for k in keys if all(_is_flag(c.get(k)) for c in choices if k in c)]
    flag = min(flags, key=lambda k: (_FLAG_HINTS.index(norm(k)) if norm(k) in _FLAG_HINTS
                                     else 99, k)) if flags else None
    texty = [k for k in texty if k != flag]
    ranked = sorted(texty, key=lambda k: (_TEXT_HINTS.index(norm(k)) if norm(k) in _TEXT_HINTS
                                          else 99, -sum(len(str(c.get(k, "")))
                                                        for c in choices), k))
    return (ranked[0] if ranked else None), flag


def _is_flag(value: object) -> bool:
    return isinstance(value, bool) or value in (0, 1, "true", "false", "True", "False",
                                                "yes", "no")


def _truthy(value: object) -> bool:
    return value is True or value == 1 or (isinstance(value, str) and
                                           value.strip().casefold() in ("true", "yes", "1"))


def _mostly_text(objects: list[dict[str, object]], key: str, short: bool = False) -> bool:
    values = [o[key] for o in objects if key in o]
    texts = [v for v in values if isinstance(v, str) or (
        not short and isinstance(v, list) and all(isinstance(x, str) for x in v))]
    return bool(values) and 2 * len(texts) >= len(values) and (
        not short or all(len(v) <= 120 for v in texts if isinstance(v, str)))


def _texts_of(obj: dict[str, object], choices: str | None, flat: tuple[str, ...]
              ) -> list[str] | None:
    if choices is None:
        return [str(obj[k]) for k in flat if isinstance(obj.get(k), str) and str(obj[k]).strip()]
    listed = _choice_list(obj.get(choices))
    if listed is None:
        return None
    return [c if isinstance(c, str) else "" for c in listed]


def _answer_of(obj: dict[str, object], answers: tuple[str, ...]) -> object:
    return next((obj[k] for k in answers if obj.get(k) not in (None, "", [])), None)


def _as_list(value: object) -> list[object]:
    return value if isinstance(value, list) else [] if value is None else [value]


def _number(value: object, texts: list[str]) -> int | None:
    """``value`` as an index (before its base), if it is one and no choice's text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    # isdecimal, not isdigit: "²" is a digit that int() refuses (an import ended in a
    # traceback); every decimal digit int() reads ("3", "٣").
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) <= 3 and \
            not any(t.strip() == value.strip() for t in texts):
        return int(value.strip())
    return None


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
    match = _LETTER_RE.match(text)
    if match:
        letter = match[1].upper()
        if letter in letters[:len(texts)]:
            return letters.index(letter)
    return None


def path_text(path: Path_) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
                   for i, p in enumerate(path)) or "(the document)"
