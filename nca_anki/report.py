"""What a build is asked to do and what it reports: plain data, shared by the pipeline
(build.py), the no-op check (replay.py) and the command line (cli.py). No third-party
imports, so the command line can answer a no-op build without loading the pipeline.
"""

from __future__ import annotations

import enum
from dataclasses import KW_ONLY, dataclass, field
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import nca_anki.diagnostics as diag
from nca_anki.diagnostics import Diagnostic

if TYPE_CHECKING:
    from nca_anki.records import LockEntry


class FileStatus(enum.StrEnum):
    """What became of one output file (a deck, an index file) in this build, as the
    report prints it. Decided in one place: publishing/sink.py."""

    WRITTEN = "written"
    UNCHANGED = "unchanged"
    WOULD_WRITE = "would write"  # --check and --verify: the file is not what the build gives
    FAILED = "failed"


@dataclass(frozen=True)
class BuildOptions:
    """What a build is given: its folders, and the edges the CLI resolves (the clock, the
    cores, the cache folder), so that ``build()`` reads no environment and no clock."""

    source: Path
    templates: Path
    out: Path
    _: KW_ONLY
    now: int  # the time new and changed notes get (the CLI: SOURCE_DATE_EPOCH or the clock)
    # Processes to use; None: all ``cores``, when the work is big enough. On Linux the extra
    # processes are forked (nca_anki/parallel.py): a program that calls build() while it
    # runs other threads should pass jobs=1, as forking a threaded process is unsafe.
    jobs: int | None = None
    cores: int = 1  # the cores the build may use: its processes, and the bundle's threads
    # A folder for scratch files that memory holds (the CLI: edges.scratch); None: the
    # system's temporary folder.
    scratch: Path | None = None
    # The build cache's folder (caching/), never inside ``out``; None: no cache, every
    # build reads and builds everything.
    cache: Path | None = None
    # --strict: a warning about the sources (docs/diagnostics.md, W1xx and W2xx) fails
    # the build as an error does, and nothing is written.
    strict: bool = False
    # --note-type-change: publish a note type with more or fewer fields or templates than
    # the published decks' (identity/schema.py); without it that is an error.
    note_type_change: bool = False
    # What the last commit holds of the outputs, when the inputs are as committed and the
    # outputs are not (the CLI asks git: edges.committed): the build then measures every
    # change against it, not against the uncommitted outputs of an edit since undone.
    committed: Committed | None = None
    # The key this user's builds sign the notes they keep in the render cache with
    # (edges.render_key); None: no note is taken from the render cache or put in it.
    render_key: bytes | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Committed:
    """The lock's text and the output folder's files (by name) in the last commit."""

    lock: str | None
    files: Mapping[str, bytes] = field(default_factory=dict, repr=False)


class Progress(Protocol):
    """Told of the work of each stage as it is done (the CLI draws a progress bar)."""

    def start(self, stage: str, total: int) -> None: ...

    def advance(self, done: int) -> None: ...

    def note(self, message: str) -> None:
        """Something the user should hear of while the build goes on (it waits)."""
        ...


class _NoProgress:
    """Progress nobody is shown (the library's default)."""

    def start(self, stage: str, total: int) -> None:
        pass

    def advance(self, done: int) -> None:
        pass

    def note(self, message: str) -> None:
        pass


SILENT: Progress = _NoProgress()


@dataclass(frozen=True, kw_only=True)
class TopicResult:
    deck_name: str
    output: str  # the .apkg path as shown to the user
    questions: int
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    status: FileStatus = FileStatus.FAILED
    # Its question files, as diagnostics name them: a failed topic's files are not linted,
    # so --watch does not count their warnings as gone (commands/output.py, changes). Not part of
    # what a report says (a replayed no-op, which has no failed topic, does not keep it).
    sources: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, kw_only=True)
class BuildReport:
    topics: tuple[TopicResult, ...]
    diagnostics: tuple[Diagnostic, ...]
    removed: tuple[LockEntry, ...] = ()  # questions that left the source in this build
    templates_changed: bool = False  # the note type (card layout or CSS) has a new version
    # What --check found out of date besides decks (build_decks.py --verify names them):
    # the decks (by name) whose lock entries would change, and published files that are
    # not what the build writes (index files; decks no topic builds).
    stale_lock_decks: tuple[str, ...] = ()
    stale_files: tuple[str, ...] = ()
    # The published index files (index.py) written, or with --check that would be: (path
    # as shown, status). Unchanged ones are not listed. With --preview: the site's
    # index.html, written or unchanged, if the site was written.
    index: tuple[tuple[str, FileStatus], ...] = ()
    # The newest time given to a note or the note type. Notes edited twice within a
    # second get the previous time + 1, a moment ahead of the clock; a caller on the real
    # clock waits until it has passed (cli.py), as a time in the future would block the
    # learner's own edits.
    newest: int = 0
    acknowledged: int = 0  # warnings the settings acknowledge, left out of ``diagnostics``
    strict_failed: bool = False  # --strict: warnings about the sources; nothing was written

    @property
    def ok(self) -> bool:
        return not diag.has_errors(self.diagnostics) and not self.strict_failed

    def exit_status(self, stale: Sequence[str] = ()) -> int:
        """The command's exit status for this build: 0 when it is sound and (with
        --verify) nothing it names is ``stale``, else 1 (errors in the input, or an output
        that could not be written)."""
        return 0 if self.ok and not stale else 1


