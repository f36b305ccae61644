"""Acknowledging a judged warning in nca-anki.toml: by its code and the question's
fingerprint, so renumbering keeps it and an edit brings the warning back; or by its code
and a file's path, for a warning about the whole file."""

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


NEURAL = "neural-network-applications-and-frameworks-2.txt"


def test_a_file_s_warnings_are_acknowledged_by_its_path(project, cli):
    """W142 is about a whole file (no question); a file entry also takes every warning of
    its code inside the file, for questions added later too."""
    before = json.loads(cli("--json", "--check").out)["diagnostics"]
    clusters = [d for d in before if d["code"] == "W142"]
    damage = [d for d in before if d["code"] == "W102" and d["path"] == f"source/{NEURAL}"]
    assert len(clusters) == 3 and all(d["question"] is None for d in clusters)
    assert len(damage) == 2 and {d["question"] is None for d in damage} == {True, False}
    settings = (f'[[acknowledged]]\ncode = "W142"\nfile = "{AI}"\n\n'
                f'[[acknowledged]]\ncode = "W102"\nfile = "source/{NEURAL}"\n'
                'reason = "the seeds are kept byte for byte"\n\n'
                '[[acknowledged]]\ncode = "W142"\nfile = "gone-1.txt"\n')
    (project / "source" / "nca-anki.toml").write_text(settings, encoding="utf-8")
    third = [n for n, line in enumerate(settings.splitlines(), 1) if line == "[[acknowledged]]"][2]
    report = json.loads(cli("--json", "--check").out)
    after = report["diagnostics"]
    assert sorted(d["path"] for d in after if d["code"] == "W142") == sorted(
        d["path"] for d in clusters if d["path"] != f"source/{AI}")
    assert not [d for d in after if d["code"] == "W102" and d["path"] == f"source/{NEURAL}"]
    assert report["counts"]["acknowledged"] == 1 + 2
    unused, = [d for d in after if d["code"] == "W202"]
    assert (unused["path"], unused["line"]) == ("source/nca-anki.toml", third)
    assert unused["message"].startswith("acknowledged W142 for file gone-1.txt, but no such "
                                        "warning was found in it")
    # A question added to the file: its own W102 is taken by the file's entry too.
    path = project / "source" / NEURAL
    path.write_text(path.read_text(encoding="utf-8") + (
        "Question 7: Which layer type suits image inputs best?\n"
        "- Convolutional (Correct answer)\n- Recurrent\n- Embedding\n"
        "Correct answer: Convolutional\nIt shares its weights across positions: "
        "\u00e2\u20ac\u201d a translation-invariant prior.\n"), encoding="utf-8")
    again = json.loads(cli("--json", "--check").out)
    assert again["counts"]["acknowledged"] == 1 + 3
    assert not [d for d in again["diagnostics"] if d["code"] == "W102"
                and d["path"] == f"source/{NEURAL}"]


@pytest.mark.parametrize("entry, said", [
    ('code = "E120"\nquestion = "0123456789ab"', "errors cannot be acknowledged"),
    ('code = "W999"\nquestion = "0123456789ab"', "names no known code ('W999')"),
    ('code = "W140"\nquestion = "Question 1"', "needs question = the 12-character"),
    ('code = "W140"\nquestion = "0123456789ab"\nwhy = "x"', "has unknown key 'why'"),
    ('code = "W142"\nfile = "../elsewhere.txt"', "needs file = a question file's path in "
     "the source folder"),
    ('code = "W142"\nfile = "a.txt"\nquestion = "0123456789ab"', "names both a question "
     "and a file"),
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
