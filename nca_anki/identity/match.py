"""Pair this build's questions with the lock's entries: which question is which, after edits.

Pure and near-linear. In order, each step only among what is still unpaired:
1. identical content (the note's fields and tags): the question did not change;
2. identical source text (prompt, choices, answer, explanation): only the card layout
   changed, e.g. an edit to ``templates/choices.html`` or a renamed topic;
3. the same prompt, word for word, once in the topic on both sides: the prompt is the
   question's identity, whatever happened to its choices, answer or explanation — as
   long as the prompt says something specific, or the rest still shares some text;
4. similarity of prompt, choices and explanation (Dice over word pairs), among the
   candidates an index of shared word pairs proposes, paired for the best total score
   (an optimal assignment), so two near-duplicate questions edited at once never swap.
Similar questions are only sought within a topic, or towards topics that no longer exist
(a renamed title); identical ones anywhere.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from nca_anki.once import computed_once
from nca_anki.records import prompt_id

# Below this score a question is new: better a new card than a wrong card's history.
MATCH_THRESHOLD = 0.6
_WEIGHTS = (0.5, 0.25, 0.25)  # prompt, choices, explanation: the prompt is the identity
# Near-identical choices with a different correct one: most likely a look-alike question
# (the same options, another question about them), so such a pair scores lower.
_ANSWER_MOVED_PENALTY = 0.15
_SAME_CHOICES = 0.8
# Step 3 needs a prompt with this many word pairs that hold a word of substance (not a
# stock exam word), or this much of the choices or explanation still shared: "Which of the
# following is true?" alone is not an identity.
_SPECIFIC_PAIRS = 3
_SUPPORT = 0.15
_STOCK_WORDS = frozenset("""
    a about all an and any are as at be best by can correct describes do does false following
    for from how in is it its most not of on one or statement statements that the these this
    to true used what when where which who why with would""".split())
# The index ignores word pairs that more than this many entries share ("of the"), and
# scores at most this many of the best-supported candidates per question.
_COMMON = 64
_CANDIDATES = 24
# Optimal assignment is cubic in the size of a group of look-alikes; larger groups (never
# seen in real banks) are paired best-first.
_EXACT_LIMIT = 120


def shingles(text: str) -> frozenset[str]:
    """The word pairs of ``text`` (its single word if it has one)."""
    words = re.findall(r"\w+", text.casefold())
    if len(words) < 2:
        return frozenset(words)
    return frozenset(f"{a} {b}" for a, b in zip(words, words[1:]))


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return 2 * len(a & b) / (len(a) + len(b))


@dataclass(frozen=True, kw_only=True)
class Item:
    """What matching sees of a question, or of a lock entry. The word pairs are worked out
    only for what reaches the similarity steps: most questions pair by hash."""

    topic: str
    content: str  # hash of the note's fields and tags
    source: str  # hash of the question's text
    prompt: str  # prompt_id() of the prompt
    prompt_text: str = ""
    choices: tuple[str, ...] = ()
    answer: int = -1
    explanation: str = ""

    @classmethod
    def of(cls, *, topic: str, content: str, source: str, prompt: str,
           choices: Sequence[str], answer: int, explanation: str,
           prompt_key: str | None = None) -> Item:
        return cls(topic=topic, content=content, source=source,
                   prompt=prompt_key or prompt_id(prompt), prompt_text=prompt,
                   choices=tuple(choices), answer=answer, explanation=explanation)

    @computed_once
    def prompt_pairs(self) -> frozenset[str]:
        return shingles(self.prompt_text)

    @computed_once
    def choice_pairs(self) -> frozenset[str]:
        return frozenset().union(*map(shingles, self.choices))

    @computed_once
    def explanation_pairs(self) -> frozenset[str]:
        return shingles(self.explanation)

    @computed_once
    def answer_pairs(self) -> frozenset[str]:
        return shingles(self.choices[self.answer]) if 0 <= self.answer < len(self.choices) \
            else frozenset()


def similarity(a: Item, b: Item) -> float:
    p, c, e = (_dice(a.prompt_pairs, b.prompt_pairs), _dice(a.choice_pairs, b.choice_pairs),
               _dice(a.explanation_pairs, b.explanation_pairs))
    score = _WEIGHTS[0] * p + _WEIGHTS[1] * c + _WEIGHTS[2] * e
    if c >= _SAME_CHOICES and _dice(a.answer_pairs, b.answer_pairs) < 0.5:
        score -= _ANSWER_MOVED_PENALTY
    return score


def pair(questions: Sequence[Item], entries: Sequence[Item]) -> dict[int, int]:
    """Question index -> entry index for every question that is an entry's question."""
    if not questions or not entries:
        return {}  # a first build (no lock yet): nothing to pair, and no index to build
    paired: dict[int, int] = {}
    taken: set[int] = set()
    for key in ("content", "source"):
        _pair_identical(questions, entries, key, paired, taken)
    _pair_by_prompt(questions, entries, paired, taken)
    _pair_similar(questions, entries, paired, taken)
    return paired


def _pair_identical(questions: Sequence[Item], entries: Sequence[Item], key: str,
                    paired: dict[int, int], taken: set[int]) -> None:
    free: dict[str, list[int]] = defaultdict(list)
    for j, entry in enumerate(entries):
        if j not in taken:
            free[getattr(entry, key)].append(j)
    for stack in free.values():
        stack.reverse()  # pop() gives the first entry first
    for i, question in enumerate(questions):
        if i in paired:
            continue
        waiting = free.get(getattr(question, key))
        # Prefer an entry of the same topic among identical ones.
        if waiting:
            same = [j for j in waiting if entries[j].topic == question.topic]
            j = same[-1] if same else waiting[-1]
            waiting.remove(j)
            paired[i] = j
            taken.add(j)


def _specific(prompt_pairs: frozenset[str]) -> bool:
    substance = [p for p in prompt_pairs if any(w not in _STOCK_WORDS for w in p.split())]
    return len(substance) >= _SPECIFIC_PAIRS


def _pair_by_prompt(questions: Sequence[Item], entries: Sequence[Item],
                    paired: dict[int, int], taken: set[int]) -> None:
    open_q = [i for i in range(len(questions)) if i not in paired]
    open_e = [j for j in range(len(entries)) if j not in taken]
    by_question = Counter((questions[i].topic, questions[i].prompt) for i in open_q)
    by_entry: dict[tuple[str, str], list[int]] = defaultdict(list)
    for j in open_e:
        by_entry[(entries[j].topic, entries[j].prompt)].append(j)
    for i in open_q:
        question = questions[i]
        key = (question.topic, question.prompt)
        found = by_entry.get(key, [])
        if by_question[key] != 1 or len(found) != 1:
            continue  # the prompt alone does not say which is which
        entry = entries[found[0]]
        if _specific(question.prompt_pairs) or max(_dice(question.choice_pairs, entry.choice_pairs),
                           _dice(question.explanation_pairs, entry.explanation_pairs)) >= _SUPPORT:
            paired[i] = found[0]
            taken.add(found[0])


def _pair_similar(questions: Sequence[Item], entries: Sequence[Item],
                  paired: dict[int, int], taken: set[int]) -> None:
    live = {q.topic for q in questions}
    open_e = [j for j in range(len(entries)) if j not in taken]
    if not open_e or len(paired) == len(questions):
        return
    index: dict[str, list[int]] = defaultdict(list)
    for j in open_e:
        entry = entries[j]
        for shingle in entry.prompt_pairs | entry.choice_pairs | entry.explanation_pairs:
            index[shingle].append(j)

    edges: list[tuple[float, int, int]] = []
    for i, question in enumerate(questions):
        if i in paired:
            continue
        support: Counter[int] = Counter()
        for shingle in question.prompt_pairs | question.choice_pairs | question.explanation_pairs:
            posting = index.get(shingle)
            if posting and len(posting) <= _COMMON:
                support.update(posting)
        for j, _ in support.most_common(_CANDIDATES):
            entry = entries[j]
            if entry.topic != question.topic and entry.topic in live:
                continue  # moves between live topics are matched only when identical
            score = similarity(question, entry)
            if score >= MATCH_THRESHOLD:
                edges.append((score, i, j))
    for group in _groups(edges):
        for i, j in _assign(group):
            paired[i] = j
            taken.add(j)


def _groups(edges: list[tuple[float, int, int]]) -> list[list[tuple[float, int, int]]]:
    """The edges split into groups that share no question or entry (connected parts)."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(node: tuple[str, int]) -> tuple[str, int]:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for _, i, j in edges:
        parent[root(("q", i))] = root(("e", j))
    groups: dict[tuple[str, int], list[tuple[float, int, int]]] = defaultdict(list)
    for edge in edges:
        groups[root(("q", edge[1]))].append(edge)
    return [sorted(group, key=lambda e: (e[1], e[2])) for _, group in sorted(groups.items())]


def _best_first(edges: list[tuple[float, int, int]]) -> list[tuple[int, int]]:
    chosen, used_q, used_e = [], set(), set()
    for _, i, j in sorted(edges, key=lambda e: (-e[0], e[1], e[2])):
        if i not in used_q and j not in used_e:
            chosen.append((i, j))
            used_q.add(i)
            used_e.add(j)
    return chosen


def _assign(edges: list[tuple[float, int, int]]) -> list[tuple[int, int]]:
    """The pairs with the greatest total score (Hungarian method, O(n³) in the group)."""
    rows = sorted({i for _, i, _ in edges})
    cols = sorted({j for _, _, j in edges})
    if len(rows) > _EXACT_LIMIT or len(cols) > _EXACT_LIMIT:
        return _best_first(edges)
    n = max(len(rows), len(cols))
    weight = [[0.0] * n for _ in range(n)]
    row_of = {i: r for r, i in enumerate(rows)}
    col_of = {j: c for c, j in enumerate(cols)}
    for score, i, j in edges:
        weight[row_of[i]][col_of[j]] = score
    # Minimise cost = -weight; u, v potentials, way the augmenting path (1-based, e-maxx).
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    owner, way = [0] * (n + 1), [0] * (n + 1)
    for r in range(1, n + 1):
        owner[0], col = r, 0
        least, used = [inf] * (n + 1), [False] * (n + 1)
        while True:
            used[col] = True
            row, delta, nxt = owner[col], inf, 0
            for c in range(1, n + 1):
                if not used[c]:
                    cost = -weight[row - 1][c - 1] - u[row] - v[c]
                    if cost < least[c]:
                        least[c], way[c] = cost, col
                    if least[c] < delta:
                        delta, nxt = least[c], c
            for c in range(n + 1):
                if used[c]:
                    u[owner[c]] += delta
                    v[c] -= delta
                else:
                    least[c] -= delta
            col = nxt
            if owner[col] == 0:
                break
        while col:
            prev = way[col]
            owner[col] = owner[prev]
            col = prev
    chosen = []
    for c in range(1, n + 1):
        r = owner[c]
        if r and r - 1 < len(rows) and c - 1 < len(cols) and weight[r - 1][c - 1] > 0:
            chosen.append((rows[r - 1], cols[c - 1]))
    return sorted(chosen)
