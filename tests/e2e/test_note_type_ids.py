"""The note type's fixed field and template ids, with the real ``anki`` backend.

Anki pairs an incoming note type's fields and templates with a learner's by id where both
have one, by name otherwise, and needs the same number of each (docs/anki-import.md,
"Growing the note type"). These tests import real packages into real collections.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

import nca_anki.cards.render as render
import nca_anki.records as records
from anki_client import (cards_in_deck, import_package, note_type_names, open_collection,
                         review_all_new, revlog_count)
from conftest import REPO, edit
from nca_anki.reading.published import collection_of
from nca_anki.records import NOTE_TYPE_ID, NOTE_TYPE_NAME

BEFORE_IDS = REPO / "tests" / "fixtures" / "decks-before-ids"  # dist/ at bc031b5
DECKS = ("NCA::AI & Deep Learning Frameworks",
         "NCA::Deep Learning Training Techniques and Optimization",
         "NCA::Neural Network Applications and Frameworks")
# The ids, written out: a change to any of them must fail here (records.py says why).
FIELDS = [("Prompt", 61738631133607555), ("Choices", 33972029011092979),
          ("Answer", 29855124424942475), ("Explanation", 25299672720434084),
          ("Source", 49696258228708084)]
TEMPLATES = [("Multiple choice", 1610441399496178)]


def test_the_note_type_s_identity_is_pinned():
    assert NOTE_TYPE_ID == 1607392319001
    assert NOTE_TYPE_NAME == "NCA Multiple Choice (nca-anki)"
    assert list(zip(records.FIELDS, records.FIELD_IDS, strict=True)) == FIELDS
    assert [(records.CARD_TEMPLATE_NAME, records.TEMPLATE_ID)] == TEMPLATES


def in_package(path: Path) -> tuple[list, list, int]:
    """(name, id) of each field and template of our note type in a package, and its mod."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(collection_of(path.read_bytes()))
        model = json.loads(conn.execute("SELECT models FROM col").fetchone()[0])[
            str(NOTE_TYPE_ID)]
    finally:
        conn.close()
    return ([(f["name"], f.get("id")) for f in model["flds"]],
            [(t["name"], t.get("id")) for t in model["tmpls"]], model["mod"])


def in_collection(col) -> tuple[list, list]:
    model = col.models.get(NOTE_TYPE_ID)
    return ([(f["name"], f.get("id")) for f in model["flds"]],
            [(t["name"], t.get("id")) for t in model["tmpls"]])


def test_every_package_carries_the_ids_and_a_clone_gives_the_same(project, cli, tmp_path,
                                                                  monkeypatch):
    assert cli().status == 0
    clone = tmp_path / "clone"
    shutil.copytree(project / "source", clone / "source")
    shutil.copytree(project / "templates", clone / "templates")
    monkeypatch.chdir(clone)
    assert cli().status == 0
    for dist in (project / "dist", clone / "dist", REPO / "dist"):
        packages = sorted(dist.glob("*.apkg"))
        assert len(packages) == 4
        for path in packages:
            fields, templates, _ = in_package(path)
            assert (fields, templates) == (FIELDS, TEMPLATES), path


def a_learner_of(col, decks: Path) -> dict:
    """``col`` after importing ``decks``' three topic decks and reviewing every card."""
    for path in sorted(decks.glob("*.apkg")):
        if "all_topics" not in path.name:
            assert import_package(col, path).new > 0
    assert sum(review_all_new(col, deck) for deck in DECKS) == 19
    return {c.guid: c for deck in DECKS for c in cards_in_deck(col, deck)}


def imported(col, dist: Path) -> dict[str, int]:
    totals = {"new": 0, "updated": 0, "duplicate": 0, "conflicting": 0}
    for path in sorted(dist.glob("*.apkg")):
        if "all_topics" not in path.name:
            counts = import_package(col, path)
            for key in totals:
                totals[key] += getattr(counts, key)
    return totals


def kept_in_place(col, before: dict) -> None:
    after = {c.guid: c for deck in DECKS for c in cards_in_deck(col, deck)}
    assert set(after) == set(before) and col.note_count() == 19
    for guid, old in before.items():
        new = after[guid]
        assert (new.card_id, new.note_id, new.reps, new.ivl, new.due) == \
            (old.card_id, old.note_id, old.reps, old.ivl, old.due)
    assert revlog_count(col) == 19
    assert note_type_names(col).count(NOTE_TYPE_NAME) == 1
    assert not [n for n in note_type_names(col) if n.startswith(NOTE_TYPE_NAME + "+")]


@pytest.mark.anki
def test_a_learner_of_the_decks_before_ids_updates_in_place_and_gets_the_ids(
        project, cli, tmp_path):
    """The decks committed before this change had no ids; with default import options
    the new ones replace the note type in place (same names and counts, newer mod), and
    the learner's collection keeps the ids from then on."""
    col = open_collection(tmp_path / "learner.anki2")
    try:
        before = a_learner_of(col, BEFORE_IDS)
        assert in_collection(col) == ([(n, None) for n, _ in FIELDS],
                                      [(n, None) for n, _ in TEMPLATES])
        shutil.copytree(BEFORE_IDS, project / "dist")  # the release they imported
        assert cli().status == 0
        totals = imported(col, project / "dist")
        assert totals["new"] == 0 and totals["conflicting"] == 0
        assert totals["updated"] + totals["duplicate"] == 19  # every note matched in place
        kept_in_place(col, before)
        assert in_collection(col) == (FIELDS, TEMPLATES)
    finally:
        col.close()


@pytest.mark.anki
def test_a_learner_who_customised_the_card_keeps_it_and_their_notes_still_update(
        project, cli, tmp_path):
    """Measured: a learner whose note type is newer than the package's (they changed the
    card's style) keeps theirs, without ids; their notes still update in place, by name."""
    col = open_collection(tmp_path / "learner.anki2")
    try:
        before = a_learner_of(col, BEFORE_IDS)
        model = col.models.get(NOTE_TYPE_ID)
        model["css"] += "\n.card { font-size: 30px; }\n"
        col.models.update_dict(model)
        shutil.copytree(BEFORE_IDS, project / "dist")  # the release they imported
        edit(project / "source" / "nca-ai-deep-learning-frameworks-4.txt",
             "what is the primary purpose of the format", "what is the main purpose of the format")
        run = cli()
        assert run.status == 0, run.err
        totals = imported(col, project / "dist")
        assert totals == {"new": 0, "updated": 1, "duplicate": 18, "conflicting": 0}, run.out
        kept_in_place(col, before)
        assert "font-size: 30px" in col.models.get(NOTE_TYPE_ID)["css"]
        assert in_collection(col) == ([(n, None) for n, _ in FIELDS],
                                      [(n, None) for n, _ in TEMPLATES])
    finally:
        col.close()


def renamed(monkeypatch, project: Path, old: str, new: str) -> None:
    """A later release of nca-anki that calls field ``old`` ``new`` (its id kept)."""
    names = tuple(new if name == old else name for name in records.FIELDS)
    for module in (records, render):
        monkeypatch.setattr(module, "FIELDS", names)
    for name in ("front.html", "back.html"):
        path = project / "templates" / name
        path.write_text(path.read_text(encoding="utf-8").replace(
            f'field("{old}")', f'field("{new}")'), encoding="utf-8")


@pytest.mark.anki
def test_a_field_renamed_with_its_id_updates_learners_in_place(project, cli, tmp_path,
                                                               monkeypatch):
    assert cli().status == 0
    col = open_collection(tmp_path / "learner.anki2")
    try:
        before = a_learner_of(col, project / "dist")
        renamed(monkeypatch, project, "Source", "Origin")
        run = cli("--warnings=all")
        assert run.status == 0
        assert "warning[W404]" in run.err and "renamed, with the same ids" in run.err
        totals = imported(col, project / "dist")
        assert totals["new"] == 0 and totals["conflicting"] == 0
        kept_in_place(col, before)
        fields, templates = in_collection(col)
        assert fields == [("Origin" if n == "Source" else n, i) for n, i in FIELDS]
        card = cards_in_deck(col, DECKS[0])[0]
        assert "— part " in card.fields["Origin"]
    finally:
        col.close()


def test_a_field_added_is_an_error_before_anything_is_published(project, cli, monkeypatch):
    assert cli().status == 0
    published = {p.name: p.read_bytes() for p in (project / "dist").iterdir()}
    lock = (project / "source" / "nca-anki.lock").read_bytes()
    for module in (records, render):
        monkeypatch.setattr(module, "FIELDS", (*records.FIELDS, "Hint"))
        monkeypatch.setattr(module, "FIELD_IDS", (*records.FIELD_IDS, 12345))
    run = cli("--no-cache")  # the code on disk is unchanged: no replay of the last build
    assert run.status == 1
    said = [line for line in run.err.splitlines() if "error[E403]" in line]
    assert len(said) == 1
    assert "Explanation, Source, Hint" in said[0] and "Merge note types" in said[0]
    assert "--note-type-change" in said[0]
    assert {p.name: p.read_bytes() for p in (project / "dist").iterdir()} == published
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


def test_a_field_added_on_purpose_is_a_warning_that_says_what_learners_do():
    from nca_anki.identity.schema import note_type_changes
    from nca_anki.records import NoteType

    now = NoteType(id=NOTE_TYPE_ID, name=NOTE_TYPE_NAME, fields=(*records.FIELDS, "Hint"),
                   template_name=records.CARD_TEMPLATE_NAME, front="", back="", css="")
    published = ("dist/a.apkg", records.FIELDS, (records.CARD_TEMPLATE_NAME,))
    [said] = note_type_changes(published, now, allowed=True)
    assert (said.code, said.path) == ("W403", "dist/a.apkg")
    assert '"Merge note types"' in said.message and '"Always"' in said.message
    assert note_type_changes(None, now, allowed=False) == []
    assert note_type_changes(("dist/a.apkg", now.fields, (now.template_name,)), now,
                             allowed=False) == []
