"""What one value of a structured bank says, whatever the format it came from: a choice's
text (booleans read as "True"/"False"), a placeholder that is no choice (``N/A``, ``-``,
an empty cell), an answer written in words (``A and C``, ``(A) & (C)``, ``AC``, ``B —
see https://…``), an explanation that only restates the answer.

Every function here is linear in its value: no pattern searches from every position to
the end of its text."""

from __future__ import annotations

import re
import string
from collections.abc import Iterable

LETTERS = string.ascii_uppercase  # a choice's letter: A … Z
# Cells that hold no choice: what spreadsheets and exports put in an unused column. The
# marks (a dash) only in a row's cells: in a list they may be real choices ("-", "+").
_PLACEHOLDERS = frozenset({"", "n/a", "n.a.", "#n/a"})
# A program's empty values: what an export writes in a cell for a value it lacks; in a list
# the author typed them (an export writes JSON's null there), as choices of a quiz on code.
_NULLS = frozenset({"null", "undefined", "nil"})
_MARKS = frozenset({"-", "--", "---", "—", "–", "…", "..."})
# Words between two letters of one answer: "A and C", "A y C", "A и C", "A e C", "A und C".
_JOINERS = ("and", "y", "e", "et", "und", "en", "i", "и", "і", "та", "или", "和", "与",
            "及", "plus")
# One answer letter, as written: "A", "(A)", "A)", "A.", "Option A", "choice a".
_ONE = r"(?:(?:option|choice|answer|letter)\s*)?\(?([A-Za-z])\)?\.?"
_ONE_RE = re.compile(_ONE, re.I)
_JOIN_RE = re.compile(r"\s*(?:[,;/&+、，]|(?:" + "|".join(
    re.escape(j) for j in _JOINERS) + r")(?=[\s(])|\s)\s*", re.I)
# What may follow an answer's letters as a remark: a link, or a separator and any text.
_REMARK_RE = re.compile(r"\s*(?:(?:https?://|www\.)\S*|[-–—:;,|(\[]|\.\s|\n|\s{2,}|$)")


def choice_text(value: object) -> str | None:
    """``value`` as a choice's text: a text, a number, or a boolean ("True"/"False", as
    YAML's ``A: true`` or a spreadsheet's TRUE means it); None if it can hold none."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def is_placeholder(text: str, *, cells: bool = True) -> bool:
    """Whether a choice's text is no choice: empty, ``N/A``, and in a row's cells ``-``,
    ``—`` or ``null``."""
    said = text.strip().casefold()
    return said in _PLACEHOLDERS or (cells and (said in _MARKS or said in _NULLS))


def unused(texts: list[str], marks: list[bool], *, cells: bool) -> set[int]:
    """The places of the placeholders after a question's last real choice that are not
    its answer: unused choices, no choices (a true/false row's ``N/A`` cells)."""
    drop: set[int] = set()
    for k in range(len(texts) - 1, -1, -1):
        if not is_placeholder(texts[k], cells=cells):
            break
        if not marks[k]:
            drop.add(k)
    return drop


def letters_in(text: str, count: int) -> list[int] | None:
    """The choices an answer written as letters names, by index: "B", "A and C", "A & C",
    "A, C", "AC", "(A) and (C)", "A y C", "b и d", a letter followed by a link or a remark
    ("B - see chapter 3", "C https://…"). None if ``text`` is not that, or names a
    letter beyond the ``count`` choices."""
    rest = text.strip()
    if not rest:
        return None
    run = re.fullmatch(r"([A-Z]{2,26})(?=$|\s|[,.;:)\]-])(.*)", rest, re.S)
    if run is not None and len(set(run[1])) == len(run[1]) and _is_remark(run[2]):
        picked = [LETTERS.index(x) for x in run[1]]  # "AC": each capital a letter
        return picked if max(picked) < count else None
    picked = []
    position = 0
    one = None
    while True:
        one = _ONE_RE.match(rest, position)
        if one is None or (one.end() < len(rest) and rest[one.end()].isalnum()):
            return None
        picked.append(LETTERS.index(one[1].upper()))
        position = one.end()
        joiner = _JOIN_RE.match(rest, position)
        following = _ONE_RE.match(rest, joiner.end()) if joiner else None
        if joiner is None or joiner.end() == position or following is None or (
                following.end() < len(rest) and rest[following.end()].isalnum()):
            break
        position = joiner.end()
    closed = one is not None and one[0][-1:] in ".)" and rest[position:position + 1].isspace()
    if not (closed or _is_remark(rest[position:])) or max(picked) >= count:
        return None
    return sorted(set(picked))


# Where an answer's letters end and a remark begins: "D; the docs say …", "B - see …".
_REMARK_AT_RE = re.compile(r"\s*(?:;|\s[-–—]\s)\s*")


def remark_after(text: str, count: int) -> str:
    """The remark an author wrote after an answer's letters ("D; the exam asked it
    otherwise", "A, C - see chapter 2"): words for the reader, ""  if there are none or
    they are only a link."""
    parts = _REMARK_AT_RE.split(text.strip(), maxsplit=1)
    if len(parts) < 2:
        return ""
    head, tail = parts
    tail = tail.strip()
    if letters_in(head, count) is None or not re.search(r"[^\W\d_]{2}", tail) or \
            _LINK_RE.match(tail) or letters_in(tail, count) is not None:
        return ""  # no words, a link, or more letters ("A; C and D")
    return tail


def _is_remark(tail: str) -> bool:
    """Whether what follows an answer's letters is a remark (a link, or text after a
    separator), not more of a text answer."""
    return not tail.strip() or _REMARK_RE.match(tail) is not None and (
        tail[:1].isspace() or not tail[:1].isalnum())


_LEAD_RE = re.compile(r"^[^:：\n]{0,40}[:：]\s*")


def restates(explanation: str, right: list[str], letters: list[str]) -> bool:
    """Whether an explanation only restates the right answer ("B", "Answer: B",
    "The right answer is: Lisbon"), saying nothing more."""
    said = _bare(_LEAD_RE.sub("", explanation.strip(), count=1))
    if not said:
        return False
    return any(said == _bare(t) for t in (*right, *letters, "".join(letters),
                                          ", ".join(letters)) if t)


def _bare(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def norm(key: str) -> str:
    """A key's name compared without case, "_", "-", "." or spaces."""
    return re.sub(r"[\s_\-.]+", "", key).casefold()


# Flat choice keys: "A", "option1", "Option A", "choice_b", "answer3", "ans_c", "c2", "K".
FLAT_RE = re.compile(r"^(?:option|choice|answer|ans|opt|alternative|ch|c|o)?[ _-]?"
                     r"([a-z]|2[0-6]|1[0-9]|[1-9])$", re.I)
# A choice marked right by a one-key mapping around its text: {"correct": "Lisbon"}.
_MARK_KEYS = frozenset({"correct", "right", "true", "answer", "x", "yes"})


def marked(value: object) -> str | None:
    """The text of a choice written ``{correct: text}``, else None."""
    if isinstance(value, dict) and len(value) == 1:
        (key, text), = value.items()
        if str(key).casefold() in _MARK_KEYS and isinstance(text, (str, int, float)) \
                and not isinstance(text, bool):
            return str(text)
    return None


def choice_list(value: object) -> list[object] | None:
    """The choices, if ``value`` can be a question's choices: a list of at least two
    texts (booleans too), of marked texts or of choice objects, or an object of texts by
    letter. (Asked of every value of every object: the common answers are told first.)"""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return None
    if kind is list:
        items: list[object] = value  # type: ignore[assignment]
        if len(items) < 2:
            return None
        if (by_letter := lettered(items)) is not None:
            return list(by_letter.values())  # [{"A": "Paris"}, {"B": "Rome"}]
        if all(type(v) is str or type(v) is bool or marked(v) is not None for v in items) \
                and (any(type(v) is not bool for v in items) or items in ([True, False],
                                                                          [False, True])):
            return items
        if all(isinstance(v, dict) and _choice_object(v) for v in items) and not all(
                _has_flat(v) for v in items):
            return items  # (objects each with choices of their own are questions)
        return None
    if isinstance(value, dict) and len(value) >= 2 and all(
            isinstance(v, (str, bool)) for v in value.values()) and _by_letter(value):
        return list(value.values())
    return None


def _has_flat(value: object) -> bool:
    """Whether an object holds flat choice keys of its own (``answer_1``, ``answer_2``):
    it is a question, no choice."""
    return isinstance(value, dict) and len(flat_keys(str(k) for k in value)) >= 2


def lettered(items: list[object]) -> dict[str, object] | None:
    """A list of one-key objects by letter (``[{"A": "Paris"}, {"B": "Rome"}]``) as one
    object of texts by letter; None if it is not one."""
    ones = [c for c in items if isinstance(c, dict) and len(c) == 1]
    if len(ones) != len(items):
        return None
    merged = {str(k): v for c in ones for k, v in c.items()}
    if len(merged) != len(items) or not all(isinstance(v, (str, bool)) for v in
                                             merged.values()) or not _by_letter(merged):
        return None
    return merged


def _by_letter(value: dict[str, object]) -> bool:
    """Whether an object's keys are choice letters or numbers from the first on: "A",
    "B", … or "option1", "option2", …"""
    places = sorted(flat_place(str(k)) for k in value)
    return places == list(range(len(places)))


def _choice_object(value: dict[str, object]) -> bool:
    """Whether ``value`` can be one choice: plain values only, one of them a text or a
    number (a question object, with lists inside, cannot)."""
    plain = False
    for x in value.values():
        if isinstance(x, (list, dict)):
            return False
        plain = plain or (isinstance(x, (str, int, float)) and not isinstance(x, bool))
    return plain


def flat_place(key: str) -> int:
    """The place a flat choice key stands for: "option2" -> 1, "Option C" -> 2; -1 if
    none."""
    match = FLAT_RE.match(key)
    if match is None:
        return -1
    found = match[1].upper()
    return int(found) - 1 if found.isdigit() else LETTERS.index(found)


def flat_keys(keys: Iterable[str]) -> tuple[str, ...]:
    """The flat choice keys among ``keys``, in order from the first letter or number
    while there is no gap."""
    by_place: dict[int, str] = {}
    for key in keys:
        place = flat_place(key)
        if place >= 0 and place not in by_place:
            by_place[place] = key
    ordered: list[str] = []
    while len(ordered) in by_place:
        ordered.append(by_place[len(ordered)])
    return tuple(ordered)


_QUOTES = "'\"`‘’“”«»„「」"


def loose(text: str) -> str:
    """A text as a choice's is compared loosely: white space collapsed, the quotes and
    the full stop around it gone, case folded ("'Two\n  words.'" is "two words")."""
    return " ".join(text.split()).strip(_QUOTES).strip().rstrip(".").strip(_QUOTES).casefold()


_LINK_RE = re.compile(r"https?://|www\.", re.I)


def without_link(text: str) -> str:
    """An answer's text without the reference link after it ("Lisbon https://…",
    "Lisbon (https://…)"); the text itself if it has none."""
    found = _LINK_RE.search(text)
    if found is None:
        return text
    before = text[:found.start()].rstrip().rstrip("([").rstrip().rstrip("-–—:;,").rstrip()
    return before or text


# A name that says its list holds the wrong answers only, in the languages banks are
# written in: "incorrect_answers", "wrong", "distractors", "incorrectas", "erradas",
# "falsche", "mauvaises", "sbagliate", "неправильные", "错误选项"; in the singular too
# ("errada", "falso", "incorrecta", "sbagliata", "wrong_answer").
_WRONG_NAME_RE = re.compile(
    r"incorrect|incorret|wrong|distract|other|errad[ao]|errone|errat[aeio]|sbagliat|"
    r"false|falsch|fausse|faux|mauvais|fals[ao]|неправильн|неверн|ошибочн|错误|錯誤|干扰|誤答|"
    r"不正解")


def wrong_name(key: str) -> bool:
    """Whether ``key``'s name says it holds the wrong answers only."""
    return _WRONG_NAME_RE.search(norm(key)) is not None


def wrong_answers(key: str, value: object) -> bool:
    """Whether ``value`` is a trivia bank's list of the wrong answers beside the right one
    (``incorrect_answers: ["False"]``): one text is enough there."""
    return isinstance(value, list) and bool(value) and all(
        isinstance(c, str) for c in value) and wrong_name(key)
