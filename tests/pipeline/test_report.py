"""The build's report as the author reads it (grouped, --warnings=all, --quiet, --strict)
and as CI reads it (--json, validated against docs/report.schema.json)."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import jsonschema
import pytest

from conftest import REPO, edit

SCHEMA = json.loads((REPO / "docs" / "report.schema.json").read_text(encoding="utf-8"))
AI = "nca-ai-deep-learning-frameworks-4.txt"
LINE_RE = re.compile(r"^(?P<where>[^ ]+?)(?::(?P<line>\d+))?: (?P<severity>warning|error)"
                     r"\[(?P<code>[EW]\d{3})\]: ")


@pytest.fixture
def published(project: Path) -> Path:
    """The project as a fresh clone has it: the committed decks in dist/ too."""
    shutil.copytree(REPO / "dist", project / "dist")
    return project


def rows(text: str, columns: int = 80) -> int:
    """How many rows ``text`` takes on a terminal ``columns`` wide (long lines wrap)."""
    return sum(max(1, math.ceil(len(line) / columns)) for line in text.splitlines())


def codes(text: str) -> set[str]:
    return set(re.findall(r"(?:warning|error)\[([EW]\d{3})\]", text))


def test_the_seeds_default_report_fits_one_screen_and_names_every_kind(published, cli):
    every = cli("--warnings=all")
    assert every.status == 0
    listed = [line for line in every.err.splitlines() if LINE_RE.match(line)]
    assert len(listed) >= 18  # the seeds' warnings, each on its own line
    run = cli()
    assert run.status == 0
    screen = run.out + run.err
    assert rows(screen) <= 25, screen
    assert codes(run.err) == codes(every.err)  # every kind is still named
    assert run.err.splitlines()[-1] == (
        f"built 3 decks, 19 questions: 0 errors, {len(listed)} warnings; "
        "--warnings=all lists each")


def test_warnings_all_lists_each_with_the_question_it_is_about(published, cli):
    run = cli("--warnings=all")
    lines = run.err.splitlines()
    longest = [line for line in lines if "warning[W140]" in line]
    assert len(longest) == 12
    # Each names its question's fingerprint, to acknowledge it by.
    assert all(re.search(r" \[question [0-9a-f]{12}\]$", line) for line in longest)
    assert len({line[-13:-1] for line in longest}) == 12


def test_quiet_prints_the_errors_and_the_verdict_only(published, cli):
    assert cli("--quiet").out == ""
    assert cli("-q").err.splitlines() == [cli("-q").err.splitlines()[-1]]
    edit(published / "source" / AI, "Correct answer: Exploding gradients", "Correct answer: Imploding gradients")
    run = cli("--quiet")
    assert run.status == 1 and run.out == ""
    lines = run.err.splitlines()
    assert [LINE_RE.match(line)["code"] for line in lines[:-1]] == ["E121"]
    assert lines[-1].startswith("failed: 1 error, ")


def test_errors_come_after_every_warning_and_the_verdict_last(published, cli):
    edit(published / "source" / AI, "Correct answer: Volta\n", "")  # the author deleted the answer line
    run = cli()
    assert run.status == 1
    lines = run.err.splitlines()
    kinds = [("error" if "error[" in line else "warning") for line in lines
             if "warning[" in line or "error[" in line]
    assert kinds[-1] == "error" and "warning" in kinds
    assert kinds == sorted(kinds, key=lambda k: k == "error")  # no warning after an error
    assert lines[-2].startswith(f"source/{AI}:") and "error[" in lines[-2]
    assert lines[-1].startswith("failed: 2 errors, ") and "1 of 3 decks not built" in lines[-1]


def test_no_explanation_is_one_line_per_file(tmp_path, cli, monkeypatch):
    """A converted bank without explanations: thousands of W120 are a few lines."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "templates", tmp_path / "templates")
    (tmp_path / "source").mkdir()
    for part in (1, 2, 3, 4):
        questions = "".join(
            f"Question {n}: Which port does service {part}-{n} listen on?\n"
            f"- {1000 + n} (Correct answer)\n- {2000 + n}\n- {3000 + n}\n"
            f"Correct answer: {1000 + n}\n" for n in range(1, 41))
        (tmp_path / "source" / f"ports-{part}.txt").write_text(
            f"Ports {part} — Questions and Answers\n{questions}", encoding="utf-8")
    run = cli("--check")
    assert run.status == 0
    group = run.err.split("warning[W120] no explanation, 160 times:\n")[1].splitlines()
    assert group[:3] == [f"  source/ports-{p}.txt:2,7,12,17,22,27,32,37 and 32 more"
                         for p in (1, 2, 3)]
    assert group[3] == "  and 40 more in 1 other file"
    assert rows(run.out + run.err) <= 25


def test_strict_fails_on_a_warning_and_writes_nothing(published, cli):
    before = {p.name: p.read_bytes() for p in (published / "dist").iterdir()}
    edit(published / "source" / AI, "Question 2:", "Question 2 :")  # read, with a warning; the deck changes
    run = cli("--strict")
    assert run.status == 1
    assert run.err.splitlines()[-1].startswith("failed (--strict): 0 errors, ")
    assert "nothing written" in run.err.splitlines()[-1]
    assert {p.name: p.read_bytes() for p in (published / "dist").iterdir()} == before
    assert cli().status == 0  # without --strict it builds


def test_json_of_a_passing_build_validates_and_says_what_was_built(published, cli):
    run = cli("--json", "--check")
    assert run.status == 0 and run.err == ""
    report = json.loads(run.out)
    jsonschema.validate(report, SCHEMA)
    assert report["ok"] is True and report["mode"] == "check"
    assert report["counts"]["topics"] == 3 and report["counts"]["questions"] == 19
    assert report["counts"]["failed"] == 0
    assert report["counts"]["errors"] == 0
    assert report["counts"]["warnings"] == len(report["diagnostics"]) >= 18
    assert {t["status"] for t in report["topics"]} == {"unchanged"}
    longest = [d for d in report["diagnostics"] if d["code"] == "W140"]
    assert len(longest) == 12 and all(d["question"] for d in longest)
    assert all(d["path"].startswith("source/") and d["line"] > 0 for d in longest)


def test_json_of_a_failing_build_validates_and_carries_every_error(published, cli):
    edit(published / "source" / AI, "Correct answer: Exploding gradients", "Correct answer: Imploding gradients")
    run = cli("--json")
    assert run.status == 1
    report = json.loads(run.out)
    jsonschema.validate(report, SCHEMA)
    assert report["ok"] is False and report["counts"]["errors"] == 1
    error, = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert (error["code"], error["path"], error["kind"]) == ("E121", f"source/{AI}",
                                                             "answer mismatch")
    failed = [t for t in report["topics"] if t["status"] == "failed"]
    assert [t["deck"] for t in failed] == ["NCA::AI & Deep Learning Frameworks"]
    # Counted as the verdict counts: the failed topic's questions were not built.
    built = sum(t["questions"] for t in report["topics"] if t["status"] != "failed")
    assert failed[0]["questions"] > 0
    assert (report["counts"]["questions"], report["counts"]["failed"]) == (built, 1)


def test_json_of_verify_names_what_is_stale(published, cli):
    edit(published / "source" / AI, "gradient clipping", "gradient norm clipping")
    run = cli("--json", "--verify")
    assert run.status == 1
    report = json.loads(run.out)
    jsonschema.validate(report, SCHEMA)
    assert report["mode"] == "verify" and report["ok"] is False
    assert any("ai-deep-learning-frameworks.apkg" in s for s in report["stale"])


def test_json_cannot_be_combined_with_watch(published, cli):
    run = cli("--json", "--watch")
    assert run.status == 2 and "--json: error:" in run.err


def test_strict_with_verify_still_says_what_is_stale(published, cli):
    """CI runs --verify --strict: the warnings fail it, and a stale deck is still named."""
    assert cli("--verify", "--strict").status == 1  # the seeds' warnings
    edit(published / "source" / AI, "gradient clipping", "gradient norm clipping")
    run = cli("--verify", "--strict")
    assert run.status == 1
    lines = run.err.splitlines()
    assert any(line.startswith("failed (--strict): 0 errors, ") and "nothing written" not in line
               for line in lines)
    assert "  topic 'NCA::AI & Deep Learning Frameworks': dist/ai-deep-learning-frameworks.apkg " \
        "and its entries in source/nca-anki.lock" in lines


def test_the_authors_guide_shows_the_report_the_tool_prints(published, cli):
    """docs/authors.md's example report ("the seeds with one answer line mistyped;
    --check") is what the command prints today: every line of it, cut at its "…" or
    wrapped, is in the real report."""
    guide = (REPO / "docs" / "authors.md").read_text(encoding="utf-8")
    example = guide.split("## The report", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    edit(published / "source" / AI, "Correct answer: Exploding gradients",
         "Correct answer: Imploding gradients")
    run = cli("--check", "--no-cache")
    assert run.status == 1
    printed = " ".join((run.out + run.err).split())
    shown = [line.split("…")[0].strip() for line in example.splitlines()]
    assert len(shown) >= 10
    assert [line for line in shown if " ".join(line.split()) not in printed] == []
