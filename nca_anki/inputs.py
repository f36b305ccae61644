"""Read and check everything a build needs, before anything is written.

The first step of ``build.build``: every question file (decoded and parsed, or taken from
the parse cache), the settings, the topics, the note type from the templates and the
lock (or the lock the published decks were built with, when the file is lost). What comes
back is ``Inputs``: plain data and every problem found, each at its path and line.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import nca_anki.diagnostics as diag
from nca_anki.caching.entries import Parsed, ParseCache
from nca_anki.diagnostics import Diagnostic
from nca_anki.files import (CONFIG_NAME, LOCK_NAME, OLD_LOCK_NAME, SOURCE_SUFFIX,
                            question_files, read_regular)
from nca_anki.identity.lockfile import future_mods, load_lock, load_old_lock
from nca_anki.identity.recover import recover_lock
from nca_anki.parallel import run_tasks, worker_count
from nca_anki.reading.config import Config, load_config
from nca_anki.reading.decode import decode_source
from nca_anki.reading.lint import long_answers
from nca_anki.reading.media import images_key
from nca_anki.reading.parse import parse
from nca_anki.reading.published import Published, published_from, read_published
from nca_anki.reading.topics import group_topics, moved_by_title, renamed
from nca_anki.records import Lock, NoteType, ParsedFile, Topic
from nca_anki.report import BuildOptions

if TYPE_CHECKING:
    from nca_anki.cards.render import Renderer


def shown_path(folder: Path, name: str | Path) -> str:
    return (folder / name).as_posix()


@dataclass(frozen=True, kw_only=True)
class _Sources:
    files: tuple[ParsedFile, ...]
    found: dict[str, str]  # every question file found: shown path -> path in the lock
    digests: dict[str, str]  # every file read: shown path -> SHA-256 of its bytes
    lint: dict[str, tuple[Diagnostic, ...]]  # shown path -> its lint warnings
    problems: list[Diagnostic]
    images: dict[str, str]  # shown path -> a hash of the images it may show (media.images_key)
    misnamed: tuple[Diagnostic, ...]  # files whose names the lock cannot hold: no build


def _parse_bytes(data: bytes, shown: str) -> Parsed:
    decoded = decode_source(data, shown)
    parsed = parse(decoded.text, shown)
    return parsed.file, decoded.diagnostics + parsed.diagnostics, long_answers(parsed.file)


# About this many bytes of source per question (the seeds: 600-900): how parallel.py is
# told the size of the parsing work before anything is parsed.
_BYTES_PER_QUESTION = 600


def _bad_name(relative: Path) -> bool:
    """True if a question file's path inside the source folder cannot be a line of the
    lock: bytes that are not UTF-8 (kept by Python as surrogates) or control characters."""
    text = relative.as_posix()
    return any(0xD800 <= ord(c) <= 0xDFFF or not c.isprintable() for c in text)


def _printable(relative: Path) -> str:
    """The path as a message can show it: undecodable bytes and control characters as
    escapes (``\\xff``, ``\\n``)."""
    raw = os.fsencode(relative.as_posix()).decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in raw)


def _read_sources(source: Path, cache: ParseCache, jobs: int | None, cores: int) -> _Sources:
    """Parse every question file, or take it from the parse cache if its path and bytes
    are the same; files to parse are parsed on forked workers when there are enough."""
    problems: list[Diagnostic] = []
    digests: dict[str, str] = {}
    images: dict[str, str] = {}
    paths: list[Path] = []
    misnamed: list[Path] = []
    for path in question_files(source):
        (misnamed if _bad_name(path.relative_to(source)) else paths).append(path)
    bad_names = [diag.error("E101", shown_path(source, _printable(path.relative_to(source))), 0,
                            "this file name is not plain UTF-8 text (it holds bytes of "
                            "another encoding, a line break or a control character), so it "
                            "cannot be recorded in the lock; rename it. Nothing is built "
                            "until then: its questions would look deleted")
                 for path in misnamed]
    found = {shown_path(source, p.relative_to(source)): p.relative_to(source).as_posix()
             for p in paths}
    parsed: dict[str, Parsed] = {}
    todo: list[tuple[str, bytes]] = []
    for path, shown in zip(paths, found):
        try:
            data = read_regular(path)
        except OSError as exc:
            problems.append(diag.error("E102",
                                       shown, 0, f"cannot read file: {exc.strerror or exc}"))
            continue
        digests[shown] = hashlib.sha256(data).hexdigest()
        if b"![" in data:  # the images it may show: their bytes are part of its topic's key
            images[shown] = images_key(data.decode("utf-8", "replace"), path)
        known = cache.get(shown, digests[shown])
        if known is None:
            todo.append((shown, data))
        else:
            parsed[shown] = known
    size = sum(len(data) for _, data in todo) // _BYTES_PER_QUESTION
    workers = worker_count(jobs, cores, size)
    if workers > 1:  # workers send back the cache entry's JSON, far quicker than pickles
        entries = run_tasks(lambda i: ParseCache.encode(todo[i][0], _parse_bytes(
            todo[i][1], todo[i][0])), len(todo), workers)
        for (shown, data), entry in zip(todo, entries):
            known = ParseCache.decode(shown, entry) if entry is not None else None
            parsed[shown] = known or _parse_bytes(data, shown)
            cache.put(shown, digests[shown], entry)
    else:
        for shown, data in todo:
            parsed[shown] = _parse_bytes(data, shown)
            cache.put(shown, digests[shown], ParseCache.encode(shown, parsed[shown]))
    files, lint = [], {}
    for shown in found:
        if shown in parsed:
            file, file_problems, lint[shown] = parsed[shown]
            problems += file_problems
            files.append(file)
    if not paths and not misnamed:
        problems.append(diag.error("E103",
                                   source.as_posix(), 0, f"no question files (*{SOURCE_SUFFIX}) "
                                   "found; add some or pass --source DIR"))
    return _Sources(files=tuple(files), found=found, digests=digests, lint=lint, problems=problems,
                    images=images, misnamed=tuple(bad_names))


def _read_lock(source: Path, now: int, decks: Published, topics: tuple[Topic, ...],
               committed: str | None = None) -> tuple[Lock | None, list[Diagnostic]]:
    """The lock file (or its ``committed`` text: BuildOptions.committed); a format-1
    ``nca-anki.lock.json`` (migrated when the build writes); or, if neither exists but
    decks were published, the lock they were built with, recovered from them (never
    silently new identities for published questions)."""
    path, old_path = source / LOCK_NAME, source / OLD_LOCK_NAME
    shown = shown_path(source, LOCK_NAME)
    if committed is not None:
        lock, problems = load_lock(committed, shown)
        return lock, [*problems, *future_mods(lock, now, shown)] if lock is not None \
            else list(problems)
    if path.exists() or path.is_symlink():
        reader, read_path = load_lock, path
    elif old_path.exists() or old_path.is_symlink():
        reader, read_path = load_old_lock, old_path
    else:
        lock, recovered = recover_lock(decks, {t.deck_name: t.name for t in topics}, shown)
        return lock, list(recovered)
    try:
        text = read_regular(read_path).decode("utf-8")
    except OSError as exc:
        return None, [diag.error("E301", shown_path(source, read_path.name), 0,
                                 f"cannot read lock file: {exc.strerror or exc}")]
    except UnicodeDecodeError as exc:
        return None, [diag.error("E301", shown_path(source, read_path.name), 0,
                                 f"cannot read lock file: not UTF-8 text ({exc.reason} at byte "
                                 f"{exc.start}); restore it from version control")]
    lock, problems = reader(text, shown_path(source, read_path.name))
    if lock is not None and lock.lines_lost and not decks.files:
        # The decks would fill in what the damage took; without them, questions it held
        # would get new identities, and learners duplicates.
        return None, [*problems, diag.error("E301", shown, 0, (
            f"{lock.lines_lost} line(s) of the lock file cannot be read and there are no "
            f"published decks in {decks.folder.as_posix()} to recover them from; restore it from "
            "version control"))]
    if lock is not None and lock.entries and not lock.note_type_hash:
        lock, note_type_problems = _note_type_from_decks(lock, decks, topics, shown)
        problems = (*problems, *note_type_problems)
    if lock is not None:
        problems += future_mods(lock, now, shown)
    return lock, list(problems)


def _note_type_from_decks(lock: Lock, decks: Published, topics: tuple[Topic, ...],
                          shown: str) -> tuple[Lock, tuple[Diagnostic, ...]]:
    """A lock without its note-type line (deleted, or lost in a merge) takes the card
    layout's version from the published decks: without it every deck would be re-dated
    as "the card layout changed" and carry a new note-type time."""
    recovered, _ = recover_lock(decks, {t.deck_name: t.name for t in topics}, shown)
    if recovered is None or not recovered.note_type_hash:
        return lock, ()
    return (replace(lock, note_type_hash=recovered.note_type_hash,
                    note_type_mod=recovered.note_type_mod),
            (diag.warning("W301", shown, 0, "the note-type line ('N ...') is missing; the card "
                          "layout's version was taken from the published decks"),))


def check_folders(options: BuildOptions) -> list[Diagnostic]:
    problems = []
    for folder, what, flag in ((options.source, "source", "--source"),
                               (options.templates, "templates", "--templates")):
        if not folder.is_dir():
            problems.append(diag.error("E104",
                                       folder.as_posix(), 0, f"{what} folder not found; run "
                                       f"from the project folder or pass {flag} DIR"))
    if options.out.exists() and not options.out.is_dir():
        problems.append(diag.error("E104",
                                   options.out.as_posix(), 0, "output path exists and is not a "
                                   "folder; pass --out DIR"))
    return problems


@dataclass(frozen=True, kw_only=True)
class Inputs:
    """Everything read and checked before anything is written."""

    config: Config
    topics: tuple[Topic, ...]
    orphans: tuple[ParsedFile, ...]  # files whose title could not be read
    sources: Mapping[str, str]  # every question file found: shown path -> path in the lock
    digests: Mapping[str, str]  # every file read: shown path -> SHA-256 of its bytes
    images: Mapping[str, str]  # shown path -> a hash of the images it may show ("": none)
    lint: Mapping[str, tuple[Diagnostic, ...]]  # each file's lint warnings, by shown path
    note_type: NoteType | None
    lock: Lock | None
    problems: tuple[Diagnostic, ...]
    # Also in problems: what reading the lock and the parse cache found. They are about
    # this build's events (a merge resolved, a cache rebuilt) and do not recur.
    events: tuple[Diagnostic, ...]
    global_failure: bool  # settings, templates or lock broken: no topic can be built


@dataclass(frozen=True, kw_only=True)
class Questions:
    """The first half of the inputs: the question files, the settings, the topics and the
    note type, everything but the lock. The duplicate check starts on these, while the
    lock is read (build.py)."""

    config: Config
    topics: tuple[Topic, ...]
    files: tuple[ParsedFile, ...]
    read: _Sources
    note_type: NoteType | None
    topic_problems: tuple[Diagnostic, ...]
    settings_problems: tuple[Diagnostic, ...]  # the settings' and the templates'
    events: tuple[Diagnostic, ...]  # what the parse cache found

    @property
    def problems(self) -> list[Diagnostic]:
        """Every problem found so far."""
        return [*self.read.problems, *self.topic_problems, *self.settings_problems,
                *self.read.misnamed, *self.events]


@dataclass(frozen=True, kw_only=True)
class Read:
    """The first half of what a build reads: what learners have, what changes are
    measured against, and the question files, settings, topics and note type."""

    renderer: Renderer  # the templates, ready to render (cards/render.py)
    decks: Published  # every deck in the output folder, read once (reading/published.py)
    reference: Published  # what changes are measured against (``decks``, or a commit's)
    questions: Questions


def read(options: BuildOptions, parsed: ParseCache) -> Read:
    """The stage's entry: the published decks, then the question files (parsed, or from
    ``parsed``, the parse cache), the settings, the topics and the note type."""
    from nca_anki.cards.render import Renderer  # loads Jinja: only a build that renders
    from nca_anki.reading.media import MediaFolder

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
    return Read(renderer=renderer, decks=decks, reference=reference,
                questions=read_questions(options, renderer, parsed))


def read_questions(options: BuildOptions, renderer: Renderer, parsed: ParseCache) -> Questions:
    """Every question file (parsed, or from the parse cache ``parsed``), the settings, the
    topics and the note type the templates give."""
    config_path = shown_path(options.source, CONFIG_NAME)
    read = _read_sources(options.source, parsed, options.jobs, options.cores)
    config, config_problems = load_config(options.source, config_path)
    topics, topic_problems = group_topics(read.files, config, config_path)
    note_type, template_problems = renderer.note_type(config.language)
    return Questions(
        config=config,
        topics=topics,
        files=read.files,
        read=read,
        note_type=note_type,
        topic_problems=tuple(topic_problems),
        settings_problems=(*config_problems, *template_problems),
        events=tuple(parsed.problems),
    )


def read_inputs(options: BuildOptions, questions: Questions, now: int, decks: Published
                ) -> Inputs:
    """``questions`` and the lock: everything a build reads but the published decks,
    which it is handed (``decks``, read once: reading/published.py) to recover a lost lock
    from."""
    config_path = shown_path(options.source, CONFIG_NAME)
    read, topics, files, config = questions.read, questions.topics, questions.files, \
        questions.config
    lock, lock_problems = _read_lock(options.source, now, decks, topics,
                                     options.committed.lock if options.committed else None)
    topic_problems = questions.topic_problems
    if lock is not None:
        topic_problems = (*topic_problems, *renamed(topics, lock, config, config_path),
                          *moved_by_title(topics, lock, config, config_path, read.found))
    shared = [*questions.settings_problems, *lock_problems, *read.misnamed]
    events = (*lock_problems, *questions.events)
    # Without any question file every lock entry would look removed: stop instead.
    return Inputs(
        config=config,
        topics=topics,
        orphans=tuple(f for f in files if not f.title),
        sources=read.found,
        digests=read.digests,
        images=read.images,
        lint=read.lint,
        note_type=questions.note_type,
        lock=lock,
        problems=(*read.problems, *topic_problems, *shared, *questions.events),
        events=events,
        global_failure=diag.has_errors(shared) or not files,
    )
