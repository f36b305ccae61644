"""The one place a build's outputs go, in two kinds with one interface: ``Sink``
stages every output for the build's one commit (transaction.py); ``ComparingSink``, for
``--check`` and ``--verify``, compares each with what is there and never writes;
``PreviewSink``, for ``--preview DIR``, compares too and shows every card in DIR. The
command line picks the sink once and hands it to the build; from then on every stage asks
the sink, never the mode: how to hold the folders, what to recover or settle, whether
anything is published, whether the build's caches are used, whether ``--strict`` stops
the build, what the lock would change and how new the build's notes are.

Every output file's status (records.FileStatus) is decided here, so the decks, the index
files and the report cannot disagree on what "unchanged" means. A sink holds no state that
changes: a forked worker that packages a deck puts it through the same sink as the parent.
Both are told the SHA-256 of the files the build read before it wrote anything (the
published decks, reading/published.py), and compare with those without reading them again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import nca_anki.diagnostics as diag
from nca_anki.diagnostics import Diagnostic
from nca_anki.files import OLD_LOCK_NAME, file_sha256
from nca_anki.publishing.output import WriteError
from nca_anki.publishing.transaction import (abandon, commit, hold, pending, recover, settle,
                                             stage, staged)
from nca_anki.report import FileStatus

if TYPE_CHECKING:  # the no-op rebuild picks a sink and loads no record (test_layers)
    from nca_anki.records import Assignment


@dataclass(frozen=True)
class Sink:
    """What both kinds share: the known files' SHA-256 (None: could not be read)."""

    known: Mapping[Path, str | None] = field(default_factory=dict)
    shares_hold = False  # builds that only compare may read side by side (transaction.hold)
    publishes = True  # what went through it is published: the cache may remember it
    # The build cache's deck facts, bundle pieces and rendered notes are read and saved;
    # a comparing build reads every deck and renders every note in full (what CI trusts).
    keeps_caches = True
    # A --strict failure stops the build before anything is written; a comparing build
    # goes on, to say what is stale too.
    halts_on_strict = True
    # Every card is shown, none reused: no note identity, no schema check (--preview).
    shows_every_card = False

    def over(self, known: Mapping[Path, str | None]) -> Sink:
        """This sink, told the SHA-256 of the files the build read before writing."""
        return replace(self, known=known)

    def hold(self, folders: Mapping[str, Path], on_wait: Callable[[str], None]
             ) -> AbstractContextManager[None]:
        """The folders held for this build (transaction.hold): alone, or shared with other
        builds that only compare."""
        return hold(folders.values(), shared=self.shares_hold, on_wait=on_wait)

    @staticmethod
    def recover(folders: Mapping[str, Path]) -> list[Diagnostic]:
        """Finish or undo what an interrupted build left, before anything is read."""
        return recover(folders)

    @staticmethod
    def settle(folders: Mapping[str, Path]) -> None:
        """After a bug or Ctrl-C mid-build: published whole, or not at all."""
        settle(folders)

    def lock_changes(self, path: Path, text: str) -> tuple[str, ...]:
        """The topics whose lock entries ``text`` changes from ``path``'s (none: a
        writing build writes the lock)."""
        return ()

    def newest(self, assignment: Assignment) -> int:
        """The newest change time of the build's notes and note type (the report's)."""
        return max([assignment.note_type_mod, *(n.mod for n in assignment.notes)])

    def put(self, path: Path, data: bytes) -> FileStatus:
        """Stage ``data`` for ``path`` (UNCHANGED if it already holds exactly that);
        WRITTEN means staged, published when the build commits (``finish``). Raises
        output.WriteError when the file cannot be staged."""
        same = self.known[path] == hashlib.sha256(data).hexdigest() \
            if path in self.known else None
        return FileStatus.WRITTEN if stage(path, data, same) else FileStatus.UNCHANGED

    def current(self, path: Path) -> Path:
        """The file that holds what ``path`` will hold once the build commits: its staged
        file if this build changed it, else ``path`` itself."""
        return staged(path) if staged(path).is_file() else path

    def put_lock(self, path: Path, text: str) -> list[Diagnostic]:
        """The lock, staged before any deck: a deck is never published without the lock
        it can be rebuilt from (they are committed together)."""
        try:
            self.put(path, text.encode())
        except WriteError as exc:
            return [diag.error("E501", exc.path.as_posix(), 0, exc.reason)]
        return []

    def finish(self, folders: Mapping[str, Path], problems: list[Diagnostic]
               ) -> list[Diagnostic]:
        """Publish everything this build staged, or, after an error in writing any of
        it (``problems``), nothing: the decks, the index and the lock are each what one
        complete build left. The old lock format's file goes with the commit that
        replaces it."""
        if diag.has_errors(problems):
            abandon(folders)
            return [diag.error("E501", folders["out"].as_posix(), 0, "nothing of this build "
                               "was published: the decks, the index and the lock are as they "
                               "were; mend the cause the other error names and build again")]
        try:
            commit(folders, delete=[("source", OLD_LOCK_NAME)])
        except WriteError as exc:
            return [diag.error("E501", exc.path.as_posix(), 0, exc.reason)]
        return []



@dataclass(frozen=True)
class ComparingSink(Sink):
    """--check and --verify: say what would be written, write nothing."""

    shares_hold = True
    publishes = False
    keeps_caches = False
    halts_on_strict = False

    @staticmethod
    def recover(folders: Mapping[str, Path]) -> list[Diagnostic]:
        """Nothing is finished or undone; what an interrupted build left is only said."""
        return [d for d in (pending(folders["out"]),) if d is not None]

    @staticmethod
    def settle(folders: Mapping[str, Path]) -> None:
        return None  # nothing was staged

    def lock_changes(self, path: Path, text: str) -> tuple[str, ...]:
        from nca_anki.identity.lockfile import changed_topics

        try:
            written = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            written = ""
        return changed_topics(written, text)

    def newest(self, assignment: Assignment) -> int:
        return 0  # nothing was built

    def put(self, path: Path, data: bytes) -> FileStatus:
        old = self.known[path] if path in self.known else file_sha256(path)
        same = old == hashlib.sha256(data).hexdigest()
        return FileStatus.UNCHANGED if same else FileStatus.WOULD_WRITE

    def current(self, path: Path) -> Path:
        return path

    def put_lock(self, path: Path, text: str) -> list[Diagnostic]:
        return []  # the report compares the lock (lockfile.changed_topics)

    def finish(self, folders: Mapping[str, Path], problems: list[Diagnostic]
               ) -> list[Diagnostic]:
        return []  # nothing was staged


@dataclass(frozen=True)
class PreviewSink(ComparingSink):
    """--preview DIR: every card of every deck shown in ``folder`` (publishing/preview.py);
    the decks, the index and the lock are only compared."""

    folder: Path = Path("preview")
    shows_every_card = True
