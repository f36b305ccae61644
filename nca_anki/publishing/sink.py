"""The one place a build's outputs go: staged for the build's one commit
(transaction.py), or, for ``--check`` and ``--verify``, compared with what is there and
never written.

Every output file's status (records.FileStatus) is decided here, so the decks, the index
files and the report cannot disagree on what "unchanged" means. A sink holds no state of
its own: a forked worker that packages a deck puts it through the same sink as the parent.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from nca_anki.files import file_sha256
from nca_anki.publishing.transaction import stage, staged
from nca_anki.report import FileStatus


@dataclass(frozen=True)
class Sink:
    compare_only: bool = False  # --check and --verify: write nothing

    def put(self, path: Path, data: bytes) -> FileStatus:
        """Stage ``data`` for ``path`` (UNCHANGED if it already holds exactly that), or
        with ``compare_only`` say whether it would be written. WRITTEN means staged: it
        is published when the build commits (transaction.commit). Raises
        output.WriteError when the file cannot be staged."""
        if self.compare_only:
            same = file_sha256(path) == hashlib.sha256(data).hexdigest()
            return FileStatus.UNCHANGED if same else FileStatus.WOULD_WRITE
        return FileStatus.WRITTEN if stage(path, data) else FileStatus.UNCHANGED

    def current(self, path: Path) -> Path:
        """The file that holds what ``path`` will hold once the build commits: its staged
        file if this build changed it, else ``path`` itself."""
        if not self.compare_only and staged(path).is_file():
            return staged(path)
        return path
