"""Tests for nca_anki.identity.match: which question is which after real editing, at any scale."""

from __future__ import annotations

import itertools
from dataclasses import replace

from hypothesis import given, settings, strategies as st

import nca_anki.identity.match as match
from nca_anki.identity.assign import assign
from nca_anki.records import Lock
from test_identity import NOTE_TYPE, T0, T1, make_note

TOPIC = "Deep Learning"


def guid_after(before, after) -> tuple[str, str, str]:
    """(GUID before, GUID after, status) of one question edited from ``before`` to ``after``."""
    first = assign(((TOPIC, before),), NOTE_TYPE, Lock(), frozenset(), T0)
    second = assign(((TOPIC, after),), NOTE_TYPE, first.lock, frozenset(), T1)
    return first.notes[0].guid, second.notes[0].guid, second.notes[0].status.value


def test_prompt_kept_word_for_word_while_everything_else_is_reworded_keeps_the_guid():
    before = make_note(
        "What problem does gradient clipping solve during training of deep neural networks?",
        ("Vanishing gradients caused by deep networks", "Exploding gradients that blow up "
         "updates", "Overfitting due to large weights", "Slow convergence from sparse signals"),
        1, "Clipping caps the gradient norm before the optimizer step.")
    after = make_note(
        "What problem does gradient clipping solve during training of deep neural networks?",
        ("Gradients shrinking towards zero in early layers", "Gradient norms growing until "
         "steps diverge", "A model memorising its training set", "Learning stalling because "
         "signals are rare"), 1, "By rescaling any gradient whose norm exceeds a limit, it "
        "keeps a single bad batch from wrecking the weights.")
    old, new, status = guid_after(before, after)
    assert new == old and status == "changed"


def test_fixing_a_wrong_answer_with_its_explanation_keeps_the_guid():
    before = make_note("Which NVIDIA architecture first introduced Tensor Cores?",
                       ("Pascal", "Volta", "Turing", "Ampere"), 2,
                       "Turing introduced Tensor Cores in 2018.")
    after = make_note("Which NVIDIA architecture first introduced Tensor Cores?",
                      ("Pascal", "Volta", "Turing", "Ampere"), 1,
                      "Volta (V100, 2017) introduced the first generation of Tensor Cores.")
    old, new, status = guid_after(before, after)
    assert new == old and status == "changed"


def test_a_stock_prompt_alone_is_no_identity():
    before = make_note("Which of the following is true?", ("FP16 halves memory", "INT8 is "
                       "lossless", "BF16 has 5 exponent bits"), 0, "FP16 is 2 bytes.")
    after = make_note("Which of the following is true?", ("NCCL is a file format", "DALI "
                      "loads data on the GPU", "TensorRT trains models"), 1,
                      "DALI moves decoding to the GPU.")
    old, new, status = guid_after(before, after)
    assert new != old and status == "new"


def test_template_edit_matches_every_note_by_its_text_without_similarity(monkeypatch):
    notes = tuple((TOPIC, make_note(f"Question {n} about topic {n * 7919 % 1000}?",
                                    (f"Alpha {n}", f"Beta {n}", f"Gamma {n}"), n % 3,
                                    f"Because of reason {n}.", number=n)) for n in range(300))
    first = assign(notes, NOTE_TYPE, Lock(), frozenset(), T0)
    relaid = tuple((topic, replace(note, fields=(note.fields[0], "<ul>" + note.fields[1],
                                                 *note.fields[2:])))
                   for topic, note in notes)  # every note's Choices field changes
    calls = itertools.count()
    real = match.similarity
    monkeypatch.setattr(match, "similarity", lambda a, b: (next(calls), real(a, b))[1])
    second = assign(relaid, NOTE_TYPE, first.lock, frozenset(), T1)
    assert [n.guid for n in second.notes] == [n.guid for n in first.notes]
    assert {n.status.value for n in second.notes} == {"changed"}
    assert next(calls) == 0


def test_similarity_work_grows_linearly_when_every_question_is_edited(monkeypatch):
    def bank(size: int, edited: bool):
        word = "revised" if edited else "original"
        return tuple((TOPIC, make_note(
            f"In the {word} bank, what does component {n} of system {n * 31 % 97} do?",
            (f"It schedules job {n}", f"It stores model {n}", f"It routes packet {n}"), n % 3,
            f"Component {n} is part of layer {n % 11}; see chapter {n * 7 % 13}.", number=n))
            for n in range(size))

    counts = {}
    for size in (200, 800):
        first = assign(bank(size, False), NOTE_TYPE, Lock(), frozenset(), T0)
        calls = itertools.count()
        real = match.similarity
        monkeypatch.setattr(match, "similarity",
                            lambda a, b, calls=calls, real=real: (next(calls), real(a, b))[1])
        second = assign(bank(size, True), NOTE_TYPE, first.lock, frozenset(), T1)
        monkeypatch.setattr(match, "similarity", real)
        assert [n.guid for n in second.notes] == [n.guid for n in first.notes]
        counts[size] = next(calls)
    assert counts[800] <= 4 * counts[200] + 800  # linear, not 16 times (quadratic)
    assert counts[800] <= 800 * match._CANDIDATES


def test_best_total_beats_the_best_single_pair():
    # The single best pair (question 0 with entry 1) would leave question 1 with entry 0:
    # two swapped identities. The best total keeps both.
    edges = [(0.85, 0, 0), (0.90, 0, 1), (0.88, 1, 1), (0.65, 1, 0)]
    assert match._best_first(edges) == [(0, 1), (1, 0)]
    assert match._assign(edges) == [(0, 0), (1, 1)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.6, 0.7, 0.8, 0.9, 1.0]), min_size=4,
                         max_size=4), min_size=1, max_size=5))
def test_assignment_is_optimal(matrix):
    edges = [(w, i, j) for i, row in enumerate(matrix) for j, w in enumerate(row) if w > 0]
    chosen = match._assign(edges)
    weight = {(i, j): w for w, i, j in edges}
    assert len({i for i, _ in chosen}) == len(chosen) == len({j for _, j in chosen})
    best = max((sum(weight.get((i, j), 0) for i, j in enumerate(perm) if i < len(matrix))
                for perm in itertools.permutations(range(max(4, len(matrix))), len(matrix))),
               default=0)
    assert abs(sum(weight[p] for p in chosen) - best) < 1e-9


def test_two_near_duplicates_edited_at_once_keep_their_own_identities():
    a = make_note("Which 16-bit format keeps the exponent range of FP32?",
                  ("FP16", "BF16", "INT8", "FP8"), 1,
                  "BF16 keeps FP32's 8 exponent bits and drops mantissa bits.", number=1)
    b = make_note("Which 16-bit format has the narrower exponent range of the two?",
                  ("FP16", "BF16", "INT8", "FP8"), 0,
                  "FP16 has 5 exponent bits, so it overflows sooner than BF16.", number=2)
    first = assign(((TOPIC, a), (TOPIC, b)), NOTE_TYPE, Lock(), frozenset(), T0)
    # a2's prompt now reads much like b's: only the answer and explanation say which it is.
    a2 = make_note("Which 16-bit format has the wider exponent range of the two?",
                   ("FP16", "BF16", "INT8", "FP8"), 1,
                   "BF16 keeps FP32's 8 exponent bits and drops mantissa bits.", number=1)
    b2 = make_note("Which 16-bit format has the narrower exponent range?",
                   ("FP16", "BF16", "INT8", "FP8"), 0,
                   "FP16 has 5 exponent bits, so it overflows sooner than BF16.", number=2)
    second = assign(((TOPIC, b2), (TOPIC, a2)), NOTE_TYPE, first.lock, frozenset(), T1)
    assert [n.guid for n in second.notes] == [first.notes[1].guid, first.notes[0].guid]
