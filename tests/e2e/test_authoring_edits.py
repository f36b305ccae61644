"""An author's everyday edits and a damaged lock, end to end (issue 35, items 1, 2, 6, 8):
real builds through the command, and where learners are concerned, real imports into a
real collection with the `anki` package."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from anki_client import deck_names, import_package, open_collection
from conftest import REPO, build_at, the_day_after_the_committed_lock

AI = "source/nca-ai-deep-learning-frameworks-4.txt"
DL = "source/deep-learning-training-techniques-and-optimization-2.txt"



DAY1 = the_day_after_the_committed_lock()
DAY2 = DAY1 + 86_400


def outputs(project: Path) -> dict[str, bytes]:
    return {p.relative_to(project).as_posix(): p.read_bytes()
            for p in sorted([*(project / "dist").iterdir(), project / "source" / "nca-anki.lock"])}


# --- item 6: the change log shows code as written -------------------------------------------

def test_the_changelog_shows_highlighted_code_as_it_is_written(project, cli, monkeypatch):
    build_at(cli, monkeypatch, DAY1)
    path = project / AI
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + (
        "\nQuestion 8: Which loop unpacks a batch?\n"
        "```python\nfor i, (x, y) in enumerate(loader):\n    step(x, y)\n```\n"
        "- The one above (Correct answer)\n- None\n"
        "Correct answer: The one above\nIt unpacks each pair.\n"), encoding="utf-8")
    build_at(cli, monkeypatch, DAY2)
    changelog = (project / "dist" / "CHANGELOG.md").read_text(encoding="utf-8")
    (added,) = re.findall(r"(?m)^- Added: (.*)$", changelog)
    assert "for i, (x, y) in enumerate(loader): step(x, y)" in added, added


# --- item 2: a typo in a title is not a new deck ----------------------------------------------

@pytest.mark.anki
def test_a_one_letter_typo_in_a_title_gives_no_second_deck(project, cli, monkeypatch,
                                                           tmp_path):
    build_at(cli, monkeypatch, DAY1)
    before = outputs(project)
    col = open_collection(tmp_path / "anki" / "collection.anki2")
    try:
        for apkg in sorted((project / "dist").glob("*.apkg")):
            if not apkg.name.endswith("_all_topics.apkg"):
                import_package(col, apkg)
        decks = deck_names(col)
        path = project / DL
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("Techniques", "Technique", 1), encoding="utf-8")
        run = build_at(cli, monkeypatch, DAY2, status=1)
        assert (f"{DL}:1: error[E133]: topic 'Deep Learning Training Technique and "
                "Optimization' is not published, but 'Deep Learning Training Techniques and "
                "Optimization' is") in run.err
        assert '[renamed] "Deep Learning Training Techniques and Optimization" = ' in run.err
        assert outputs(project) == before  # nothing published
        for apkg in sorted((project / "dist").glob("*.apkg")):
            if not apkg.name.endswith("_all_topics.apkg"):
                import_package(col, apkg)
        assert deck_names(col) == decks
        # Confirmed, the rename builds.
        (project / "source" / "nca-anki.toml").write_text(
            '[renamed]\n"Deep Learning Training Techniques and Optimization" = '
            '"Deep Learning Training Technique and Optimization"\n', encoding="utf-8")
        build_at(cli, monkeypatch, DAY2)
        assert (project / "dist" / "deep-learning-training-technique-and-optimization.apkg"
                ).is_file()
    finally:
        col.close()


# --- item 8: a mistyped GUID in the lock is repaired from the published deck -----------------

@pytest.mark.anki
def test_a_mistyped_guid_in_the_lock_is_repaired_and_learners_keep_one_note(
        project, cli, monkeypatch, tmp_path):
    build_at(cli, monkeypatch, DAY1)
    before = outputs(project)
    lock = project / "source" / "nca-anki.lock"
    text = lock.read_text(encoding="utf-8")
    guid = re.search(r"(?m)^Q (nca-[0-9a-f]{16}) ", text).group(1)
    typo = guid[:-1] + ("0" if guid[-1] != "0" else "1")
    lock.write_text(text.replace(f"Q {guid} ", f"Q {typo} ", 1), encoding="utf-8")
    run = build_at(cli, monkeypatch, DAY2)
    assert "warning[W306]: the lock gives" in run.err and f"the GUID {typo}" in run.err
    assert outputs(project) == before  # the decks as they were, the lock repaired
    col = open_collection(tmp_path / "anki" / "collection.anki2")
    try:
        import_package(col, REPO / "dist" / "nca_all_topics.apkg")
        notes = col.note_count()
        import_package(col, project / "dist" / "nca_all_topics.apkg")
        assert col.note_count() == notes == 19
        assert not col.find_notes(f"guid:{typo}")
    finally:
        col.close()


# --- item 1: an edit undone is no change ----------------------------------------------------

def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.email=t@example.org",
                           "-c", "user.name=t", *args], check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture
def committed_project(project: Path, cli, monkeypatch) -> Path:
    """The project built and committed with its decks, as a study group shares it."""
    if shutil.which("git") is None:
        pytest.fail("git is needed: .ci/run installs it")
    build_at(cli, monkeypatch, DAY1)
    (project / ".gitignore").write_text(".nca-anki-cache/\n", encoding="utf-8")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "decks")
    return project


@pytest.mark.anki
def test_an_edit_built_and_then_undone_publishes_nothing(committed_project, cli, monkeypatch,
                                                           tmp_path):
    project = committed_project
    committed = outputs(project)
    path = project / DL
    original = path.read_bytes()
    path.write_bytes(original.replace(b"What is mixed precision training?",
                                      b"What is mixed-precision training?"))
    build_at(cli, monkeypatch, DAY2)
    assert outputs(project) != committed  # the edit is published while it stands
    path.write_bytes(original)  # saved back: the source is as committed
    build_at(cli, monkeypatch, DAY2 + 600)
    assert outputs(project) == committed
    assert git(project, "status", "--porcelain") == ""
    # A learner who has the committed decks gets no "changed" card from them.
    col = open_collection(tmp_path / "anki" / "collection.anki2")
    try:
        import_package(col, REPO / "dist" / "nca_all_topics.apkg")
        before = {n: col.get_note(n).tags for n in col.find_notes("")}
        counts = import_package(col, project / "dist" / "nca_all_topics.apkg")
        assert counts.updated == 0 and counts.new == 0
        assert {n: col.get_note(n).tags for n in col.find_notes("")} == before
    finally:
        col.close()


def test_an_edit_committed_and_then_undone_is_a_change(committed_project, cli, monkeypatch):
    project = committed_project
    path = project / DL
    original = path.read_bytes()
    path.write_bytes(original.replace(b"What is mixed precision training?",
                                      b"What is mixed-precision training?"))
    build_at(cli, monkeypatch, DAY2)
    git(project, "commit", "-q", "-am", "edit")
    edited = outputs(project)
    path.write_bytes(original)
    build_at(cli, monkeypatch, DAY2 + 600)
    after = outputs(project)
    assert after != edited and git(project, "status", "--porcelain").strip()
    changelog = (project / "dist" / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "- Changed: What is mixed precision training?" in changelog


@pytest.mark.parametrize("state", ["not a repository", "clean", "an input changed",
                                   "a merge under way"])
def test_the_commit_is_the_reference_only_for_an_undone_edit(project, cli, monkeypatch,
                                                              state):
    from nca_anki import edges

    if state != "not a repository":
        build_at(cli, monkeypatch, DAY1)
        git(project, "init", "-q")
        git(project, "add", "-A")
        git(project, "commit", "-q", "-m", "decks")
        if state == "an input changed":
            (project / DL).write_bytes((project / DL).read_bytes() + b"\n")
            (project / "dist" / "README.md").write_text("changed", encoding="utf-8")
        if state == "a merge under way":
            (project / "dist" / "README.md").write_text("changed", encoding="utf-8")
            git_dir = project / ".git"
            (git_dir / "MERGE_HEAD").write_text(git(project, "rev-parse", "HEAD"))
    assert edges.committed(Path("source"), Path("templates"), Path("dist")) is None
