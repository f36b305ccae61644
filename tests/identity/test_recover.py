"""Tests for nca_anki.identity.recover: a deleted lock comes back from the published decks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO, options
from nca_anki.build import build
from nca_anki.identity.lockfile import load_lock

LOCK = Path("source") / "nca-anki.lock"


def identities(root: Path) -> dict[str, int]:
    lock, _ = load_lock((root / LOCK).read_text(encoding="utf-8"), "")
    return {e.guid: e.mod for e in lock.entries}


def decks(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "dist").glob("*.apkg")}


def test_a_deleted_lock_is_recovered_from_the_decks_with_nothing_changed(project):
    assert build(options()).ok
    before, published = identities(project), decks(project)
    (project / LOCK).unlink()
    report = build(options())
    assert report.ok
    assert [str(d) for d in report.diagnostics if d.path == "source/nca-anki.lock"] == [
        "source/nca-anki.lock: warning[W302]: lock file missing: recovered the identities of "
        "19 questions from 3 deck(s) in dist; commit the new source/nca-anki.lock"]
    assert identities(project) == before
    assert decks(project) == published  # the same notes, times and note type: same bytes
    assert {(t.new, t.changed) for t in report.topics} == {(0, 0)}


def test_an_edit_made_while_the_lock_was_lost_keeps_the_identity(project):
    assert build(options()).ok
    before = identities(project)
    (project / LOCK).unlink()
    source = project / "source" / "nca-ai-deep-learning-frameworks-4.txt"
    source.write_text(source.read_text(encoding="utf-8").replace(
        "Which NVIDIA GPU architecture first introduced", "Which NVIDIA GPU architecture was "
        "the first to introduce"), encoding="utf-8")
    report = build(options())
    assert report.ok
    after = identities(project)
    assert set(after) == set(before)
    assert sum(after[g] != before[g] for g in before) == 1
    assert sum(t.changed for t in report.topics) == 1 and not any(t.new for t in report.topics)


def test_decks_built_by_the_first_release_give_back_their_identities(project):
    # dist/ holds the first published decks (another card layout); the lock is gone.
    old = json.loads((REPO / "tests" / "fixtures" / "decks-v0.1" / "lock.json").read_text())
    (project / LOCK).unlink()
    shutil.copytree(REPO / "tests" / "fixtures" / "decks-v0.1", project / "dist",
                    ignore=shutil.ignore_patterns("*.json"))
    report = build(options())
    assert report.ok
    assert set(identities(project)) == {q["guid"] for q in old["questions"]}
    assert not any(t.new for t in report.topics)


def test_an_unreadable_deck_stops_the_build_and_writes_nothing(project):
    assert build(options()).ok
    (project / LOCK).unlink()
    (project / "dist" / "ai-deep-learning-frameworks.apkg").write_bytes(b"not a zip")
    published = decks(project)
    report = build(options())
    assert not report.ok
    (problem,) = [d for d in report.diagnostics if d.is_error]
    assert str(problem).startswith(
        "dist/ai-deep-learning-frameworks.apkg: error[E301]: lock file source/nca-anki.lock is "
        "missing and this deck cannot be read to recover it (BadZipFile: ")
    assert str(problem).endswith(
        "restore source/nca-anki.lock from version control, or move the decks out of the "
        "output folder to start new identities (learners who imported them would get "
        "duplicates)")
    assert not (project / LOCK).exists()
    assert decks(project) == published


def test_without_lock_or_decks_a_first_build_starts_quietly(project):
    (project / LOCK).unlink()
    report = build(options())
    assert report.ok
    assert not [d for d in report.diagnostics if "lock" in d.message]
    assert {t.new for t in report.topics} == {7, 6}


def test_two_identities_for_one_question_keep_the_published_one(project):
    # Two branches each gave the same new question an identity; a union merge kept both
    # lines. Learners have the one in the published deck: that one stays.
    assert build(options()).ok
    published = decks(project)
    lock = project / LOCK
    lines = lock.read_text(encoding="utf-8").splitlines()
    first = next(line for line in lines if line.startswith("Q "))
    original = first.split()[1]
    twin = first.replace(original, "nca-0000000000000000")  # sorts first in the file
    lock.write_text("\n".join([*lines, twin]) + "\n", encoding="utf-8")

    report = build(options())
    assert report.ok
    (warned,) = [str(d) for d in report.diagnostics if "two identities" in d.message]
    assert warned.startswith(
        "source/nca-anki.lock: warning[W301]: two identities for one question (a merge?): kept the "
        "one in the published deck, dropped nca-0000000000000000 ('Which NVIDIA GPU")
    assert original in identities(project)
    assert "nca-0000000000000000" not in identities(project)
    assert decks(project) == published
