"""Pack one topic's notes into ``.apkg`` bytes with genanki, deterministically.

The only module that imports genanki. Unlike ``genanki.Package.write_to_file`` it gives
each note its own ``mod``, builds the SQLite collection in memory (no temporary file left
behind), and writes a deflated zip with fixed entry times: the same notes give the same
bytes on any machine, at any time.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import sqlite3
import zipfile
from dataclasses import dataclass

import genanki

from .identity import IdentifiedNote
from .render import NoteType

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
# Measured on the 10,000-question benchmark bank plus the seeds (2026-11-30): level 6 is
# 0.6% larger than level 9 in 59% of the time; level 5 is 10% larger, level 1 33%.
_ZIP_LEVEL = 6


@dataclass(frozen=True)
class DeckSpec:
    name: str
    description: str
    notes: tuple[IdentifiedNote, ...]  # in study order


class _Note(genanki.Note):
    """A genanki note that is written with its own modification time."""

    def __init__(self, *, mod: int, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.mod = mod

    def write_to_db(self, cursor, timestamp, deck_id, id_gen):  # type: ignore[override]
        super().write_to_db(cursor, self.mod, deck_id, id_gen)

    def _check_invalid_html_tags_in_fields(self) -> None:
        """genanki guesses at "invalid HTML" with a regex over every field of every note;
        ours come from the sanitiser, so its guesses could only be false alarms, and they
        cost a tenth of the packaging time."""


def deck_id(name: str) -> int:
    """A stable id for a deck name (Anki matches decks by name; the id only has to be
    stable and in the range Anki accepts)."""
    digest = hashlib.sha256(name.encode()).digest()
    return 1 << 30 | int.from_bytes(digest[:5], "big")


def _model(note_type: NoteType) -> genanki.Model:
    return genanki.Model(
        note_type.id,
        note_type.name,
        fields=[{"name": name} for name in note_type.fields],
        templates=[{"name": note_type.template_name, "qfmt": note_type.front,
                    "afmt": note_type.back}],
        css=note_type.css,
    )


def build_package(deck: DeckSpec, note_type: NoteType, note_type_mod: int) -> bytes:
    """Return the ``.apkg`` file for ``deck`` as bytes."""
    model = _model(note_type)
    anki_deck = genanki.Deck(deck_id(deck.name), deck.name, description=deck.description)
    for position, item in enumerate(deck.notes):
        anki_deck.add_note(_Note(
            mod=item.mod, model=model, fields=list(item.note.fields), tags=list(item.note.tags),
            guid=item.guid, due=position,
        ))
    # Note and card ids only need to be unique and stable; Anki matches notes by GUID.
    newest = max([note_type_mod, *(n.mod for n in deck.notes)])
    conn = sqlite3.connect(":memory:")
    try:
        genanki.Package(anki_deck).write_to_db(conn.cursor(), note_type_mod,
                                               itertools.count(newest * 1000))
        conn.commit()
        collection = conn.serialize()
    finally:
        conn.close()

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in (("collection.anki2", collection), ("media", b"{}")):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=_ZIP_LEVEL)
    return buffer.getvalue()
