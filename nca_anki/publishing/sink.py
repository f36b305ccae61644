"""The one place a build's outputs go: staged for the build's one commit
(transaction.py), or, for ``--check`` and ``--verify``, compared with what is there and
never written.

Every output file's status (records.FileStatus) is decided here, so the decks, the index
files and the report cannot disagree on what "unchanged" means. A sink holds no state of
its own: a forked worker that packages a deck puts it through the same sink as the parent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from nca_anki.files import file_sha256
from nca_anki.publishing.transaction import stage, staged
from nca_anki.report import FileStatus


@dataclass(frozen=True)
class Sink:
    compare_only: bool = False  # --check and --verify: write nothing
    # The SHA-256 of files the build read before it wrote anything (the published decks,
    # reading/published.py), so they are compared without being read again; None for one
    # that could not be read.
    known: Mapping[Path, str | None] = field(default_factory=dict)

    def put(self, path: Path, data: bytes) -> FileStatus:
        """Stage ``data`` for ``path`` (UNCHANGED if it already holds exactly that), or
        with ``compare_only`` say whether it would be written. WRITTEN means staged: it
        is published when the build commits (transaction.commit). Raises
        output.WriteError when the file cannot be staged."""
        sha = hashlib.sha256(data).hexdigest() if path in self.known or self.compare_only \
            else None
        if self.compare_only:
            old = self.known[path] if path in self.known else file_sha256(path)
            return FileStatus.UNCHANGED if old == sha else FileStatus.WOULD_WRITE
        same = self.known[path] == sha if path in self.known else None
        return FileStatus.WRITTEN if stage(path, data, same) else FileStatus.UNCHANGED

    def current(self, path: Path) -> Path:
        """The file that holds what ``path`` will hold once the build commits: its staged
        file if this build changed it, else ``path`` itself."""
        if not self.compare_only and staged(path).is_file():
            return staged(path)
        return path
