"""Roles of a structured bank's keys read from their values alone, for keys whose names say
little (``q``, ``a``, ``x1``): the key that indexes the choices in every question is the
answer, the key whose text asks (ends with "?" or ":") in most questions is the prompt;
and a question of another kind in the same bank, whose texts come with a list of
booleans beside them (``{statements: [...], a: [true, false, ...]}``: each text's truth,
the true ones its right choices).

roles.py asks these only when the names gave no answer; each is decided over the whole
bank (or, for the booleans, one question by its own shape)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from nca_anki.importing import choice_values as cv

Texts = Callable[[dict[str, object]], "list[str] | None"]
_ASKING = ("?", ":", "？", "：", "\u037e", "؟")  # the Greek and the Arabic question marks


def index_key(objects: list[dict[str, object]], keys: Iterable[str], texts: Texts
              ) -> tuple[str, ...]:
    """The one key among ``keys`` whose value names one of its question's choices in every
    question that has choices: an index (from 0 or 1), a letter or the choice's text
    (``{q, options, a: "tite kubo"}``), or a list of these; not a counter (1, 2, 3 … over
    the bank: an id)."""
    fitting = [k for k in keys if _indexes(objects, k, texts)]
    return (fitting[0],) if len(fitting) == 1 else ()


def _indexes(objects: list[dict[str, object]], key: str, texts: Texts) -> bool:
    seen: list[object] = []
    for o in objects:
        choices = texts(o)
        if choices is None:
            continue  # a question of another kind: its own shape says
        value = o.get(key)
        listed = value if isinstance(value, list) and value else [value]
        if not all(_names(v, len(choices)) or _said(v, choices) for v in listed):
            return False
        seen.append(value)
    numbers = [v for v in seen if isinstance(v, int)]
    counter = len(numbers) == len(seen) > 2 and all(
        b == a + 1 for a, b in zip(numbers, numbers[1:]))
    return len(seen) >= 2 and not counter


def _said(value: object, choices: list[str]) -> bool:
    """Whether ``value`` is one of ``choices``' texts, however cased or spaced
    (``"eiichiro oda"`` for ``"Eiichiro Oda"``)."""
    return isinstance(value, str) and len(value.strip()) > 1 and cv.loose(value) in {
        cv.loose(c) for c in choices}


def _names(value: object, count: int) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value <= count
    if isinstance(value, str):
        said = value.strip()
        return (len(said) == 1 and said.upper() in cv.LETTERS[:count]) or (
            said.isdecimal() and len(said) <= 2 and int(said) <= count)
    return False


def asking_key(objects: list[dict[str, object]], keys: list[str]) -> str | None:
    """Among ``keys`` (texts in most questions), the one whose text asks (ends with "?" or
    ":") in most questions, the longest if several do; None if none does."""
    asks = {k: sum(isinstance(v := o.get(k), str) and v.rstrip().endswith(_ASKING)
                   for o in objects) for k in keys}
    fitting = [k for k, n in asks.items() if 2 * n > len(objects)]
    if not fitting:
        return None
    return max(fitting, key=lambda k: (sum(len(str(o.get(k, ""))) for o in objects), k))


def asks_more(objects: list[dict[str, object]], asking: str, named: str) -> bool:
    """Whether the key ``asking`` (whose text asks) is the prompt rather than the key whose
    name says prompt: that one does not ask, and holds no more text."""
    def total(key: str) -> int:
        return sum(len(v) for o in objects if isinstance(v := o.get(key), str))

    return asking_key(objects, [named]) is None and total(asking) >= total(named)


def aligned(obj: dict[str, object], skip: Iterable[str]
            ) -> tuple[str, list[str], list[bool]] | None:
    """A question whose choices are a list of texts with a list of booleans of the same
    length beside it (each text's truth): the texts' key, the texts and the marks; None
    unless exactly one list of texts fits the one list of booleans."""
    left = set(skip)
    truths = [v for k, v in obj.items() if k not in left and isinstance(v, list)
              and len(v) >= 2 and all(isinstance(x, bool) for x in v)]
    if len(truths) != 1:
        return None
    marks: list[bool] = truths[0]
    lists = [(k, v) for k, v in obj.items() if k not in left and isinstance(v, list)
             and len(v) == len(marks) and all(isinstance(x, str) and x.strip() for x in v)]
    if len(lists) != 1:
        return None
    key, listed = lists[0]
    return key, [str(x).strip() for x in listed], list(marks)


def choice_weight(objects: list[dict[str, object]], key: str) -> int:
    """How much text the choices under ``key`` hold over the bank: of two lists that may
    be the choices, the one with more words is (a question's options, not its tags)."""
    total = 0
    for o in objects:
        listed = o.get(key)
        for item in listed if isinstance(listed, list) else ():
            said = item.values() if isinstance(item, dict) else (item,)
            total += sum(len(x) for x in said if isinstance(x, str))
    return total


def unpaired(obj: dict[str, object], skip: Iterable[str]) -> str:
    """Why a question with a list of booleans is not read as texts with their truths; ""
    if it has no such list."""
    left = set(skip)
    truths = [(k, v) for k, v in obj.items() if k not in left and isinstance(v, list)
              and len(v) >= 2 and all(isinstance(x, bool) for x in v)]
    if len(truths) != 1:
        return ""
    key, marks = truths[0]
    texts = [(k, len(v)) for k, v in obj.items() if k not in left and k != key
             and isinstance(v, list) and v and all(isinstance(x, str) for x in v)]
    said = ", ".join(f"{k!r} holds {n}" for k, n in texts[:2]) or "no list of texts beside it"
    return (f"its {len(marks)} truths under {key!r} pair with no list of {len(marks)} "
            f"texts ({said})")


def paired(objects: list[dict[str, object]], choices: tuple[str, ...], skip: Iterable[str]
           ) -> tuple[tuple[str, ...], int]:
    """The keys that hold texts with a list of their truths in the questions without
    choices under ``choices`` (``aligned``), and how many questions are so written."""
    told = tuple(skip)
    found: dict[str, int] = {}
    for o in objects:
        if any(o.get(k) is not None for k in choices):
            continue
        if (one := aligned(o, told)) is not None:
            found[one[0]] = found.get(one[0], 0) + 1
    return tuple(found), sum(found.values())


# --- choice columns told by their values --------------------------------------------------

# A column named for its place among the choices: "Opcion_A", "Antwort 2", "OptionC",
# "选项B"; the name before the place may be anything, a typo too ("Oposicion_B" between
# "Opcion_A" and "Opcion_C"): the places in a row of columns say it.
# A remark may follow the place: "Answer 3 (Optional)", "Answer 1 - max 75 characters".
_MARK_RE = re.compile(r"^(?P<stem>.*?)(?P<sep>[\s_\-.]*)(?P<mark>[A-Za-z]|[1-9]\d?)"
                      r"(?:\s*\([^()]*\)|\s+[-–—:]\s.*)?$")
_NAMED = 100  # a longer column name is no choice's place
_SHORT = 200  # a choice's text is shorter than this in most rows


def _place(key: str) -> tuple[str, int] | None:
    """The name before a column's place mark and the place (from 0): "Opcion_B" ->
    ("opcion", 1), "Choice3" -> ("choice", 2), "选项C" -> ("选项", 2), "Answer 3
    (Optional)" -> ("answer", 2); None if its name ends in none."""
    found = _MARK_RE.match(key) if len(key) <= _NAMED else None
    if found is None or not found["stem"].strip():
        return None
    mark, stem = found["mark"], found["stem"]
    if mark.isdigit():
        return cv.norm(stem), int(mark) - 1
    if not found["sep"] and stem[-1].isascii() and not (mark.isupper() and
                                                        stem[-1].islower()):
        return None  # "optiona", "data": no mark apart from the name
    return cv.norm(stem), cv.LETTERS.index(mark.upper())


def numbered(key: str) -> bool:
    """Whether a choice column's name ends in its number from 1 ("Answer 1", "option2")."""
    found = _MARK_RE.match(key) if len(key) <= _NAMED else None
    return found is not None and found["mark"].isdigit()


def choice_columns(objects: list[dict[str, object]], keys: list[str]) -> tuple[str, ...]:
    """The flat choice keys of a bank whose names the formats' own (``A``, ``option1``)
    do not say, told by their values: a run of adjacent ``keys`` (in the order written)
    holding short texts in (nearly) every question, either named for their places in
    order (``Opcion_A``, ``Oposicion_B`` [sic], ``Opcion_C``) or beside a key whose
    values name one of them in every question (a letter, an index, a choice's text);
    () if there is none."""
    if len(objects) < 1 or len(keys) < 3:
        return ()
    texts = {k for k in keys if _short_texts(objects, k)}
    named = _named_run(keys, texts)
    if named and _answered(objects, keys, named):
        return named
    for key in keys:
        run = _run_beside(objects, keys, key, texts)
        if run:
            return run
    return ()


# A choice's label alone in a cell: "A", "(A)", "a)", "B.", "1", "(2)", "3)".
_LABEL_RE = re.compile(r"\(?([A-Za-z]|[1-9][0-9]?)[).:]?")


def label_columns(objects: list[dict[str, object]], keys: list[str]) -> tuple[str, ...]:
    """The keys that hold only the choices' labels in order, one key per place: the
    first holds "A" (or "(1)", "a)") in every question that fills it, the second "B" …
    (a spreadsheet that writes each choice's label in a column beside its text); at least
    two, each filled in two questions or more; () if there are none."""
    by_place: dict[int, str] = {}
    for key in keys:
        place = _label_place(objects, key)
        if place is not None and place not in by_place:
            by_place[place] = key
    run: list[str] = []
    while len(run) in by_place:
        run.append(by_place[len(run)])
    return tuple(run) if len(run) >= 2 else ()


def _label_place(objects: list[dict[str, object]], key: str) -> int | None:
    """The one place every filled value of ``key`` labels, if each is a label alone."""
    places: set[int] = set()
    held = 0
    for o in objects:
        said = cv.choice_text(o.get(key))
        if said is None or not said.strip():
            continue
        match = _LABEL_RE.fullmatch(said.strip())
        if match is None or isinstance(o.get(key), bool):
            return None
        found = match[1].upper()
        places.add(int(found) - 1 if found.isdigit() else cv.LETTERS.index(found))
        held += 1
        if len(places) > 1:
            return None
    return places.pop() if held >= 2 and 2 * held >= len(objects) else None


def texts_beside(objects: list[dict[str, object]], keys: list[str],
                 labels: tuple[str, ...]) -> tuple[str, ...]:
    """The choices' text keys of a bank whose ``labels`` keys hold their labels: a run
    named for their places (``p1``, ``p2`` …), else the key written right after each
    label's, when each holds short texts; () if neither."""
    rest = [k for k in keys if k not in labels]
    texts = {k for k in rest if _short_texts(objects, k)}
    named = _named_run(rest, texts)
    if len(named) == len(labels):
        return named
    after = tuple(keys[keys.index(k) + 1] if keys.index(k) + 1 < len(keys) else "" for k in
                  labels)
    return after if all(k in texts for k in after) else ()


def _short_texts(objects: list[dict[str, object]], key: str) -> bool:
    """Whether ``key`` holds a short text (or a number) in at least half the questions."""
    held = [t for o in objects if (t := cv.choice_text(o.get(key))) is not None
            and t.strip() and not isinstance(o.get(key), bool)]
    return 2 * len(held) >= len(objects) and 2 * sum(len(t) < _SHORT for t in held) > len(
        held)


def _named_run(keys: list[str], texts: set[str]) -> tuple[str, ...]:
    """The first run of adjacent keys named for places 0, 1, 2 … in order, at least two,
    most of them alike before the mark, the first two holding texts."""
    places = [_place(k) for k in keys]
    for start, first in enumerate(places):
        if first is None or first[1] != 0:
            continue
        end = start + 1
        while end < len(keys) and (p := places[end]) is not None and p[1] == end - start:
            end += 1
        run = keys[start:end]
        stems = Counter(p[0] for p in places[start:end] if p is not None)
        if len(run) >= 2 and 2 * stems.most_common(1)[0][1] >= len(run) and \
                all(k in texts for k in run[:2]):
            return tuple(run)
    return ()


def _answered(objects: list[dict[str, object]], keys: list[str], run: tuple[str, ...]
              ) -> bool:
    """Whether a key beside ``run`` names one of its texts in most questions: a letter,
    an index or the text itself."""
    return any(_names_run(objects, k, run) for k in keys if k not in run)


def _names_run(objects: list[dict[str, object]], key: str, run: tuple[str, ...]) -> bool:
    held = fits = 0
    for o in objects:
        value = o.get(key)
        said = cv.choice_text(value)
        if said is None or not said.strip() or isinstance(value, bool):
            continue
        held += 1
        choices = [t.strip() for k in run if (t := cv.choice_text(o.get(k))) is not None
                   and t.strip()]
        fits += len(said) <= _SHORT and (
            _names(said, len(choices)) or said.strip() in choices
            or cv.letters_in(said, len(choices)) is not None
            or indexes_in(said, len(choices)) is not None)
    return held >= max(2, len(objects) // 2) and 10 * fits >= 9 * held


def _run_beside(objects: list[dict[str, object]], keys: list[str], key: str,
                texts: set[str]) -> tuple[str, ...]:
    """The choice keys beside ``key`` if its values are letters (or indexes) naming one
    of the texts of the adjacent keys before it (or else after it) in every question:
    those keys, as far as the texts are short and do not ask; () if not."""
    if not _letters(objects, key):
        return ()
    at = keys.index(key)
    for before, side in ((True, keys[:at][::-1]), (False, keys[at + 1:])):
        run = _adjacent(objects, side, texts)
        ordered = tuple(run[::-1]) if before else tuple(run)
        if len(ordered) >= 2 and _names_run(objects, key, ordered) and \
                _needed(objects, key) <= len(ordered):
            return ordered
    return ()


def _adjacent(objects: list[dict[str, object]], side: list[str], texts: set[str]
              ) -> list[str]:
    """The keys of ``side`` (nearest first) that hold short texts, up to the first that
    does not, asks in most questions, or holds texts over twice as long as the others
    (the prompt)."""
    run: list[str] = []
    longest = 0.0
    for k in side:
        length = _length(objects, k)
        if k not in texts or asking_key(objects, [k]) is not None or (
                run and length > 2 * longest):
            break
        run.append(k)
        longest = max(longest, length)
    return run


def _letters(objects: list[dict[str, object]], key: str) -> bool:
    """Whether ``key``'s values are answer letters ("B", "A, C") or small indexes in most
    questions, at least two of them different."""
    said = [str(v).strip() for o in objects if (v := o.get(key)) is not None
            and not isinstance(v, bool) and str(v).strip()]
    fits = [s for s in said if len(s) <= 12 and (
        cv.letters_in(s, 26) is not None or (s.isdecimal() and int(s) <= 26))]
    return len(fits) >= 2 and 10 * len(fits) >= 9 * len(said) and len(set(fits)) > 1


def _needed(objects: list[dict[str, object]], key: str) -> int:
    """How many choices the answers under ``key`` name at least (their last letter)."""
    most = 0
    for o in objects:
        said = str(o.get(key, "")).strip()
        picked = cv.letters_in(said, 26) if not said.isdecimal() else None
        most = max(most, max(picked) + 1 if picked else 0)
    return most


def _length(objects: list[dict[str, object]], key: str) -> float:
    held = [len(t) for o in objects if (t := cv.choice_text(o.get(key))) is not None]
    return sum(held) / len(held) if held else 0.0


_TELLING_WORDS = 5  # words a sentence that explains holds on average, at least
# Words of a name that says its sentences are something else than an explanation.
_OTHERS = frozenset(("hint", "hints", "tip", "source", "url", "link", "tag", "tags",
                     "author", "title", "translation", "image", "audio", "video", "question",
                     "prompt", "created", "updated", "status", "pista", "fuente", "quelle",
                     "hinweis", "indice", "подсказка", "источник", "提示", "来源"))


def _words(key: str) -> list[str]:
    """A name's words, folded: "sourceText" -> source, text; "Fuente_Oficial" -> fuente,
    oficial."""
    return [w.casefold() for w in re.split(r"[\W_]+|(?<=[a-z])(?=[A-Z])", key) if w]


def telling_key(objects: list[dict[str, object]], keys: list[str], answer: tuple[str, ...],
                taken: set[str]) -> str | None:
    """The explanation of a bank whose names do not say it: of the ``keys`` (in the order
    written) after the ``answer`` key and not ``taken``, the one whose texts are sentences
    in most questions that hold them (a reference, a link or a code is none), the one
    with most text if several are; None if there is none."""
    if not answer or answer[0] not in keys:
        return None
    after = keys[keys.index(answer[0]) + 1:]
    best: tuple[int, str] | None = None
    for key in after:
        if key in taken or _OTHERS.intersection(_words(key)):
            continue
        said = [v for o in objects if isinstance(v := o.get(key), str) and v.strip()]
        words = sum(len(v.split()) for v in said)
        sentences = sum(len(v.split()) >= _TELLING_WORDS and "://" not in v for v in said)
        if 2 * len(said) >= len(objects) and 2 * sentences > len(said) and (
                best is None or words > best[0]):
            best = (words, key)
    return best[1] if best else None


_INDEXES_RE = re.compile(r"\s*[,;/&+]\s*|\s+")


def indexes_in(text: str, count: int) -> list[int] | None:
    """The numbers of an answer that names several choices by number ("2,3", "1; 4",
    "1 3"), as written (their base is the bank's); None unless it is two or more numbers,
    each at most ``count``."""
    parts = _INDEXES_RE.split(text.strip())
    if len(parts) < 2 or not all(p.isdecimal() and len(p) <= 2 and int(p) <= count
                                 for p in parts):
        return None
    return [int(p) for p in parts]
