"""Questions that ask the same thing twice, in one topic (W150) or in two (W151).

Two questions are compared by their prompts' content words: lower case, punctuation and
Markdown gone, and the words every exam question uses ("what", "is", "the", "purpose",
"context") left out, each word reduced to its stem by the Snowball English stemmer
("introduced" and "introduce" are "introduc", "accelerating" and "acceleration"
"acceler": a question asked again in other words changes a word's form more often than
the word), each stem once, sorted. Two prompts ask the same thing when

- their words are the same, or the words of one are all among the other's and are more
  than half of them ("What is mixed precision training?", "What is the purpose of mixed
  precision training?"; "What is knowledge distillation in deep learning?", "... in the
  context of deep learning model compression?"); or
- the sorted words, as text, score at least ``SIMILAR`` (0-100) by ``rapidfuzz.fuzz.ratio``
  (a normalised edit distance: a typo, a plural, a word changed in a long prompt); or
- the prompts score at least ``REWORDED`` by ``rapidfuzz.fuzz.token_set_ratio`` (most
  words shared, some reworded) and their correct answers at least ``SIMILAR`` the same
  way: a question asked again in other words, with the same answer.

Prompts with different numbers ask different things ("port 8000", "port 8001"), and so
does one word swapped for another in a short prompt ("... the Triton HTTP endpoint?", "... the
Triton gRPC endpoint?") scores below that: those ask different things. A prompt of fewer
than two content words is only ever compared whole, so "What is NAS?" does not match
every question that mentions NAS. A pair found is reported at both questions.

A bank of 100,000 questions cannot be compared pair by pair (5 billion pairs). Words are
ordered rarest first, the same order for every prompt. A prompt is compared only with
those that share two of its ``RAREST`` rarest words (a prompt asked again with a word
dropped, added or changed keeps most of its rare words), and with the shorter prompts whose
rarest word is among its words (all prompts whose words are among its own: the first
rule). A word in more
than ``COMMON`` prompts, or a pair of them in more than ``COMMON_PAIR``, finds no
candidates: prompts that share only common words differ in the words that matter, and a
bank written from a small vocabulary (the benchmark's, 18 words) is not compared as
millions of pairs. What this misses
(a prompt reworded in most of its rare words) is measured by bench/duplicates.py, with
its figures in docs/speed.md.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from nca_anki.diagnostics import Diagnostic, warning
from nca_anki.reading.seen import seen
from nca_anki.records import ParsedFile, Question, QuestionKey, Topic

if TYPE_CHECKING:
    from rapidfuzz import fuzz

SIMILAR = 92  # the least edit-distance score reported
REWORDED = 80  # the least score of reworded prompts whose answers are alike
RAREST = 4  # of a prompt's rarest words, two in common make a candidate
COMMON = 1000  # a word in more prompts than this finds no candidates
COMMON_PAIR = 50  # nor does a pair of rare words in more prompts than this

_WORD_RE = re.compile(r"[^\W_]+")
_FILLER = frozenset("""
a an the of in on for to is are was were be been being by with as at from or and into than
then that this these those it its their there what which who whom whose how why when where
does do did can could should would will may might must not no
purpose context primary main following best describes describe statement statements true
correct used use using typically commonly most term refers
""".split())


def _words(text: str) -> str:
    """The content words of ``text`` as the learner reads them (invisible characters
    inside a word do not split it: reading/seen.py)."""
    return " ".join(sorted({w for w in _WORD_RE.findall(seen(text).casefold())
                            if w not in _FILLER}))


class _Stems:
    """Each word's Snowball English stem (PyStemmer, in C), for the words of the keys
    compared: a bank of 100,000 questions has far fewer distinct words than words, and
    they are stemmed in one call."""

    def __init__(self, keys: Sequence[QuestionKey]) -> None:
        import Stemmer  # PyStemmer: only a build that checks loads it

        words = sorted({w for k in keys for text in (k.words, k.answer) for w in text.split()})
        self.of = dict(zip(words, Stemmer.Stemmer("english").stemWords(words)))

    def __call__(self, words: str) -> tuple[str, ...]:
        """The stems of ``words`` (a QuestionKey's words), sorted, each once."""
        return tuple(sorted(set(map(self.of.__getitem__, words.split()))))

    def text(self, words: str) -> str:
        """The stems of ``words`` as one text, for an edit-distance score."""
        return " ".join(self(words))


def question_key(question: Question) -> QuestionKey:
    """What the check compares of ``question`` (kept in the parse cache: records.py)."""
    return QuestionKey(number=question.number, line=question.line, fingerprint=question.fingerprint,
                       words=_words(question.prompt),
                       answer=_words(" ".join(c.text for c in question.choices if c.correct)))


def keys_of(file: ParsedFile) -> tuple[QuestionKey, ...]:
    return file.keys or tuple(question_key(q) for q in file.questions)


class _Entry(NamedTuple):  # a tuple: made 10,000 times a build, twice as fast as a dataclass
    topic: str
    path: str
    key: QuestionKey
    words: tuple[str, ...]  # the content words' stems, sorted, each once
    word_set: frozenset[str]
    numbers: frozenset[str]  # the words that are numbers
    text: str  # the stems as one text, for the edit-distance scores


def _entry(topic: str, path: str, key: QuestionKey, stems: _Stems) -> _Entry:
    words = stems(key.words)
    return _Entry(topic, path, key, words, frozenset(words),
                  frozenset(filter(str.isdigit, words)), " ".join(words))


def duplicates(topics: Sequence[Topic]) -> list[Diagnostic]:
    """W150 and W151 warnings for every pair of questions that ask the same thing."""
    global fuzz
    from rapidfuzz import fuzz  # only a build that checks loads it

    keyed = [(t.name, f.path, k) for t in topics for f in t.files for k in keys_of(f)]
    stems = _Stems([k for _, _, k in keyed])
    entries = [_entry(topic, path, k, stems) for topic, path, k in keyed]
    entries = [e for e in entries if e.words]
    frequency = Counter(itertools.chain.from_iterable(e.words for e in entries))
    # Each word's place in the bank's order, rarest first (ties by the word).
    rank = {w: n for n, w in enumerate(sorted(frequency, key=lambda w: (frequency[w], w)))}
    ordered = [sorted(e.words, key=rank.__getitem__) for e in entries]
    by_pair: dict[tuple[str, str], list[int]] = defaultdict(list)
    by_rarest: dict[str, list[int]] = defaultdict(list)  # each prompt under its rarest word
    for i, words in enumerate(ordered):
        for pair in itertools.combinations(words[:RAREST], 2):
            by_pair[pair].append(i)
        if frequency[words[0]] <= COMMON:
            by_rarest[words[0]].append(i)
    found: dict[tuple[int, int], float] = {}
    for i, e in enumerate(entries):
        # Prompts that share two of this one's rarest words; and the shorter prompts
        # whose rarest word is one of this one's words: among them every prompt whose
        # words are all among this one's.
        candidates = {j for pair in itertools.combinations(ordered[i][:RAREST], 2)
                      if len(by_pair[pair]) <= COMMON_PAIR for j in by_pair[pair] if j > i}
        size, mine = len(e.words), e.word_set
        candidates.update(j for w in e.words for j in by_rarest.get(w, ())
                          if entries[j].word_set < mine and 2 * len(entries[j].words) > size)
        for j in candidates:
            other = entries[j]
            # A test in C that leaves few candidates for the slower rules.
            if 2 * len(e.word_set & other.word_set) < max(len(e.words), len(other.words)):
                continue
            ordered_pair = (i, j) if i < j else (j, i)
            if ordered_pair not in found and (score := _score(e, other, stems)):
                found[ordered_pair] = score
    problems = []
    for (i, j), score in sorted(found.items()):
        a, b = entries[i], entries[j]
        problems += [_said(a, b, score, stems), _said(b, a, score, stems)]
    return problems


def _score(a: _Entry, b: _Entry, stems: _Stems) -> float:
    """100: one prompt's words are the other's, or most of them; else the edit-distance
    score of the two, if at least SIMILAR; else that of their answers, if the prompts are
    reworded (REWORDED) and the answers alike (SIMILAR), as a negative number; else 0."""
    if a.numbers != b.numbers:
        return 0.0  # "port 8000" and "port 8001" are two questions
    small, large = (a, b) if len(a.words) <= len(b.words) else (b, a)
    if len(small.words) >= 2 and 2 * len(small.words) > len(large.words) \
            and small.word_set <= large.word_set:
        return 100.0
    score = fuzz.ratio(a.text, b.text, score_cutoff=SIMILAR)
    if score or len(small.words) < 2 or not (a.key.answer and b.key.answer):
        return score
    if fuzz.token_set_ratio(a.text, b.text, score_cutoff=REWORDED):
        # The answers' stems only here: few pairs get this far.
        return -fuzz.ratio(stems.text(a.key.answer), stems.text(b.key.answer),
                           score_cutoff=SIMILAR)
    return 0.0


def _said(here: _Entry, other: _Entry, score: float, stems: _Stems) -> Diagnostic:
    q, o = here.key, other.key
    differ = here.word_set ^ other.word_set
    # The words as written whose stems one prompt has and the other has not.
    extra = sorted({w for e in (here, other) for w in e.key.words.split()
                    if stems.of[w] in differ})
    if score < 0:
        alike = f"reworded, with answers {-score:.0f}% alike"
    elif not extra:
        alike = "the same in all but small words" + (
            "" if q.words == o.words else " and word endings")
    elif score >= 100:
        alike = f"the same but for {', '.join(repr(w) for w in extra[:3])}" + (
            " …" if len(extra) > 3 else "")
    else:
        alike = f"{score:.0f}% alike"
    if here.topic == other.topic:
        place = f"Question {o.number} (line {o.line})" if other.path == here.path else \
            f"Question {o.number} of {other.path} (line {o.line})"
        return warning("W150", here.path, q.line, (
            f"Question {q.number} asks what {place} asks (prompts {alike}): learners would "
            "review one fact twice; merge them, or reword one to ask something else"))
    return warning("W151", here.path, q.line, (
        f"Question {q.number} asks what Question {o.number} of {other.path} (line {o.line}, "
        f"topic {other.topic!r}) asks (prompts {alike}): a learner of both decks reviews "
        "one fact twice; keep it in one topic, or reword one"))
