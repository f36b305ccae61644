"""``build_decks.py locate``: a report's fingerprint, GUID or quoted words → where the
question is written now, its text, and the versions that changed it."""

from __future__ import annotations

import json
import re
import subprocess

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
