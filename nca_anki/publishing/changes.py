"""What a build changes for learners, found against the decks they have: each deck's
version record (versions.py, kept in ``manifest.json``) and its retired notes.

The published deck, not the lock, is the reference: after a merge of two branches the lock
already knows the other branch's edits, the learners' deck does not; and a removed
question's text survives only in the deck that published it (docs/sharing.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import nca_anki.diagnostics as diag
from nca_anki.cards.report_link import without_link
from nca_anki.diagnostics import Diagnostic
from nca_anki.files import MANIFEST_NAME
from nca_anki.publishing.manifest import FactsStore, IndexedDeck, read_manifest
from nca_anki.reading.published import Published, PublishedFile, query, read_deck
from nca_anki.identity.retired import RETIRED_TAG, content_tags, retired_mod
from nca_anki.publishing.versions import (DeckState, DeckVersion, Events, advance, reconcile,
                                          with_notice)
from nca_anki.records import (Assignment, IdentifiedNote, Lock, LockEntry, NoteStatus, PackagedNote,
                              Topic)


def previous_versions(decks: Published, topics: tuple[Topic, ...]
                      ) -> tuple[dict[str, DeckVersion], list[Diagnostic]]:
    """Each deck's version record (by deck name), from the manifest the last build wrote
    beside the published ``decks``. A record written for another file of its deck is
    reconciled with that deck."""
    path = decks.folder / MANIFEST_NAME
    unreadable: OSError | UnicodeDecodeError | None = None
    try:
        text = decks.index_text(MANIFEST_NAME)
    except (OSError, UnicodeDecodeError) as exc:
        text, unreadable = "", exc
    if text is None:
        if any(_deck_file(decks, t) is not None for t in topics):
            return {}, [diag.warning("W502", path.as_posix(), 0, (
                "missing, but decks were published: their versions are worked out again "
                "from the notes' times and the newest changelog entry is written again; "
                "restore it from version control to keep what each version changed"))]
        return {}, []  # a first build
    try:
        if unreadable is not None:
            raise unreadable
        manifest = read_manifest(text)
        recorded: dict[str, tuple[DeckVersion | None, str]] = {
            d.deck: (d.record, d.sha256) for d in manifest.decks}
        problems = []
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        recorded = {}
        problems = [diag.warning("W502", path.as_posix(), 0, (
            f"cannot read the decks' version records ({exc}); versions are worked out "
            "again from the notes' times, and the newest changelog entry is written again"))]
    versions = {}
    for topic in topics:
        record, sha = recorded.get(topic.deck_name, (None, ""))
        file = _deck_file(decks, topic)
        if record is None or file is None or file.sha256 == sha:
            if record is not None:
                versions[topic.deck_name] = record
            continue
        # The record was written for another file of this deck (one branch's manifest,
        # the other's deck, after a merge): add what the deck's own times show.
        try:
            found = IndexedDeck.of(topic.deck_name, topic.name, decks.folder / file.name,
                                   file.bytes(), None).version
        except Exception:  # noqa: BLE001 - unreadable: the build reports it when indexing
            continue
        versions[topic.deck_name] = reconcile(record, found)
    return versions, problems


def _deck_file(decks: Published, topic: Topic) -> PublishedFile | None:
    """The topic's published deck, if there is one in its place (a file, not a folder)."""
    file = decks.files.get(f"{topic.slug}.apkg")
    return file if file is not None and file.regular else None


def published_decks(decks: Published, topics: Sequence[Topic], lock: Lock,
                    cache: FactsStore | None = None
                    ) -> tuple[dict[str, IndexedDeck], dict[str, Diagnostic]]:
    """What each of ``topics`` published last time (what learners have), by topic name:
    its notes' GUIDs, times and whether each is retired, and the deck's bytes, not its
    texts (at 100,000 questions the texts held here pushed a build past 1 GB). An absent
    deck is left out. A deck that cannot be read, or that holds none of the questions
    the lock gives its topic (another topic's deck copied over it), is an error for its
    topic, by name: built from it, the topic would lose its withdrawn questions and its
    version record."""
    ours: dict[str, set[str]] = {}
    for entry in lock.entries:
        ours.setdefault(entry.topic, set()).add(entry.guid)
    found, problems = {}, {}
    for topic in topics:
        file = _deck_file(decks, topic)
        if file is None:
            continue
        path = decks.folder / file.name
        advice = (f"restore it from version control (git checkout -- {path.as_posix()}), or "
                  "delete it to publish the topic anew (learners then get no notice on "
                  "questions withdrawn before)")
        try:
            deck = IndexedDeck.of(topic.deck_name, topic.name, path, file.bytes(), None, cache)
        except Exception as exc:  # noqa: BLE001 - any damage
            problems[topic.name] = diag.error("E502", path.as_posix(), 0, (
                f"this published deck cannot be read ({type(exc).__name__}); {advice}"))
            continue
        guids = {guid for guid, _, _ in deck.notes}
        if guids and ours.get(topic.name) and not guids & ours[topic.name]:
            problems[topic.name] = diag.error("E502", path.as_posix(), 0, (
                f"this published deck holds none of the questions the lock gives topic "
                f"{topic.name!r} (another topic's deck copied over it?); {advice}"))
            continue
        found[topic.name] = deck
    return found, problems


def retired_notes(published: Mapping[str, IndexedDeck], assignment: Assignment
                  ) -> dict[str, tuple[PackagedNote, ...]]:
    """Each topic's retired notes (versions.py): every question the lock records as
    removed from it, as its published deck shows it, with the notice and the tag, and no
    card. A question the deck does not hold (removed before decks kept retired notes) has
    no text left to show: it has none. Only the decks of topics with a removed question
    are read in full."""
    removed: dict[str, list[LockEntry]] = {}
    for entry in assignment.lock.entries:
        if entry.removed is not None and entry.topic in published:
            removed.setdefault(entry.topic, []).append(entry)
    retired: dict[str, tuple[PackagedNote, ...]] = {}
    for topic, entries in removed.items():
        try:
            deck = read_deck(published[topic].data)
        except Exception:  # noqa: BLE001 - damaged since it was read: as if never published
            continue
        notes_of = {n.guid: n for n in deck.notes}
        notes = []
        for entry in sorted(entries, key=lambda e: e.guid):
            note = notes_of.get(entry.guid)
            if note is None or entry.removed is None:
                continue
            notes.append(PackagedNote(
                guid=entry.guid, mod=retired_mod(entry.mod, entry.removed),
                fields=(with_notice(note.fields[0], entry.removed), *note.fields[1:]),
                tags=(*content_tags(note.tags), RETIRED_TAG), without_card=True))
        retired[topic] = tuple(notes)
    return retired


_MEDIA_NAME_RE = re.compile(r'<img\b[^<>]*?\bsrc="(nca-[0-9a-f]{16}\.[a-z]+)"')


def _published_fields(deck: IndexedDeck, changed: list[IdentifiedNote]
                      ) -> dict[str, list[str]]:
    """GUID -> fields of each of ``changed`` as the published deck holds it: one query of
    the deck for both questions asked of a changed note below."""
    if not changed:
        return {}
    wanted = {n.guid for n in changed}
    return {guid: fields.split("\x1f") for guid, fields in query(
        deck.collection(), "SELECT guid, flds FROM notes") if guid in wanted}


def _new_images(deck: IndexedDeck, before: Mapping[str, list[str]],
                changed: list[IdentifiedNote]) -> frozenset[str]:
    """The GUIDs of ``changed`` whose fields name other images than the published deck's
    note (``before``: its fields): an image was edited, added or removed (the changelog
    says so)."""
    if not deck.media and not any(n.note.media for n in changed):
        return frozenset()  # nearly every deck: no image before or after
    images = {guid: frozenset(_MEDIA_NAME_RE.findall("\x1f".join(fields)))
              for guid, fields in before.items()}
    return frozenset(n.guid for n in changed
                     if images.get(n.guid, frozenset()) != {m.name for m in n.note.media})


def _link_only(before: Mapping[str, list[str]], changed: list[IdentifiedNote]
               ) -> frozenset[str]:
    """The GUIDs of ``changed`` whose fields are the published note's (``before``) but for
    the report link (cards/report_link.py): the link was added, removed, or goes
    elsewhere."""
    return frozenset(n.guid for n in changed if n.guid in before
                     and _unlinked(before[n.guid]) == _unlinked(n.note.fields))


def _unlinked(fields: Sequence[str]) -> tuple[str, ...]:
    return (*fields[:-1], without_link(fields[-1])) if fields else ()


def deck_versions(topics: list[Topic], assignment: Assignment,
                  published: Mapping[str, IndexedDeck],
                  retired: Mapping[str, tuple[PackagedNote, ...]],
                  previous: Mapping[str, DeckVersion], now: int) -> dict[str, DeckVersion]:
    """The version record of each deck built (by deck name) after this build. A topic
    never published counts its identities' news (new, changed, removed)."""
    notes: dict[str, list[IdentifiedNote]] = {}
    for note in assignment.notes:
        notes.setdefault(note.topic, []).append(note)
    versions = {}
    for topic in topics:
        mine = notes.get(topic.name, [])
        gone = retired.get(topic.name, ())
        deck = published.get(topic.name)
        if deck is None:
            events = Events(
                added=frozenset(n.guid for n in mine if n.status is NoteStatus.NEW),
                changed=frozenset(n.guid for n in mine if n.status is NoteStatus.CHANGED),
                removed=frozenset(e.guid for e in assignment.removed if e.topic == topic.name),
                layout=False,
            )
        else:
            had = {guid: (mod, retired) for guid, mod, retired in deck.notes}
            changed = frozenset(n.guid for n in mine
                                if n.guid in had and had[n.guid][0] != n.mod)
            before = _published_fields(deck, [n for n in mine if n.guid in changed])
            linked = _link_only(before, [n for n in mine if n.guid in changed])
            events = Events(
                added=frozenset(n.guid for n in mine if n.guid not in had),
                changed=changed - linked,
                removed=frozenset(n.guid for n in gone if n.guid in had and not had[n.guid][1]),
                layout=deck.note_type_mod != assignment.note_type_mod,
                images=_new_images(deck, before, [n for n in mine if n.guid in changed - linked]),
                report=linked,
            )
        state = DeckState({n.guid: n.mod for n in mine}, {n.guid: n.mod for n in gone},
                          assignment.note_type_mod)
        versions[topic.deck_name] = advance(previous.get(topic.deck_name), events, state, now)
    return versions
