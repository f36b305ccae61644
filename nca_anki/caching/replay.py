"""Answer a rebuild with nothing changed at once, without loading the pipeline.

A build that ends without errors records in the cache (state.py) a fingerprint of the state
it left: the bytes of every question file it read and of every image in the source folder,
the settings, the lock as written, every
file in the templates folder, the code and library versions, and every deck in the output
folder. With it goes the report a rebuild of exactly that state gives: every topic
unchanged, and the warnings about the sources. (Warnings about events of that build - a
question removed, a lock merged or recovered, a cache rebuilt - do not recur, so none is
recorded after a build that had them.)

The next build computes the fingerprint again from the files as they are; only if it is
equal is the recorded report the answer. Reading and hashing the inputs is all it costs;
any difference at all - a byte of a source, a template or the lock, a deck edited, added
or deleted, another version of nca-anki or of a library - and the full build runs (which
itself reuses every topic whose inputs did not change).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

from nca_anki.caching.state import (Cache, Replay, code_digest, folder_digest, load_cache,
                                    state_path, sweep_cache)
from nca_anki.files import (CONFIG_NAME, INDEX_FILES, LOCK_NAME, OLD_LOCK_NAME, file_sha256,
                            image_files, question_files)
from nca_anki.publishing.sink import Sink
from nca_anki.publishing.transaction import interrupted
from nca_anki.report import BuildOptions, BuildReport, FileStatus, TopicResult

_FORMAT = "nca-anki-state-1"


def _sha256(path: Path) -> str:
    # Absent, or there but unreadable or not a file (a pipe is never opened): neither is
    # what a build that ended well recorded, and they differ from each other.
    return file_sha256(path) or ("?" if os.path.lexists(path) else "-")


def fingerprint(options: BuildOptions, *, sources: Mapping[str, str] | None = None,
                lock: str | None = None, decks: Mapping[str, str] | None = None,
                templates: str | None = None) -> str:
    """The fingerprint of the build's state. What the caller knows (the build that just
    ran: the sources it read, the lock it wrote, the decks it wrote, the templates it
    hashed) is passed in; everything else is read from disk.

    ``sources`` maps each question file's path inside the source folder to the SHA-256 of
    its bytes; ``decks`` maps deck file names to theirs."""
    source, out = options.source, options.out
    if sources is None:
        sources = {p.relative_to(source).as_posix(): _sha256(p) for p in question_files(source)}
    known = dict(decks or {})
    on_disk = sorted(p.name for p in out.glob("*.apkg")) if out.is_dir() else []
    # The folders as given: the recorded report names paths the way the build was told them.
    parts = [_FORMAT, code_digest(), f"folders {source} {options.templates} {out}",
             *(f"source {name} {sha}" for name, sha in sorted(sources.items())),
             *(f"image {p.relative_to(source).as_posix()} {_sha256(p)}"
               for p in image_files(source)),
             f"config {_sha256(source / CONFIG_NAME)}",
             f"lock {lock or _sha256(source / LOCK_NAME)}",
             f"old lock {_sha256(source / OLD_LOCK_NAME)}",
             f"templates {templates or folder_digest(options.templates)}",
             *(f"deck {name} {known.get(name) or _sha256(out / name)}" for name in on_disk),
             *(f"index {name} {_sha256(out / name)}" for name in INDEX_FILES)]
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def replay(options: BuildOptions, sink: Sink) -> BuildReport | None:
    """The report of the last build through ``sink``, if nothing it read or wrote has
    changed since and it left a report to replay; None otherwise (run the build)."""
    if options.cache is None or not (options.source.is_dir() and options.templates.is_dir()):
        return None  # no cache to answer from, or let the build say what is missing
    cache, problems = load_cache(state_path(options.cache, options.source, options.templates,
                                            options.out))
    recorded = cache.replay
    if problems or recorded is None or fingerprint(options) != recorded.state \
            or interrupted({"source": options.source, "out": options.out}):
        return None  # changed, or a killed build's files to settle: the build does that
    if sink.publishes:  # as the build would
        sweep_cache(options.cache)
    status = FileStatus.UNCHANGED  # with --check too: every deck is what the sources build
    return BuildReport(
        topics=tuple(
            TopicResult(
                deck_name=deck,
                output=output,
                questions=questions,
                unchanged=questions,
                status=status,
            )
            for deck, output, questions in recorded.topics
        ),
        diagnostics=recorded.diagnostics,
        acknowledged=recorded.acknowledged,
    )


def recorded(options: BuildOptions, cache: Cache, report: BuildReport, *,
             sources: Mapping[str, str], lock: str, decks: Mapping[str, str],
             templates: str) -> Cache:
    """``cache`` with ``report`` (of a build with no warning about its own events)
    recorded as what a rebuild of the state just left gives."""
    state = fingerprint(options, sources=sources, lock=lock, decks=decks, templates=templates)
    return Cache(cache.topics, Replay(
        state=state, topics=tuple((t.deck_name, t.output, t.questions) for t in report.topics),
        diagnostics=report.diagnostics, acknowledged=report.acknowledged))
