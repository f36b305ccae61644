"""Questions asked twice: word for word in one topic (an error, E130), nearly so in one
topic (W150) or across topics (W151), reported at both places."""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import REPO, edit, options
from nca_anki.build import build
from nca_anki.publishing.sink import ComparingSink
from nca_anki.reading.duplicates import SIMILAR, duplicates
from nca_anki.records import Choice, ParsedFile, Question, Topic

AI = "nca-ai-deep-learning-frameworks-4.txt"
TRAINING = "deep-learning-training-techniques-and-optimization-2.txt"


def topic(name: str, path: str, *prompts: str) -> Topic:
    questions = tuple(Question(number=n, prompt=prompt, explanation="Why.",
                               choices=(Choice("a", True), Choice("b", False)),
                               path=path, line=1 + 7 * (n - 1))
                      for n, prompt in enumerate(prompts, start=1))
    return Topic(name=name, deck_name=f"NCA::{name}", slug=name.lower(),
                 files=(ParsedFile(path=path, title=name, name=name, part=1,
                                   questions=questions),))


def found(*topics: Topic) -> list[tuple[str, str, int]]:
    return [(d.code, d.path, d.line) for d in duplicates(topics)]


def test_a_reworded_copy_is_reported_at_both_places_with_its_similarity():
    a = topic("A", "a.txt", "What is mixed precision training?", "What does NCCL do?")
    b = topic("B", "b.txt", "Which GPU first had Tensor Cores?",
              "What is the purpose of mixed-precision training?")
    problems = duplicates((a, b))
    assert [(d.code, d.path, d.line) for d in problems] == [("W151", "a.txt", 1),
                                                            ("W151", "b.txt", 8)]
    assert "Question 2 of b.txt (line 8, topic 'B')" in problems[0].message
    assert "Question 1 of a.txt (line 1, topic 'A')" in problems[1].message
    assert "(prompts the same in all but small words)" in problems[0].message


def test_a_copy_with_other_word_forms_is_found():
    """Asked again with "introduce" for "introduced" and "acceleration" for "accelerating":
    the rare words that find candidates are the ones reworded, so the words are compared
    by their stems. Without stems this pair was never compared."""
    a = topic("A", "a.txt", "Which NVIDIA GPU architecture first introduced Tensor Cores for "
              "accelerating matrix multiply-accumulate operations?", "What does NCCL do?")
    b = topic("B", "b.txt", "Which GPU architecture from NVIDIA was the first to introduce "
              "Tensor Cores for matrix multiply-accumulate acceleration?")
    problems = duplicates((a, b))
    assert [(d.code, d.path, d.line) for d in problems] == [("W151", "a.txt", 1),
                                                            ("W151", "b.txt", 1)]
    # What differs is named as written, not as a stem.
    assert "(prompts the same but for 'operations')" in problems[0].message


def test_word_endings_alone_are_named_so():
    a = topic("A", "a.txt", "Which layers does pruning remove?")
    b = topic("B", "b.txt", "Which layer does pruning removes?")
    [one, _] = duplicates((a, b))
    assert "(prompts the same in all but small words and word endings)" in one.message


def test_within_a_topic_it_is_w150():
    a = topic("A", "a.txt", "What is knowledge distillation in deep learning?",
              "What is gradient clipping?",
              "What is 'knowledge distillation' in the context of deep learning model "
              "compression?")
    assert found(a) == [("W150", "a.txt", 1), ("W150", "a.txt", 15)]


@pytest.mark.parametrize("one, other", [
    ("What is model pruning in neural network deployment?",
     "What is model quantization in the context of deploying neural networks?"),
    ("What is the default port of the Triton HTTP endpoint?",
     "What is the default port of the Triton gRPC endpoint?"),
    ("What is NAS?", "What is NAS used for when searching architectures?"),
    ("Which of the following is true?", "Which of the following is correct?"),
])
def test_questions_about_different_things_are_not_duplicates(one, other):
    assert found(topic("A", "a.txt", one, other)) == []


def test_a_long_bank_of_distinct_questions_gives_nothing():
    prompts = [f"Which port does service {n} of cluster {n * 7 % 13} listen on?"
               for n in range(300)]
    assert found(topic("A", "a.txt", *prompts)) == []
    assert SIMILAR == 92


def test_the_seeds_ask_two_things_twice_across_topics(project, cli):
    run = cli("--json", "--check")
    pairs = sorted((d["path"].removeprefix("source/"), d["line"])
                   for d in json.loads(run.out)["diagnostics"] if d["code"] == "W151")
    # Knowledge distillation; mixed precision training.
    assert pairs == [(TRAINING, 2), (TRAINING, 16), (AI, 23),
                     ("neural-network-applications-and-frameworks-2.txt", 16)]


def test_a_question_pasted_twice_is_an_error_at_both_places(project, cli):
    path = project / "source" / AI
    text = path.read_text(encoding="utf-8")
    second = text[text.index("Question 2:"):text.index("Question 3:")]
    path.write_text(text.replace("Question 3:", second.replace("Question 2:", "Question 3:")
                                 + "Question 4:", 1), encoding="utf-8")
    run = cli("--check", "--warnings=all")
    assert run.status == 1
    repeats = [line for line in run.err.splitlines() if "error[E130]" in line]
    assert [line.split(": error")[0] for line in repeats] == [f"source/{AI}:9",
                                                              f"source/{AI}:16"]
    assert "is repeated word for word by Question 3 (line 16)" in repeats[0]
    assert "repeats Question 2 (line 9) word for word" in repeats[1]


def test_a_copy_in_another_topic_is_a_warning_at_both_places(project, cli):
    shutil.copytree(REPO / "dist", project / "dist")
    extra = project / "source" / "gpu-basics-1.txt"
    extra.write_text(
        "GPU Basics 1 — Questions and Answers\n"
        "Question 1: Which parallelism strategy splits individual layers across several "
        "GPUs, each GPU holding a subset of every layer's parameters?\n"
        "- Tensor parallelism (Correct answer)\n- Data parallelism\n- Pipeline parallelism\n"
        "Correct answer: Tensor parallelism\nEach GPU holds a slice of each layer.\n",
        encoding="utf-8")
    run = cli("--check", "--warnings=all")
    assert run.status == 0
    said = [line for line in run.err.splitlines() if "error[" not in line
            and "warning[W151]" in line and ("gpu-basics" in line.split(":")[0]
                                             or "Question 5 asks" in line)]
    assert [line.split(": warning")[0] for line in said] == ["source/gpu-basics-1.txt:2",
                                                             f"source/{AI}:30"]


# --- on a second core (planning.DuplicateCheck) ---------------------------------------------

def _w151(report) -> list[tuple[str, int]]:
    return sorted((d.path, d.line) for d in report.diagnostics if d.code == "W151")


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_check_on_a_second_core_reports_what_one_process_does(project, jobs):
    """With two jobs the check runs on a forked process while the decks are rendered and
    written; with one, in the build's own. The warnings are the same."""
    report = build(options(jobs=jobs), sink=ComparingSink())
    assert _w151(report) == [(f"source/{TRAINING}", 2), (f"source/{TRAINING}", 16),
                             (f"source/{AI}", 23),
                             ("source/neural-network-applications-and-frameworks-2.txt", 16)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_topic_frozen_only_when_rendered_is_not_checked(project, jobs):
    """The check starts before rendering, on the topics no error has frozen yet; an image
    that cannot be shown freezes its topic only when rendered, and that topic's pairs
    are then left out, as one process leaves them out."""
    edit(project / "source" / AI, "Knowledge distillation transfers knowledge",
         "![teacher](missing.png) Knowledge distillation transfers knowledge")
    report = build(options(jobs=jobs))
    assert not report.ok
    assert [t.status for t in report.topics if t.deck_name.startswith("NCA::AI ")] == ["failed"]
    assert _w151(report) == [(f"source/{TRAINING}", 16),
                             ("source/neural-network-applications-and-frameworks-2.txt", 16)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_strict_waits_for_the_check(project, jobs):
    report = build(options(jobs=jobs, strict=True))
    assert report.strict_failed and not report.ok
    assert len(_w151(report)) == 4
    assert not (project / "dist").exists() or not list((project / "dist").glob("*.apkg"))
