"""Run the pipeline: read and check everything, then write what is sound.

``build(options)`` validates every source file, the settings, the templates and the lock
before writing anything. A topic with an error is not built and its existing ``.apkg`` is
left byte for byte as it was; every other topic is built. The lock is written before the
packages, so the packages can always be rebuilt from the source and lock as they stand.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import nca_anki.diagnostics as diag
from nca_anki.caching.entries import DeckFactsCache, DeflateCache
from nca_anki.caching.replay import recorded
from nca_anki.caching.state import (Cache, code_digest, dump_cache, folder_digest, load_cache,
                                    remove_old_caches, state_path, sweep_cache, tag_folder,
                                    topic_key)
from nca_anki.cards.render import Renderer
from nca_anki.cards.shuffle import plan
from nca_anki.diagnostics import Diagnostic, is_about_sources
from nca_anki.files import (CACHE_FOLDERS, CACHE_TAG_NAME, CONFIG_NAME, DECKS_NAME, LOCK_NAME,
                            OLD_LOCK_NAME, PIECES_NAME)
from nca_anki.identity.assign import assign, by_topic, note_hashes
from nca_anki.identity.lockfile import changed_topics, dump_lock
from nca_anki.identity.recover import PublishedTexts
from nca_anki.inputs import Inputs, cache_folder, check_folders, read_inputs, shown_path
from nca_anki.parallel import run_tasks, worker_count
from nca_anki.publishing.changes import (deck_versions, previous_versions, published_decks,
                                         retired_notes)
from nca_anki.publishing.index import bundle_name, deck_facts, write_index
from nca_anki.publishing.output import WriteError, inside, replace_folder, write_cache
from nca_anki.publishing.package import MediaChanged, build_package, media_entries
from nca_anki.publishing.preview import MARKER_NAME as PREVIEW_MARKER
from nca_anki.publishing.preview import Missing, PreviewCard, PreviewDeck, site, written_names
from nca_anki.reading.published import DeckFacts
from nca_anki.publishing.sink import Sink
from nca_anki.publishing.transaction import abandon, commit, hold, pending, recover, settle
from nca_anki.identity.retired import RETIRED_TAG
from nca_anki.publishing.versions import DeckVersion, description, updated_tag
from nca_anki.reading.acknowledged import acknowledge, attach_questions
from nca_anki.reading.duplicates import duplicates
from nca_anki.reading.lint import position_cluster
from nca_anki.reading.media import MediaFolder
from nca_anki.reading.published import Published, read_published
from nca_anki.reading.topics import deck_for, repeats_across_parts, slugify
from nca_anki.records import (Assignment, DeckSpec, Disposition, IdentifiedNote, Lock, LockEntry,
                              MediaFile, NoteStatus, NoteType, PackagedNote, Plan, RenderedNote,
                              Topic, prompt_id)
from nca_anki.report import SILENT, BuildOptions, BuildReport, FileStatus, Progress, TopicResult


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


def _state(options: BuildOptions) -> Path | None:
    """The cache's state file for this build's folders (cache.state_path)."""
    if options.cache is None:
        return None
    return state_path(options.cache, options.source, options.templates, options.out)


def _render_notes(renderer: Renderer, inputs: Inputs, reusable: set[str], workers: int,
                  progress: Progress) -> tuple[dict[str, list[RenderedNote]], list[Diagnostic]]:
    """Each topic's notes (topics in ``reusable`` are skipped), on ``workers`` processes."""
    entries = by_topic(inputs.lock.entries if inputs.lock else ())
    todo = [t for t in inputs.topics if t.name not in reusable]

    def render_topic(index: int) -> tuple[list[tuple[int, tuple[str, ...], tuple[str, ...],
                                                     tuple[int, ...], tuple[str, str, str, str],
                                                     tuple[MediaFile, ...]]],
                                          list[Diagnostic]]:
        topic = todo[index]
        kept = {e.prompt_key: e.slots for e in entries.get(topic.name, ()) if e.slots}
        layouts = plan([q for _, q in topic.questions], inputs.config.shuffles(topic.name), kept)
        on_pick = inputs.config.shows_answer_on_pick(topic.name)
        notes, problems = [], []  # type: ignore[var-annotated]
        for k, ((part, question), layout) in enumerate(zip(topic.questions, layouts,
                                                           strict=True)):
            note, note_problems = renderer.note(topic, part, question, layout,
                                                show_on_pick=on_pick)
            problems += note_problems
            if note is not None:  # only the fields travel back; the question is ours
                notes.append((k, note.fields, note.tags, note.slots,
                              note_hashes(topic.name, note), note.media))
        return notes, problems

    rendered: dict[str, list[RenderedNote]] = {}
    problems: list[Diagnostic] = []
    progress.start("rendering", sum(t.count for t in todo))
    for topic, (notes, topic_problems) in zip(todo, run_tasks(render_topic, len(todo), workers)):
        questions = topic.questions
        rendered[topic.name] = [RenderedNote(question=questions[k][1], part=questions[k][0],
                                             fields=fields, tags=tags, slots=slots,
                                             hashes=hashes, media=media)
                                for k, fields, tags, slots, hashes, media in notes]
        problems += topic_problems
        progress.advance(topic.count)
    return rendered, problems


def _topics_of_broken_files(inputs: Inputs, problems: list[Diagnostic]) -> set[str]:
    """Topics the lock places questions of a broken file in (unreadable, empty, no title,
    or with any error): building them without that file would drop a whole part from the
    learners' deck and mark its questions removed."""
    broken = {inputs.sources[d.path] for d in problems if d.is_error and d.path in inputs.sources}
    prompts = {prompt_id(q.prompt) for orphan in inputs.orphans for q in orphan.questions}
    entries = inputs.lock.entries if inputs.lock else ()
    # Entries written before the lock recorded files are recognised by their prompt.
    return {e.topic for e in entries
            if e.file in broken or (e.file is None and e.prompt_key in prompts)}


def _plan(inputs: Inputs, rendered: dict[str, list[RenderedNote]],
          problems: list[Diagnostic], reusable: set[str]) -> Plan:
    """The one place that decides what becomes of each topic; every later stage reads the
    plan. A topic is frozen (not built; its deck and lock entries kept exactly) for an
    error in one of its files, a question that did not become a note (say, a broken
    choices template), a broken file whose questions the lock places in it, or when the
    settings, templates or lock are broken; else reused if its inputs are as the cache
    recorded them (``reusable``), else built. Frozen topics that no readable file names
    any more (a single-part topic whose file is broken) are added, so the report lists
    them and their decks are not called stale."""
    if inputs.global_failure:
        frozen = {t.name for t in inputs.topics}
    else:
        error_paths = {d.path for d in problems if d.is_error}
        frozen = {t.name for t in inputs.topics if error_paths & set(t.paths)
                  or (t.name not in reusable and len(rendered.get(t.name, ())) != t.count)} \
            | _topics_of_broken_files(inputs, problems)
    named = {t.name for t in inputs.topics}
    absent = tuple(Topic(name=name, deck_name=deck_for(name, inputs.config)[0],
                         slug=deck_for(name, inputs.config)[1], files=())
                   for name in sorted(frozen - named))
    return Plan(topics=inputs.topics + absent, dispositions={
        t.name: Disposition.FREEZE if t.name in frozen else
        Disposition.REUSE if t.name in reusable else Disposition.BUILD
        for t in inputs.topics + absent})


@dataclass(frozen=True)
class _Written:
    """What became of one topic's deck."""

    status: FileStatus
    sha256: str | None  # of the deck as built (None if it could not be built or written)
    problems: tuple[Diagnostic, ...] = ()
    facts: DeckFacts | None = None  # what the index reads from it (not with --check)


@dataclass(frozen=True, kw_only=True)
class _Decks:
    """What this build packages: the topics it builds, their notes' identities, the note
    type, each deck's version and each topic's retired notes."""

    topics: tuple[Topic, ...]
    assignment: Assignment
    note_type: NoteType
    versions: Mapping[str, DeckVersion]
    retired: Mapping[str, tuple[PackagedNote, ...]]


def _write_decks(decks: _Decks, out: Path, sink: Sink, workers: int, progress: Progress
                 ) -> dict[str, _Written]:
    """Package each topic and put it through ``sink`` into ``out``, one topic at a time
    on ``workers`` processes: no more than one package per process is ever held in
    memory. A deck that cannot be written fails alone."""
    topics, assignment, retired = decks.topics, decks.assignment, decks.retired
    notes_of: dict[str, list[IdentifiedNote]] = {t.name: [] for t in topics}
    for note in assignment.notes:
        if note.topic in notes_of:
            notes_of[note.topic].append(note)

    def write_topic(index: int) -> _Written:
        topic = topics[index]
        path = out / f"{topic.slug}.apkg"
        if not inside(out, path):  # slugify makes this impossible; keep it so
            return _Written(FileStatus.FAILED, None, (diag.error("E501",
                topic.paths[0], 1, f"output {path} would be outside {out}; not written"),))
        live = notes_of[topic.name]
        notes = (*(PackagedNote(guid=n.guid, mod=n.mod, fields=n.note.fields,
                                tags=(*n.note.tags, updated_tag(n.mod)))
                   for n in live), *retired.get(topic.name, ()))
        text = description(topic.name, [f.part for f in topic.files], len(live),
                           decks.versions[topic.deck_name])
        media = tuple({m.name: m for n in live for m in n.note.media}.values())
        try:
            data = build_package(DeckSpec(topic.deck_name, text, notes, media),
                                 decks.note_type, assignment.note_type_mod)
        except MediaChanged as exc:  # the deck would not hold the image its notes name
            return _Written(FileStatus.FAILED, None, (diag.error("E501",
                exc.media.path, 0, f"image {exc.why}; build again"),))
        try:
            status = sink.put(path, data)
        except WriteError as exc:
            return _Written(FileStatus.FAILED, None,
                            (diag.error("E501", exc.path.as_posix(), 0, exc.reason),))
        # What the index reads from the deck, worked out here in parallel; --check and
        # --verify read every deck back instead (what CI trusts).
        return _Written(status, hashlib.sha256(data).hexdigest(),
                        facts=None if sink.compare_only else deck_facts(data))

    written = {}
    progress.start("writing decks", sum(len(notes_of[t.name]) for t in topics))
    for topic, result in zip(topics, run_tasks(write_topic, len(topics), workers)):
        written[topic.name] = result
        progress.advance(len(notes_of[topic.name]))
    return written


def build(options: BuildOptions, progress: Progress = SILENT) -> BuildReport:
    """Read and check everything, then write what is sound (see the module docstring).
    A function of its arguments: the clock, the cores to use and the cache folder are in
    ``options`` (the CLI resolves them); ``progress`` hears of each stage's work as it is
    done (the CLI's progress bar), and that it waits for another build.

    One build at a time reads and publishes a set of folders (transaction.hold); what an
    interrupted build left is finished or undone before anything is read
    (transaction.recover)."""
    problems = check_folders(options)
    if problems:
        return BuildReport(topics=(), diagnostics=diag.sort_diagnostics(problems))
    folders = _folders(options)
    with hold(folders.values(), shared=options.check, on_wait=progress.note):
        recovered = [d for d in (pending(options.out),) if d is not None] if options.check \
            else recover(folders)
        if diag.has_errors(recovered):
            return BuildReport(topics=(), diagnostics=diag.sort_diagnostics(recovered))
        try:
            report = _build(options, progress, folders)
        except BaseException:  # a bug, or Ctrl-C: published whole, or not at all
            if not options.check:
                settle(folders)
            raise
    if recovered:
        report = replace(report, diagnostics=diag.sort_diagnostics(
            [*report.diagnostics, *recovered]))
    return report


def _folders(options: BuildOptions) -> dict[str, Path]:
    """The folders a build publishes into, by the keys transaction.py knows them by."""
    return {"source": options.source, "out": options.out}


def _build(options: BuildOptions, progress: Progress, folders: dict[str, Path]
           ) -> BuildReport:
    unusable = _unusable_cache(options.cache)
    if unusable is not None:  # said once; the build goes on as one without a cache
        options = replace(options, cache=None)
    now = options.now
    renderer = Renderer(options.templates, options.templates.as_posix(),
                        MediaFolder(options.source).resolve)
    # What learners have: every deck in the output folder, read once, before anything is
    # written. Every stage that needs it is handed this record (reading/published.py).
    decks_read = read_published(options.out)
    inputs = read_inputs(options, renderer, now, decks_read)
    cache, cache_problems = load_cache(_state(options))
    keys = _Keys(options, inputs)
    # A preview shows every card: no deck is reused.
    reusable = set() if options.preview else _reusable(inputs, cache, keys, decks_read)
    workers = worker_count(options.jobs, options.cores,
                           sum(t.count for t in inputs.topics if t.name not in reusable))
    rendered: dict[str, list[RenderedNote]] = {}
    render_problems: list[Diagnostic] = []
    if inputs.note_type is not None:
        rendered, render_problems = _render_notes(renderer, inputs, reusable, workers,
                                                  progress)
    problems = [*inputs.problems, *cache_problems, *render_problems,
                *([unusable] if unusable is not None else []),
                *(d for t in inputs.topics if t.name not in reusable
                  for d in repeats_across_parts(t.files))]
    plan = _plan(inputs, rendered, problems, reusable)
    if inputs.global_failure or inputs.note_type is None or inputs.lock is None:
        return _nothing_built(plan, problems, options.out)

    # What the index read from each deck, by its SHA-256; --check and --verify read every
    # deck in full (what CI trusts) and write no cache.
    deck_cache = None if options.check else DeckFactsCache(cache_folder(options, DECKS_NAME))
    pieces = None if options.check else DeflateCache(cache_folder(options, PIECES_NAME))
    # What learners have. A deck that is damaged or another topic's cannot be built from
    # (its withdrawn questions and version would be lost), nor indexed with the others
    # (the bundle and changelog would describe the wrong deck): nothing is published
    # until it is restored or deleted.
    published, unusable_decks = published_decks(decks_read, plan.topics_to(Disposition.BUILD),
                                                inputs.lock, deck_cache) \
        if options.preview is None else ({}, {})  # a preview builds on no deck
    if unusable_decks:
        return _nothing_built(replace(plan, dispositions=dict.fromkeys(
            plan.dispositions, Disposition.FREEZE)), [*problems, *unusable_decks.values()],
            options.out)
    # Lint warnings never fail a topic, and a topic that fails is not linted: its errors
    # come first.
    problems += [d for topic in inputs.topics if plan.dispositions[topic.name]
                 is not Disposition.FREEZE
                 for d in (*(d for path in topic.paths for d in inputs.lint.get(path, ())),
                           *position_cluster(topic))]
    checked = [t for t in inputs.topics if plan.dispositions[t.name] is not Disposition.FREEZE]
    problems += duplicates(checked)
    problems, acknowledged = _acknowledged(
        inputs, problems, shown_path(options.source, CONFIG_NAME),
        complete=len(checked) == len(plan.topics))
    strict_failed = options.strict and any(is_about_sources(d) for d in problems)
    if strict_failed and not options.check:  # --check writes nothing anyway, and goes on
        report = _nothing_built(replace(plan, dispositions=dict.fromkeys(  # to say what is
            plan.dispositions, Disposition.FREEZE)), problems, options.out)  # stale
        return replace(report, acknowledged=acknowledged, strict_failed=True)
    if options.preview is not None:
        return replace(_preview(options.preview, inputs.note_type, plan, rendered, problems),
                       acknowledged=acknowledged, strict_failed=strict_failed)
    good = list(plan.topics_to(Disposition.BUILD))
    assignment, identity_problems = _identify(options, inputs, good, rendered, plan.kept, now,
                                              decks_read)
    problems += identity_problems
    lock_text = dump_lock(assignment.lock)
    layout = bool(inputs.lock.note_type_hash) \
        and assignment.note_type_mod != inputs.lock.note_type_mod  # not on a first build
    previous, version_problems = previous_versions(decks_read, inputs.topics)
    retired = retired_notes(published, assignment)
    versions = {**previous, **deck_versions(good, assignment, published, retired, previous,
                                            now)}
    sink = Sink(compare_only=options.check, known={
        options.out / name: file.sha256 for name, file in decks_read.files.items()})
    decks = _Decks(topics=tuple(good), assignment=assignment, note_type=inputs.note_type,
                   versions=versions, retired=retired)
    written, write_problems = _publish(options, decks, lock_text, sink, workers, progress)
    if deck_cache is not None:  # the index need not read back the decks just written
        for topic in good:
            result = written.get(topic.name)
            if result is not None and result.sha256 and result.facts is not None:
                deck_cache.put(f"{topic.slug}.apkg", result.sha256, result.facts)
    statuses = {name: result.status for name, result in written.items()}
    statuses.update(dict.fromkeys(plan.names(Disposition.REUSE), FileStatus.UNCHANGED))

    reported = plan.topics
    stale_decks = _stale_outputs(decks_read, reported)
    stale_decks += _stale_bundles(decks_read, bundle_name(slugify(inputs.config.parent_deck)))
    problems += stale_decks
    index_statuses: dict[str, FileStatus] = {}
    index_problems: list[Diagnostic] = []
    if not diag.has_errors(write_problems) and not any(
            s is FileStatus.WOULD_WRITE for s in statuses.values()):
        index_statuses, index_problems = write_index(
            decks_read, [(t.deck_name, t.name, options.out / f"{t.slug}.apkg")
                          for t in reported], versions, inputs.config.parent_deck,
            slugify(inputs.config.parent_deck), sink, deck_cache, pieces,
            threads=options.cores)
        index_problems += _save_caches(deck_cache, pieces)
    if not options.check:  # everything staged or nothing published (transaction.py)
        committed = _commit(folders, [*write_problems, *index_problems], options.out)
        write_problems += committed
        if diag.has_errors(committed):
            statuses = {name: FileStatus.FAILED if s is FileStatus.WRITTEN else s
                        for name, s in statuses.items()}
            index_statuses = {}
    problems += [*write_problems, *version_problems, *index_problems]
    deck_names = {t.name: t.deck_name for t in reported}
    lock_changes = changed_topics(_read_text(options.source / LOCK_NAME), lock_text) \
        if options.check else []
    stale_index = [shown_path(options.out, n) for n, s in index_statuses.items()
                   if s is FileStatus.WOULD_WRITE]
    report = BuildReport(
        topics=_results(plan, assignment, statuses, options.out),
        diagnostics=diag.sort_diagnostics(problems),
        acknowledged=acknowledged,
        strict_failed=strict_failed,
        removed=assignment.removed,
        templates_changed=layout,
        stale_lock_decks=tuple(deck_names.get(t, t) for t in lock_changes),
        stale_files=tuple(sorted([*stale_index, *(d.path for d in stale_decks)])),
        index=tuple((shown_path(options.out, n), s) for n, s in index_statuses.items()
                    if s is not FileStatus.UNCHANGED),
        newest=0 if options.check else max(
            [assignment.note_type_mod, *(n.mod for n in assignment.notes)]))
    if options.check or diag.has_errors(write_problems) or diag.has_errors(index_problems):
        return report  # nothing was published: the cache stays as it was
    # Warnings about this build's events do not recur in a rebuild: nothing to replay.
    events = [*cache_problems, *inputs.events, *identity_problems, *write_problems,
              *version_problems, *index_problems]  # a lost manifest or changelog, once
    unsaved = _remember(options, inputs, cache, keys, assignment, written, lock_text,
                        None if events or not report.ok else report)
    return replace(report, diagnostics=diag.sort_diagnostics([*report.diagnostics, *unsaved]))


def _preview(site_dir: Path, note_type: NoteType, plan: Plan,
             rendered: dict[str, list[RenderedNote]], problems: list[Diagnostic]
             ) -> BuildReport:
    """Write the preview site of every topic that builds (publishing/preview.py) into
    ``site_dir``, whole; topics with errors are listed as left out."""
    built = list(plan.topics_to(Disposition.BUILD))
    decks = [PreviewDeck(name=t.deck_name, slug=t.slug, files=t.paths, cards=tuple(
        PreviewCard(number=n.question.number, path=n.question.path, line=n.question.line,
                    fields=n.fields, tags=n.tags) for n in rendered[t.name]))
        for t in built]
    errors = Counter(d.path for d in problems if d.is_error)
    missing = [Missing(name=t.deck_name, files=t.paths, errors=sum(errors[p] for p in t.paths))
               for t in plan.topics if plan.dispositions[t.name] is Disposition.FREEZE]
    statuses: dict[str, FileStatus] = {}
    index: tuple[tuple[str, FileStatus], ...] = ()
    try:
        media = dict(media_entries({m.name: m for t in built for n in rendered[t.name]
                                    for m in n.media}.values()))
        changed = replace_folder(site_dir, site(decks, missing, note_type, media),
                                 PREVIEW_MARKER, written_names)
        statuses = {t.name: FileStatus.WRITTEN if changed[f"{t.slug}.html"]
                    else FileStatus.UNCHANGED for t in built}
        index = ((shown_path(site_dir, "index.html"), FileStatus.WRITTEN if any(
            changed.values()) else FileStatus.UNCHANGED),)
    except MediaChanged as exc:
        problems = [*problems, diag.error("E501", exc.media.path, 0,
                                          f"image {exc.why}; preview again")]
    except WriteError as exc:
        problems = [*problems, diag.error("E501", exc.path.as_posix(), 0,
                                          f"preview not written: {exc.reason}")]
    topics = tuple(TopicResult(t.deck_name, shown_path(site_dir, f"{t.slug}.html"), t.count,
                               status=statuses.get(t.name, FileStatus.FAILED))
                   for t in plan.topics)
    return BuildReport(topics=topics, diagnostics=diag.sort_diagnostics(problems), index=index)


def _identify(options: BuildOptions, inputs: Inputs, good: list[Topic],
              rendered: dict[str, list[RenderedNote]], frozen: frozenset[str], now: int,
              decks: Published) -> tuple[Assignment, list[Diagnostic]]:
    """Give every note to be built its identity (see identity/assign.py); warn of merge twins and
    of questions removed from the source."""
    assert inputs.note_type is not None and inputs.lock is not None
    slugs = {t.name: t.slug for t in inputs.topics}
    files = {t: f"{slugs.get(t) or deck_for(t, inputs.config)[1]}.apkg"
             for t in {*slugs, *(e.topic for e in inputs.lock.entries)}}
    published = PublishedTexts(decks, files)

    assignment = assign(tuple((t.name, n) for t in good for n in rendered[t.name]),
                        inputs.note_type, inputs.lock, frozen, now, inputs.sources,
                        texts=published)
    lock_shown = shown_path(options.source, LOCK_NAME)
    problems = []
    for twin in assignment.twins:
        problems.append(diag.warning("W301",
            lock_shown, 0, f"two identities for one question (a merge?): kept the one in the "
                           f"published deck, dropped {twin.guid} ({diag.clip(twin.prompt, 50)!r})"))
    # The lock keeps only an excerpt of each prompt; the published deck has it whole.
    shown = published(frozenset(e.topic for e in assignment.removed if not e.has_text))
    for entry in assignment.removed:
        prompt = shown[entry.guid].prompt if entry.guid in shown else entry.prompt
        problems.append(diag.warning("W304",
            lock_shown, 0, f"question removed from the source: {diag.clip(prompt, 60)!r} "
                           f"(topic {entry.topic!r}); its deck keeps it as withdrawn (tag "
                           f"{RETIRED_TAG}): learners who have it see a notice on its card after "
                           "re-importing, new learners get no card"))
    return assignment, problems


def _publish(options: BuildOptions, decks: _Decks, lock_text: str, sink: Sink, workers: int,
             progress: Progress) -> tuple[dict[str, _Written], list[Diagnostic]]:
    """Stage the lock, then the decks (with --check: compare the decks with those in the
    output folder and write nothing). The lock goes first: a deck is never published
    without the lock it can be rebuilt from (they are published together, _commit)."""
    if sink.compare_only:  # the lock is compared by the report (changed_topics)
        return _write_decks(decks, options.out, sink, workers, progress), []
    # The caches older versions kept among the decks. (What killed builds left was settled
    # before anything was read: transaction.recover.)
    remove_old_caches(options.out)
    if options.cache is not None:
        sweep_cache(options.cache)
    try:
        sink.put(options.source / LOCK_NAME, lock_text.encode())
    except WriteError as exc:
        return {}, [diag.error("E501", exc.path.as_posix(), 0, exc.reason)]
    written = _write_decks(decks, options.out, sink, workers, progress)
    return written, [d for result in written.values() for d in result.problems]


def _commit(folders: dict[str, Path], problems: list[Diagnostic], out: Path
            ) -> list[Diagnostic]:
    """Publish everything this build staged, or, after an error in writing any of it,
    nothing (transaction.py): the decks, the index and the lock are each what one
    complete build left. The old lock format's file goes with the commit that replaces
    it."""
    if diag.has_errors(problems):
        abandon(folders)
        return [diag.error("E501", out.as_posix(), 0, "nothing of this build was published: the "
                           "decks, the index and the lock are as they were; mend the cause "
                           "the other error names and build again")]
    try:
        commit(folders, delete=[("source", OLD_LOCK_NAME)])
    except WriteError as exc:
        return [diag.error("E501", exc.path.as_posix(), 0, exc.reason)]
    return []


class _Keys:
    """Cache keys of this build's topics (see caching/state.py), from its inputs and a lock."""

    def __init__(self, options: BuildOptions, inputs: Inputs) -> None:
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
                     f" {inputs.config.shows_answer_on_pick(topic.name)}",
            templates=self.templates,
            note_type=f"{fingerprint}:{lock.note_type_mod}",
            entries=self._entries.get(topic.name, ()), code=self.code)


def _reusable(inputs: Inputs, cache: Cache, keys: _Keys, decks: Published
              ) -> set[str]:
    """Topics whose key and published deck are exactly as the cache recorded them."""
    if inputs.global_failure or inputs.note_type is None or inputs.lock is None \
            or not cache.topics:
        return set()
    lock = inputs.lock
    return {t.name for t in inputs.topics
            if (entry := cache.topics.get(t.name)) is not None and entry[0] == keys.of(t, lock)
            and decks.sha256(f"{t.slug}.apkg") == entry[1]}


def _remember(options: BuildOptions, inputs: Inputs, cache: Cache, keys: _Keys,
              assignment: Assignment, written: dict[str, _Written], lock_text: str,
              report: BuildReport | None) -> list[Diagnostic]:
    """Record the key of every topic built (or reused) into the cache, and ``report`` as
    what a rebuild of the state just left gives (replay.py). A cache that cannot be
    written only costs time next build."""
    state = _state(options)
    if state is None:  # no cache: nothing to work out for it
        return []
    topics = dict(cache.topics)  # reused and failed topics: their decks are as recorded
    by_name = {t.name: t for t in inputs.topics}
    for name, result in written.items():
        if result.status in (FileStatus.WRITTEN, FileStatus.UNCHANGED) and result.sha256:
            topics[name] = (keys.of(by_name[name], assignment.lock), result.sha256)
    # An older record stays: it can only match if that exact state comes back, and then
    # it is right again (the fingerprint covers every input and every deck).
    new = Cache(topics, cache.replay)
    if report is not None:
        decks = {f"{by_name[name].slug}.apkg": sha for name, (_, sha) in topics.items()
                 if name in by_name}
        sources = {inputs.sources[shown]: sha for shown, sha in inputs.digests.items()}
        new = recorded(options, new, report, sources=sources, decks=decks,
                       lock=hashlib.sha256(lock_text.encode()).hexdigest(),
                       templates=keys.templates)
    try:
        tag_folder(state.parent, write_cache)
        if new != cache:
            write_cache(state, dump_cache(new).encode())
        inputs.parsed.save(write_cache)
    except WriteError as exc:
        return [diag.warning("W601",
                             exc.path.as_posix(), 0, f"build cache not saved: {exc.reason}")]
    return []


def _acknowledged(inputs: Inputs, problems: list[Diagnostic], settings: str, *,
                  complete: bool) -> tuple[list[Diagnostic], int]:
    """The problems with each one inside a question marked with its fingerprint, less the
    warnings the settings acknowledge, and how many those were (reading/acknowledged.py).
    Only the files some problem names are read for their questions."""
    named = {d.path for d in problems}
    files = [f for t in inputs.topics for f in t.files if f.path in named]
    marked = attach_questions(problems, files)
    if not inputs.config.acknowledged:
        return marked, 0
    return acknowledge(marked, inputs.config.acknowledged, settings, complete=complete,
                       files=inputs.sources)


def _nothing_built(plan: Plan, problems: list[Diagnostic], out: Path) -> BuildReport:
    """The report of a build that stops before it identifies anything: every topic as the
    plan has it, nothing written."""
    nothing = Assignment(notes=(), note_type_mod=0, lock=Lock(), removed=())
    return BuildReport(topics=_results(plan, nothing, {}, out),
                       diagnostics=diag.sort_diagnostics(problems))


def _results(plan: Plan, assignment: Assignment, statuses: dict[str, FileStatus], out: Path
             ) -> tuple[TopicResult, ...]:
    results = []
    tally = Counter((n.topic, n.status) for n in assignment.notes)  # one pass, not one a topic
    for topic in plan.topics:
        count = {s.value: tally[topic.name, s] for s in NoteStatus}
        if plan.dispositions[topic.name] is Disposition.REUSE:
            count["unchanged"] = topic.count
        results.append(TopicResult(topic.deck_name, shown_path(out, f"{topic.slug}.apkg"),
                                   topic.count, **count,
                                   status=statuses.get(topic.name, FileStatus.FAILED)))
    return tuple(results)


def _save_caches(deck_cache: DeckFactsCache | None, pieces: DeflateCache | None
                 ) -> list[Diagnostic]:
    """Save what the index read of the decks and the bundle's pieces; a cache that cannot
    be written only costs time next build."""
    problems: list[Diagnostic] = []
    for kept, what in ((deck_cache, "deck cache"), (pieces, "bundle cache")):
        if kept is None:
            continue
        problems += kept.problems
        try:
            kept.save(write_cache)
        except WriteError as exc:
            problems.append(diag.warning("W601", exc.path.as_posix(), 0,
                                         f"{what} not saved: {exc.reason}"))
    return problems


def _read_text(path: Path) -> str:
    """The file's text; "" if it is absent or cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _stale_bundles(decks: Published, expected: str) -> list[Diagnostic]:
    """All-topics bundles under another name (the parent deck was renamed)."""
    stale = [f.name for f in decks.bundles() if f.name != expected]
    return [diag.warning("W503",
                         decks.shown(name), 0, f"not the all-topics bundle any more (that is "
                         f"{expected}); delete it if the parent deck was renamed")
            for name in stale]


def _stale_outputs(decks: Published, topics: tuple[Topic, ...]) -> list[Diagnostic]:
    """Decks in the output folder that no topic builds any more (a renamed or deleted
    topic): learners could still download them, so say so."""
    expected = {f"{t.slug}.apkg" for t in topics}
    stale = [f.name for f in decks.decks() if f.name not in expected]
    return [diag.warning("W503",
                         decks.shown(name), 0, "no topic builds this deck any more; delete "
                         "it if its topic was renamed or removed") for name in stale]
