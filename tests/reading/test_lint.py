"""Tests for nca_anki.reading.lint: answers that give themselves away, warned at their source line."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from nca_anki.reading.config import Config
from nca_anki.diagnostics import Severity
from nca_anki.reading.lint import giveaways, visible_length
from nca_anki.reading.parse import parse
from nca_anki.reading.topics import group_topics
from nca_anki.records import Topic

PATH = "source/topic-1.txt"
CLUSTER = "correct answers cluster on "


def question(number: int, correct: str, *distractors: str, at: int = 0) -> str:
    """A question's source text; the correct choice goes at index ``at``."""
    choices = [f"- {d}" for d in distractors]
    choices.insert(at, f"- {correct} (Correct answer)")
    return "\n".join([f"Question {number}: Prompt {number}?", *choices,
                      f"Correct answer: {correct}", "Because.", ""])


def topic(*questions: str, path: str = PATH, part: int = 1) -> Topic:
    text = f"Topic {part} — Questions and Answers\n" + "".join(questions)
    parsed = parse(text, path)
    assert not [d for d in parsed.diagnostics if d.is_error], parsed.diagnostics
    topics, problems = group_topics((parsed.file,), Config(parent_deck="NCA", deck_names=MappingProxyType({})),
                                    "source/nca-anki.toml")
    assert problems == ()
    (only,) = topics
    return only


def at_positions(*positions: int) -> Topic:
    """A topic whose questions put the correct choice at the given indexes (no giveaway
    by length: all choices are short)."""
    return topic(*(question(n, "Yes", "No", "Maybe", "Never", at=at)
                   for n, at in enumerate(positions, start=1)))


def cluster_warnings(found) -> list:
    return [d for d in found if d.message.startswith(CLUSTER)]


# --- visible_length -------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("plain", 5),
    ("`torch.compile`", 13),
    ("**bold**  and\t_em_", 11),
    ("  spaced   out  ", 10),
])
def test_visible_length_drops_markup_and_extra_whitespace(text: str, expected: int) -> None:
    assert visible_length(text) == expected


# --- longest answer -------------------------------------------------------------------------

LONG = "Exploding gradients that make parameter updates far too large"  # 61 characters
SHORT = "Vanishing gradients"  # 19


def test_correct_choice_longest_by_far_warns_at_its_question_line() -> None:
    found = giveaways(topic(question(1, "Yes", "No"),
                            question(2, LONG, SHORT, "Overfitting", at=1)))
    assert [(d.path, d.line, d.severity) for d in found] == [(PATH, 7, Severity.WARNING)]
    assert found[0].message == (
        "Question 2's correct choice is the longest by far (61 characters; the longest "
        "distractor has 19): learners can guess it without knowing; make the distractors as "
        "specific as the answer")


def test_lengths_are_measured_without_markup() -> None:
    # 30 visible characters against 20: 1.5 times, but only 10 longer.
    answer = "**" + "a" * 28 + "** `b`"
    assert visible_length(answer) == 30
    assert giveaways(topic(question(1, answer, "c" * 20))) == ()


def test_a_near_tie_does_not_warn() -> None:
    # 61 against 45: 16 characters longer, but only 1.36 times as long.
    distractor = "Vanishing gradients that stall early layers."  # 44
    assert giveaways(topic(question(1, LONG, distractor + "x", SHORT))) == ()


def test_both_thresholds_are_inclusive() -> None:
    # Exactly 1.5 times and exactly 15 longer: both thresholds are inclusive.
    found = giveaways(topic(question(3, "a" * 45, "b" * 30, "c")))
    assert [(d.line, d.message.split(":")[0]) for d in found] == [
        (2, "Question 3's correct choice is the longest by far (45 characters; the longest "
            "distractor has 30)")]
    assert giveaways(topic(question(3, "a" * 44, "b" * 30, "c"))) == ()  # 14 longer


@pytest.mark.parametrize("correct, distractor", [
    ("Volta", "Pascal"),  # shorter
    ("Tensor parallelism", "Data"),  # 4.5 times as long, but only 14 characters longer
    ("a" * 14, "b"),
])
def test_short_choices_never_warn(correct: str, distractor: str) -> None:
    assert giveaways(topic(question(1, correct, distractor, "c"))) == ()


def test_a_question_the_parser_rejected_is_not_seen() -> None:
    # Two choices marked correct, one answer line: the parser reports it and drops it.
    text = ("Topic 1 — Questions and Answers\nQuestion 1: Q?\n"
            f"- {LONG} (Correct answer)\n- x (Correct answer)\nCorrect answer: {LONG}\nWhy.\n")
    parsed = parse(text, PATH)
    assert parsed.file.questions == ()
    assert [d for d in parsed.diagnostics if d.is_error]


def several(number: int, correct: tuple[str, ...], *distractors: str) -> str:
    """A question with several correct choices, written first."""
    return "\n".join([f"Question {number}: Which {len(correct)}?",
                      *(f"- {c} (Correct answer)" for c in correct),
                      *(f"- {d}" for d in distractors),
                      *(f"Correct answer: {c}" for c in correct), "Because.", ""])


def test_correct_choices_that_are_the_only_long_ones_warn() -> None:
    found = giveaways(topic(several(1, (LONG, LONG + " again"), SHORT, "Overfitting")))
    assert [d.message for d in found] == [
        "Question 1's 2 correct choices are the 2 longest by far (the shortest has 61 "
        "characters; the longest distractor has 19): learners told to choose 2 can guess "
        "them without knowing; make the distractors as specific as the answers"]
    # One long distractor among them, or one short answer among the answers: no giveaway.
    assert giveaways(topic(several(1, (LONG, LONG + " again"), SHORT, LONG + " too"))) == ()
    assert giveaways(topic(several(1, (LONG, "Dropout"), SHORT, "Overfitting"))) == ()


def test_every_choice_correct_warns() -> None:
    found = giveaways(topic(several(1, ("Volta", "Hopper", "Ampere"))))
    assert [(d.line, d.message) for d in found] == [
        (2, "every choice of Question 1 is marked '(Correct answer)': the card says "
            "'Choose 3 answers', which gives them away; add distractors, or ask the question "
            "another way")]


def test_an_unknown_language_in_a_choice_is_a_warning_too() -> None:
    text = ("Question 1: Which is valid?\n- A\n  ```pyhton\n  x = 1\n  ```\n"
            "- B (Correct answer)\n  ```python\n  y = 2\n  ```\nCorrect answer: B\nWhy.\n")
    found = giveaways(topic(text))
    assert [d.message.split(":")[1].strip() for d in found] == [
        "the code block's language 'pyhton' is not one the highlighter knows, so the code "
        "is shown without colours; use its usual name (python, bash, c, cpp, cuda, yaml, "
        "json, dockerfile…)"]


def test_an_image_without_a_description_is_a_warning() -> None:
    bare = ("Question 1: Which plot? ![](images/a.png)\n- Left (Correct answer)\n- Right\n"
            "Correct answer: Left\nIt falls.\n")
    assert [d.message for d in giveaways(topic(bare))] == [
        "Question 1 shows an image with no description: write what it shows between the "
        "brackets, ![a plot of ...](path); a screen reader reads it, and a client that cannot "
        "show the image shows it"]
    described = bare.replace("![](", "![Loss falling](")
    assert giveaways(topic(described)) == ()


# --- position cluster -----------------------------------------------------------------------

def test_a_cluster_warns_once_at_the_first_files_title_line() -> None:
    found = giveaways(at_positions(1, 1, 0, 1, 1, 1))
    assert [(d.path, d.line, d.severity) for d in found] == [(PATH, 1, Severity.WARNING)]
    assert found[0].message == (
        "correct answers cluster on B in the source order (5 of 6 questions); the cards "
        "shuffle choices when shown, but a deck with shuffling turned off, or questions that "
        "cannot be shuffled, show this order: vary where the correct choice goes")


def test_a_balanced_topic_does_not_warn() -> None:
    assert giveaways(at_positions(0, 1, 2, 3, 0, 1)) == ()


def test_a_topic_with_four_questions_does_not_warn() -> None:
    assert giveaways(at_positions(1, 1, 1, 1)) == ()


@pytest.mark.parametrize("positions, expected", [
    ((2, 2, 2, 0, 1), None),  # 60%, but only 3 questions
    ((2, 2, 2, 2, 0, 1, 3, 0, 1, 3), None),  # 4 questions, but 40% exactly
    ((2, 2, 2, 2, 0, 1, 3, 0, 1), "C in the source order (4 of 9 questions)"),  # 44%
])
def test_cluster_needs_more_than_40_percent_and_four_questions(positions, expected) -> None:
    found = cluster_warnings(giveaways(at_positions(*positions)))
    assert [d.message.split(";")[0] for d in found] == (
        [CLUSTER + expected] if expected else [])


def test_cluster_counts_parts_in_order_and_reports_at_part_one() -> None:
    part2 = parse("Topic 2 — Questions and Answers\n"
                  + "".join(question(n, "Yes", "No", at=1) for n in (1, 2, 3)),
                  "source/b-part-2.txt").file
    part1 = parse("Topic 1 — Questions and Answers\n"
                  + "".join(question(n, "Yes", "No", at=1) for n in (1, 2)),
                  "source/z-part-1.txt").file
    (both,), _ = group_topics((part2, part1), Config(parent_deck="NCA", deck_names=MappingProxyType({})), "cfg")
    found = cluster_warnings(giveaways(both))
    assert [(d.path, d.line) for d in found] == [("source/z-part-1.txt", 1)]
    assert "cluster on B in the source order (5 of 5 questions)" in found[0].message


# --- in the build ---------------------------------------------------------------------------

SEEDS = ("deep-learning-training-techniques-and-optimization-2.txt",
         "nca-ai-deep-learning-frameworks-4.txt",
         "neural-network-applications-and-frameworks-2.txt")


def test_the_seeds_build_and_their_cluster_is_pointed_out(project, cli):
    run = cli("--check", "--warnings=all")
    assert run.status == 0, run.err
    assert ": error[" not in run.err
    clusters = [line for line in run.err.splitlines() if CLUSTER in line]
    assert [line.split(": warning[")[0] for line in clusters] == [
        f"source/{name}:1" for name in SEEDS]
    assert f"source/{SEEDS[1]}:1: warning[W142]: correct answers cluster on B in the source order " \
           "(5 of 7 questions)" in run.err
    assert f"source/{SEEDS[1]}:2: warning[W140]: Question 1's correct choice is the longest by " \
           "far (76 characters; the longest distractor has 43)" in run.err


def test_a_topic_that_fails_is_not_linted(project, cli):
    source = project / "source" / SEEDS[1]
    source.write_text(source.read_text(encoding="utf-8").replace(
        "Correct answer: Volta\n", "", 1), encoding="utf-8")
    run = cli("--check", "--warnings=all")
    assert run.status == 1
    assert f"source/{SEEDS[1]}:" in run.err  # its error is reported ...
    lint = [line for line in run.err.splitlines()
            if CLUSTER in line or "longest by far" in line]
    assert lint and not [line for line in lint if SEEDS[1] in line]  # ... its style is not


# --- code block languages -------------------------------------------------------------------

def _file_with(explanation: str):
    text = ("Code 1 — Questions and Answers\nQuestion 1: What is printed?\n- 1 (Correct answer)"
            f"\n- 2\n- 3\nCorrect answer: 1\n{explanation}\n")
    return parse(text, "source/code-1.txt").file


@pytest.mark.parametrize("fence, warned", [
    ("```pyhton", ["pyhton"]), ("~~~ Pyhton extra words", ["Pyhton"]),
    ("```python", []), ("```Python", []), ("```c++", []), ("```cuda", []), ("```bash", []),
    ("```", []), ("``` ", []),
])
def test_a_code_block_in_a_language_the_highlighter_does_not_know_is_a_warning(
        fence: str, warned: list[str]) -> None:
    from nca_anki.reading.lint import long_answers
    problems = long_answers(_file_with(f"It prints one:\n\n{fence}\nprint(1)\n{fence[:3]}"))
    assert [(p.line, p.severity) for p in problems] == [(2, Severity.WARNING)] * len(warned)
    for problem, name in zip(problems, warned):
        assert f"language {name!r} is not one the highlighter knows" in problem.message
