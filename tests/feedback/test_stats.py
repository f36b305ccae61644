"""``build_decks.py stats``: item statistics from real Anki exports, made with the ``anki``
package (deck packages with scheduling and collection packages, reviews answered through
its scheduler), read back without it (nca_anki/feedback/stats.py)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from anki_client import import_package, open_collection, review_each_new
from conftest import options
from nca_anki.build import build
from nca_anki.feedback.stats import ExportError, item_stats, read_export, wilson_low
from nca_anki.identity.lockfile import load_lock

TOPICS = ("NCA::AI & Deep Learning Frameworks",
          "NCA::Deep Learning Training Techniques and Optimization",
          "NCA::Neural Network Applications and Frameworks")


def lock_guids(project: Path) -> list[str]:
    lock, _ = load_lock((project / "source" / "nca-anki.lock").read_text(encoding="utf-8"), "")
    assert lock is not None
    return sorted(e.guid for e in lock.entries if e.removed is None)


def learner_export(project: Path, folder: Path, n: int, planted: str, *,
                   whole: bool = False, legacy: bool = False,
                   decks: tuple[str, ...] = TOPICS) -> Path:
    """Learner ``n``: imports the decks, studies ``decks`` once (most fail ``planted`` at
    first sight; now and then another), exports with scheduling."""
    from anki.collection import DeckIdLimit, ExportAnkiPackageOptions

    col = open_collection(folder / f"learner-{n}" / "collection.anki2")
    try:
        for path in sorted((project / "dist").glob("*.apkg")):
            if "all_topics" not in path.name:
                import_package(col, path)
        for deck in decks:
            review_each_new(col, deck, lambda guid: "again" if (
                guid == planted and n % 10 < 8) or (guid != planted and (
                    int(guid[-4:], 16) + n) % 9 == 0) else "good")
        out = folder / (f"learner-{n}.colpkg" if whole else f"learner-{n}.apkg")
        if whole:
            col.export_collection_package(str(out), include_media=False, legacy=False)
        else:
            col.export_anki_package(out_path=str(out), options=ExportAnkiPackageOptions(
                with_scheduling=True, with_deck_configs=False, with_media=False,
                legacy=legacy), limit=DeckIdLimit(col.decks.id_for_name("NCA")))
        return out
    finally:
        col.close()


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """20 learners' exports (two of them whole collections) and 3 more learners who
    studied only the first topic, of the seed decks; and the planted question's GUID."""
    import shutil

    from conftest import REPO
    root = tmp_path_factory.mktemp("stats")
    project = root / "project"
    shutil.copytree(REPO / "source", project / "source")
    shutil.copytree(REPO / "templates", project / "templates")
    import os
    here = os.getcwd()
    os.chdir(project)
    try:
        assert build(options()).ok
    finally:
        os.chdir(here)
    planted = lock_guids(project)[7]
    # Two send whole collections, one an export "for older Anki versions" (no zstd).
    files = [learner_export(project, root, n, planted, whole=n in (3, 11), legacy=n == 5)
             for n in range(20)]
    files += [learner_export(project, root, n, planted, decks=TOPICS[:1])
              for n in range(20, 23)]
    return project, files, planted





@pytest.mark.anki
def test_the_planted_question_is_flagged_first_with_its_evidence(exports, cli, monkeypatch):
    project, files, planted = exports
    monkeypatch.chdir(project)
    run = cli("stats", *map(str, files), "--json")
    assert run.status == 0, run.err
    found = json.loads(run.out)
    assert found["learners"] == 23 and found["unreadable_exports"] == 0
    first = found["questions"][0]
    assert first["guid"] == planted and first["flagged"]
    assert first["learners"] in (20, 23) and first["failed_first"] >= 16
    assert [q["guid"] for q in found["questions"] if q["flagged"]] == [planted]
    text = cli("stats", *map(str, files))
    assert text.status == 0
    assert "Likely flawed (1)" in text.out and planted in text.out
    assert "learners failed it the first time" in text.out


@pytest.mark.anki
def test_no_question_with_fewer_learners_than_the_threshold_is_shown(exports, cli,
                                                                     monkeypatch):
    project, files, planted = exports
    monkeypatch.chdir(project)
    found = json.loads(cli("stats", *map(str, files[:4]), "--json").out)
    assert found["learners"] == 4 and found["questions"] == []
    assert found["hidden_questions"] == 19
    found = json.loads(cli("stats", *map(str, files), "--min-learners", "21", "--json").out)
    assert {q["learners"] for q in found["questions"]} == {23}
    assert found["hidden_questions"] == 12  # two topics studied by 20 learners only


@pytest.mark.anki
def test_one_collection_sent_twice_counts_once_and_a_bad_export_is_named(exports, cli,
                                                                         monkeypatch, tmp_path):
    project, files, planted = exports
    monkeypatch.chdir(project)
    junk = tmp_path / "not-an-export.apkg"
    junk.write_bytes(b"PK\x03\x04 nothing")
    run = cli("stats", str(files[0]), str(files[0]), str(junk), "--json")
    assert run.status == 1
    assert f"{junk}: error: not an Anki export" in run.err
    found = json.loads(run.out)
    assert found["learners"] == 1 and found["duplicate_exports"] == 1


@pytest.mark.anki
def test_stats_reads_no_learner_data_it_does_not_need(exports):
    """Only GUIDs, lapses and first grades come out of an export: no names, ids or
    texts (the record holds nothing else)."""
    project, files, planted = exports
    reviews = read_export(files[0], frozenset(lock_guids(project)))
    assert set(reviews.questions) <= set(lock_guids(project))
    assert all(isinstance(grade, int) and isinstance(lapses, int)
               for grade, lapses in reviews.questions.values())


@pytest.mark.anki
def test_an_export_for_older_anki_versions_is_read_too(exports):
    project, files, planted = exports
    with zipfile.ZipFile(files[5]) as archive:
        assert "collection.anki21b" not in archive.namelist()
    reviews = read_export(files[5], frozenset(lock_guids(project)))
    assert len(reviews.questions) == 19
    assert reviews.questions[planted][0] == 1  # learner 5 failed it, as planted
    assert {grade for grade, _ in reviews.questions.values()} <= {1, 3}


@pytest.mark.anki
def test_the_collection_is_read_without_the_anki_package(exports, tmp_path):
    """The exports are zip files with a zstd-compressed SQLite collection."""
    project, files, planted = exports
    with zipfile.ZipFile(files[0]) as archive:
        assert "collection.anki21b" in archive.namelist()
    import subprocess
    import sys
    probe = ("import sys; sys.modules['anki'] = None; "
             "from pathlib import Path; from nca_anki.feedback.stats import read_export; "
             f"r = read_export(Path({str(files[0])!r}), frozenset({lock_guids(project)!r})); "
             "print(len(r.questions))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "19"


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_a_special_file_is_refused_without_opening_it(tmp_path, kind):
    import os
    path = tmp_path / "export.apkg"
    if kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)  # reading it would wait for a writer for ever
    with pytest.raises(ExportError, match="not a regular file"):
        read_export(path, frozenset())


@pytest.mark.parametrize("damage", ["no collection", "not sqlite", "bad zstd"])
def test_a_damaged_export_is_an_error_that_says_why(tmp_path, damage):
    path = tmp_path / "export.apkg"
    with zipfile.ZipFile(path, "w") as archive:
        if damage == "not sqlite":
            archive.writestr("collection.anki21", b"hello")
        elif damage == "bad zstd":
            archive.writestr("collection.anki21b", b"\x28\xb5\x2f\xfd garbage")
        else:
            archive.writestr("media", b"{}")
    with pytest.raises(ExportError):
        read_export(path, frozenset())


def test_wilson_lower_bound():
    assert wilson_low(0, 10) == 0.0
    assert 0.55 < wilson_low(16, 20) < 0.6
    assert wilson_low(16, 20) < 16 / 20
    assert item_stats([], []).items == ()
