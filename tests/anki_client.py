"""Test-side helpers that drive the real `anki` package (Rust backend).

These functions import `.apkg` files exactly as Anki desktop does and expose
the result in plain, easily-asserted data structures. They depend only on the
official `anki` package (PyPI `anki`), not on any test framework.

Typical use::

    col = open_collection(tmp_path / "collection.anki2")
    try:
        counts = import_package(col, apkg_path)
        assert counts.new == 2
        cards = cards_in_deck(col, "My Deck")
    finally:
        col.close()

Always close the collection (``col.close()``) when done: the backend holds the
SQLite file open and a background thread otherwise outlives the test.
"""

from __future__ import annotations

import html as _html
import os
import pathlib
import re
from dataclasses import dataclass, fields as dataclass_fields
from collections.abc import Callable, Iterable

# anki.collection must be imported before anki.cards: importing anki.cards
# first fails with a circular ImportError inside the anki package.
from anki.collection import (  # isort: skip
    Collection,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
)
from anki.cards import Card, CardId  # isort: skip
from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition
from anki.scheduler_pb2 import CardAnswer

__all__ = [
    "CardView",
    "ImportCounts",
    "cards_in_deck",
    "deck_names",
    "html_to_text",
    "import_package",
    "note_type_names",
    "open_collection",
    "review_all_new",
    "review_each_new",
    "revlog_count",
]

_IF_NEWER = ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER

_RATINGS: dict[str, CardAnswer.Rating.V] = {
    "again": CardAnswer.AGAIN,
    "hard": CardAnswer.HARD,
    "good": CardAnswer.GOOD,
    "easy": CardAnswer.EASY,
}


@dataclass(frozen=True)
class ImportCounts:
    """Number of notes in each category of an Anki import log.

    Field names mirror ``ImportResponse.Log`` of the anki backend.
    """

    new: int = 0
    updated: int = 0
    duplicate: int = 0
    conflicting: int = 0
    first_field_match: int = 0
    missing_notetype: int = 0
    missing_deck: int = 0
    empty_first_field: int = 0
    found_notes: int = 0

    @property
    def total(self) -> int:
        """Sum of all per-note categories (excludes ``found_notes``)."""
        return sum(
            getattr(self, f.name)
            for f in dataclass_fields(self)
            if f.name != "found_notes"
        )


@dataclass(frozen=True)
class CardView:
    """A snapshot of one card as the learner would see it, plus scheduling."""

    card_id: int
    note_id: int
    guid: str
    deck: str
    question_html: str
    answer_html: str
    css: str
    fields: dict[str, str]
    tags: tuple[str, ...]
    note_mod: int
    reps: int
    ivl: int
    due: int
    queue: int
    type: int


# Set by tests/conftest.py before each test: whether the test is marked ``anki`` (or
# ``desktop``). A test that opens a real collection without the mark would run in the quick
# loop (`-m "not anki"`) and hide there; this makes the mark impossible to forget.
MARKED = True


def open_collection(path: pathlib.Path) -> Collection:
    """Create (or open) an Anki collection at ``path``.

    The parent directory is created if needed. The caller must call
    ``col.close()`` when finished.
    """
    if not MARKED:
        raise AssertionError("this test opens a real Anki collection: mark it "
                             "@pytest.mark.anki (docs/contributing.md, 'Markers')")
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return Collection(os.fspath(path))


def import_package(
    col: Collection,
    apkg_path: pathlib.Path | str,
    *,
    merge_notetypes: bool = False,
    update_notes: int = _IF_NEWER,
    update_notetypes: int = _IF_NEWER,
    with_scheduling: bool = False,
    with_deck_configs: bool = False,
) -> ImportCounts:
    """Import an ``.apkg`` into ``col`` the way Anki desktop does by default.

    Defaults: update notes if newer, update note types if newer, do not merge
    note types, no scheduling, no deck presets. Returns per-category counts
    from the backend's import log. The note-type cache is cleared afterwards
    so that ``col.models`` reflects the import.
    """
    request = ImportAnkiPackageRequest(
        package_path=os.fspath(pathlib.Path(apkg_path).resolve()),
        options=ImportAnkiPackageOptions(
            merge_notetypes=merge_notetypes,
            update_notes=update_notes,
            update_notetypes=update_notetypes,
            with_scheduling=with_scheduling,
            with_deck_configs=with_deck_configs,
        ),
    )
    log = col.import_anki_package(request).log
    col.models._clear_cache()
    return ImportCounts(
        new=len(log.new),
        updated=len(log.updated),
        duplicate=len(log.duplicate),
        conflicting=len(log.conflicting),
        first_field_match=len(log.first_field_match),
        missing_notetype=len(log.missing_notetype),
        missing_deck=len(log.missing_deck),
        empty_first_field=len(log.empty_first_field),
        found_notes=int(log.found_notes),
    )


def note_type_names(col: Collection) -> list[str]:
    """Names of all note types in the collection, sorted (includes stock ones)."""
    col.models._clear_cache()
    return sorted(entry.name for entry in col.models.all_names_and_ids())


def deck_names(col: Collection) -> list[str]:
    """Full names (``A::B``) of all decks, sorted; "Default" is included."""
    return sorted(entry.name for entry in col.decks.all_names_and_ids())


def _deck_id(col: Collection, deck_name: str) -> int:
    did = col.decks.id_for_name(deck_name)
    if not did:
        raise KeyError(f"no deck named {deck_name!r}; have {deck_names(col)}")
    return int(did)


def _card_view(col: Collection, card: Card) -> CardView:
    note = card.note(reload=True)
    output = card.render_output(reload=True)
    return CardView(
        card_id=int(card.id),
        note_id=int(card.nid),
        guid=note.guid,
        deck=col.decks.name(card.did),
        question_html=output.question_text,
        answer_html=output.answer_text,
        css=output.css,
        fields=dict(note.items()),
        tags=tuple(note.tags),
        note_mod=int(note.mod),
        reps=int(card.reps),
        ivl=int(card.ivl),
        due=int(card.due),
        queue=int(card.queue),
        type=int(card.type),
    )


def cards_in_deck(col: Collection, deck_name: str) -> list[CardView]:
    """All cards whose home deck is exactly ``deck_name`` (no subdecks).

    Ordered by card ``due`` then card id. Raises ``KeyError`` for an unknown
    deck.
    """
    did = _deck_id(col, deck_name)
    card_ids = col.db.list(
        "select id from cards where did = ? or odid = ? order by due, id",
        did,
        did,
    )
    return [_card_view(col, col.get_card(CardId(cid))) for cid in card_ids]


def review_all_new(col: Collection, deck_name: str, rating: str = "good") -> int:
    """Answer every queued card of ``deck_name`` once with the v3 scheduler.

    The deck is selected (so its subdecks are queued too). Cards that re-enter
    learning and come back immediately are not answered a second time; the
    loop stops when the queue is empty or holds only already-answered cards.
    ``rating`` is one of "again", "hard", "good", "easy". Returns the number
    of answers made.
    """
    if rating.lower() not in _RATINGS:
        raise ValueError(f"rating must be one of {sorted(_RATINGS)}")
    return review_each_new(col, deck_name, lambda _guid: rating)


def review_each_new(col: Collection, deck_name: str, rating_of: Callable[[str], str]) -> int:
    """As ``review_all_new``, each card answered ``rating_of(its note's GUID)``."""
    col.decks.select(_deck_id(col, deck_name))
    answered: set[int] = set()
    while True:
        queued = col.sched.get_queued_cards(fetch_limit=1000)
        pending = [qc for qc in queued.cards if qc.card.id not in answered]
        if not pending:
            return len(answered)
        queued_card = pending[0]
        card = Card(col, backend_card=queued_card.card)
        card.start_timer()  # build_answer() needs a started timer
        answer = col.sched.build_answer(
            card=card, states=queued_card.states,
            rating=_RATINGS[rating_of(card.note().guid).lower()]
        )
        col.sched.answer_card(answer)
        answered.add(int(card.id))


def revlog_count(col: Collection, card_ids: Iterable[int] | None = None) -> int:
    """Number of review-log rows, optionally restricted to ``card_ids``."""
    if card_ids is None:
        return int(col.db.scalar("select count() from revlog"))
    ids = [int(cid) for cid in card_ids]
    if not ids:
        return 0
    placeholders = ",".join("?" * len(ids))
    return int(
        col.db.scalar(
            f"select count() from revlog where cid in ({placeholders})", *ids
        )
    )


_STYLE_RE = re.compile(r"<(style|script)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)
_TAG_RE = re.compile(r"<[^>]+>")
_SPACE_RE = re.compile(r"\s+")


def html_to_text(html: str) -> str:
    """Reduce rendered card HTML to the plain text a learner reads.

    Drops ``<style>``/``<script>`` blocks and comments, replaces every tag by
    a space, unescapes entities (``&nbsp;`` becomes a space) and collapses
    whitespace.
    """
    text = _STYLE_RE.sub(" ", html)
    text = _COMMENT_RE.sub(" ", text)
    text = _TAG_RE.sub(" ", text)
    text = _html.unescape(text).replace("\xa0", " ")
    return _SPACE_RE.sub(" ", text).strip()
