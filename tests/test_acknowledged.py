"""Acknowledging a judged warning in nca-anki.toml: by its code and the question's
fingerprint, so renumbering keeps it and an edit brings the warning back."""

from __future__ import annotations

import json

import pytest

AI = "nca-ai-deep-learning-frameworks-4.txt"
CLIPPING = "Question 1: What problem does gradient clipping solve"


def longest(cli) -> list[dict]:
    report = json.loads(cli("--json", "--check").out)
    return [d for d in report["diagnostics"] if d["code"] == "W140"
            and d["path"] == f"source/{AI}"]


def acknowledge(project, code: str, question: str) -> None:
    (project / "source" / "nca-anki.toml").write_text(
        f'[[acknowledged]]\ncode = "{code}"\nquestion = "{question}"\n'
        'reason = "the answer must name both the cause and the effect"\n', encoding="utf-8")


def test_an_acknowledged_warning_is_not_shown_while_its_question_stays(project, cli):
    warned, = longest(cli)  # Question 1 of the AI topic: its answer is the longest
    assert warned["line"] == 2
    acknowledge(project, "W140", warned["question"])
    report = json.loads(cli("--json", "--check").out)
    assert report["counts"]["acknowledged"] == 1
    assert not [d for d in report["diagnostics"] if d["question"] == warned["question"]
                and d["code"] == "W140"]
    run = cli("--check")
    assert run.status == 0
    assert "(1 acknowledged, not shown)" in run.err.splitlines()[-1]

    # A question added above it renumbers it: still acknowledged.
    path = project / "source" / AI
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(CLIPPING, (
        "Question 1: Which tool profiles a CUDA kernel's memory traffic?\n"
        "- Nsight Compute (Correct answer)\n- nvidia-smi\n- DCGM\n"
        "Correct answer: Nsight Compute\nIt reads the kernel's hardware counters.\n"
        + CLIPPING.replace("Question 1", "Question 2"))).replace(
        "Question 2: Which NVIDIA", "Question 3: Which NVIDIA"), encoding="utf-8")
    assert longest(cli) == []
    assert json.loads(cli("--json", "--check").out)["counts"]["acknowledged"] == 1

    # An edit of the question itself: the warning is back, and the entry is said stale.
    path.write_text(path.read_text(encoding="utf-8").replace(
        "gradient clipping solve", "gradient norm clipping solve"), encoding="utf-8")
    back, = longest(cli)
    assert back["question"] != warned["question"]
    report = json.loads(cli("--json", "--check").out)
    stale, = [d for d in report["diagnostics"] if d["code"] == "W202"]
    assert (stale["path"], stale["line"]) == ("source/nca-anki.toml", 1)
    assert warned["question"] in stale["message"]


@pytest.mark.parametrize("entry, said", [
    ('code = "E120"\nquestion = "0123456789ab"', "errors cannot be acknowledged"),
    ('code = "W999"\nquestion = "0123456789ab"', "names no known code ('W999')"),
    ('code = "W140"\nquestion = "Question 1"', "needs question = the 12-character"),
    ('code = "W140"\nquestion = "0123456789ab"\nwhy = "x"', "has unknown key 'why'"),
])
def test_a_mistyped_acknowledgement_is_an_error_at_its_line(project, cli, entry, said):
    (project / "source" / "nca-anki.toml").write_text(
        f'parent_deck = "NCA"\n\n[[acknowledged]]\n{entry}\n', encoding="utf-8")
    run = cli("--check")
    assert run.status == 1
    error, = [line for line in run.err.splitlines() if "error[" in line]
    assert error.startswith("source/nca-anki.toml:3: error[E203]: [[acknowledged]] entry ")
    assert said in error


def test_an_acknowledgement_of_a_frozen_topic_is_not_called_stale(project, cli):
    warned, = longest(cli)
    acknowledge(project, "W140", warned["question"])
    path = project / "source" / AI
    path.write_text(path.read_text(encoding="utf-8").replace("Correct answer: Volta\n", ""),
                    encoding="utf-8")  # the topic fails: not linted, nothing to match
    report = json.loads(cli("--json", "--check").out)
    assert report["counts"]["errors"] >= 1
    assert not [d for d in report["diagnostics"] if d["code"] == "W202"]
