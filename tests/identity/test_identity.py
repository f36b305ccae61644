"""Tests for nca_anki.identity.assign: GUIDs and mods that survive edits."""

from __future__ import annotations

import re
from dataclasses import replace

from nca_anki.identity.retired import retired_mod, revived_mod
from nca_anki.identity.assign import assign, content_hash, note_hashes
from nca_anki.records import (CARD_TEMPLATE_NAME, FIELDS, NOTE_TYPE_ID, NOTE_TYPE_NAME, Assignment,
                              Choice, Lock, NoteType, Question, RenderedNote)

T0 = 1_700_000_000
T1 = T0 + 3_600
T2 = T0 + 7_200

NOTE_TYPE = NoteType(id=NOTE_TYPE_ID, name=NOTE_TYPE_NAME, fields=FIELDS,
                     template_name=CARD_TEMPLATE_NAME, front="{{Prompt}}<br>{{Choices}}",
                     back="{{FrontSide}}<hr id=answer>{{Answer}}", css=".card { color: black; }")

BANK = (
    ("Which GPU architecture first introduced Tensor Cores?",
     ("Pascal", "Volta", "Turing", "Ampere"), 1),
    ("What does NVIDIA Triton Inference Server do?",
     ("Trains models", "Serves models in production", "Labels data", "Compresses video"), 1),
    ("Which NVIDIA library accelerates deep neural network primitives?",
     ("cuDNN", "cuFFT", "NCCL", "nvJPEG"), 0),
    ("What is the main purpose of NCCL?",
     ("Image decoding", "Multi-GPU collective communication", "Speech synthesis",
      "Video encoding"), 1),
)


def make_note(prompt: str, choices: tuple[str, ...], correct: int = 0,
              explanation: str = "See the documentation.", part: int = 1, number: int = 1,
              slug: str = "deep-learning", deck: str = "Deep Learning") -> RenderedNote:
    question = Question(number=number, prompt=prompt,
                        choices=tuple(Choice(c, i == correct) for i, c in enumerate(choices)),
                        explanation=explanation, path=f"source/{slug}-{part}.txt",
                        line=2 + 6 * number)
    fields = (prompt, "<ol>" + "".join(f"<li>{c}</li>" for c in choices) + "</ol>",
              "ABCDEFGHIJ"[correct], f"<p>{explanation}</p>", f"{deck} — part {part}")
    return RenderedNote(question=question, part=part, fields=fields,
                        tags=(f"{slug}::part-{part}",))


def bank(topic: str = "Deep Learning", start: int = 1) -> tuple[tuple[str, RenderedNote], ...]:
    return tuple((topic, make_note(p, c, k, number=n))
                 for n, (p, c, k) in enumerate(BANK, start=start))


def by_prompt(result: Assignment) -> dict[str, tuple[str, int, str]]:
    return {n.note.question.prompt: (n.guid, n.mod, n.status.value) for n in result.notes}


# --- first build ---------------------------------------------------------------------------

def test_fresh_lock_makes_every_note_new() -> None:
    notes = bank()
    result = assign(notes, NOTE_TYPE, Lock(), frozenset(), T0)
    assert [n.status.value for n in result.notes] == ["new"] * 4
    assert [n.mod for n in result.notes] == [T0] * 4
    assert [n.note for n in result.notes] == [note for _, note in notes]
    assert {n.topic for n in result.notes} == {"Deep Learning"}
    guids = [n.guid for n in result.notes]
    assert all(re.fullmatch(r"nca-[0-9a-f]{16}", g) for g in guids)
    assert len(set(guids)) == 4
    assert result.removed == ()
    assert result.note_type_mod == T0
    assert result.lock.note_type_hash == NOTE_TYPE.fingerprint
    assert result.lock.note_type_mod == T0
    assert [(e.guid, e.topic, e.part, e.mod, e.removed) for e in result.lock.entries] == [
        (g, "Deep Learning", 1, T0, None) for g in guids]
    assert [e.content_hash for e in result.lock.entries] == [
        content_hash(note) for _, note in notes]
    assert [(e.prompt, e.choices) for e in result.lock.entries] == [
        (p, c) for p, c, _ in BANK]


def test_hashes_worked_out_on_the_workers_give_the_identities_identity_works_out() -> None:
    """The build sends each note's hashes and first GUID back from the render workers
    (RenderedNote.hashes); the identities are the same as without them, also for a
    question written twice, whose first GUID is taken by its twin."""
    notes = (*bank(), ("Deep Learning", make_note(*BANK[0][:2], BANK[0][2], number=5)))
    plain = assign(notes, NOTE_TYPE, Lock(), frozenset(), T0)
    guids = [n.guid for n in plain.notes]
    assert guids[4] != guids[0] and len(set(guids)) == 5  # the twin got the next attempt
    ahead = tuple((topic, replace(note, hashes=note_hashes(topic, note)))
                  for topic, note in notes)
    worked = assign(ahead, NOTE_TYPE, Lock(), frozenset(), T0)
    assert [n.guid for n in worked.notes] == guids
    assert worked.lock == plain.lock


def test_guids_are_deterministic_across_independent_fresh_builds() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0)
    second = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T2)
    assert [n.guid for n in first.notes] == [n.guid for n in second.notes]


def test_guid_depends_on_the_topic() -> None:
    a = assign(bank("Deep Learning"), NOTE_TYPE, Lock(), frozenset(), T0)
    b = assign(bank("GPU Computing"), NOTE_TYPE, Lock(), frozenset(), T0)
    assert not {n.guid for n in a.notes} & {n.guid for n in b.notes}


def test_identical_questions_get_distinct_stable_guids() -> None:
    prompt, choices, correct = BANK[0]
    notes = (("DL", make_note(prompt, choices, correct, number=1)),
             ("DL", make_note(prompt, choices, correct, number=2)))
    first = assign(notes, NOTE_TYPE, Lock(), frozenset(), T0)
    assert len({n.guid for n in first.notes}) == 2
    second = assign(notes, NOTE_TYPE, first.lock, frozenset(), T1)
    assert [(n.guid, n.status.value) for n in second.notes] == [
        (n.guid, "unchanged") for n in first.notes]


# --- later builds ----------------------------------------------------------------------------

def test_second_build_with_same_notes_is_unchanged() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0)
    second = assign(bank(), NOTE_TYPE, first.lock, frozenset(), T1)
    assert [(n.guid, n.mod, n.status.value) for n in second.notes] == [
        (n.guid, T0, "unchanged") for n in first.notes]
    assert second.lock == first.lock
    assert second.note_type_mod == T0
    assert second.removed == ()


def test_typo_fix_keeps_guid_and_bumps_mod_to_now() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0)
    notes = list(bank())
    prompt, choices, correct = BANK[1]
    notes[1] = ("Deep Learning", make_note(prompt.replace("Inference", "Inferense"), choices,
                                           correct, number=2))
    second = assign(tuple(notes), NOTE_TYPE, first.lock, frozenset(), T1)
    assert [(n.guid, n.mod, n.status.value) for n in second.notes] == [
        (first.notes[0].guid, T0, "unchanged"),
        (first.notes[1].guid, T1, "changed"),
        (first.notes[2].guid, T0, "unchanged"),
        (first.notes[3].guid, T0, "unchanged"),
    ]
    entry = [e for e in second.lock.entries if e.guid == first.notes[1].guid]
    assert [(e.mod, e.prompt, e.content_hash) for e in entry] == [
        (T1, notes[1][1].question.prompt, content_hash(notes[1][1]))]


def test_changed_mod_is_strictly_newer_even_when_the_clock_is_behind() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T1)
    notes = list(bank())
    prompt, choices, correct = BANK[0]
    notes[0] = ("Deep Learning", make_note(prompt + " ", choices, correct,
                                           explanation="Volta, 2017.", number=1))
    second = assign(tuple(notes), NOTE_TYPE, first.lock, frozenset(), T0)  # clock went back
    changed = second.notes[0]
    assert (changed.guid, changed.status.value, changed.mod) == (first.notes[0].guid, "changed",
                                                           T1 + 1)
    assert changed.mod > first.notes[0].mod
    # Equal clock: still strictly newer.
    third = assign(tuple(bank()), NOTE_TYPE, second.lock, frozenset(), T1 + 1)
    assert (third.notes[0].status.value, third.notes[0].mod) == ("changed", T1 + 2)


def test_explanation_only_edit_is_changed_with_same_guid() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0)
    notes = list(bank())
    prompt, choices, correct = BANK[2]
    notes[2] = ("Deep Learning", make_note(prompt, choices, correct,
                                           explanation="cuDNN: convolutions, pooling, RNNs.",
                                           number=3))
    second = assign(tuple(notes), NOTE_TYPE, first.lock, frozenset(), T1)
    assert [n.status.value for n in second.notes] == ["unchanged", "unchanged", "changed", "unchanged"]
    assert (second.notes[2].guid, second.notes[2].mod) == (first.notes[2].guid, T1)


def test_moving_a_question_to_another_part_keeps_its_guid() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0)
    prompt, choices, correct = BANK[3]
    notes = bank()[:3] + (("Deep Learning", make_note(prompt, choices, correct, part=2)),)
    second = assign(notes, NOTE_TYPE, first.lock, frozenset(), T1)
    assert (second.notes[3].guid, second.notes[3].status.value) == (first.notes[3].guid, "changed")
    assert [e.part for e in second.lock.entries if e.guid == first.notes[3].guid] == [2]


def test_inserting_a_question_at_the_front_and_renumbering() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0)
    newcomer = ("Deep Learning", make_note(
        "Which tool profiles individual CUDA kernels?",
        ("Nsight Compute", "DeepStream", "Riva", "Triton"), 0, number=1))
    notes = (newcomer,) + bank(start=2)  # every old question renumbered
    second = assign(notes, NOTE_TYPE, first.lock, frozenset(), T1)
    assert [n.status.value for n in second.notes] == ["new", "unchanged", "unchanged", "unchanged",
                                                "unchanged"]
    assert [(n.guid, n.mod) for n in second.notes[1:]] == [
        (n.guid, n.mod) for n in first.notes]
    assert second.notes[0].mod == T1
    assert second.notes[0].guid not in {n.guid for n in first.notes}
    assert second.removed == ()


def test_deleted_question_is_kept_as_removed_and_revives_with_old_guid() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0)
    gone = first.notes[1]
    without = bank()[:1] + bank()[2:]
    second = assign(without, NOTE_TYPE, first.lock, frozenset(), T1)
    assert [n.status.value for n in second.notes] == ["unchanged"] * 3
    old_entry = [e for e in first.lock.entries if e.guid == gone.guid][0]
    assert second.removed == (replace(old_entry, removed=T1),)
    assert [e for e in second.lock.entries if e.removed is not None] == [
        replace(old_entry, removed=T1)]
    assert len(second.lock.entries) == 4

    # Still gone a build later: kept, with its original removal time, not reported again.
    third = assign(without, NOTE_TYPE, second.lock, frozenset(), T2)
    assert third.removed == ()
    assert [e for e in third.lock.entries if e.removed is not None] == [
        replace(old_entry, removed=T1)]

    # Back in the source: the old GUID, and a mod newer than its retired note's
    # (versions.py), so re-importing takes the withdrawal notice off learners' cards.
    fourth = assign(bank(), NOTE_TYPE, third.lock, frozenset(), T2 + 1)
    assert (fourth.notes[1].guid, fourth.notes[1].status.value) == (gone.guid, "changed")
    assert fourth.notes[1].mod == revived_mod(T0, T1, T2 + 1) > retired_mod(T0, T1)
    assert all(e.removed is None for e in fourth.lock.entries)
    assert fourth.removed == ()


def test_different_question_replacing_another_gets_a_new_guid() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0)
    notes = list(bank())
    notes[1] = ("Deep Learning", make_note(
        "Which tool profiles individual CUDA kernels?",
        ("Nsight Compute", "DeepStream", "Riva", "Omniverse"), 0, number=2))
    second = assign(tuple(notes), NOTE_TYPE, first.lock, frozenset(), T1)
    assert second.notes[1].status.value == "new"
    assert second.notes[1].guid not in {n.guid for n in first.notes}
    assert [e.guid for e in second.removed] == [first.notes[1].guid]


def test_different_question_with_stock_stem_gets_a_new_guid() -> None:
    old = ("Deep Learning", make_note(
        "Which of the following is a benefit of using mixed precision training?",
        ("Faster training", "Lower memory use", "Both of the above", "None of the above"), 2,
        "FP16 math runs on Tensor Cores and halves activation memory."))
    new = ("Deep Learning", make_note(
        "Which of the following is a benefit of using NVIDIA DALI?",
        ("Faster data loading", "Lower CPU use", "Both of the above", "None of the above"), 2,
        "DALI moves decoding and augmentation from the CPU to the GPU."))
    first = assign((old,), NOTE_TYPE, Lock(), frozenset(), T0)
    second = assign((new,), NOTE_TYPE, first.lock, frozenset(), T1)
    assert second.notes[0].status.value == "new"
    assert second.notes[0].guid != first.notes[0].guid


def test_same_question_reworded_throughout_keeps_its_guid() -> None:
    old = ("Deep Learning", make_note(
        "What is gradient accumulation used for in training large models?",
        ("Averaging loss values", "Simulating a larger effective batch size", "Storing gradients"),
        1, "Gradient accumulation sums gradients over N mini-batches before one optimizer step."))
    new = ("Deep Learning", make_note(
        "What is gradient accumulation used for when training large models?",
        ("Averaging loss values for stability", "Simulating a larger effective batch size",
         "Storing gradients"),
        1, "Gradient accumulation sums the gradients of N mini-batches before one optimizer "
           "step, so the effective batch is N times larger."))
    first = assign((old,), NOTE_TYPE, Lock(), frozenset(), T0)
    second = assign((new,), NOTE_TYPE, first.lock, frozenset(), T1)
    assert (second.notes[0].status.value, second.notes[0].guid) == ("changed", first.notes[0].guid)


def test_exact_content_match_wins_over_similarity() -> None:
    prompt, choices, correct = BANK[0]
    a = ("DL", make_note(prompt, choices, correct, explanation="A."))
    b = ("DL", make_note(prompt, choices, correct, explanation="B."))
    first = assign((a, b), NOTE_TYPE, Lock(), frozenset(), T0)
    swapped = assign((b, a), NOTE_TYPE, first.lock, frozenset(), T1)
    assert [(n.guid, n.status.value) for n in swapped.notes] == [
        (first.notes[1].guid, "unchanged"), (first.notes[0].guid, "unchanged")]


def test_frozen_topic_entries_are_carried_over_untouched() -> None:
    notes = bank("Deep Learning") + bank("GPU Computing")
    first = assign(notes, NOTE_TYPE, Lock(), frozenset(), T0)
    frozen_entries = [e for e in first.lock.entries if e.topic == "GPU Computing"]
    assert len(frozen_entries) == 4

    # GPU Computing failed to build this time: only Deep Learning's notes come in.
    second = assign(bank("Deep Learning"), NOTE_TYPE, first.lock, frozenset({"GPU Computing"}),
                    T1)
    assert second.removed == ()
    assert [e for e in second.lock.entries if e.topic == "GPU Computing"] == frozen_entries
    assert [n.status.value for n in second.notes] == ["unchanged"] * 4

    # Without freezing, the same build would remove them.
    unfrozen = assign(bank("Deep Learning"), NOTE_TYPE, first.lock, frozenset(), T1)
    assert sorted(e.guid for e in unfrozen.removed) == sorted(e.guid for e in frozen_entries)
    assert all(e.removed == T1 for e in unfrozen.removed)


def test_notes_never_match_a_frozen_topic_entry() -> None:
    first = assign(bank("GPU Computing"), NOTE_TYPE, Lock(), frozenset(), T0)
    # The very same question text under another topic, while GPU Computing is frozen.
    prompt, choices, correct = BANK[0]
    moved = (("Deep Learning", make_note(prompt, choices, correct, slug="gpu-computing",
                                         deck="GPU Computing")),)
    second = assign(moved, NOTE_TYPE, first.lock, frozenset({"GPU Computing"}), T1)
    assert second.notes[0].status.value == "new"
    assert second.notes[0].guid not in {n.guid for n in first.notes}
    assert [e for e in second.lock.entries if e.topic == "GPU Computing"] == \
        list(first.lock.entries)


def test_note_type_mod_kept_when_fingerprint_same_and_bumped_when_css_changes() -> None:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0)
    same = assign(bank(), NOTE_TYPE, first.lock, frozenset(), T1)
    assert (same.note_type_mod, same.lock.note_type_mod) == (T0, T0)

    restyled = replace(NOTE_TYPE, css=NOTE_TYPE.css + "\n.nca-prompt { font-weight: 700; }")
    bumped = assign(bank(), restyled, same.lock, frozenset(), T2)
    assert (bumped.note_type_mod, bumped.lock.note_type_mod) == (T2, T2)
    assert bumped.lock.note_type_hash == restyled.fingerprint != NOTE_TYPE.fingerprint
    assert [n.status.value for n in bumped.notes] == ["unchanged"] * 4

    # A clock behind the lock still gives a strictly newer note type.
    back = assign(bank(), NOTE_TYPE, bumped.lock, frozenset(), T0)
    assert back.note_type_mod == T2 + 1
