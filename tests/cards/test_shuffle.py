"""Tests for nca_anki.cards.shuffle: pinned and lettered choices, balanced static order, slots."""

from __future__ import annotations

from collections import Counter

import pytest

from nca_anki.records import Choice, prompt_id, Question
from nca_anki.cards.references import choice_reference
from nca_anki.cards.shuffle import as_written, is_pinned, plan


def question(prompt: str, choices: tuple[str, ...] = ("Pascal", "Volta", "Turing", "Ampere"),
             correct: int = 1, explanation: str = "Because.") -> Question:
    return Question(number=1, prompt=prompt,
                    choices=tuple(Choice(c, i == correct) for i, c in enumerate(choices)),
                    explanation=explanation)


@pytest.mark.parametrize("text", ["All of the above", "None of the above.", "none of these",
                                  "**All of the above**", "Both of the above", "Any of these",
                                  "Neither of them", "All are correct"])
def test_choices_that_refer_to_the_others_are_pinned(text: str) -> None:
    assert is_pinned(text)


@pytest.mark.parametrize("text", ["All layers are trainable", "None", "Above-average loss",
                                  "Both GPUs share memory", "Nothing"])
def test_ordinary_choices_are_not_pinned(text: str) -> None:
    assert not is_pinned(text)


@pytest.mark.parametrize("text", ["Both A and B", "A and C", "A, B and D", "Options B or D",
                                  "only C", "Either (A) or (B)", "See option C above",
                                  "Neither A nor B", "B & D"])
def test_text_naming_choices_by_letter(text: str) -> None:
    assert choice_reference(text, 4)


@pytest.mark.parametrize("text", ["A/B testing of two models", "A100 and H100 GPUs",
                                  "`A and B` are tensors", "Plan A", "Type B error",
                                  "Vitamin D and calcium", "An adapter and a base model"])
def test_text_that_names_no_choice(text: str) -> None:
    assert not choice_reference(text, 4)


def test_order_is_a_permutation_with_the_answer_at_its_slot() -> None:
    (layout,) = plan([question("Which GPU architecture introduced Tensor Cores?")])
    assert layout.shuffle and layout.reason == ""
    assert sorted(layout.order) == [0, 1, 2, 3]
    assert len(layout.slots) == 1 and layout.order[layout.slots[0]] == 1


def test_same_question_same_order_every_build() -> None:
    questions = [question(f"Question about topic {n}?") for n in range(6)]
    assert plan(questions) == plan(list(questions))


def test_answers_spread_evenly_over_positions_in_a_deck() -> None:
    # Authors put the answer at B every time (as the seeds do): the static order does not.
    questions = [question(f"What does feature {n} do?") for n in range(12)]
    slots = Counter(slot for layout in plan(questions) for slot in layout.slots)
    assert slots == {0: 3, 1: 3, 2: 3, 3: 3}


def test_a_question_keeps_its_slot_when_others_are_added() -> None:
    questions = [question(f"What does feature {n} do?") for n in range(5)]
    first = plan(questions)
    kept = {prompt_id(q.prompt): layout.slots for q, layout in zip(questions, first)}
    inserted = [question("A brand-new first question?"), *questions]
    again = plan(inserted, kept=kept)
    assert again[1:] == first
    # The newcomer takes the least used slot.
    used = Counter(layout.slots[0] for layout in first)
    assert used[again[0].slots[0]] == min(used[s] for s in range(4))


def test_a_remembered_slot_that_no_longer_fits_is_placed_again() -> None:
    q = question("Short now?", choices=("Yes", "No"), correct=0)
    (layout,) = plan([q], kept={prompt_id("Short now?"): (3,)})
    assert layout.slots in ((0,), (1,)) and layout.order[layout.slots[0]] == 0


def test_editing_a_choice_keeps_the_order() -> None:
    before = question("Which GPU architecture introduced Tensor Cores?")
    after = question("Which GPU architecture introduced Tensor Cores?",
                     choices=("Pascal (2016)", "Volta", "Turing", "Ampere"))
    assert plan([before])[0].order == plan([after])[0].order


def test_pinned_choice_stays_last_and_never_holds_the_answer_slot() -> None:
    q = question("Which are GPUs?", choices=("Volta", "Xeon", "EPYC", "None of the above"),
                 correct=0)
    layouts = plan([question(f"Q{n}?") for n in range(3)] + [q])
    assert layouts[-1].order[3] == 3 and layouts[-1].pinned == frozenset({3})
    assert layouts[-1].slots in ((0,), (1,), (2,))


def test_questions_naming_choices_by_letter_keep_the_written_order() -> None:
    q = question("Which are true?", choices=("FP16 halves memory", "BF16 keeps FP32 range",
                                             "Both A and B", "Neither"), correct=2)
    (layout,) = plan([q])
    assert layout.order == (0, 1, 2, 3) and not layout.shuffle and layout.slots == ()
    assert layout.reason == "the question refers to a choice by letter or position ('A and B')"
    explained = question("Pick one", explanation="Option B is wrong because …")
    assert not plan([explained])[0].shuffle


def test_a_deck_with_shuffling_off_keeps_the_written_order() -> None:
    layouts = plan([question(f"Q{n}?") for n in range(4)], shuffle=False)
    assert all(layout.order == (0, 1, 2, 3) and not layout.shuffle for layout in layouts)
    assert layouts[0].reason == "shuffling is off for this deck"
    assert as_written(question("Q?")).order == (0, 1, 2, 3)


def test_the_seeded_order_is_uniform() -> None:
    # Over many prompts every choice lands in every place about equally often.
    places: Counter[tuple[int, int]] = Counter()
    for n in range(4000):
        layout = plan([question(f"prompt {n}")])[0]
        places.update((choice, place) for place, choice in enumerate(layout.order))
    for count in places.values():
        assert 850 <= count <= 1150  # 1000 expected; fixed seeds, so never flaky


# --- several correct answers ----------------------------------------------------------------

def several(prompt: str, correct: tuple[int, ...],
            choices: tuple[str, ...] = ("Volta", "Xeon", "Hopper", "EPYC", "Ampere")) -> Question:
    return Question(number=1, prompt=prompt, explanation="Because.",
                    choices=tuple(Choice(c, i in correct) for i, c in enumerate(choices)))


def test_every_correct_choice_of_a_question_has_a_slot_in_the_static_order() -> None:
    q = several("Which are GPU architectures? (Choose three.)", (0, 2, 4))
    (layout,) = plan([q])
    assert len(layout.slots) == 3 and len(set(layout.slots)) == 3
    assert sorted(layout.order[s] for s in layout.slots) == [0, 2, 4]
    assert sorted(layout.order) == [0, 1, 2, 3, 4] and layout.shuffle


def test_the_static_order_balances_every_correct_choice_over_the_positions() -> None:
    # Authors put both answers first every time: the static order spreads all of them.
    questions = [several(f"Which two of case {n}?", (0, 1)) for n in range(10)]
    use = Counter(slot for layout in plan(questions) for slot in layout.slots)
    assert sum(use.values()) == 20 and use == dict.fromkeys(range(5), 4)
    five = ("Volta", "Xeon", "Hopper", "EPYC", "Ampere")
    mixed = [*questions[:5], *(question(f"One answer, case {n}?", five) for n in range(6))]
    counts = Counter(slot for layout in plan(mixed) for slot in layout.slots)
    assert sum(counts.values()) == 16 and max(counts.values()) - min(counts.values()) <= 1


def test_a_question_keeps_its_slots_and_a_changed_count_of_answers_is_placed_again() -> None:
    q = several("Which are GPUs? (Choose two.)", (0, 2))
    (first,) = plan([q])
    kept = {prompt_id(q.prompt): first.slots}
    assert plan([question("Another?"), q], kept=kept)[1] == first
    three = several("Which are GPUs? (Choose two.)", (0, 2, 4))
    (again,) = plan([three], kept=kept)
    assert len(again.slots) == 3 and sorted(again.order[s] for s in again.slots) == [0, 2, 4]


def test_pinning_and_the_letter_guard_hold_for_several_answers() -> None:
    pinned = several("Which are GPUs?", (0, 2),
                     choices=("Volta", "Xeon", "Hopper", "EPYC", "None of the above"))
    (layout,) = plan([pinned])
    assert layout.shuffle and layout.order[4] == 4 and 4 not in layout.slots
    lettered = several("Which are GPUs? A and C are older.", (0, 2))
    (fixed,) = plan([lettered])
    assert not fixed.shuffle and fixed.order == tuple(range(5)) and fixed.slots == ()
    correct_pinned = several("Which hold?", (0, 4),
                             choices=("Volta", "Xeon", "Hopper", "EPYC", "All of the above"))
    assert not plan([correct_pinned])[0].shuffle
