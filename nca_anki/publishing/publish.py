"""The publishing stage's one entry: ``publish`` identifies the notes of the topics the
plan builds, works out each deck's version, and puts the lock, the decks and the index
through the sink, which commits them together (or, comparing, writes nothing).

What it is given is one plain record (``Publication``); what it did is another
(``Outcome``), which the hub turns into the report. The caches it reads decks and
deflates the bundle through are handed in behind a small interface (``Caches``), owned
by the build cache (caching/build_cache.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import nca_anki.diagnostics as diag
from nca_anki.diagnostics import Diagnostic
from nca_anki.files import LOCK_NAME
from nca_anki.identity.identify import deck_files, identify
from nca_anki.identity.lockfile import dump_lock
from nca_anki.publishing.changes import deck_versions, previous_versions, retired_notes
from nca_anki.publishing.decks import Decks, Written, stale_bundles, stale_decks, write_decks
from nca_anki.publishing.index import Pieces, bundle_name, write_index
from nca_anki.publishing.manifest import FactsStore, IndexedDeck
from nca_anki.publishing.sink import Sink
from nca_anki.publishing.versions import DeckVersion
from nca_anki.reading.config import Config
from nca_anki.reading.published import DeckFacts, Published
from nca_anki.reading.topics import slugify
from nca_anki.records import (Assignment, Disposition, Lock, NoteType, Plan, RenderedNote,
                              Topic)
from nca_anki.report import FileStatus, Progress


class Caches(Protocol):
    """What publishing needs of the build cache (caching/build_cache.py's BuildCache)."""

    @property
    def deck_facts(self) -> FactsStore | None: ...
    @property
    def pieces(self) -> Pieces | None: ...
    def sweep(self) -> None: ...
    def built(self, deck_file: str, sha256: str | None, facts: DeckFacts | None) -> None: ...
    def save_index_caches(self) -> list[Diagnostic]: ...


@dataclass(frozen=True, kw_only=True)
class Publication:
    """What publishing is given: the plan, what the topics it builds rendered and last
    published, what was read, and where the outputs go."""

    plan: Plan
    published: Mapping[str, IndexedDeck]  # each topic to build's last published deck
    rendered: Mapping[str, list[RenderedNote]]  # each topic's notes, by topic name
    decks: Published  # what changes are measured against (reading/published.py)
    topics: tuple[Topic, ...]  # every topic of the source, built or not
    sources: Mapping[str, str]  # a question file's shown path -> its path in the lock
    config: Config
    note_type: NoteType
    lock: Lock
    source: Path
    out: Path
    now: int
    workers: int  # processes that package decks
    cores: int  # threads that deflate the bundle
    scratch: Path | None
    folders: Mapping[str, Path]  # what the sink commits (transaction.py's keys)


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """What writing (or, comparing, only comparing) did."""

    assignment: Assignment
    lock_text: str
    layout_changed: bool  # the card layout (note type) changed since the last build
    written: Mapping[str, Written]  # each topic built, by name
    statuses: dict[str, FileStatus]  # each deck's, by topic name (reused ones unchanged)
    index_statuses: dict[str, FileStatus]  # each index file's, by name
    stale: list[Diagnostic]  # decks in the output folder that no topic builds
    identity_problems: list[Diagnostic]
    version_problems: list[Diagnostic]
    write_problems: list[Diagnostic]  # the lock's, the decks' and the commit's
    index_problems: list[Diagnostic]

    @property
    def events(self) -> list[Diagnostic]:
        return [*self.identity_problems, *self.write_problems, *self.version_problems,
                *self.index_problems]  # a lost manifest or changelog, once


def publish(work: Publication, sink: Sink, caches: Caches, progress: Progress) -> Outcome:
    """Identify the notes, work out the versions, put the lock, the decks and the index
    through ``sink``, and commit (or, with a comparing sink, only compare)."""
    plan, lock, good = work.plan, work.lock, work.plan.topics_to(Disposition.BUILD)
    assignment, identity_problems = identify(
        [(t.name, n) for t in good for n in work.rendered[t.name]], work.note_type, lock,
        plan.kept, work.now, sources=work.sources, decks=work.decks,
        deck_files=deck_files(work.topics, lock, work.config),
        lock_shown=(work.source / LOCK_NAME).as_posix(),
        published_guids={name: frozenset(guid for guid, _, _ in deck.notes)
                         for name, deck in work.published.items()})
    previous, version_problems = previous_versions(work.decks, work.topics)
    retired = retired_notes(work.published, assignment)
    versions = {**previous, **deck_versions(list(good), assignment, work.published, retired,
                                            previous, work.now)}
    lock_text = dump_lock(assignment.lock)
    caches.sweep()
    write_problems = sink.put_lock(work.source / LOCK_NAME, lock_text)
    written = {} if write_problems else write_decks(
        Decks(topics=good, assignment=assignment, note_type=work.note_type,
              versions=versions, retired=retired, files=work.sources),
        work.out, sink, work.workers, progress)
    write_problems += [d for result in written.values() for d in result.problems]
    for topic in good:  # the index need not read back the decks just written
        if (result := written.get(topic.name)) is not None:
            caches.built(f"{topic.slug}.apkg", result.sha256, result.facts)
    statuses = {name: result.status for name, result in written.items()}
    statuses.update(dict.fromkeys(plan.names(Disposition.REUSE), FileStatus.UNCHANGED))
    index_statuses: dict[str, FileStatus] = {}
    index_problems: list[Diagnostic] = []
    if not diag.has_errors(write_problems) and FileStatus.WOULD_WRITE not in statuses.values():
        index_statuses, index_problems = _index(work, versions, sink, caches)
    committed = sink.finish(work.folders, [*write_problems, *index_problems])
    if diag.has_errors(committed):  # everything staged or nothing published
        statuses = {name: FileStatus.FAILED if s is FileStatus.WRITTEN else s
                    for name, s in statuses.items()}
        index_statuses = {}
    return Outcome(assignment=assignment, lock_text=lock_text, layout_changed=bool(
        lock.note_type_hash) and assignment.note_type_mod != lock.note_type_mod,
        written=written, statuses=statuses, index_statuses=index_statuses,
        stale=[*stale_decks(work.decks, plan.topics), *stale_bundles(
            work.decks, bundle_name(slugify(work.config.parent_deck)))],
        identity_problems=identity_problems, version_problems=version_problems,
        write_problems=[*write_problems, *committed], index_problems=index_problems)


def _index(work: Publication, versions: Mapping[str, DeckVersion], sink: Sink, caches: Caches
           ) -> tuple[dict[str, FileStatus], list[Diagnostic]]:
    """The bundle, manifest, README and changelog, through ``sink``; the caches the index
    read the decks and deflated the bundle through are saved."""
    parent = work.config.parent_deck
    statuses, problems = write_index(
        work.decks, [(t.deck_name, t.name, work.out / f"{t.slug}.apkg")
                     for t in work.plan.topics],
        versions, parent, slugify(parent), sink, caches.deck_facts, caches.pieces,
        threads=work.cores, scratch=work.scratch)
    return statuses, [*problems, *caches.save_index_caches()]
