"""Each topic's deck, packaged and put through the sink: the notes this build identified,
its retired notes, its description and version, and the images its notes show. Topics
are packaged one at a time per process, on forked workers where there is enough work, so
no more than one package per process is ever held in memory; a deck that cannot be
written fails alone. Also here: the decks in the output folder that no topic builds any
more, which learners could still download.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import nca_anki.diagnostics as diag
from nca_anki.cards.report_link import fill_fields
from nca_anki.diagnostics import Diagnostic
from nca_anki.parallel import run_tasks
from nca_anki.publishing.index import deck_facts
from nca_anki.publishing.output import WriteError, inside
from nca_anki.publishing.package import MediaChanged, build_package
from nca_anki.publishing.sink import Sink
from nca_anki.publishing.versions import (UPDATED_TAG, DeckVersion, day, description,
                                          updated_tag)
from nca_anki.reading.published import DeckFacts, Published
from nca_anki.records import (Assignment, DeckSpec, IdentifiedNote, NoteType, PackagedNote,
                              Topic)
from nca_anki.report import FileStatus, Progress


@dataclass(frozen=True, kw_only=True)
class Written:
    """What became of one topic's deck."""

    status: FileStatus
    sha256: str | None  # of the deck as built (None if it could not be built or written)
    problems: tuple[Diagnostic, ...] = ()
    facts: DeckFacts | None = None  # what the index reads from it (not with --check)


@dataclass(frozen=True, kw_only=True)
class Decks:
    """What this build packages: the topics it builds, their notes' identities, the note
    type, each deck's version and each topic's retired notes."""

    topics: tuple[Topic, ...]
    assignment: Assignment
    note_type: NoteType
    versions: Mapping[str, DeckVersion]
    retired: Mapping[str, tuple[PackagedNote, ...]]
    # Each question file's path in the source folder, by its shown path (the report
    # link's {file}: the same whichever folder the build is run from).
    files: Mapping[str, str] = field(default_factory=dict)


def write_decks(decks: Decks, out: Path, sink: Sink, workers: int, progress: Progress
                 ) -> dict[str, Written]:
    """Package each topic and put it through ``sink`` into ``out``, one topic at a time
    on ``workers`` processes: no more than one package per process is ever held in
    memory. A deck that cannot be written fails alone."""
    topics, assignment, retired = decks.topics, decks.assignment, decks.retired
    notes_of: dict[str, list[IdentifiedNote]] = {t.name: [] for t in topics}
    for note in assignment.notes:
        if note.topic in notes_of:
            notes_of[note.topic].append(note)

    def write_topic(index: int) -> Written:
        topic = topics[index]
        path = out / f"{topic.slug}.apkg"
        if not inside(out, path):  # slugify makes this impossible; keep it so
            return Written(status=FileStatus.FAILED, sha256=None, problems=(diag.error("E501",
                topic.paths[0], 1, f"output {path} would be outside {out}; not written"),))
        live = notes_of[topic.name]
        notes = (*(PackagedNote(guid=n.guid, mod=n.mod, fields=_linked(n, decks.files),
                                tags=(*n.note.tags, updated_tag(n.mod)))
                   for n in live), *retired.get(topic.name, ()))
        version = decks.versions[topic.deck_name]
        # What the description's searches find: counted on the notes as packaged.
        tag = UPDATED_TAG + version.version
        removed = set(version.removed)
        text = description(topic.name, [f.part for f in topic.files], len(live), version,
                           tagged=sum(updated_tag(n.mod) == tag for n in live),
                           withdrawn=sum(n.guid in removed
                                         for n in retired.get(topic.name, ())))
        media = tuple({m.name: m for n in live for m in n.note.media}.values())
        try:
            data = build_package(DeckSpec(name=topic.deck_name, description=text, notes=notes,
                                          media=media),
                                 decks.note_type, assignment.note_type_mod)
        except MediaChanged as exc:  # the deck would not hold the image its notes name
            return Written(status=FileStatus.FAILED, sha256=None, problems=(diag.error("E501",
                exc.media.path, 0, f"image {exc.why}; build again"),))
        try:
            status = sink.put(path, data)
        except WriteError as exc:
            return Written(status=FileStatus.FAILED, sha256=None,
                            problems=(diag.error("E501", exc.path.as_posix(), 0, exc.reason),))
        # What the index reads from the deck, worked out here in parallel; --check and
        # --verify read every deck back instead (what CI trusts).
        return Written(status=status, sha256=hashlib.sha256(data).hexdigest(),
                        facts=deck_facts(data) if sink.publishes else None)

    written = {}
    progress.start("writing decks", sum(len(notes_of[t.name]) for t in topics))
    for topic, result in zip(topics, run_tasks(write_topic, len(topics), workers)):
        written[topic.name] = result
        progress.advance(len(notes_of[topic.name]))
    return written





def _linked(note: IdentifiedNote, files: Mapping[str, str]) -> tuple[str, ...]:
    """The note's fields, its report link (if any) completed (cards/report_link.py)."""
    question = note.note.question
    return fill_fields(note.note.fields, guid=note.guid, version=day(note.mod),
                       file=files.get(question.path, question.path), line=question.line)


def stale_bundles(decks: Published, expected: str) -> list[Diagnostic]:
    """All-topics bundles under another name (the parent deck was renamed)."""
    stale = [f.name for f in decks.bundles() if f.name != expected]
    return [diag.warning("W503",
                         decks.shown(name), 0, f"not the all-topics bundle any more (that is "
                         f"{expected}); delete it if the parent deck was renamed")
            for name in stale]


def stale_decks(decks: Published, topics: tuple[Topic, ...]) -> list[Diagnostic]:
    """Decks in the output folder that no topic builds any more (a renamed or deleted
    topic): learners could still download them, so say so."""
    expected = {f"{t.slug}.apkg" for t in topics}
    stale = [f.name for f in decks.decks() if f.name not in expected]
    return [diag.warning("W503",
                         decks.shown(name), 0, "no topic builds this deck any more; delete "
                         "it if its topic was renamed or removed") for name in stale]
