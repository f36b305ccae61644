"""Sharing with study groups (docs/sharing.md): --verify, the index, the all-topics bundle,
versions, the changelog, version tags and retired questions, proved with real builds and,
where learners are concerned, real imports into real collections with the `anki` package.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import markdown
import pytest

from anki_client import (cards_in_deck, deck_names, html_to_text, import_package, note_type_names,
                         open_collection, review_all_new, revlog_count)
from conftest import build_at, edit, the_day_after_the_committed_lock
from conftest import state_file
from nca_anki.records import NOTE_TYPE_NAME
from nca_anki.publishing.versions import day




DAY1 = the_day_after_the_committed_lock()
DAY2 = DAY1 + 3 * 86_400  # three days later, the second
AI = "source/nca-ai-deep-learning-frameworks-4.txt"
DL = "source/deep-learning-training-techniques-and-optimization-2.txt"
NN = "source/neural-network-applications-and-frameworks-2.txt"


def version(project: Path) -> str:
    """The published version: a build that changes no content keeps the version of the
    last change (here the committed lock's newest time), whatever the clock says."""
    return json.loads((project / "dist" / "manifest.json").read_text(encoding="utf-8"))[
        "version"]


def remove_question(path: str, number: int) -> str:
    """Delete question ``number`` (seven lines in the seeds) and return its prompt."""
    file = Path(path)
    lines = file.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(f"Question {number}: "))
    prompt = lines[start].split(": ", 1)[1]
    del lines[start:start + 7]
    file.write_text("\n".join(lines), encoding="utf-8")
    return prompt


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


# --- --verify ---------------------------------------------------------------------------------

def test_verify_names_the_stale_topic_writes_nothing_and_passes_after_a_rebuild(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    build_at(cli, monkeypatch, DAY1)
    assert cli("--verify").status == 0
    edit(Path(NN), "Question 2: ", "Question 2: Reworded: ")
    before = snapshot(project)
    run = cli("--verify")
    assert run.status == 1
    assert "Neural Network Applications and Frameworks" in run.err
    assert "AI & Deep Learning" not in run.err and "Training Techniques" not in run.err
    assert snapshot(project) == before  # nothing written, not even a cache
    build_at(cli, monkeypatch, DAY2)
    assert cli("--verify").status == 0


def test_verify_catches_a_hand_edited_index_a_stale_deck_and_a_changed_lock(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    build_at(cli, monkeypatch, DAY1)
    readme = project / "dist" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    run = cli("--verify")
    assert run.status == 1 and "dist/README.md" in run.err
    build_at(cli, monkeypatch, DAY1)
    (project / "dist" / "old-topic.apkg").write_bytes(b"x")
    run = cli("--verify")
    assert run.status == 1 and "old-topic.apkg" in run.err
    (project / "dist" / "old-topic.apkg").unlink()
    lock = project / "source" / "nca-anki.lock"
    lines = lock.read_text(encoding="utf-8").splitlines(keepends=True)
    lock.write_text("".join(line for line in lines if not line.startswith("Q ")
                            or "Which NVIDIA GPU" not in line), encoding="utf-8")
    run = cli("--verify")
    assert run.status == 1 and "AI & Deep Learning Frameworks" in run.err
    assert "nca-anki.lock" in run.err


# --- the index ----------------------------------------------------------------------------------

def test_manifest_hashes_match_and_the_readme_lists_every_deck(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    build_at(cli, monkeypatch, DAY1)
    dist = project / "dist"
    manifest = json.loads((dist / "manifest.json").read_text(encoding="utf-8"))
    listed = [*manifest["decks"], manifest["bundle"]]
    assert sorted(d["file"] for d in listed) == sorted(p.name for p in dist.glob("*.apkg"))
    for entry in listed:
        data = (dist / entry["file"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert entry["bytes"] == len(data)
    assert sum(d["questions"] for d in manifest["decks"]) == 19
    assert manifest["bundle"]["questions"] == 19
    guids = [guid for d in manifest["decks"] for guid in d["updated"]]
    assert len(set(guids)) == 19 and all(g.startswith("nca-") for g in guids)
    readme = (dist / "README.md").read_text(encoding="utf-8")
    for path in dist.glob("*.apkg"):
        assert f"[{path.name}]({path.name})" in readme
        assert hashlib.sha256(path.read_bytes()).hexdigest() in readme


def test_a_build_that_changes_no_content_adds_no_changelog_entry(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    build_at(cli, monkeypatch, DAY1)
    changelog = project / "dist" / "CHANGELOG.md"
    first = changelog.read_bytes()
    assert version(project) < day(DAY1)
    state_file(project).unlink()  # a full build, not a replay
    build_at(cli, monkeypatch, DAY2)
    assert changelog.read_bytes() == first
    assert re.findall(r"(?m)^## (.+)$", first.decode()) == [version(project)]


# --- learners' collections ----------------------------------------------------------------------

@pytest.mark.anki
def test_bundle_and_every_topic_file_give_one_note_per_question(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build_at(cli, monkeypatch, DAY1)
    dist = project / "dist"
    col = open_collection(tmp_path / "col" / "collection.anki2")
    try:
        assert import_package(col, dist / "nca_all_topics.apkg").new == 19
        for path in sorted(dist.glob("*.apkg")):
            if path.name != "nca_all_topics.apkg":
                counts = import_package(col, path)
                assert counts.new == 0 and counts.duplicate > 0
        assert col.note_count() == 19 and col.card_count() == 19
        assert note_type_names(col).count(NOTE_TYPE_NAME) == 1
        assert not [n for n in note_type_names(col) if n.startswith(NOTE_TYPE_NAME + "+")]
        assert {"NCA", "NCA::AI & Deep Learning Frameworks"} <= set(deck_names(col))
        assert len(cards_in_deck(col, "NCA::AI & Deep Learning Frameworks")) == 7
    finally:
        col.close()


@pytest.mark.anki
def test_deck_description_shows_version_and_count_in_anki(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build_at(cli, monkeypatch, DAY1)
    col = open_collection(tmp_path / "col" / "collection.anki2")
    try:
        import_package(col, project / "dist" / "ai-deep-learning-frameworks.apkg")
        deck = col.decks.by_name("NCA::AI & Deep Learning Frameworks")
        text = html_to_text(deck["desc"])
        assert f"Version {version(project)}" in text
        assert "7 multiple-choice questions" in text
        assert "import the newer .apkg" in text
    finally:
        col.close()


@pytest.mark.anki
def test_an_update_tags_exactly_the_edited_notes_and_retires_the_removed_one(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build_at(cli, monkeypatch, DAY1)
    dist = project / "dist"
    v1 = {p.name: p.read_bytes() for p in dist.glob("*.apkg")}
    first_version = version(project)
    learner = open_collection(tmp_path / "learner" / "collection.anki2")
    try:
        for name in sorted(v1):
            if name != "nca_all_topics.apkg":
                import_package(learner, dist / name)
        assert review_all_new(learner, "NCA") == 19
        reviews = revlog_count(learner)

        edit(Path(AI), "Which NVIDIA GPU architecture first introduced Tensor Cores",
                   "Which NVIDIA GPU architecture was the first with Tensor Cores")
        edit(Path(DL), "What is mixed precision training?",
                   "What is mixed-precision training?")
        removed = remove_question(NN, 6)
        build_at(cli, monkeypatch, DAY2)

        changelog = (dist / "CHANGELOG.md").read_text(encoding="utf-8")
        newest = changelog.split("\n## ")[1]
        assert newest.startswith(day(DAY2))
        items = [(what, html_to_text(markdown.markdown(prompt)))  # as Markdown shows it
                 for what, prompt in re.findall(r"(?m)^- (Added|Changed|Withdrawn|Added or "
                                                r"changed): (.*)$", newest)]
        assert sorted(items) == sorted([
            ("Changed", "Which NVIDIA GPU architecture was the first with Tensor Cores for "
                        "accelerating matrix multiply-accumulate operations?"),
            ("Changed", "What is mixed-precision training?"),
            ("Withdrawn", removed),
        ]), newest
        assert f"\n## {first_version}\n" in changelog  # the older entry is kept
        assert version(project) == day(DAY2)

        for name in sorted(v1):
            if name != "nca_all_topics.apkg":
                import_package(learner, dist / name)
        tag = f"nca::updated::{day(DAY2)}"
        tagged = learner.find_notes(f"tag:{tag}")
        prompts = sorted(html_to_text(learner.get_note(n)["Prompt"]) for n in tagged)
        assert prompts == ["What is mixed-precision training?",
                           "Which NVIDIA GPU architecture was the first with Tensor Cores "
                           "for accelerating matrix multiply-accumulate operations?"]
        retired = learner.find_notes("tag:nca::retired")
        assert len(retired) == 1
        note = learner.get_note(retired[0])
        assert html_to_text(note["Prompt"]).startswith(f"Withdrawn on {day(DAY2)}")
        assert removed in html_to_text(note["Prompt"])
        assert learner.note_count() == 19 and learner.card_count() == 19
        assert revlog_count(learner) == reviews  # history intact
        # The deck's overview shows the new version: Anki replaces the description.
        desc = html_to_text(learner.decks.by_name("NCA::AI & Deep Learning Frameworks")["desc"])
        assert f"Version {day(DAY2)}" in desc and "1 question changed." in desc
        assert f"Version {first_version}" not in desc
        reviewed = learner.find_cards("-is:new")
        assert len(reviewed) == 19
    finally:
        learner.close()

    newcomer = open_collection(tmp_path / "newcomer" / "collection.anki2")
    try:
        for path in sorted(dist.glob("*.apkg")):
            import_package(newcomer, path)
        assert newcomer.card_count() == 18  # no card for the withdrawn question
        ids = newcomer.find_notes("tag:nca::retired")
        assert len(ids) == 1 and not newcomer.get_note(ids[0]).card_ids()
        assert not newcomer.find_cards(f'"Prompt:*{removed[:30]}*"')
    finally:
        newcomer.close()


# --- what an author can get wrong ----------------------------------------------------------------

def test_a_renamed_parent_deck_leaves_the_old_bundle_called_stale(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    build_at(cli, monkeypatch, DAY1)
    (project / "source" / "nca-anki.toml").write_text('parent_deck = "NVIDIA"\n',
                                                      encoding="utf-8")
    run = build_at(cli, monkeypatch, DAY2, "--warnings=all")
    assert (project / "dist" / "nvidia_all_topics.apkg").is_file()
    assert "dist/nca_all_topics.apkg: warning[W503]: not the all-topics bundle any more" in run.err
    verify = cli("--verify")
    assert verify.status == 1 and "nca_all_topics.apkg" in verify.err


def test_a_lost_manifest_is_said_and_the_versions_are_worked_out_again(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    build_at(cli, monkeypatch, DAY1)
    before = (project / "dist" / "manifest.json").read_bytes()
    (project / "dist" / "manifest.json").unlink()
    run = build_at(cli, monkeypatch, DAY2)
    assert "dist/manifest.json: warning[W502]: missing, but decks were published" in run.err
    # The first build had no manifest either: the same versions, worked out the same way.
    assert (project / "dist" / "manifest.json").read_bytes() == before
    (project / "dist" / "manifest.json").write_text("{not json", encoding="utf-8")
    run = build_at(cli, monkeypatch, DAY2)
    assert "dist/manifest.json: warning[W502]: cannot read the decks' version records" in run.err


def test_a_new_deck_s_first_version_is_one_line_not_every_prompt(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "source" / "nca-anki.lock").unlink()  # a bank built for the first time
    build_at(cli, monkeypatch, DAY1)
    newest = (project / "dist" / "CHANGELOG.md").read_text(encoding="utf-8").split("\n## ")[1]
    assert newest.startswith(day(DAY1))
    assert newest.count("- First version of this deck: ") == 3
    assert "- First version of this deck: 7 questions." in newest
    assert "Added:" not in newest


def test_a_lost_changelog_is_said_and_written_again_with_the_newest_entry(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    build_at(cli, monkeypatch, DAY1)
    changelog = project / "dist" / "CHANGELOG.md"
    before = changelog.read_bytes()
    changelog.unlink()
    run = build_at(cli, monkeypatch, DAY2)
    assert "dist/CHANGELOG.md: warning[W502]: missing, but the decks were published before" in run.err
    assert changelog.read_bytes() == before  # one version so far: nothing else was lost
    again = cli()  # a no-op: not a replay of that build's warning
    assert again.status == 0 and "CHANGELOG.md: warning" not in again.err
