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

from dataclasses import replace
from pathlib import Path

import nca_anki.diagnostics as diag
from nca_anki import inputs, planning
from nca_anki.caching.build_cache import BuildCache
from nca_anki.publishing.publish import Publication, publish
from nca_anki.publishing.sink import PreviewSink, Sink
from nca_anki.rendering import render
from nca_anki.report import SILENT, BuildOptions, BuildReport, Progress


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
    problems = inputs.check_folders(options)
    if problems:
        return BuildReport(topics=(), diagnostics=diag.sort_diagnostics(problems))
    folders = _folders(options)
    sink = Sink() if sink is None else sink
    with sink.hold(folders, progress.note):
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
    read = inputs.read(options, cache.parsed)
    # Started before the lock is read, on a second core where that pays; joined by settle().
    with planning.start_duplicate_check(read.questions, options) as check:
        sources = inputs.read_inputs(options, read.questions, options.now, read.reference)
        reusable = cache.reusable(sources, read.decks) if read.reference is read.decks else set()
        rendered = render(read.renderer, sources, reusable, options, progress, cache.rendered())
        decision = planning.decide(
            options, sources, rendered.notes, [*sources.problems, *cache.problems,
                                               *rendered.problems],
            reusable, read.reference, cache.deck_facts, check, sink=sink)
        if decision.halted:
            return planning.nothing_built(decision, options.out)
        if isinstance(sink, PreviewSink):
            decision = planning.settle(decision, sources, options, check)
            from nca_anki.publishing.preview import write_preview  # only a preview loads it

            assert sources.note_type is not None
            return planning.said(write_preview(
                sink.folder, sources.note_type, decision.plan, rendered.notes,
                decision.problems, sources.config.language, sources.sources), decision)
        sink = sink.over({options.out / name: file.sha256
                          for name, file in read.decks.files.items()})
        assert sources.note_type is not None and sources.lock is not None
        outcome = publish(Publication(
            plan=decision.plan, published=decision.published, rendered=rendered.notes,
            decks=read.reference, topics=sources.topics, sources=sources.sources,
            config=sources.config, note_type=sources.note_type, lock=sources.lock,
            source=options.source, out=options.out, now=options.now,
            workers=rendered.workers, cores=options.cores, scratch=options.scratch,
            folders=folders), sink, cache, progress)
        decision = planning.settle(decision, sources, options, check)
        return cache.after(planning.report(options, decision, outcome, sink), sources, outcome,
                           rendered.events)
