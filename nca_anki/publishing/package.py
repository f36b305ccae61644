"""Pack decks of notes into ``.apkg`` bytes with genanki, deterministically: one topic's
deck, or every topic's for the all-topics bundle (index.py).

The only module that imports genanki. Unlike ``genanki.Package.write_to_file`` it gives
each note its own ``mod``, builds the SQLite collection in memory (no temporary file left
behind), and writes a deflated zip with fixed entry times: the same notes give the same
bytes on any machine, at any time.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import io
import itertools
import json
import os
import sqlite3
import struct
import tempfile
import zlib
from collections.abc import Callable, Generator, Iterable, Sequence
from pathlib import Path
from typing import Protocol

import genanki
from genanki.apkg_col import APKG_COL
from genanki.apkg_schema import APKG_SCHEMA

from nca_anki.records import DeckSpec, MediaFile, NoteType


class Pieces(Protocol):
    """Where deflated pieces of earlier bundles are kept by the hash of what they hold, so
    an unchanged piece is not compressed again (caching/entries.py's DeflateCache is one)."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, packed: bytes) -> None: ...


_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
# Measured on the 10,000-question benchmark bank plus the seeds (2026-11-30): level 6 is
# 0.6% larger than level 9 in 59% of the time; level 5 is 10% larger, level 1 33%.
_ZIP_LEVEL = 6


class _Note(genanki.Note):
    """A genanki note that is written with its own modification time."""

    def __init__(self, *, mod: int, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.mod = mod

    def write_to_db(self, cursor, timestamp, deck_id, id_gen):
        super().write_to_db(cursor, self.mod, deck_id, id_gen)

    def _check_invalid_html_tags_in_fields(self) -> None:
        """genanki guesses at "invalid HTML" with a regex over every field of every note;
        ours come from the sanitiser, so its guesses could only be false alarms, and they
        cost a tenth of the packaging time."""


# genanki's schema without its seven indexes (on usn, csum, card nid and schedule): they
# speed up queries in a collection someone studies from, but an importer reads a package
# once from end to end, and Anki creates the indexes it needs in its own collection. They
# were 13 % of every deflated deck and of the bundle (docs/anki-import.md).
_SCHEMA = ";".join(statement for statement in APKG_SCHEMA.split(";")
                   if not statement.strip().upper().startswith("CREATE INDEX"))


def deck_id(name: str) -> int:
    """A stable id for a deck name (Anki matches decks by name; the id only has to be
    stable and in the range Anki accepts)."""
    digest = hashlib.sha256(name.encode()).digest()
    return 1 << 30 | int.from_bytes(digest[:5], "big")


def _model(note_type: NoteType) -> genanki.Model:
    return genanki.Model(
        note_type.id,
        note_type.name,
        # Anki reads a field's and a template's "id" from a package (docs/anki-import.md).
        fields=[{"name": name, **({"id": i} if i is not None else {})}
                for name, i in itertools.zip_longest(note_type.fields, note_type.field_ids)],
        templates=[{"name": note_type.template_name, "qfmt": note_type.front,
                    "afmt": note_type.back,
                    **({"id": note_type.template_id} if note_type.template_id else {})}],
        css=note_type.css,
    )


def build_package(decks: DeckSpec | Sequence[DeckSpec], note_type: NoteType,
                  note_type_mod: int) -> bytes:
    """Return the ``.apkg`` file holding ``decks`` (one or several) as bytes."""
    decks = (decks,) if isinstance(decks, DeckSpec) else tuple(decks)
    model = _model(note_type)
    anki_decks = []
    for deck in decks:
        anki_deck = genanki.Deck(deck_id(deck.name), deck.name, description=deck.description)
        for position, item in enumerate(deck.notes):
            note = _Note(mod=item.mod, model=model, fields=list(item.fields),
                         tags=list(item.tags), guid=item.guid, due=position)
            if item.without_card:
                note.cards = []  # genanki's cached property, set before it is computed
            anki_deck.add_note(note)
        anki_decks.append(anki_deck)
    # Note and card ids only need to be unique and stable; Anki matches notes by GUID.
    newest = max([note_type_mod, *(n.mod for deck in decks for n in deck.notes)])
    conn = sqlite3.connect(":memory:")
    try:
        # genanki.Package.write_to_db, less the indexes (_SCHEMA).
        cursor = conn.cursor()
        cursor.executescript(_SCHEMA)
        cursor.executescript(APKG_COL)
        ids = itertools.count(newest * 1000)
        for anki_deck in anki_decks:
            anki_deck.write_to_db(cursor, note_type_mod, ids)
        conn.commit()
        collection = conn.serialize()
    finally:
        conn.close()

    return _zipped(collection, media_entries(
        {m.name: m for deck in decks for m in deck.media}.values()))


class MediaChanged(Exception):
    """An image's bytes are not those it was named by: it changed during the build."""

    def __init__(self, media: MediaFile, why: str) -> None:
        super().__init__(f"{media.path}: {why}")
        self.media, self.why = media, why


def media_entries(media: Iterable[MediaFile]) -> list[tuple[str, bytes]]:
    """(name, bytes) of each media file, sorted by name, read and checked against the
    SHA-256 each was named by (raises MediaChanged)."""
    entries = []
    for item in sorted(media, key=lambda m: m.name):
        try:
            data = Path(item.path).read_bytes()
        except OSError as exc:
            raise MediaChanged(item, f"cannot be read ({exc.strerror or exc})") from exc
        if hashlib.sha256(data).hexdigest() != item.sha256:
            raise MediaChanged(item, "changed while the decks were built")
        entries.append((item.name, data))
    return entries


def bundle_stride(largest: int) -> int:
    """The id range merge_packages gives each deck, for decks of at most ``largest`` notes:
    more ids than build_package gives such a deck (one per note and one per card), at
    least a million, and a power of ten, so it stays put while decks grow."""
    return 10 ** max(6, len(str(2 * largest)))


def merge_packages(collections: Sequence[Callable[[], bytes]], parent: str,
                   description: str, oldest: int, stride: int,
                   pieces: Pieces | None = None, *, threads: int = 1,
                   media: Sequence[tuple[str, bytes]] = (),
                   scratch: Path | None = None) -> bytes:
    """One ``.apkg`` holding every deck, note and card of ``collections`` (each gives the
    collection of a package from ``build_package``, read when it is needed), plus the
    deck ``parent`` with ``description``. Rows are copied as they are, in order. It is a
    merge inside SQLite, not genanki objects, since it repacks every note of every deck
    whenever one deck changes; and into a temporary file, not memory: at 100,000
    questions the merged collection is 150 MB, and a copy in memory pushed the build
    past 1 GB.

    Ids only need to be unique and stable (Anki matches notes by GUID, and shows a new
    note's id as the time it was added, in ms). Each deck's note and card ids are its
    own, moved as one so that the n-th deck's lowest is ``oldest`` (the oldest ``mod``
    of any note in them) in ms plus n times ``stride`` (more than any deck's ids span:
    build_package counts one id per note and per card). A deck numbers its rows in
    study order from its newest time, so an edit, or a question added to one deck,
    leaves the ids of every other row as they were, so most of the file is the same
    bytes as last time and ``pieces`` has most of it deflated already. (Moving the ids
    keeps the copy a plain one: renumbering them by rank took half the merge.)

    ``scratch``: a folder in memory (edges.scratch) to merge in; if the merge fails
    there (the folder full or gone), it is done again in the system's temporary folder.
    The bytes are the same either way: it is the same SQLite file."""
    if scratch is not None:
        try:
            return _merged(scratch, collections, parent, description, oldest, stride,
                           pieces, threads, media)
        except (OSError, sqlite3.OperationalError):
            pass
    return _merged(None, collections, parent, description, oldest, stride, pieces, threads,
                   media)


def _merged(folder: Path | None, collections: Sequence[Callable[[], bytes]], parent: str,
            description: str, oldest: int, stride: int, pieces: Pieces | None, threads: int,
            media: Sequence[tuple[str, bytes]]) -> bytes:
    with tempfile.TemporaryDirectory(prefix="nca-anki-bundle-", dir=folder) as scratch:
        path = Path(scratch) / "collection.anki2"
        conn = sqlite3.connect(path)
        try:
            conn.execute("PRAGMA journal_mode = OFF")  # a scratch file: no crash safety needed
            conn.execute("PRAGMA synchronous = OFF")
            with contextlib.closing(_read_ahead(collections)) as read:  # its thread joined
                _merge(conn, read, parent, description, oldest * 1000, stride)
        finally:
            conn.close()
        return _zipped_file(path, pieces, threads, media)


def _read_ahead(collections: Sequence[Callable[[], bytes]]) -> Generator[bytes, None, None]:
    """Each of ``collections`` read, in order, the next one unpacked on a thread while
    the caller merges this one: inflating a deck (zlib) and copying its rows (SQLite)
    both let other threads run, so the two overlap. One ahead, never more: at 100,000
    questions every collection at once would be 150 MB in memory. Measured on the
    10,000-question benchmark bank: the bundle in 0.12-0.13 s, not 0.15-0.17 s."""
    if not collections:
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        ahead = pool.submit(collections[0])
        for following in (*collections[1:], None):
            current = ahead.result()
            if following is not None:
                ahead = pool.submit(following)
            yield current


def _merge(conn: sqlite3.Connection, collections: Iterable[bytes], parent: str,
           description: str, base: int, stride: int) -> None:
    """One pass: each collection is read once. The first gives the tables and settings;
    the indexes of a deck published before packages left them out (_SCHEMA) are not
    copied."""
    models: dict[str, dict] = {}
    decks: dict[str, dict] = {}
    for number, collection in enumerate(collections):
        conn.execute("ATTACH DATABASE ':memory:' AS deck")
        conn.deserialize(collection, name="deck")
        if number == 0:  # a new collection with its schema and settings, no notes or cards
            for (sql,) in conn.execute("SELECT sql FROM deck.sqlite_master WHERE type = "
                                       "'table' AND sql NOT NULL ORDER BY rowid").fetchall():
                conn.execute(sql)
            conn.execute("INSERT INTO col SELECT * FROM deck.col")
        models_json, decks_json = conn.execute("SELECT models, decks FROM deck.col").fetchone()
        for key, model in json.loads(models_json).items():
            if key not in models or model["mod"] > models[key]["mod"]:
                models[key] = model  # the newest note type (a frozen topic has an older)
        decks.update(json.loads(decks_json))
        ends = [end for end in conn.execute(  # each a look at one end of a table's B-tree
            "SELECT (SELECT min(id) FROM deck.notes), (SELECT max(id) FROM deck.notes), "
            "(SELECT min(id) FROM deck.cards), (SELECT max(id) FROM deck.cards)").fetchone()
            if end is not None]
        low, high = (min(ends), max(ends)) if ends else (0, 0)
        if high - low >= stride:  # the caller's stride is too small: the ids would collide
            raise ValueError(f"a deck's ids span {high - low + 1}, in id ranges of {stride}")
        shift = base + number * stride - low
        conn.execute("INSERT INTO notes SELECT id + ?, guid, mid, mod, usn, tags, flds, sfld, "
                     "csum, flags, data FROM deck.notes ORDER BY id", (shift,))
        conn.execute("INSERT INTO cards SELECT id + ?, nid + ?, did, ord, mod, usn, type, "
                     "queue, due, ivl, factor, reps, lapses, left, odue, odid, flags, data "
                     "FROM deck.cards WHERE nid IN (SELECT id FROM deck.notes) ORDER BY id",
                     (shift, shift))
        conn.commit()
        conn.execute("DETACH DATABASE deck")
    template = next(d for d in decks.values() if d["name"] != "Default")
    parent_id = deck_id(parent)
    decks[str(parent_id)] = {**template, "id": parent_id, "name": parent, "desc": description}
    conn.execute("UPDATE col SET models = ?, decks = ?",
                 (json.dumps(models, sort_keys=True), json.dumps(decks, sort_keys=True)))
    conn.commit()


def _deflated(data: bytes) -> bytes:
    compressor = zlib.compressobj(_ZIP_LEVEL, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def _zipped(collection: bytes, media: Sequence[tuple[str, bytes]] = ()) -> bytes:
    """A package: the collection, the media list and the media files (``media``: name and
    bytes, sorted by name), deflated, with fixed times."""
    return _zip((("collection.anki2", _deflated(collection), zlib.crc32(collection),
                  len(collection)), *_media(media)))


def _media(media: Sequence[tuple[str, bytes]]) -> list[tuple[str, bytes, int, int]]:
    """The zip entries of Anki's legacy media layout: a JSON map from entry names "0",
    "1", ... to file names, then each file under its number (docs/anki-import.md)."""
    if not media:
        return [_MEDIA]
    listing = json.dumps({str(n): name for n, (name, _) in enumerate(media)},
                         separators=(",", ":")).encode()
    return [("media", _deflated(listing), zlib.crc32(listing), len(listing)),
            *((str(n), _deflated(data), zlib.crc32(data), len(data))
              for n, (_, data) in enumerate(media))]


# The bundle is deflated in pieces on every core (zlib lets other threads run while it
# works), the way pigz does: each piece ends on a byte boundary (a full flush) and starts
# with the 32 KiB before it as its dictionary, so the pieces are one deflate stream, a
# fraction of a percent larger than one made in one go. Where a piece ends depends only
# on the bytes (content-defined, at a 4 KiB page whose CRC ends in six zero bits, between
# 16 and 256 pages): not on the number of cores, and after an edit that moves the pages
# behind it by a page or two, the pieces fall on the same bytes again and come from the
# cache. Measured on a 15 MB bundle of 10,000 questions: 0.52 s in one piece, about half
# on two cores; after a one-prompt edit, 2 of its 3,686 pages differ.
_PAGE = 1 << 12
_MIN_PAGES, _MAX_PAGES, _CUT_MASK = 16, 256, 63
_WINDOW = 1 << 15
_PIECE_KEY = f"zlib {zlib.ZLIB_RUNTIME_VERSION}, level {_ZIP_LEVEL}, window {_WINDOW}\n".encode()


def _pieces(path: Path) -> tuple[list[tuple[int, int]], int, int]:
    """(start, end) of each piece of the file at ``path``, its CRC-32 and its size."""
    bounds, crc, start, offset, pages = [], 0, 0, 0, 0
    with open(path, "rb") as file:
        while block := file.read(_MAX_PAGES * _PAGE):
            crc = zlib.crc32(block, crc)
            for at in range(0, len(block), _PAGE):
                page = block[at:at + _PAGE]
                offset += len(page)
                pages += 1
                if pages >= _MAX_PAGES or pages >= _MIN_PAGES \
                        and zlib.crc32(page) & _CUT_MASK == 0:
                    bounds.append((start, offset))
                    start, pages = offset, 0
    if start < offset or not bounds:
        bounds.append((start, offset))
    return bounds, crc, offset


def _deflate_piece(fd: int, start: int, end: int, final: bool,
                   cache: Pieces | None) -> bytes:
    head = max(0, start - _WINDOW)
    data = os.pread(fd, end - head, head)
    dictionary, body = data[:start - head], data[start - head:]
    key = ""
    if cache is not None:
        key = hashlib.sha256(b"".join((_PIECE_KEY, b"final " if final else b"piece ",
                                       str(len(dictionary)).encode(), b"\n", data))).hexdigest()
        if (packed := cache.get(key)) is not None:
            return packed
    compressor = (zlib.compressobj(_ZIP_LEVEL, zlib.DEFLATED, -15, zdict=dictionary)
                  if dictionary else zlib.compressobj(_ZIP_LEVEL, zlib.DEFLATED, -15))
    packed = compressor.compress(body) + compressor.flush(
        zlib.Z_FINISH if final else zlib.Z_FULL_FLUSH)
    if cache is not None:
        cache.put(key, packed)
    return packed


def _deflate_file(path: Path, cache: Pieces | None, threads: int
                  ) -> tuple[bytes, int, int]:
    """(deflated bytes, CRC-32, size) of the file at ``path``, in pieces deflated on
    ``threads`` threads; the pieces ``cache`` holds are taken from it, and the others put
    in it."""
    bounds, crc, size = _pieces(path)
    with open(path, "rb") as file, concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, threads)) as pool:
        last = len(bounds) - 1
        packed = b"".join(pool.map(
            lambda n: _deflate_piece(file.fileno(), *bounds[n], n == last, cache),
            range(len(bounds))))
    return packed, crc, size


def _zipped_file(collection: Path, pieces: Pieces | None, threads: int,
                 media: Sequence[tuple[str, bytes]] = ()) -> bytes:
    """The same zip as ``_zipped``, with the collection in the file ``collection``,
    deflated in parallel pieces (see above)."""
    return _zip((("collection.anki2", *_deflate_file(collection, pieces, threads)),
                 *_media(media)))


_MEDIA = ("media", _deflated(b"{}"), zlib.crc32(b"{}"), 2)


def _zip(entries: Sequence[tuple[str, bytes, int, int]]) -> bytes:
    """A zip of already deflated entries (name, deflated bytes, CRC-32, size), written
    as Python's zipfile writes one (tests/publishing/test_package.py compares the bytes): fixed
    times, Unix mode 0644, no extra fields. One writer for both kinds of package."""
    local, central = io.BytesIO(), io.BytesIO()
    date = (_ZIP_TIME[0] - 1980) << 9 | _ZIP_TIME[1] << 5 | _ZIP_TIME[2]
    for name, packed, crc, size in entries:
        raw_name, offset = name.encode(), local.tell()
        fields = (20, 0, 8, 0, date, crc, len(packed), size, len(raw_name), 0)
        local.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, *fields) + raw_name + packed)
        central.write(struct.pack("<IH", 0x02014B50, 3 << 8 | 20)
                      + struct.pack("<HHHHHIIIHH", *fields)
                      + struct.pack("<HHHII", 0, 0, 0, 0o644 << 16, offset) + raw_name)
    start, directory = local.tell(), central.getvalue()
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries),
                      len(directory), start, 0)
    return local.getvalue() + directory + end
