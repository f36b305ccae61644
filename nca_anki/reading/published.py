"""The one reader of published decks: what a ``.apkg`` in the output folder holds.

``read_published`` reads every ``.apkg`` in the output folder once, before anything is
written, into one ``Published`` record; every stage that needs what learners have asks
that record, never the folder: recovering a lost lock and finding published texts
(identity/recover.py), the versions and retired notes (publishing/changes.py), the sink's
"unchanged" (publishing/sink.py) and the index (publishing/index.py). A deck is a zip
holding a SQLite collection (docs/anki-import.md); it is opened in memory with the
standard library, never with genanki or Anki. Every reader raises on bytes that are not
such a deck (``DeckError`` names the usual ways); callers decide what that means.
"""

from __future__ import annotations

import errno
import hashlib
import html
import io
import json
import re
import sqlite3
import stat
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nca_anki.files import is_bundle
from nca_anki.records import NOTE_TYPE_ID, NoteType, PackagedNote

# What reading a damaged or foreign file raises.
DeckError = (OSError, KeyError, ValueError, TypeError, IndexError, zipfile.BadZipFile,
             sqlite3.Error)
# What the index keeps of a deck: (GUID, mod, retired) of each note of ours in study
# order (a retired note has no card: versions.py), and our note type's mod.
DeckFacts = tuple[tuple[tuple[str, int, bool], ...], int]


# Tags inside a line of text (highlighted code is a <span> a token) join what they
# separate; every other tag (a paragraph, a line break, a list item, a cell) is a space.
_INLINE_TAG_RE = re.compile(r"</?(?:span|code|b|i|em|strong|a|sub|sup|kbd|del|s|u|mark|small)"
                            r"\b[^<>]*>", re.IGNORECASE)
_TAG_RE = re.compile(r"<[^<>]+>")


def plain_text(field_html: str) -> str:
    """A field's text as a learner reads it: tags gone ("for i, (x, y) in", not "for i ,
    ( x , y ) in" for highlighted code), entities decoded, spaces joined."""
    text = _TAG_RE.sub(" ", _INLINE_TAG_RE.sub("", field_html))
    return " ".join(html.unescape(text).split())


def collection_of(package: bytes) -> bytes:
    """The SQLite collection inside ``.apkg`` bytes."""
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        return archive.read("collection.anki2")


def media_of(package: bytes) -> list[tuple[str, bytes]]:
    """(name, bytes) of each media file inside ``.apkg`` bytes, sorted by name: the zip's
    "media" map names each numbered entry (docs/anki-import.md, "Media")."""
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        listing = json.loads(archive.read("media")) if "media" in archive.namelist() else {}
        if not isinstance(listing, dict):
            raise ValueError("its media list is not a map")
        return sorted((str(name), archive.read(str(entry))) for entry, name in listing.items())


def query(collection: bytes, sql: str, *args: object) -> list[tuple]:
    """The rows ``sql`` selects from a collection, opened in memory."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(collection)
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def facts(collection: bytes) -> DeckFacts:
    """(notes, our note type's mod) of a deck's collection: see ``DeckFacts``."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(collection)
        notes = tuple((guid, mod, bool(retired)) for guid, mod, retired in conn.execute(
            "SELECT n.guid, n.mod, n.id NOT IN (SELECT nid FROM cards) "
            "FROM notes n WHERE n.mid = ? ORDER BY n.id", (NOTE_TYPE_ID,)))
        (models_json,) = conn.execute("SELECT models FROM col").fetchone()
    finally:
        conn.close()
    model = json.loads(models_json).get(str(NOTE_TYPE_ID), {})
    return notes, int(model.get("mod", 0))


def first_fields(collection: bytes) -> list[tuple[str, str]]:
    """(GUID, the Prompt field's HTML) of each note of ours."""
    return query(collection, "SELECT guid, substr(flds, 1, instr(flds || char(31), "
                             "char(31)) - 1) FROM notes WHERE mid = ?", NOTE_TYPE_ID)


@dataclass(frozen=True, kw_only=True)
class PublishedDeck:
    """One topic's published deck, as far as nca-anki wrote it."""

    name: str
    description: str
    note_type: NoteType | None
    note_type_mod: int
    notes: tuple[PackagedNote, ...]  # in study order; retired notes have no card


def _our_model(models_json: str) -> Any:
    """Our note type in a collection's ``models`` JSON (None if it has none): read_deck
    and note_type_schema read it the same way."""
    return json.loads(models_json).get(str(NOTE_TYPE_ID))


def read_deck(package: bytes) -> PublishedDeck:
    """The deck in a topic's ``.apkg`` bytes, notes and all (raises one of ``DeckError``
    on bytes that are not one)."""
    data = collection_of(package)
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(data)
        models_json, decks_json = conn.execute("SELECT models, decks FROM col").fetchone()
        model = _our_model(models_json)
        decks = {int(k): v for k, v in json.loads(decks_json).items()}
        rows = conn.execute(
            "SELECT n.guid, n.mod, n.flds, n.tags, min(c.did) FROM notes n LEFT JOIN cards c "
            "ON c.nid = n.id WHERE n.mid = ? GROUP BY n.id ORDER BY n.id",
            (NOTE_TYPE_ID,)).fetchall()
    finally:
        conn.close()
    note_type = None
    if model is not None:
        template = model["tmpls"][0]
        ids = [f.get("id") for f in model["flds"]]
        note_type = NoteType(id=NOTE_TYPE_ID, name=model["name"],
                             fields=tuple(f["name"] for f in model["flds"]),
                             template_name=template["name"], front=template["qfmt"],
                             back=template["afmt"], css=model["css"],
                             field_ids=tuple(ids) if all(isinstance(i, int) for i in ids)
                             else (),
                             template_id=template.get("id") if isinstance(
                                 template.get("id"), int) else None)
    dids = {did for *_, did in rows if did is not None}
    names = {decks[did]["name"]: decks[did].get("desc", "") for did in dids if did in decks}
    name = min(names) if names else ""
    return PublishedDeck(name=name, description=names.get(name, ""), note_type=note_type,
                         note_type_mod=int(model["mod"]) if model else 0,
                         notes=tuple(PackagedNote(guid=guid, mod=int(mod),
                                            fields=tuple(flds.split("\x1f")),
                                            tags=tuple(tags.split()), without_card=did is None)
                               for guid, mod, flds, tags, did in rows))


def read_bundle_notes(package: bytes
                      ) -> tuple[NoteType | None, int, list[tuple[str, PackagedNote]]]:
    """The all-topics bundle's note type, its mod, and each note of ours that has a card
    with the name of the (topic) deck its card is in. Its retired notes have no card and
    so no deck: they are left out. Raises one of ``DeckError`` on bytes that are not a
    package."""
    deck = read_deck(package)
    data = collection_of(package)
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(data)
        (decks_json,) = conn.execute("SELECT decks FROM col").fetchone()
        homes = dict(conn.execute(
            "SELECT n.guid, min(c.did) FROM notes n JOIN cards c ON c.nid = n.id "
            "WHERE n.mid = ? GROUP BY n.id", (NOTE_TYPE_ID,)).fetchall())
    finally:
        conn.close()
    names = {int(k): v.get("name", "") for k, v in json.loads(decks_json).items()}
    return deck.note_type, deck.note_type_mod, [
        (names.get(homes[note.guid], ""), note) for note in deck.notes if note.guid in homes]


def note_type_schema(decks: Published) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """What learners have of the note type: the shown path of the first topic deck that
    can be read, its note type's field names and template names; None if no deck is
    published (or none can be read: the stage that reads decks reports that)."""
    for file in decks.decks():
        try:
            (models,) = query(collection_of(file.bytes()), "SELECT models FROM col")[0]
            model = _our_model(models)
        except DeckError:
            continue
        if isinstance(model, dict):
            try:
                return (decks.shown(file.name), tuple(f["name"] for f in model["flds"]),
                        tuple(t["name"] for t in model["tmpls"]))
            except (KeyError, TypeError):
                continue
    return None


@dataclass(frozen=True, kw_only=True)
class PublishedFile:
    """One ``.apkg`` in the output folder, as read once by ``read_published``."""

    name: str  # its file name
    sha256: str | None  # of its bytes; None if it could not be read
    data: bytes = field(default=b"", repr=False, compare=False)
    error: OSError | None = field(default=None, repr=False, compare=False)
    regular: bool = True  # a file, not a folder or another special file in a deck's place

    def bytes(self) -> bytes:
        """Its bytes; raises the OSError that reading it raised."""
        if self.error is not None:
            raise self.error
        return self.data


@dataclass(frozen=True)
class Published:
    """What learners have: every ``.apkg`` in the output folder, each read once, by file
    name (topics' decks, the all-topics bundle, and decks no topic builds any more)."""

    folder: Path
    files: Mapping[str, PublishedFile]  # sorted by name
    # The index files (manifest, changelog) by name when they are not read from ``folder``
    # (a committed state: edges.committed); None: read from the folder when asked.
    index: Mapping[str, bytes] | None = None

    def index_text(self, name: str) -> str | None:
        """The text of the index file ``name`` published beside the decks; None if there
        is none. Raises OSError or UnicodeDecodeError if it cannot be read."""
        if self.index is not None:
            data = self.index.get(name)
            return None if data is None else data.decode("utf-8")
        path = self.folder / name
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def sha256(self, name: str) -> str | None:
        """The SHA-256 of the published file ``name``; None if absent or unreadable."""
        found = self.files.get(name)
        return found.sha256 if found is not None else None

    def shown(self, name: str) -> str:
        return (self.folder / name).as_posix()

    def decks(self) -> list[PublishedFile]:
        """The topics' decks (not the bundles), by name."""
        return [f for name, f in self.files.items() if not is_bundle(name)]

    def bundles(self) -> list[PublishedFile]:
        return [f for name, f in self.files.items() if is_bundle(name)]


NOTHING_PUBLISHED = Published(Path("."), {})


def published_from(out: Path, files: Mapping[str, bytes]) -> Published:
    """What learners have when it is not the output folder but ``files`` (name -> bytes:
    the decks and index files of the last commit), as ``read_published`` gives it."""
    decks = {name: PublishedFile(name=name, sha256=hashlib.sha256(data).hexdigest(), data=data)
             for name, data in sorted(files.items()) if name.endswith(".apkg")}
    return Published(out, decks, {n: d for n, d in files.items() if not n.endswith(".apkg")})


def read_published(out: Path) -> Published:
    """Every ``.apkg`` file in ``out``, read once (see the module docstring); what cannot
    be read is kept with its error, for the stage that needs it to report."""
    files = {}
    for path in sorted(out.glob("*.apkg")) if out.is_dir() else []:
        try:
            if not stat.S_ISREG(path.stat().st_mode):  # a folder, or a pipe (never opened)
                files[path.name] = PublishedFile(name=path.name, sha256=None, error=OSError(
                    errno.EINVAL, "not a regular file", str(path)), regular=False)
                continue
            data = path.read_bytes()
        except OSError as exc:
            files[path.name] = PublishedFile(name=path.name, sha256=None, error=exc)
            continue
        files[path.name] = PublishedFile(name=path.name, sha256=hashlib.sha256(data).hexdigest(),
                                         data=data)
    return Published(out, files)
