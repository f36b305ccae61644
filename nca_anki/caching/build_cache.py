"""The build cache as one build uses it, behind one object (``BuildCache``): which topics
can be reused as they were published, the caches the index reads decks and deflates the
bundle through, and what to remember when the build has published.

The state file and the entry folders themselves are state.py's and entries.py's; what
each level saves is in docs/speed.md. A folder that cannot serve as a cache is said once
(W601), and the build goes on as one without a cache: that only costs time.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import nca_anki.diagnostics as diag
from nca_anki.caching.entries import (DeckFactsCache, DeflateCache, ParseCache, RenderCache,
                                      RenderMemo)
from nca_anki.caching.replay import recorded
from nca_anki.caching.state import (Cache, code_digest, dump_cache, folder_digest, load_cache,
                                    remove_old_caches, state_path, sweep_cache, tag_folder,
                                    topic_key)
from nca_anki.diagnostics import Diagnostic
from nca_anki.files import (CACHE_FOLDERS, CACHE_TAG_NAME, DECKS_NAME, PARSED_NAME,
                            PIECES_NAME, RENDERED_NAME)
from nca_anki.identity.assign import by_topic
from nca_anki.publishing.output import WriteError, write_cache
from nca_anki.publishing.sink import Sink
from nca_anki.reading.config import Config
from nca_anki.reading.published import DeckFacts, Published
from nca_anki.records import Lock, LockEntry, NoteType, Topic
from nca_anki.report import BuildOptions, BuildReport, FileStatus


if TYPE_CHECKING:  # publishing's entry loads genanki: only its record's name is used here
    from nca_anki.publishing.publish import Outcome


class Sources(Protocol):
    """What the cache needs of a build's inputs (inputs.py's Inputs is one)."""

    @property
    def topics(self) -> tuple[Topic, ...]: ...
    @property
    def config(self) -> Config: ...
    @property
    def sources(self) -> Mapping[str, str]: ...
    @property
    def digests(self) -> Mapping[str, str]: ...
    @property
    def images(self) -> Mapping[str, str]: ...
    @property
    def note_type(self) -> NoteType | None: ...
    @property
    def lock(self) -> Lock | None: ...
    @property
    def global_failure(self) -> bool: ...
    @property
    def events(self) -> tuple[Diagnostic, ...]: ...


class BuildCache:
    """One build's cache: ``open`` it with the build's options, ask ``reusable``, hand the
    index ``deck_facts`` and ``pieces``, tell it of ``built`` decks, then ``remember``."""

    def __init__(self, options: BuildOptions, sink: Sink, problems: list[Diagnostic]) -> None:
        self.options = options  # its cache is None when there is none to use
        self.sink = sink
        self.problems = problems  # what loading it found, said once
        path = None if options.cache is None else state_path(
            options.cache, options.source, options.templates, options.out)
        self.state_file = path
        self.state, loaded = load_cache(path)
        self.problems += loaded
        # What the index read from each deck, by its SHA-256, and the bundle's deflated
        # pieces; a comparing sink (--check, --verify) reads every deck in full (what CI
        # trusts) and writes no cache.
        folder = options.cache
        # Each question file as last parsed, by its bytes: read by every build (a
        # comparing one too), saved by one that publishes.
        self.parsed = ParseCache(None if folder is None else folder / PARSED_NAME)
        self.deck_facts = None if not sink.keeps_caches else DeckFactsCache(
            None if folder is None else folder / DECKS_NAME)
        self.pieces = None if not sink.keeps_caches else DeflateCache(
            None if folder is None else folder / PIECES_NAME)
        # Each topic's notes as last rendered: not for a comparing sink either (it renders
        # every note), nor without a cache folder or this user's key to sign them.
        self.renders = None if not sink.keeps_caches or folder is None \
            or not options.render_key \
            else RenderCache(folder / RENDERED_NAME, options.render_key)
        if self.renders is not None:
            self.problems += self.renders.problems  # a file where its folder belongs
        self._keys: _Keys | None = None

    @staticmethod
    def open(options: BuildOptions, sink: Sink) -> tuple[BuildOptions, BuildCache]:
        """The build's options (without a cache folder that cannot serve) and its cache,
        as ``sink`` uses caches."""
        unusable = _unusable_cache(options.cache)
        if unusable is not None:  # said once; the build goes on as one without a cache
            options = replace(options, cache=None)
        return options, BuildCache(options, sink, [unusable] if unusable is not None else [])

    def reusable(self, inputs: Sources, decks: Published) -> set[str]:
        """Topics whose key and published deck are exactly as the cache recorded them
        (none for a preview, which shows every card)."""
        self._keys = _Keys(self.options, inputs)
        cache = self.state
        if self.sink.shows_every_card or inputs.global_failure \
                or inputs.note_type is None or inputs.lock is None or not cache.topics:
            return set()
        lock = inputs.lock
        return {t.name for t in inputs.topics
                if (entry := cache.topics.get(t.name)) is not None
                and entry[0] == self._keys.of(t, lock)
                and decks.sha256(f"{t.slug}.apkg") == entry[1]}

    def rendered(self) -> RenderMemo | None:
        """The render cache and the digest of the templates its entries are kept under
        (after ``reusable``); None: render every note."""
        if self.renders is None or self._keys is None or not self.renders.usable:
            return None
        return RenderMemo(cache=self.renders, templates=self._keys.templates)

    def built(self, deck_file: str, sha256: str | None, facts: DeckFacts | None) -> None:
        """A deck this build packaged: the index need not read it back for its facts."""
        if self.deck_facts is not None and sha256 and facts is not None:
            self.deck_facts.put(deck_file, sha256, facts)

    def sweep(self) -> None:
        """Before publishing: the caches older versions kept among the decks, and entries
        no build needs any more (nothing for a sink that publishes nothing)."""
        if not self.sink.publishes:
            return
        remove_old_caches(self.options.out)
        if self.options.cache is not None:
            sweep_cache(self.options.cache)

    def save_index_caches(self) -> list[Diagnostic]:
        """Save what the index read of the decks and the bundle's pieces."""
        problems: list[Diagnostic] = []
        for kept, what in ((self.deck_facts, "deck cache"), (self.pieces, "bundle cache")):
            if kept is None:
                continue
            problems += kept.problems
            try:
                kept.save(write_cache)
            except WriteError as exc:
                problems.append(diag.warning("W601", exc.path.as_posix(), 0,
                                             f"{what} not saved: {exc.reason}"))
        return problems

    def after(self, report: BuildReport, inputs: Sources, outcome: Outcome,
              rendering: Sequence[Diagnostic]) -> BuildReport:
        """``report``, once the build's outcome is known: if it published without an error
        in writing, every topic built or found unchanged is remembered, and the report too
        when a rebuild would give it again (not after an event of this build, such as the
        render cache entries that could not be read: ``rendering``); what could not be
        saved is added to it."""
        if not self.sink.publishes or diag.has_errors([*outcome.write_problems,
                                                       *outcome.index_problems]):
            return report  # nothing was published: the cache stays as it was
        # Warnings about this build's events do not recur in a rebuild: nothing to replay.
        events = [*self.problems, *rendering, *inputs.events, *outcome.events]
        unsaved = self.remember(inputs, outcome.assignment.lock, {
            name: result.sha256 for name, result in outcome.written.items()
            if result.status in (FileStatus.WRITTEN, FileStatus.UNCHANGED) and result.sha256},
            outcome.lock_text, None if events or not report.ok else report)
        return replace(report, diagnostics=diag.sort_diagnostics(
            [*report.diagnostics, *unsaved]))

    def remember(self, inputs: Sources, lock: Lock, decks: Mapping[str, str],
                 lock_text: str, report: BuildReport | None) -> list[Diagnostic]:
        """Record the key of every topic whose deck is ``decks`` (topic -> SHA-256 of the
        deck built or found unchanged) into the cache, and ``report`` as what a rebuild
        of the state just left gives (replay.py). A cache that cannot be written only
        costs time next build."""
        state, cache, keys = self.state_file, self.state, self._keys
        if state is None or keys is None:  # no cache: nothing to work out for it
            return []
        topics = dict(cache.topics)  # reused and failed topics: their decks are as recorded
        by_name = {t.name: t for t in inputs.topics}
        for name, sha in decks.items():
            topics[name] = (keys.of(by_name[name], lock), sha)
        # An older record stays: it can only match if that exact state comes back, and
        # then it is right again (the fingerprint covers every input and every deck).
        new = Cache(topics, cache.replay)
        if report is not None:
            files = {f"{by_name[name].slug}.apkg": sha for name, (_, sha) in topics.items()
                     if name in by_name}
            sources = {inputs.sources[shown]: sha for shown, sha in inputs.digests.items()}
            new = recorded(self.options, new, report, sources=sources, decks=files,
                           lock=hashlib.sha256(lock_text.encode()).hexdigest(),
                           templates=keys.templates)
        try:
            tag_folder(state.parent, write_cache)
            if new != cache:
                write_cache(state, dump_cache(new).encode())
            self.parsed.save(write_cache)
            if self.renders is not None:  # the entries of topics gone are deleted
                for topic in inputs.topics:
                    self.renders.keep(topic.name)
                self.renders.save(write_cache)
        except WriteError as exc:
            return [diag.warning("W601", exc.path.as_posix(), 0,
                                 f"build cache not saved: {exc.reason}")]
        return []


class _Keys:
    """Cache keys of this build's topics (see caching/state.py), from its inputs and a lock."""

    def __init__(self, options: BuildOptions, inputs: Sources) -> None:
        self.inputs = inputs
        self.templates = folder_digest(options.templates) if options.templates.is_dir() else ""
        self.code = code_digest()
        self._lock: Lock | None = None
        self._entries: dict[str, list[LockEntry]] = {}

    def of(self, topic: Topic, lock: Lock) -> str:
        inputs = self.inputs
        if lock is not self._lock:  # group once per lock, not once per topic
            self._lock, self._entries = lock, by_topic(lock.entries)
        fingerprint = inputs.note_type.fingerprint if inputs.note_type else ""
        return topic_key(
            files=[f"{p}:{inputs.digests.get(p, '')}:{inputs.images.get(p, '')}"
                   for p in topic.paths],
            deck=f"{topic.deck_name}\x1f{topic.slug}",
            settings=f"{inputs.config.shuffles(topic.name)}"
                     f" {inputs.config.shows_answer_on_pick(topic.name)}"
                     f" {inputs.config.language} {inputs.config.report_url}",
            templates=self.templates,
            note_type=f"{fingerprint}:{lock.note_type_mod}",
            entries=self._entries.get(topic.name, ()), code=self.code)


def _unusable_cache(cache: Path | None) -> Diagnostic | None:
    """Why the cache folder cannot be kept, as one warning; None if it can, or if there is
    none. Beside a folder that cannot be made or written: a folder that already holds
    files but is not tagged as our cache (a build deletes the entries it no longer needs,
    so it must never work in someone else's folder), and an entry folder that is a link
    (it leads out of the folder we own)."""
    if cache is None:
        return None
    existing = next((p for p in (cache, *cache.parents) if p.exists()), Path("."))
    advice = "built without one, which only takes longer: pass --cache-dir DIR"
    if not existing.is_dir():
        why = f"{existing.as_posix()} is a file"
    elif not os.access(existing, os.W_OK | os.X_OK):
        why = f"{existing.as_posix()} is not writable"
    elif existing == cache and not (cache / CACHE_TAG_NAME).is_file() \
            and any(True for _ in cache.iterdir()):
        why = (f"{cache.as_posix()} holds files but is not an nca-anki cache (no "
               f"{CACHE_TAG_NAME}); nothing in it was read or deleted")
        advice = "name a new or empty folder with --cache-dir DIR"
    elif links := [name for name, _ in CACHE_FOLDERS if (cache / name).is_symlink()]:
        why = f"{(cache / links[0]).as_posix()} is a link, and links are not followed"
        advice = "delete the link, or pass --cache-dir DIR"
    else:
        return None
    return diag.warning("W601", cache.as_posix(), 0, f"cannot keep the build cache here ({why}); "
                        f"{advice}")
