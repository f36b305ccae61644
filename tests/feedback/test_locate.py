"""``build_decks.py locate``: a report's fingerprint, GUID or quoted words → where the
question is written now, its text, and the versions that changed it."""

from __future__ import annotations

import json
import re
import subprocess
from growth import least_cpu
from pathlib import Path

import pytest

from conftest import edit, options
from nca_anki.build import build

AI = "nca-ai-deep-learning-frameworks-4.txt"
URL = "https://example.org/new?fingerprint={fingerprint}&guid={guid}&source={file}%3A{line}"


def found(cli, *args: str) -> dict:
    run = cli("locate", *args, "--json")
    assert run.status in (0, 1), run.err
    return json.loads(run.out)


def test_by_words_fingerprint_and_guid_it_names_the_place_and_the_text(project, cli):
    assert build(options()).ok
    by_words = found(cli, "KNOWLEDGE   distillation")["found"]
    assert [(f["path"], f["line"]) for f in by_words] == [
        ("source/deep-learning-training-techniques-and-optimization-2.txt", 2),
        (f"source/{AI}", 23)]
    ai = by_words[1]
    assert ai["prompt"].startswith("What is 'knowledge distillation'")
    assert [c["correct"] for c in ai["choices"]] == [False, True, False, False]
    assert re.fullmatch(r"nca-[0-9a-f]{16}", ai["guid"])
    assert ai["versions"] and all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) for v in ai["versions"])
    for query in (ai["fingerprint"], ai["guid"]):
        [hit] = found(cli, query)["found"]
        assert (hit["path"], hit["line"], hit["guid"]) == (f"source/{AI}", 23, ai["guid"])
    text = cli("locate", ai["guid"])
    assert text.status == 0
    assert text.out.startswith(f"source/{AI}:23: Question 4 (fingerprint {ai['fingerprint']}")
    assert "  B. Training a smaller 'student' model" in text.out and "(correct)" in text.out


def test_nothing_found_says_so_and_exits_1(project, cli):
    run = cli("locate", "no question says this")
    assert run.status == 1 and "no question matches 'no question says this'" in run.err
    assert cli("locate", "x", "--source", "nowhere").status == 2
    cut = cli("locate", "8ee7e10ebc2")  # a fingerprint with a digit lost in copying
    assert cut.status == 1 and "a fingerprint is 12 lower-case hex digits" in cut.err


def test_a_fingerprint_from_an_earlier_version_finds_the_question_by_its_link(project, cli):
    """A learner's report carries the fingerprint of the question as their deck has it;
    the author has edited it since. The published deck's link pairs it with the GUID."""
    (project / "source" / "nca-anki.toml").write_text(f'report_url = "{URL}"\n',
                                                      encoding="utf-8")
    assert build(options()).ok
    [old] = found(cli, "mimic the outputs of a larger")["found"]
    edit(project / "source" / AI, "mimic the outputs of a larger", "copy the outputs of a larger", 2)
    result = found(cli, old["fingerprint"])
    assert len(result["found"]) == 1, (old, result)
    [hit] = result["found"]
    assert hit["guid"] == old["guid"] and hit["matched"] == "fingerprint of an earlier version"
    assert hit["fingerprint"] != old["fingerprint"]
    run = cli("locate", old["fingerprint"])
    assert "has changed since" in run.err


def test_every_version_that_changed_it_comes_from_the_lock_s_history(project, cli, monkeypatch):
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=project, check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "0")
    assert build(options(now=1_800_000_000)).ok
    git("add", "source")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    edit(project / "source" / AI, "mimic the outputs of a larger", "copy the outputs of a larger", 2)
    assert build(options(now=1_800_864_000)).ok  # ten days later
    git("add", "source")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "two")
    [hit] = found(cli, "copy the outputs of a larger")["found"]
    # As first committed (the seeds' lock), then the edit: both from the lock's history.
    assert hit["versions"] == ["2026-11-30", "2027-01-25"]


def test_a_lock_line_of_the_history_with_other_digits_is_passed_over():
    """The lock's history is whatever was committed: a time written "²" (a digit to
    str.isdigit(), not a number to int()) is no time, never a crash."""
    from nca_anki.feedback.locate import _history

    guid = "nca-" + "a" * 16
    assert _history([f"Q {guid} 0a0a0a 1 ² x", f"Q {guid} 0a0a0a 1 1700000000 x",
                     f"Q {guid} 0a0a0a 1 ①7 x"]) == {guid: {1700000000}}


# A topic whose questions are written with Markdown, as authors write them; each quote
# below is what a learner copies from the card (or types), where the Markdown is rendered.
_MARKED = """GPU Tools — Questions and Answers
Question 1: Which command lists the GPUs, as `nvidia-smi` does, with **FP32** throughput?
- `nvidia-smi -L`
- `lspci` (Correct answer)
- *none of them*
Correct answer: `lspci`
See [the driver's manual](https://example.org/manual) for \\*all\\* flags &amp; options.
Question 2: What is the \u201cbatch size\u201d of a run that trains on 64\u00a0samples at once?
- 64 (Correct answer)
- 32
Correct answer: 64
The ba\u00adtch size is the number of sam\u200bples per step.
Question 3: Which library is the café's favourite?
- cuDNN (Correct answer)
- none
Correct answer: cuDNN
It's used by PyTorch and TensorFlow.
"""


def _marked(tmp_path) -> str:
    source = tmp_path / "marked"
    source.mkdir()
    (source / "gpu-tools.txt").write_text(_MARKED, encoding="utf-8")
    return str(source)


@pytest.mark.parametrize("quote, number", [
    ("as nvidia-smi does, with FP32 throughput", 1),  # code and bold, as the card shows them
    ("nvidia-smi -L", 1),
    ("none of them", 1),  # emphasis
    ("see the driver's manual for *all* flags & options", 1),  # a link, escapes, an entity
    ("See the driver\u2019s manual", 1),  # a curly apostrophe for a straight one
    ("as `nvidia-smi` does, with **FP32**", 1),  # the source as written still finds it
    ('the "batch size" of a run', 2),  # straight quotes for curly ones
    ("trains on 64 samples at once", 2),  # a space for a no-break space
    ("trains on\n64   samples", 2),  # other spacing
    ("the batch size is the number of samples per step", 2),  # no soft hyphen, no ZWSP
    ("the cafe\u0301\u2019s favourite", 3),  # NFD, typed on another keyboard
    ("THE CAFÉ'S FAVOURITE", 3),  # case
    ("It\u2019s used by PyTorch", 3),
    ("used by Py\u00adTorch", 3),  # a soft hyphen in the quote
    ("\uff30y\uff34orch and TensorFlow", 3),  # full-width letters (NFKC)
])
def test_a_learner_s_quote_of_the_card_finds_the_question(tmp_path, cli, quote, number):
    run = found(cli, quote, "--source", _marked(tmp_path))
    assert [f["number"] for f in run["found"]] == [number], (quote, run)


def test_a_quote_that_is_not_on_the_card_is_not_found(tmp_path, cli):
    source = _marked(tmp_path)
    for quote in ("nvidia-smi -X", "FP64 throughput", "https://example.org/manual flags"):
        assert found(cli, quote, "--source", source)["found"] == [], quote


def test_the_words_of_every_question_are_compared_in_time_linear_in_the_bank(tmp_path):
    """Growth, not speed: four times the questions, about four times the CPU time."""

    from nca_anki.feedback.locate import locate
    from nca_anki.reading.published import read_published

    def bank(count: int) -> Path:
        source = tmp_path / f"bank-{count}"
        source.mkdir()
        for topic in range(count // 100):
            (source / f"topic-{topic}.txt").write_text(f"Topic {topic}\n" + "".join(
                f"Question {q + 1}: Which **flag** `-x{topic}-{q}` does [this](https://e.org)"
                f" do, \u201cquoted\u201d?\n- `a{q}` (Correct answer)\n- *b{q}*\n"
                f"Correct answer: `a{q}`\nSee &amp; read {q}.\n" for q in range(100)),
                encoding="utf-8")
        return source

    def cpu(source: Path) -> float:
        def search() -> None:
            assert not locate("no such words at all", source,
                              read_published(tmp_path / "none")).found

        return least_cpu(search)

    short, long = cpu(bank(300)), cpu(bank(1200))
    assert long < 8 * max(short, 0.05), (short, long)
