"""Where the records of a structured bank are: found by their shape, whatever holds them.

A bank's questions are question-like objects (importing/shape.py says which are), and
they may sit in any container a language writes a collection in: an array; an object
keyed by number or by id (``{1: {…}, 2: {…}}``, ``{"q81": {…}}``); a JavaScript ``Map``,
or assignments one question at a time (``q[0] = {…}``, ``questions.push({…})``), which
typescript.py turns into lists; repeated XML elements (xml_records.py). Every container
that is not an array is read here as the list of its values, each keeping its own key, so
every message still names the place the author wrote (``questions.81``, ``q[7]``) and its
line; where the records were found is said once, in the bank's W704.

Texts are cleaned as their readers saw them, once for every structured format: an HTML
entity a quiz app's page shows as a character (``&nbsp;``, ``&apos;``, ``&eacute;``) is
that character, outside code and where it cannot turn into Markdown's structure; and the
letters an author wrote into every choice's text (``"A. Visual Studio"``, ``"b) 42"``) are
the choices' labels, which the card shows itself, so they are left out.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from nca_anki.diagnostics import Diagnostic, clip, warning
from nca_anki.importing import choice_labels
from nca_anki.importing import choice_values as cv
from nca_anki.importing.bank import Section
from nca_anki.importing.shape import Found, Path_, Structured, find_lists, path_text

# A key that names one record among others, not a field: "2", "81", "q12", "Q_3", "id-7".
_ID_RE = re.compile(r"^[A-Za-z_-]{0,12}\d{1,9}$")
_SHOWN_KEY = 24  # a longer key (a base64 id) is shown by its position instead
_SHALLOW = 3  # the levels below a value that tell whether it is question-like


@dataclass
class Places:
    """Where each value of the data handed to shape.py sits in the input: every list this
    module (or a reader) made of another container keeps its members' own keys, and how
    that container was written."""

    keys: dict[Path_, list[object]] = field(default_factory=dict)
    forms: dict[Path_, str] = field(default_factory=dict)
    # The roles of the keys this module named for values written by position
    # (``["Which…?", "a", "b", 2]``: "[0]" the prompt), decided over each bank.
    roles: dict[str, str] = field(default_factory=dict)
    # A text written in several languages ({"en": "Which…?", "es": "¿Cuál…?"}) is read in
    # one throughout the file: (that language, how many the file has), or None.
    language: tuple[str, int] | None = None
    # Keys whose texts are lists written as one text ("a;b;c", "a / b / c"), over the
    # file, each with what separates the list's items.
    split: dict[str, str] = field(default_factory=dict)

    def original(self, where: Path_, shown: bool = False) -> Path_:
        """``where`` (a path in the lists) as the input writes it: a member's own key for
        its position; with ``shown``, a key too long to read stays its position."""
        if not self.keys:
            return where
        out: list[object] = []
        for k, step in enumerate(where):
            own = self.keys.get(where[:k])
            if own is not None and isinstance(step, int) and 0 <= step < len(own):
                key = own[step]
                if not (shown and isinstance(key, str) and len(key) > _SHOWN_KEY):
                    step = key
            out.append(step)
        return tuple(out)


def read_records(data: object, *, path: str, line_of: Callable[[Path_], int],
                 overrides: Mapping[str, str], default_title: str,
                 is_code: Callable[[object], str | None] = lambda v: None,
                 places: Places | None = None,
                 noun: Callable[[list[Found]], str] | None = None,
                 shown: Callable[[Path_], str] | None = None,
                 lines: bool = True,
                 ) -> tuple[tuple[Section, ...], list[Diagnostic]]:
    """The sections of a structured bank's decoded ``data`` (shape.py reads them), found
    in any container; ``line_of`` gives the line of a path as the input writes it. Where
    the records were found is said in the bank's W704 (``noun`` says it of the lists
    found; else where they are, if not in arrays), each place in its messages as
    ``shown`` says it (else as a path: ``questions.81.answer``); ``lines``: whether a
    line break in a text is one its readers see (not in XML, where it is layout)."""
    places = places or Places()
    gathered = gather(data, places)
    lists = find_lists(gathered)
    given = {_FAMILY.get(r, r) for r in overrides.values()}
    overrides = {**{k: r for k, r in places.roles.items() if r not in given},
                 **overrides}  # the author's --map goes over the positions' roles
    reader = Structured(path, lambda where: line_of(places.original(where)), overrides,
                        shown=shown or (lambda where: f"{path_text(places.original(where, True))}"
                                        ": "),
                        noun=noun(lists) if noun else _noun(lists, places), lines=lines)
    sections = reader.read(gathered, default_title=default_title, is_code=is_code)
    sections, said = _without_labels(sections)
    return sections, [*reader.problems, *said]


# Roles that stand for another when --map gives them: one answer key, one choices key.
_FAMILY = {"answer0": "answer", "answer1": "answer", "wrong-choices": "choices"}


def _noun(lists: list[Found], places: Places) -> str:
    """ "question objects", with where they were found when that is not an array."""
    forms: dict[str, list[str]] = {}
    for found in lists:
        if (form := places.forms.get(found.path)) is not None:
            named = clip(path_text(places.original(found.path, True)), 40)
            forms.setdefault(form, []).append(f"'{named}'")
    said = [form.format(" and ".join(names) if len(names) < 3 else
                        f"{names[0]} and {len(names) - 1} more")
            for form, names in forms.items()]
    also = []  # how their texts were read, said after where they were found
    if places.language is not None:
        also.append(f"texts in '{places.language[0]}' of {places.language[1]} languages")
    if places.split:
        at = " or ".join(dict.fromkeys(f"'{d.strip()}'" for d in places.split.values()))
        also.append(f"lists written as one text split at {at}")
    return "question objects" + (f" from {' and '.join(said)}" if said else "") + "".join(
        f", {one}" for one in also)


# --- the containers ---------------------------------------------------------------------------

def gather(data: object, places: Places) -> object:
    """``data`` with every object that holds records (``records``) made the list of them,
    its keys kept in ``places``, and every text cleaned (``clean_text``). Linear: each
    object that holds objects is tested once for being question-like, and the test looks
    at most ``_SHALLOW`` levels down."""
    places.language = _language(data)
    places.split = _separated(data)
    return _Gathering(places).value(data, ())


class _Gathering:
    def __init__(self, places: Places) -> None:
        self.places = places
        self.like: dict[int, bool] = {}  # id of each object tested -> question-like
        self.language = places.language[0] if places.language else None

    def question_like(self, value: dict[str, object]) -> bool:
        known = self.like.get(id(value))
        if known is None:
            known = self.like[id(value)] = _question_like(value)
        return known

    def value(self, value: object, where: Path_) -> object:
        # Recursive: the readers refuse nesting deeper than json_bank.DEPTH before this.
        if isinstance(value, str):
            return clean_text(value)
        if isinstance(value, list):
            plan = positions(value)
            if plan is not None:  # records written by position: each one an object
                self.places.roles.update(plan.roles())
                self.places.forms.setdefault(where, "the lists by position in {0}")
                value = [plan.record(v) for v in value]
            return [self.value(v, (*where, i)) for i, v in enumerate(value)]
        if not isinstance(value, dict):
            return value
        if self.language is not None and _by_language(value):
            return self.value(_in_language(value, self.language), where)
        value = wrong_run(value)
        if self.places.split and any(k in value for k in self.places.split):
            value = {k: _split_text(v, self.places.split[k]) if k in self.places.split else v
                     for k, v in value.items()}
        members = records(value, self.question_like) or _by_position(value)
        if members is None or (sum(isinstance(v, dict) and self.question_like(v)
                                   for _, v in members) < 2 and self.question_like(value)):
            # no collection, or one question that holds another ({1: "…", 2: …} may be
            # a question with flat choices)
            return {k: self.value(v, (*where, k)) for k, v in value.items()}
        self.places.keys[where] = [k for k, _ in members]
        self.places.forms.setdefault(where, "{} (keyed by " + (
            "number)" if all(str(k).isdigit() for k, _ in members) else "id)"))
        return self.value([v for _, v in members], where)


def records(value: dict[str, object], like: Callable[[dict[str, object]], bool]
            ) -> list[tuple[str, object]] | None:
    """The members of an object that is a collection of records, keyed by number or id
    (``{1: {…}, 2: {…}}``): at least half its objects question-like (``like``), and two
    of them, or every member's key an id; else None. Its members: every object or list in
    it, and any value under a numbered key (one that is no question is then named at its
    place); a text beside them under a name (a ``title``) is no member."""
    members = [(k, v) for k, v in value.items()
               if isinstance(v, (dict, list)) or _ID_RE.match(str(k))]
    objects = [v for _, v in members if isinstance(v, dict)]
    if not objects:
        return None
    count = sum(like(v) for v in objects)
    if not count or 2 * count < len(objects):
        return None
    if count < 2 and not all(_ID_RE.match(str(k)) for k, _ in members):
        return None
    return members


# --- texts in several languages ---------------------------------------------------------------

# Language codes a bank keys its translations by ({"en": …, "es": …}), ISO 639-1, with a
# region ("pt-BR", "zh_TW") too.
_LANGUAGES = frozenset((
    "en es fr de pt it nl ru uk pl cs sk sl hr sr bg ro hu el tr ar he fa hi bn ur zh ja "
    "ko vi th id ms tl sv da fi nb nn et lv lt ca eu gl ga cy sq mk is sw af").split())
_LANGUAGE_RE = re.compile(r"^([a-z]{2})(?:[-_][A-Za-z]{2,4})?$")


def _language_code(key: object) -> str | None:
    found = _LANGUAGE_RE.match(str(key))
    return str(key) if found is not None and found[1] in _LANGUAGES else None


def _by_language(value: dict[str, object]) -> bool:
    """Whether ``value`` is one text in several languages: two keys or more that are
    language codes, each a text, the other keys no text (a counter beside them)."""
    codes = [k for k in value if _language_code(k) is not None]
    return len(codes) >= 2 and all(isinstance(value[k], str) for k in codes) and not any(
        isinstance(v, (str, list, dict)) for k, v in value.items() if k not in codes)


def _language(data: object) -> tuple[str, int] | None:
    """The language a file's texts in several languages are read in: English if they
    have it, else the one most of them have; and how many languages there are. One pass
    over the data."""
    seen: dict[str, int] = {}
    texts = 0  # the texts in several languages

    def visit(value: dict[str, object]) -> bool:
        nonlocal texts
        if not _by_language(value):
            return True
        texts += 1
        for k in value:
            if _language_code(k) is not None:
                seen[str(k)] = seen.get(str(k), 0) + 1
        return False  # its texts are the languages' own: nothing inside to count

    _each_object(data, visit)
    if texts < 2:
        return None
    chosen = "en" if seen.get("en", 0) == max(seen.values()) else max(seen, key=seen.__getitem__)
    return chosen, len(seen)


def _each_object(data: object, visit: Callable[[dict[str, object]], bool]) -> None:
    """Calls ``visit`` on every object in ``data``, in one pass (iterative: any depth),
    and goes on into the values of each one for which it returns True."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict) and visit(value):
            stack.extend(v for v in value.values() if isinstance(v, (list, dict)))


def _in_language(value: dict[str, object], language: str) -> object:
    return value.get(language) if isinstance(value.get(language), str) else next(
        v for k, v in value.items() if _language_code(k) is not None)


# --- lists written as one text ----------------------------------------------------------------

# Names of the keys that hold choices or answers, whose text may be a list written as one.
_CHOICE_NAMES = frozenset(("choices", "options", "answers", "alternatives", "correctanswer",
                           "correctanswers", "answer", "correct", "rightanswer",
                           "rightanswers", "opciones", "alternativas", "respuestas", "choice"))
_LIST_NAMES = ("choices", "options", "alternatives", "opciones", "alternativas", "choice")
# What separates a list's items written as one text: ";", or a "/" or "|" with spaces
# around it ("Rome / Paris / Oslo"; "km/h" and "TCP/IP" are one text).
_DELIMITERS = (";", " / ", " | ")


def _separated(data: object) -> dict[str, str]:
    """The keys of choices or answers whose texts are lists written as one text
    (``incorrect_answers: "a;b;c"``, ``choice: "a / b / c"``), each with its separator
    (_DELIMITERS): a key of wrong answers or of choices with the separator in at least
    half its texts, two or more; and then the answer keys beside it whose texts hold the
    separator (right answers, several), split at it. One pass over the data."""
    texts: dict[str, int] = {}
    joined: dict[tuple[str, str], int] = {}

    def visit(value: dict[str, object]) -> bool:
        for k, v in value.items():
            if isinstance(v, str) and (cv.wrong_name(str(k)) or cv.norm(str(k)) in
                                       _CHOICE_NAMES):
                texts[k] = texts.get(k, 0) + 1
                for d in _DELIMITERS:
                    joined[k, d] = joined.get((k, d), 0) + (d in v)
        return True

    _each_object(data, visit)
    lists: dict[str, str] = {}
    for k in texts:
        count, d = max((joined[k, d], d) for d in _DELIMITERS)
        if count >= 2 and 2 * count >= texts[k] and (cv.wrong_name(k) or
                                                      cv.norm(k) in _LIST_NAMES):
            lists[k] = d
    if not lists:
        return {}
    first = next(iter(lists.values()))
    return {**lists, **{k: first for k in texts if k not in lists and joined[k, first]}}


def _split_text(value: object, delimiter: str) -> object:
    if not isinstance(value, str):
        return value
    return [part.strip() for part in value.split(delimiter) if part.strip()]


# --- the wrong answers one a key ---------------------------------------------------------------

_NUMBERED_RE = re.compile(r"^(.*?\D)[ _-]?(\d{1,2})$")


def wrong_run(value: dict[str, object]) -> dict[str, object]:
    """``value`` with its wrong answers written one a key (``Incorrecta1``,
    ``Incorrecta2``, ``wrong_3``: names that say wrong, numbered) as one list under the
    first one's name and the last one's number (``Incorrecta1…3``), in their order, where
    the first one was: the list of the wrong ones beside the right one (roles.py)."""
    runs: dict[str, list[tuple[int, str]]] = {}
    for key in value:
        found = _NUMBERED_RE.match(str(key))
        if found is not None and cv.flat_place(str(key)) < 0 and not isinstance(
                value[key], (dict, list)):
            runs.setdefault(found[1], []).append((int(found[2]), key))
    runs = {prefix: run for prefix, run in runs.items()
            if cv.wrong_name(prefix) or (len(run) >= 2 and _right_beside(value, run))}
    if not runs:
        return value
    prefix, run = max(runs.items(), key=lambda item: len(item[1]))
    run.sort()
    keys = {k for _, k in run}
    name = f"{run[0][1]}…{run[-1][0]}" if len(run) > 1 else run[0][1]
    texts = [str(value[k]) for _, k in run if value[k] is not None and str(value[k]).strip()]
    out: dict[str, object] = {}
    for key, v in value.items():
        if key not in keys:
            out[key] = v
        elif name not in out:
            out[name] = texts
    return out


# A choice's label alone ("B", "(2)", "c)"): an answer that names a choice, no text.
_LABEL_ALONE_RE = re.compile(r"\(?(?:[A-Za-z]|\d{1,2})[).:]?")


def _right_beside(value: dict[str, object], run: list[tuple[int, str]]) -> bool:
    """Whether a key named for the answer (``answer``, ``correct``) holds a text that is
    none of the numbered run's (nor a label alone, "(2)"): they are the wrong ones beside
    it (``{question, answer, iAnswer1, iAnswer2}``); roles.py decides it over the whole
    bank."""
    texts = {cv.loose(str(value[k])) for _, k in run}
    return any(cv.norm(str(k)) in ("answer", "correct", "correctanswer", "rightanswer",
                                   "right", "solution", "respuesta", "resposta", "réponse")
               and isinstance(v, str) and len(v.strip()) > 1 and cv.loose(v) not in texts
               and _LABEL_ALONE_RE.fullmatch(v.strip()) is None
               for k, v in value.items())


def _by_position(value: dict[str, object]) -> list[tuple[str, object]] | None:
    """The members of an object whose every value is a question written by position
    (``var q1 = new Question(…); var q2 = …``, ``{"q1": ["Which…?", "a", "b", 1]}``)."""
    if len(value) < _POSITIONAL_LEAST or positions(list(value.values())) is None:
        return None
    return list(value.items())


def _question_like(value: dict[str, object]) -> bool:
    """Whether shape.py reads ``value`` as one question (a list of it is a bank). An
    object without a text, or with nothing that may be its choices, is none (said
    without asking shape.py, for the many objects that hold records)."""
    values = value.values()
    if not any(isinstance(v, str) for v in values) or (
            len(value) < 3 and not any(isinstance(v, (list, dict)) for v in values)):
        return False
    return any(found.path == () for found in find_lists([_shallow(value, _SHALLOW)]))


def _shallow(value: object, levels: int) -> object:
    """``value`` down to ``levels`` levels; a container below them empty (its kind kept,
    which is all the question-like test asks of it)."""
    if isinstance(value, dict):
        return {k: _shallow(v, levels - 1) for k, v in value.items()} if levels else {}
    if isinstance(value, list):
        return [_shallow(v, levels - 1) for v in value] if levels else []
    return value


# --- records written by position -----------------------------------------------------------

@dataclass(frozen=True)
class Positions:
    """Which place of each record written as a list (``["Which…?", "a", "b", "c", 2]``,
    a call's arguments ``new Question("Which…?", ["a", "b"], 1)``) plays which part,
    decided over the whole bank: the prompt's place, the choices' (one place holding a
    list, or the run of texts after the prompt), the answer's and the explanation's.
    A place counted from the end (-1) is for records of different lengths."""

    prompt: int
    choices: tuple[int, int]  # a list at [first] when first == last, else the run first..last
    answer: int
    explanation: int | None = None

    def _name(self, at: int) -> str:
        return f"[{at}]"

    def _choices_name(self) -> str:
        first, last = self.choices
        return self._name(first) if first == last else f"{self._name(first)}…{self._name(last)}"

    def roles(self) -> dict[str, str]:
        named = {self._name(self.prompt): "prompt", self._choices_name(): "choices",
                 self._name(self.answer): "answer"}
        if self.explanation is not None:
            named[self._name(self.explanation)] = "explanation"
        return named

    def record(self, row: object) -> object:
        """``row`` as an object keyed by place, its choices' run one list."""
        if not isinstance(row, list):
            return row
        first, last = (_index(at, len(row)) for at in self.choices)
        out: dict[str, object] = {}
        for at, value in enumerate(row):
            if first < at <= last:
                continue
            if at == first and first != last:
                out[self._choices_name()] = row[first:last + 1]
                continue
            name = next((self._name(p) for p in (self.prompt, self.answer, self.explanation)
                         if p is not None and _index(p, len(row)) == at), self._name(at))
            out[name] = value
        return out


def _index(at: int, length: int) -> int:
    return at if at >= 0 else length + at


_POSITIONAL_LEAST = 2  # records of a bank written by position, at least


def positions(rows: list[object]) -> Positions | None:
    """How records written as lists are read (``Positions``), if the elements are lists
    of literal values whose places fit one reading, all of them or all but one in ten (a
    broken record is then refused at its own place, never the bank): a text first (the
    prompt), then the choices (a list of texts, or a run of texts), and a place whose
    value names one of them (an index, a letter, a choice's text) as the answer; a text
    after it is the explanation. None if the rows are not such records."""
    lists: list[list[object]] = [r for r in rows if isinstance(r, list) and len(r) >= 3 and all(
        _plain(v) for v in r) and isinstance(r[0], str) and r[0].strip()]
    if not _most(len(lists), len(rows)):
        return None
    if _most(sum(_texts(r[1]) is not None for r in lists), len(lists)):  # (prompt, [choices], …)
        for at in range(2, max(len(r) for r in lists)):
            if _most(sum(len(r) > at and _texts(r[1]) is not None and _names_choice(
                    r[at], r[1]) for r in lists), len(lists)):  # type: ignore[arg-type]
                return Positions(prompt=0, choices=(1, 1), answer=at,
                                 explanation=_explained(lists, at))
        return None
    lengths = {len(r) for r in lists}
    starts = [*range(3, max(lengths))]
    for at in [*starts, -1, -2] if len(lengths) == 1 else [-1, -2, *starts]:
        if _most(sum(_fits_run(r, at) for r in lists), len(lists)):
            return Positions(prompt=0, choices=(1, at - 1), answer=at,
                             explanation=_explained(lists, at))
    return None


def _most(fits: int, total: int) -> bool:
    """Whether ``fits`` of ``total`` records is a reading of the bank: two or more, and
    all but one in ten (one at least)."""
    return fits >= _POSITIONAL_LEAST and fits >= total - max(1, total // 10)


def _plain(value: object) -> bool:
    """A literal a record by position may hold: a text, a number, a truth, null, or a
    list of these."""
    if isinstance(value, list):
        return all(v is None or isinstance(v, (str, int, float)) for v in value)
    return value is None or isinstance(value, (str, int, float))


def _texts(value: object) -> list[str] | None:
    if isinstance(value, list) and len(value) >= 2 and all(
            isinstance(v, str) and v.strip() for v in value):
        return value
    return None


def _fits_run(row: list[object], at: int) -> bool:
    """Whether the texts between the prompt and ``at`` are two choices or more, all
    texts, and ``row[at]`` names one of them."""
    end = _index(at, len(row))
    run = row[1:end]
    return len(run) >= 2 and end < len(row) and all(
        isinstance(v, str) and v.strip() for v in run) and _names_choice(row[end], run)


def _names_choice(value: object, choices: list[object]) -> bool:
    """Whether ``value`` names one of ``choices`` (or several, as a list): an index from
    0 or 1, a letter, a number written as text, or a choice's own text."""
    if isinstance(value, list):
        return bool(value) and all(_names_choice(v, choices) for v in value)
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value <= len(choices)
    if not isinstance(value, str):
        return False
    said = value.strip()
    if said.isdecimal() and len(said) <= 2:
        return int(said) <= len(choices)
    if len(said) == 1 and said.isalpha() and said.isascii():
        return ord(said.upper()) - ord("A") < len(choices)
    return any(isinstance(c, str) and c.strip() == said for c in choices)


def _explained(rows: list[list[object]], at: int) -> int | None:
    """The place after the answer's, if it holds a text of words in most records."""
    after = at + 1 if at >= 0 else None
    held = [r[after] for r in rows if after is not None and len(r) > after]
    if after is None or not _most(len(held), len(rows)):
        return None
    words = sum(isinstance(v, str) and len(v.split()) > 1 for v in held)
    return after if 2 * words > len(held) else None


# --- the texts --------------------------------------------------------------------------------

_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ENTITY_TAIL_RE = re.compile(_ENTITY_RE.pattern[1:])  # what makes "&" an entity
_TICKS_RE = re.compile(r"`+")
# What a decoded entity must not become: Markdown's structure, or an entity again.
_STRUCTURE = frozenset("\\`*_{}[]()#+-.!|~<>&\"")


def clean_text(text: str) -> str:
    """``text`` with each HTML entity outside code that a page shows as a character and
    that stays text in Markdown read as that character (``&nbsp;`` a space): ``&lt;``,
    ``&amp;`` and the entities of Markdown's own marks (``&#42;``) stay as written where
    the character would be read as markup, as the card shows them either way."""
    if "&" not in text or ";" not in text:
        return text
    out: list[str] = []
    at = 0
    for start, end in _code(text):
        out.append(_ENTITY_RE.sub(_character, text[at:start]))
        out.append(text[start:end])
        at = end
    out.append(_ENTITY_RE.sub(_character, text[at:]))
    return "".join(out)


def _code(text: str) -> list[tuple[int, int]]:
    """Where ``text``'s code is, where an entity is what it says: from a run of backticks
    to the next run as long (a fence is a run of three), as Markdown reads a code span.
    Each run is looked at once (runs of each length in a list, searched by bisection)."""
    runs = [(m.start(), m.end()) for m in _TICKS_RE.finditer(text)]
    by_length: dict[int, list[int]] = {}
    for k, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(k)
    spans = []
    k = 0
    while k < len(runs):
        start, end = runs[k]
        same = by_length[end - start]
        after = bisect.bisect_right(same, k)
        if after < len(same):
            spans.append((start, runs[same[after]][1]))
            k = same[after] + 1
        else:
            k += 1
    return spans


def _character(match: re.Match[str]) -> str:
    written = match[0]
    char = html.unescape(written)
    if len(char) != 1 or char in (written, "\ufffd"):
        return written  # not an entity HTML knows, one of two characters, or no character
    if char in "\xa0\u2007\u202f":
        return " "
    if ord(char) < 32 or 0x7f <= ord(char) < 0xa0 or 0xd800 <= ord(char) < 0xe000:
        return written
    after = match.string[match.end():match.end() + 40]
    if char == "&" and not _ENTITY_TAIL_RE.match(after):
        return char  # "AT&amp;T": it starts no entity
    if char == "<" and not re.match(r"[A-Za-z/!?]", after):
        return char  # "x &lt; 5": no tag follows it
    if char in "'\"":
        return char
    return written if char in _STRUCTURE else char


def _without_labels(sections: tuple[Section, ...]) -> tuple[tuple[Section, ...], list[Diagnostic]]:
    """The sections with the labels written into their choices' texts left out (the rule
    every reader shares: choice_labels.py), and one warning saying so."""
    done = choice_labels.left_out(sections)
    if done.first is None:
        return sections, []
    return done.sections, [warning("W704", done.first.path, done.first.line, (
        f"the choices of {done.count} question{'s' if done.count > 1 else ''} start with "
        f"their own letters ('{done.label} …' first), which the card shows itself: left "
        "out of the texts"))]
