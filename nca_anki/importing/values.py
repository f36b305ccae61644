"""Roles of a structured bank's keys read from their values alone, for keys whose names say
little (``q``, ``a``, ``x1``): the key that indexes the choices in every question is the
answer, the key whose text asks (ends with "?" or ":") in most questions is the prompt;
and a question of another kind in the same bank, whose texts come with a list of
booleans beside them (``{statements: [...], a: [true, false, ...]}``: each text's truth,
the true ones its right choices).

roles.py asks these only when the names gave no answer; each is decided over the whole
bank (or, for the booleans, one question by its own shape)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from nca_anki.importing import choice_values as cv

Texts = Callable[[dict[str, object]], "list[str] | None"]
_ASKING = ("?", ":", "？", "：", "\u037e", "؟")  # the Greek and the Arabic question marks


def index_key(objects: list[dict[str, object]], keys: Iterable[str], texts: Texts
              ) -> tuple[str, ...]:
    """The one key among ``keys`` whose value names one of its question's choices in every
    question that has choices: an index (from 0 or 1) or a letter, or a list of these; not
    a counter (1, 2, 3 … over the bank: an id)."""
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
        if not all(_names(v, len(choices)) for v in listed):
            return False
        seen.append(value)
    numbers = [v for v in seen if isinstance(v, int)]
    counter = len(numbers) == len(seen) > 2 and all(
        b == a + 1 for a, b in zip(numbers, numbers[1:]))
    return len(seen) >= 2 and not counter


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
