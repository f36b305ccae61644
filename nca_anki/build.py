"""Run the pipeline: read and check everything, decide once, then write what is sound.

``build(options)`` reads every source file, the settings, the templates, the lock and
what was published (each deck once) before writing anything, and renders every topic
that changed. One plan then decides each topic's fate (planning.py): a topic with an
error is not built and its ``.apkg`` is left byte for byte as it was; every other topic
is built. The sink the command line hands it stages the lock, the decks and the index
for one commit, or, with --check, --verify and --preview, only compares them
(publishing/sink.py); no stage asks which mode it is in, only the sink. The cache is one
object with a small interface (caching/build_cache.py). Read ``_build`` top to bottom:
it is the pipeline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import nca_anki.diagnostics as diag
from nca_anki.caching.build_cache import BuildCache
from nca_anki.cards.render import Renderer
from nca_anki.diagnostics import Diagnostic
from nca_anki.files import LOCK_NAME
from nca_anki.identity.identify import deck_files, identify
from nca_anki.identity.lockfile import dump_lock
from nca_anki.inputs import Inputs, check_folders, read_inputs, read_questions, shown_path
from nca_anki.parallel import worker_count
from nca_anki.planning import (Decision, decide, nothing_built, results, settle,
                               start_duplicate_check)
from nca_anki.publishing.changes import deck_versions, previous_versions, retired_notes
from nca_anki.publishing.decks import Decks, Written, stale_bundles, stale_decks, write_decks
from nca_anki.publishing.index import bundle_name, write_index
from nca_anki.publishing.sink import PreviewSink, Sink
from nca_anki.publishing.transaction import hold
from nca_anki.reading.media import MediaFolder
from nca_anki.reading.published import Published, published_from, read_published
from nca_anki.reading.topics import repeats_across_parts, slugify
from nca_anki.publishing.versions import DeckVersion
from nca_anki.records import (Assignment, Disposition, Plan, RenderedNote)
from nca_anki.rendering import render_notes
from nca_anki.report import SILENT, BuildOptions, BuildReport, FileStatus, Progress


def build(options: BuildOptions, progress: Progress = SILENT, *,
          sink: Sink | None = None) -> BuildReport:
    """Read and check everything, then write what is sound (see the module docstring).
    A function of its arguments: the clock, the cores to use and the cache folder are in
    ``options`` (the CLI resolves them); ``progress`` hears of each stage's work as it is
    done (the CLI's progress bar), and that it waits for another build; ``sink`` is where
    the outputs go (publishing/sink.py; None: a build that publishes).

    One build at a time reads and publishes a set of folders (transaction.hold); what an
    interrupted build left is finished or undone before anything is read
    (transaction.recover)."""
    problems = check_folders(options)
    if problems:
        return BuildReport(topics=(), diagnostics=diag.sort_diagnostics(problems))
    folders = _folders(options)
    sink = Sink() if sink is None else sink
    with hold(folders.values(), shared=sink.shares_hold, on_wait=progress.note):
        recovered = sink.recover(folders)
        if diag.has_errors(recovered):
            return BuildReport(topics=(), diagnostics=diag.sort_diagnostics(recovered))
        try:
            report = _build(options, progress, folders, sink)
        except BaseException:  # a bug, or Ctrl-C: published whole, or not at all
            sink.settle(folders)
            raise
    if recovered:
        report = replace(report, diagnostics=diag.sort_diagnostics(
            [*report.diagnostics, *recovered]))
    return report


def _folders(options: BuildOptions) -> dict[str, Path]:
    """The folders a build publishes into, by the keys transaction.py knows them by."""
    return {"source": options.source, "out": options.out}


def _build(options: BuildOptions, progress: Progress, folders: dict[str, Path],
           sink: Sink) -> BuildReport:
    options, cache = BuildCache.open(options, sink)
    renderer = Renderer(options.templates, options.templates.as_posix(),
                        MediaFolder(options.source).resolve)
    # What learners have: every deck in the output folder, read once, before anything is
    # written. Every stage that needs it is handed this record (reading/published.py).
    decks = read_published(options.out)
    # What changes are measured against: what learners have, the published decks; or,
    # when git says the inputs are as committed and the outputs are not, the commit's
    # (an edit built and then undone is no change: issue 35). Nothing is reused then.
    reference = decks if options.committed is None else \
        published_from(options.out, options.committed.files)
    questions = read_questions(options, renderer)
    # Started before the lock is read, on a second core where that pays; joined by settle().
    with start_duplicate_check(questions, fork=worker_count(
            options.jobs, options.cores, sum(t.count for t in questions.topics)) > 1) as check:
        inputs = read_inputs(options, questions, options.now, reference)
        reusable = cache.reusable(inputs, decks) if reference is decks else set()
        workers = worker_count(options.jobs, options.cores,
                               sum(t.count for t in inputs.topics if t.name not in reusable))
        problems = [*inputs.problems, *cache.problems]
        rendered, render_problems = render_notes(
            renderer, inputs, reusable, workers, progress, cache.rendered()) \
            if inputs.note_type is not None else ({}, [])
        problems = [*problems, *render_problems,
                    *(d for t in inputs.topics if t.name not in reusable
                      for d in repeats_across_parts(t.files))]
        decision = decide(options, inputs, rendered, problems, reusable, reference,
                          cache.deck_facts, check, sink=sink)
        if decision.halted:
            return _said(nothing_built(decision.plan, decision.problems, options.out), decision)
        if isinstance(sink, PreviewSink):
            assert inputs.note_type is not None
            decision = settle(decision, inputs, options, check)
            from nca_anki.publishing.preview import write_preview  # only a preview loads it

            return _said(write_preview(sink.folder, inputs.note_type, decision.plan,
                                       rendered, decision.problems, inputs.config.language,
                                       inputs.sources), decision)
        sink = sink.over({options.out / name: file.sha256 for name, file in decks.files.items()})
        outcome = _write(options, cache, inputs, reference, decision, rendered, sink, folders,
                         workers, progress)
        decision = settle(decision, inputs, options, check)
        report = _said(_report(options, decision, outcome, sink), decision)
        if not sink.publishes or diag.has_errors([*outcome.write_problems,
                                                  *outcome.index_problems]):
            return report  # nothing was published: the cache stays as it was
        # Warnings about this build's events do not recur in a rebuild: nothing to replay.
        events = [*cache.problems, *inputs.events, *outcome.events]
        unsaved = cache.remember(inputs, outcome.assignment.lock, {
            name: result.sha256 for name, result in outcome.written.items()
            if result.status in (FileStatus.WRITTEN, FileStatus.UNCHANGED) and result.sha256},
            outcome.lock_text, None if events or not report.ok else report)
        return replace(report, diagnostics=diag.sort_diagnostics(
            [*report.diagnostics, *unsaved]))


@dataclass(frozen=True, kw_only=True)
class _Outcome:
    """What writing (or, with --check, comparing) did."""

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


def _write(options: BuildOptions, cache: BuildCache, inputs: Inputs, decks: Published,
           decision: Decision, rendered: dict[str, list[RenderedNote]], sink: Sink,
           folders: dict[str, Path], workers: int, progress: Progress) -> _Outcome:
    """Identify the notes, work out the versions, put the lock, the decks and the index
    through ``sink``, and commit (or, with a comparing sink, only compare)."""
    assert inputs.note_type is not None and inputs.lock is not None
    plan = decision.plan
    good = plan.topics_to(Disposition.BUILD)
    assignment, identity_problems = identify(
        [(t.name, n) for t in good for n in rendered[t.name]], inputs.note_type, inputs.lock,
        plan.kept, options.now, sources=inputs.sources, decks=decks,
        deck_files=deck_files(inputs.topics, inputs.lock, inputs.config),
        lock_shown=shown_path(options.source, LOCK_NAME),
        published_guids={name: frozenset(guid for guid, _, _ in deck.notes)
                         for name, deck in decision.published.items()})
    previous, version_problems = previous_versions(decks, inputs.topics)
    retired = retired_notes(decision.published, assignment)
    versions = {**previous, **deck_versions(list(good), assignment, decision.published, retired,
                                            previous, options.now)}
    lock_text = dump_lock(assignment.lock)
    cache.sweep()
    write_problems = sink.put_lock(options.source / LOCK_NAME, lock_text)
    written = {} if write_problems else write_decks(
        Decks(topics=good, assignment=assignment, note_type=inputs.note_type,
              versions=versions, retired=retired, files=inputs.sources),
        options.out, sink, workers, progress)
    write_problems += [d for result in written.values() for d in result.problems]
    for topic in good:  # the index need not read back the decks just written
        if (result := written.get(topic.name)) is not None:
            cache.built(f"{topic.slug}.apkg", result.sha256, result.facts)
    statuses = {name: result.status for name, result in written.items()}
    statuses.update(dict.fromkeys(plan.names(Disposition.REUSE), FileStatus.UNCHANGED))
    index_statuses: dict[str, FileStatus] = {}
    index_problems: list[Diagnostic] = []
    if not diag.has_errors(write_problems) and FileStatus.WOULD_WRITE not in statuses.values():
        index_statuses, index_problems = _index(options, cache, inputs, decks, plan, versions,
                                                sink)
    committed = sink.finish(folders, [*write_problems, *index_problems])
    if diag.has_errors(committed):  # everything staged or nothing published
        statuses = {name: FileStatus.FAILED if s is FileStatus.WRITTEN else s
                    for name, s in statuses.items()}
        index_statuses = {}
    return _Outcome(assignment=assignment, lock_text=lock_text, layout_changed=bool(
        inputs.lock.note_type_hash) and assignment.note_type_mod != inputs.lock.note_type_mod,
        written=written, statuses=statuses, index_statuses=index_statuses,
        stale=[*stale_decks(decks, plan.topics), *stale_bundles(
            decks, bundle_name(slugify(inputs.config.parent_deck)))],
        identity_problems=identity_problems, version_problems=version_problems,
        write_problems=[*write_problems, *committed], index_problems=index_problems)


def _index(options: BuildOptions, cache: BuildCache, inputs: Inputs, decks: Published,
           plan: Plan, versions: Mapping[str, DeckVersion], sink: Sink
           ) -> tuple[dict[str, FileStatus], list[Diagnostic]]:
    """The bundle, manifest, README and changelog, through ``sink``; the caches the index
    read the decks and deflated the bundle through are saved."""
    parent = inputs.config.parent_deck
    statuses, problems = write_index(
        decks, [(t.deck_name, t.name, options.out / f"{t.slug}.apkg") for t in plan.topics],
        versions, parent, slugify(parent), sink, cache.deck_facts, cache.pieces,
        threads=options.cores, scratch=options.scratch)
    return statuses, [*problems, *cache.save_index_caches()]


def _said(report: BuildReport, decision: Decision) -> BuildReport:
    return replace(report, acknowledged=decision.acknowledged,
                   strict_failed=decision.strict_failed)


def _report(options: BuildOptions, decision: Decision, outcome: _Outcome, sink: Sink
            ) -> BuildReport:
    plan, out, assignment = decision.plan, options.out, outcome.assignment
    deck_names = {t.name: t.deck_name for t in plan.topics}
    lock_changes = sink.lock_changes(options.source / LOCK_NAME, outcome.lock_text)
    stale_index = [shown_path(out, n) for n, s in outcome.index_statuses.items()
                   if s is FileStatus.WOULD_WRITE]
    return BuildReport(
        topics=results(plan, assignment, outcome.statuses, out),
        diagnostics=diag.sort_diagnostics([*decision.problems, *outcome.stale,
                                           *outcome.events]),
        removed=assignment.removed,
        templates_changed=outcome.layout_changed,
        stale_lock_decks=tuple(deck_names.get(t, t) for t in lock_changes),
        stale_files=tuple(sorted([*stale_index, *(d.path for d in outcome.stale)])),
        index=tuple((shown_path(out, n), s) for n, s in outcome.index_statuses.items()
                    if s is not FileStatus.UNCHANGED),
        newest=sink.newest(assignment))
