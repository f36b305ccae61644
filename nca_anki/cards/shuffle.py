"""Decide how a question's choices may move on the card: which are pinned, whether the
question may be shuffled at all, and the fixed order the card shows without JavaScript.

Pure functions of the question's text (no Jinja, no genanki), so the same source always
gives the same order. The card's script shuffles again on every review, within the same
rules (templates/card.js reads them from the attributes render.py writes).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Mapping, Sequence

from nca_anki.cards.references import choice_reference, might_refer, prose
from nca_anki.diagnostics import clip
from nca_anki.records import Layout, Question, prompt_id

# Choices that only make sense in one place: "All of the above", "None of these" …
_PINNED_RE = re.compile(
    r"^(?:all|none|both|neither|any|each|either)\s+(?:of\s+)?(?:the\s+)?"
    r"(?:above|these|those|them|previous|preceding|options|choices|answers)\b"
    r"|^(?:all|none)\s+(?:are|is)\s+(?:correct|true|false|wrong)\b"
    r"|^(?:not\s+enough\s+information|cannot\s+be\s+determined)\b",
    re.IGNORECASE)
def is_pinned(text: str) -> bool:
    """True for a choice such as "All of the above" that must keep its place."""
    # Code is not prose: `All of the above` in code pins nothing.
    return bool(_PINNED_RE.match(" ".join(prose(text).strip(" .*_").split())))


def _seeded_permutation(items: list[int], seed: str) -> list[int]:
    """Fisher–Yates driven by a hash of ``seed``: uniform over orders, and the same order
    for the same seed on every machine and build."""
    result = list(items)
    counter = 0
    pool = b""
    for i in range(len(result) - 1, 0, -1):
        if len(pool) < 8:
            pool += hashlib.sha256(f"{seed}\x1f{counter}".encode()).digest()
            counter += 1
        value, pool = int.from_bytes(pool[:8], "big"), pool[8:]
        j = value % (i + 1)  # bias below 2**-60: irrelevant for at most 10 choices
        result[i], result[j] = result[j], result[i]
    return result


def prompt_key(prompt: str) -> str:
    """What a question's remembered slot is filed under: its prompt, whitespace-normalised."""
    return " ".join(prompt.split())


def _fixed_reason(question: Question, pinned: frozenset[int], shuffle: bool) -> str:
    """Why ``question``'s choices must stay as written ("" if they may move)."""
    if not shuffle:
        return "shuffling is off for this deck"
    texts = (question.prompt, *(c.text for c in question.choices), question.explanation)
    if might_refer("\n".join(texts)):
        for text in texts:
            words = choice_reference(text, len(question.choices))
            if words:
                return f"the question refers to a choice by letter or position ({clip(words)!r})"
    if len(question.choices) - len(pinned) < 2:
        return "fewer than two choices can move"
    return ""


def plan(questions: Sequence[Question], shuffle: bool = True,
         kept: Mapping[str, tuple[int, ...]] | None = None) -> tuple[Layout, ...]:
    """The layouts of one deck's ``questions`` (in source order).

    The correct choices' places in the static order (their *slots*) are remembered per
    prompt in ``kept`` (from the lock, by ``match.prompt_id``): a question keeps its slots
    from build to build, so adding or editing other questions never reorders it. Questions
    without them take, one correct choice at a time, the slot used least so far in the
    deck, so no position gives an answer away, however many answers a question has. The
    distractors fill the other places in an order seeded by the prompt.
    """
    kept = kept or {}
    layouts: list[Layout | None] = [None] * len(questions)
    fresh: list[tuple[int, Question, frozenset[int], list[int]]] = []
    use: Counter[int] = Counter()
    for n, question in enumerate(questions):
        count = len(question.choices)
        pinned = frozenset(i for i, c in enumerate(question.choices) if is_pinned(c.text))
        reason = _fixed_reason(question, pinned, shuffle)
        correct = question.correct_indexes
        if reason or not correct or any(i in pinned for i in correct):
            layouts[n] = Layout(order=tuple(range(count)), pinned=pinned, shuffle=False,
                                reason=reason or "a correct choice cannot move")
            continue
        places = [i for i in range(count) if i not in pinned]
        slots = kept.get(prompt_id(question.prompt), ())
        if len(slots) == len(correct) and len(set(slots)) == len(slots) \
                and all(slot in places for slot in slots):
            layouts[n] = _arrange(question, pinned, places, slots)
            use.update(slots)
        else:
            fresh.append((n, question, pinned, places))
    for n, question, pinned, places in fresh:
        free, chosen = list(places), []
        for j in range(len(question.correct_indexes)):  # the least used free place each
            least = min(use[p] for p in free)
            tied = [p for p in free if use[p] == least]
            seed = prompt_key(question.prompt) + (f"\x1f{j}" if j else "")
            slot = _seeded_permutation(tied, seed)[0]
            free.remove(slot)
            chosen.append(slot)
            use[slot] += 1
        layouts[n] = _arrange(question, pinned, places, tuple(sorted(chosen)))
    return tuple(layout for layout in layouts if layout is not None)


def _arrange(question: Question, pinned: frozenset[int], places: list[int],
             slots: tuple[int, ...]) -> Layout:
    """The static order with the correct choices (in source order) at ``slots``."""
    correct = question.correct_indexes
    at = dict(zip(slots, correct))
    distractors = iter(_seeded_permutation(
        [i for i in places if i not in correct], prompt_key(question.prompt)))
    order = tuple(i if i in pinned else at[i] if i in at else next(distractors)
                  for i in range(len(question.choices)))
    return Layout(order=order, pinned=pinned, shuffle=True, slots=slots)


def as_written(question: Question) -> Layout:
    """The choices exactly as written, never moved (a deck with shuffling off)."""
    return plan((question,), shuffle=False)[0]
