"""Tests for nca_anki.publishing.package: deterministic, deflated .apkg bytes with per-note mods."""

from __future__ import annotations

import io
import json
import random
import sqlite3
import tempfile
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from nca_anki.publishing.package import build_package, deck_id
from nca_anki.records import (CARD_TEMPLATE_NAME, FIELDS, NOTE_TYPE_ID, NOTE_TYPE_NAME, Choice,
                              DeckSpec, NoteType, PackagedNote, Question, Topic)
from nca_anki.cards.render import Renderer
from nca_anki.cards.shuffle import as_written

from conftest import REPO

T0 = 1_700_000_000
NOTE_TYPE = NoteType(id=NOTE_TYPE_ID, name=NOTE_TYPE_NAME, fields=FIELDS,
                     template_name=CARD_TEMPLATE_NAME, front="{{Prompt}}<br>{{Choices}}",
                     back="{{FrontSide}}<hr id=answer>{{Answer}}", css=".card { color: black; }")
DECK = "NCA::Deep Learning"


def identified(number: int, mod: int, guid: str | None = None, part: int = 1) -> PackagedNote:
    prompt = f"Question number {number}?"
    fields = (prompt, "<ol><li>Yes</li><li>No</li></ol>", "A", f"<p>Because {number}.</p>",
              f"Deep Learning — part {part}")
    return PackagedNote(guid=guid or f"nca-{number:016x}", mod=mod, fields=fields,
                        tags=(f"deep-learning::part-{part}",))


NOTES = (identified(1, T0 + 10), identified(2, T0), identified(3, T0 + 500, part=2))
SPEC = DeckSpec(name=DECK, description="Questions on deep learning.", notes=NOTES)


def open_collection(package: bytes) -> sqlite3.Connection:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        data = archive.read("collection.anki2")
    conn = sqlite3.connect(":memory:")
    conn.deserialize(data)
    return conn


@pytest.fixture
def collection() -> sqlite3.Connection:
    conn = open_collection(build_package(SPEC, NOTE_TYPE, T0 - 100))
    yield conn
    conn.close()


def test_zip_layout_is_deflated_with_fixed_dates() -> None:
    package = build_package(SPEC, NOTE_TYPE, T0)
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        assert archive.testzip() is None
        infos = archive.infolist()
        assert [i.filename for i in infos] == ["collection.anki2", "media"]
        assert [i.compress_type for i in infos] == [zipfile.ZIP_DEFLATED] * 2
        assert [i.date_time for i in infos] == [(1980, 1, 1, 0, 0, 0)] * 2
        assert archive.read("media") == b"{}"
        collection = infos[0]
        assert collection.compress_size < collection.file_size // 4
        assert archive.read("collection.anki2").startswith(b"SQLite format 3\x00")


def test_same_input_gives_identical_bytes() -> None:
    first = build_package(SPEC, NOTE_TYPE, T0)
    second = build_package(DeckSpec(name=DECK, description="Questions on deep learning.", notes=NOTES), NOTE_TYPE, T0)
    assert first == second


def test_different_mod_gives_different_bytes() -> None:
    changed = SPEC.notes[:1] + (replace(SPEC.notes[1], mod=T0 + 1),) + SPEC.notes[2:]
    assert build_package(SPEC, NOTE_TYPE, T0) != build_package(replace(SPEC, notes=changed),
                                                               NOTE_TYPE, T0)


def test_no_files_left_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    build_package(SPEC, NOTE_TYPE, T0)
    assert list(tmp_path.iterdir()) == []


def test_each_note_keeps_its_own_mod_and_guid(collection: sqlite3.Connection) -> None:
    rows = collection.execute("SELECT guid, mod, mid FROM notes ORDER BY id").fetchall()
    assert rows == [(n.guid, n.mod, NOTE_TYPE_ID) for n in NOTES]


def test_note_fields_and_tags(collection: sqlite3.Connection) -> None:
    rows = collection.execute("SELECT flds, tags FROM notes ORDER BY id").fetchall()
    assert rows == [("\x1f".join(n.fields), f" {n.tags[0]} ") for n in NOTES]


def test_cards_are_in_study_order_in_the_deck(collection: sqlite3.Connection) -> None:
    rows = collection.execute(
        "SELECT n.guid, c.did, c.ord, c.due, c.mod FROM cards c JOIN notes n ON c.nid = n.id "
        "ORDER BY c.id").fetchall()
    assert rows == [(n.guid, deck_id(DECK), 0, position, n.mod)
                    for position, n in enumerate(NOTES)]


def test_ids_are_unique(collection: sqlite3.Connection) -> None:
    ids = [r[0] for r in collection.execute("SELECT id FROM notes UNION ALL SELECT id FROM cards")]
    assert len(ids) == len(set(ids)) == 6


def test_deck_is_named_in_col_decks(collection: sqlite3.Connection) -> None:
    decks = json.loads(collection.execute("SELECT decks FROM col").fetchone()[0])
    named = {v["name"]: (int(k), v["desc"]) for k, v in decks.items()}
    assert named[DECK] == (deck_id(DECK), "Questions on deep learning.")
    assert set(named) == {"Default", DECK}


def test_note_type_in_col_models(collection: sqlite3.Connection) -> None:
    models = json.loads(collection.execute("SELECT models FROM col").fetchone()[0])
    assert list(models) == ["1607392319001"]  # the id learners' notes are matched by
    model = models["1607392319001"]
    assert int(model["id"]) == 1607392319001  # genanki stores it as a string
    assert model["name"] == "NCA Multiple Choice (nca-anki)"
    assert model["mod"] == T0 - 100
    assert [f["name"] for f in model["flds"]] == list(FIELDS)
    assert [(t["name"], t["qfmt"], t["afmt"]) for t in model["tmpls"]] == [
        (CARD_TEMPLATE_NAME, NOTE_TYPE.front, NOTE_TYPE.back)]
    assert model["css"] == NOTE_TYPE.css


def test_collection_has_genanki_s_tables_and_no_indexes(collection: sqlite3.Connection
                                                          ) -> None:
    """The indexes serve a collection someone studies from; an importer reads the package
    once and Anki indexes its own collection (docs/anki-import.md). The real import is
    proved below and in tests/test_e2e.py."""
    schema = dict(collection.execute("SELECT name, type FROM sqlite_master"))
    assert schema == dict.fromkeys(("col", "notes", "cards", "revlog", "graves"), "table")
    assert collection.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_the_bundle_takes_no_index_from_a_deck_published_with_them() -> None:
    """Decks published before packages left out genanki's indexes still have them; one
    that comes first in the bundle gives it its tables, not its indexes."""
    from nca_anki.publishing.package import merge_packages
    from nca_anki.reading.published import collection_of

    conn = open_collection(build_package(SPEC, NOTE_TYPE, T0))
    conn.execute("CREATE INDEX ix_cards_nid ON cards (nid)")  # as genanki's schema made
    older = conn.serialize()
    newer = collection_of(build_package(replace(SPEC, name="NCA::Other"), NOTE_TYPE, T0))
    merged = open_collection(merge_packages([lambda: older, lambda: newer], "NCA", "",
                                            T0, 10 ** 6))
    schema = dict(merged.execute("SELECT name, type FROM sqlite_master"))
    assert schema == dict.fromkeys(("col", "notes", "cards", "revlog", "graves"), "table")
    assert merged.execute("SELECT count(*) FROM notes").fetchone() == (2 * len(NOTES),)


def _bundle_rows(decks: list[DeckSpec], stride: int = 10 ** 6) -> dict[str, tuple]:
    """GUID -> (note id, card id or None, deck) in a bundle of ``decks``."""
    from nca_anki.publishing.package import merge_packages
    from nca_anki.reading.published import collection_of
    collections = [collection_of(build_package(d, NOTE_TYPE, T0)) for d in decks]
    merged = open_collection(merge_packages([lambda c=c: c for c in collections], "NCA", "",
                                            T0, stride))
    names = {int(k): v["name"] for k, v in json.loads(
        merged.execute("SELECT decks FROM col").fetchone()[0]).items()}
    rows = {guid: (nid, cid, names.get(did)) for guid, nid, cid, did in merged.execute(
        "SELECT n.guid, n.id, c.id, c.did FROM notes n LEFT JOIN cards c ON c.nid = n.id")}
    assert merged.execute("SELECT count(*) FROM cards WHERE nid NOT IN "
                          "(SELECT id FROM notes)").fetchone() == (0,)
    return rows


def test_the_bundle_is_the_same_bytes_merged_in_memory_on_disk_or_after_a_failure(
        tmp_path: Path, monkeypatch) -> None:
    """Merged in a scratch folder (edges.scratch), in the temporary folder, or in the
    temporary folder after the scratch folder failed (full, or gone): the same bytes,
    with the decks' collections each read once more after a failure."""
    import sqlite3

    from nca_anki.publishing import package
    from nca_anki.reading.published import collection_of
    decks = [DeckSpec(name=f"NCA::Topic {n}", description="", notes=tuple(
        identified(10 * n + k, T0 + k, guid=f"nca-{n}-{k}") for k in range(4)))
        for n in range(3)]
    collections = [collection_of(build_package(d, NOTE_TYPE, T0)) for d in decks]
    reads: list[int] = []

    def readers() -> list:
        return [lambda n=n, c=c: reads.append(n) or c for n, c in enumerate(collections)]

    on_disk = package.merge_packages(readers(), "NCA", "", T0, 10 ** 6)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    assert package.merge_packages(readers(), "NCA", "", T0, 10 ** 6,
                                  scratch=scratch) == on_disk
    assert list(scratch.iterdir()) == []  # nothing left behind
    assert package.merge_packages(readers(), "NCA", "", T0, 10 ** 6,
                                  scratch=tmp_path / "gone") == on_disk
    real = package._merge

    def full(conn, *args):  # what SQLite raises when the folder fills up
        if tmp_path.as_posix() in conn.execute("PRAGMA database_list").fetchone()[2]:
            raise sqlite3.OperationalError("database or disk is full")
        return real(conn, *args)

    monkeypatch.setattr(package, "_merge", full)
    reads.clear()
    assert package.merge_packages(readers(), "NCA", "", T0, 10 ** 6,
                                  scratch=scratch) == on_disk
    assert sorted(reads) == [0, 1, 2]


def test_bundle_ids_are_each_deck_s_own_moved_into_its_range_and_stay_put() -> None:
    """Every card keeps its note, each deck's ids fall in a range of their own, and an
    edit or an added question in one deck leaves every row of the others, and the rows
    before it in its own, with the ids they had."""
    decks = [DeckSpec(name=f"NCA::Topic {n}", description="", notes=tuple(
        identified(10 * n + k, T0 + k, guid=f"nca-{n}-{k}") for k in range(4)))
        for n in range(3)]
    rows = _bundle_rows(decks)
    assert len(rows) == 12
    for guid, (nid, cid, deck) in rows.items():
        n = int(guid.split("-")[1])
        assert deck == f"NCA::Topic {n}"
        first = T0 * 1000 + n * 10 ** 6
        assert first <= min(nid, cid) <= max(nid, cid) < first + 10 ** 6
    notes = [nid for nid, _, _ in rows.values()]
    cards = [cid for _, cid, _ in rows.values()]
    assert len(set(notes)) == len(set(cards)) == 12
    edited = list(decks[1].notes)
    edited[2] = replace(edited[2], mod=T0 + 999, fields=("Reworded?", *edited[2].fields[1:]))
    edited.append(identified(99, T0 + 1000, guid="nca-1-new"))
    after = _bundle_rows([decks[0], replace(decks[1], notes=tuple(edited)), decks[2]])
    assert {g: r for g, r in after.items() if g != "nca-1-new"} == rows


def test_the_bundle_s_id_range_outgrows_the_ids_a_deck_takes() -> None:
    from nca_anki.publishing.package import bundle_stride
    for notes in (0, 1, 4, 499_999, 500_000, 4_999_999, 5_000_000):
        stride = bundle_stride(notes)
        assert stride > 2 * notes and stride >= 10 ** 6
        assert str(stride).strip("0") == "1"  # a power of ten: it moves only tenfold


def test_a_deck_whose_ids_span_more_than_the_range_is_refused() -> None:
    with pytest.raises(ValueError, match="in id ranges of 4"):
        _bundle_rows([SPEC], stride=4)  # three notes and three cards: six ids


def test_deck_id_is_stable_and_in_range() -> None:
    assert deck_id(DECK) == deck_id("NCA::Deep Learning")
    assert deck_id(DECK) != deck_id("NCA::Deep  Learning")
    for name in (DECK, "NCA::GPU Computing", "", "日本語"):
        assert 1 << 30 <= deck_id(name) < 1 << 41


def test_empty_deck_builds() -> None:
    conn = open_collection(build_package(DeckSpec(name=DECK, description="", notes=()), NOTE_TYPE, T0))
    assert conn.execute("SELECT count(*) FROM notes").fetchone() == (0,)
    decks = json.loads(conn.execute("SELECT decks FROM col").fetchone()[0])
    assert DECK in {v["name"] for v in decks.values()}


def test_package_from_real_templates() -> None:
    templates = REPO / "templates"
    renderer = Renderer(templates, "templates")
    note_type, problems = renderer.note_type()
    assert problems == ()
    topic = Topic(name="Deep Learning", deck_name=DECK, slug="deep-learning", files=())
    question = Question(number=1, prompt="What is `nvcc`?",
                        choices=(Choice("A compiler", True), Choice("A & B", False)),
                        explanation="**Yes.**")
    note, problems = renderer.note(topic, 1, question, as_written(question))
    assert problems == ()
    item = PackagedNote(guid="nca-00000000000000aa", mod=T0, fields=note.fields, tags=note.tags)
    conn = open_collection(build_package(DeckSpec(name=DECK, description="", notes=(item,)), note_type, T0))
    (flds,) = conn.execute("SELECT flds FROM notes").fetchone()
    assert tuple(flds.split("\x1f")) == note.fields
    models = json.loads(conn.execute("SELECT models FROM col").fetchone()[0])
    assert models[str(NOTE_TYPE_ID)]["tmpls"][0]["qfmt"] == note_type.front


@pytest.mark.anki
def test_real_anki_updates_only_notes_with_a_newer_mod(tmp_path: Path) -> None:
    anki_client = pytest.importorskip("anki_client")
    col = anki_client.open_collection(tmp_path / "collection.anki2")
    try:
        first = tmp_path / "first.apkg"
        first.write_bytes(build_package(SPEC, NOTE_TYPE, T0))
        counts = anki_client.import_package(col, first)
        assert (counts.new, counts.updated, counts.duplicate) == (3, 0, 0)

        def edited(item: PackagedNote, mod: int) -> PackagedNote:
            return replace(item, fields=("Edited prompt?",) + item.fields[1:], mod=mod)

        # Note 1 edited with the same mod (must be ignored), note 2 with a newer one.
        notes = (edited(NOTES[0], NOTES[0].mod), edited(NOTES[1], NOTES[1].mod + 1), NOTES[2])
        second = tmp_path / "second.apkg"
        second.write_bytes(build_package(replace(SPEC, notes=notes), NOTE_TYPE, T0))
        counts = anki_client.import_package(col, second)
        assert (counts.new, counts.updated, counts.duplicate) == (0, 1, 2)

        cards = anki_client.cards_in_deck(col, DECK)
        assert sorted((c.guid, c.fields["Prompt"], c.note_mod) for c in cards) == sorted([
            (NOTES[0].guid, "Question number 1?", NOTES[0].mod),
            (NOTES[1].guid, "Edited prompt?", NOTES[1].mod + 1),
            (NOTES[2].guid, "Question number 3?", NOTES[2].mod),
        ])
        assert anki_client.note_type_names(col).count(NOTE_TYPE_NAME) == 1
    finally:
        col.close()


def test_the_bundle_s_parallel_deflate_is_a_plain_zip_whatever_the_cores(
        monkeypatch, tmp_path: Path) -> None:
    """The bundle is deflated in pieces on every core (package.py): readable by any zip
    reader, with the same entries as a plain package, and the same bytes on one core as
    on several."""
    import nca_anki.publishing.package as package

    def zipped_file(data: bytes) -> bytes:
        path = tmp_path / "collection.anki2"
        path.write_bytes(data)
        return package._zipped_file(path, None, 2)

    def by_zipfile(data: bytes) -> bytes:  # how packages were written with zipfile
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, entry in (("collection.anki2", data), ("media", b"{}")):
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                archive.writestr(info, entry, compresslevel=6)
        return buffer.getvalue()

    for size in (0, 1, 1000, 300_000):  # the zip writer gives zipfile's very bytes
        data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
        assert package._zipped(data) == by_zipfile(data)
    small = b"collection " * 1000
    assert zipped_file(small) == package._zipped(small)  # one piece: the very same bytes
    data = bytes(range(256)) * 20_000 + b"tail" * 300_000  # 6.3 MB: several pieces
    packed = zipped_file(data)
    with zipfile.ZipFile(io.BytesIO(packed)) as archive:
        assert archive.testzip() is None
        assert archive.read("collection.anki2") == data
        assert [(i.filename, i.date_time, i.external_attr, i.compress_type)
                for i in archive.infolist()] == [
            (i.filename, i.date_time, i.external_attr, i.compress_type)
            for i in zipfile.ZipFile(io.BytesIO(by_zipfile(data))).infolist()]
    monkeypatch.setattr(package.os, "cpu_count", lambda: 1)
    assert zipped_file(data) == packed


def test_the_bundle_s_pieces_from_the_cache_give_the_bytes_deflating_gives(
        tmp_path: Path) -> None:
    """Deflated pieces are kept under a hash of what they deflate (cache.DeflateCache):
    with a cold cache, a warm one, after an edit that moves the bytes behind it, or with a
    damaged entry, the bundle is the bytes deflating everything gives."""
    import nca_anki.publishing.package as package
    from nca_anki.caching.entries import DeflateCache
    from nca_anki.publishing.output import write_cache

    rng = random.Random(3)
    words = [f"word{n}" for n in range(3000)]
    data = " ".join(rng.choice(words) for _ in range(600_000)).encode()  # 4.6 MB
    path = tmp_path / "collection.anki2"

    class Counting(DeflateCache):
        """Counts the pieces deflated: each one deflated is put in the cache (from the
        deflating threads: a list's append is atomic, ``+= 1`` is not)."""

        def __init__(self, folder: Path) -> None:
            super().__init__(folder)
            self.put_keys: list[str] = []

        def put(self, key: str, packed: bytes) -> None:
            self.put_keys.append(key)
            super().put(key, packed)

    def zipped(content: bytes, cache: Counting | None) -> tuple[bytes, int]:
        """The zip and how many pieces were deflated (without a cache: all of them)."""
        path.write_bytes(content)
        packed = package._zipped_file(path, cache, 2)
        if cache is None:
            return packed, len(package._pieces(path)[0])
        problems = list(cache.problems)
        cache.save(write_cache)
        assert problems == cache.problems
        return packed, len(cache.put_keys)

    folder = tmp_path / "pieces"
    plain, pieces = zipped(data, None)
    assert pieces > 10
    assert zipped(data, Counting(folder)) == (plain, pieces)  # cold: every piece
    assert zipped(data, Counting(folder)) == (plain, 0)  # warm: none
    # Two 4 KiB pages more in the middle, as SQLite adds them: the pages behind move.
    edited = data[:1 << 20] + (b"two new pages, " * 600)[:8192] + data[1 << 20:]
    fresh, _ = zipped(edited, None)
    again, deflated = zipped(edited, Counting(folder))
    assert again == fresh and 0 < deflated <= 4  # the pieces behind it fall into place
    assert zipfile.ZipFile(io.BytesIO(again)).read("collection.anki2") == edited
    entry = sorted(folder.glob("*.z"))[0]
    entry.write_bytes(entry.read_bytes()[:-1] + b"!")
    cache = DeflateCache(folder)
    path.write_bytes(edited)
    assert package._zipped_file(path, cache, 2) == fresh
    assert [d.message for d in cache.problems] == [
        "bundle cache entry ignored (its bytes do not match their hash); deflated again"]
