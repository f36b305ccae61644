"""The one place a build's outputs go: written atomically, or, for ``--check`` and
``--verify``, compared with what is there and never written.

Every output file's status (records.FileStatus) is decided here, so the decks, the index
files and the report cannot disagree on what "unchanged" means. A sink holds no state of
its own: a forked worker that packages a deck puts it through the same sink as the parent.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from nca_anki.files import file_sha256
from nca_anki.publishing.output import write_atomic
from nca_anki.report import FileStatus


@dataclass(frozen=True)
class Sink:
    compare_only: bool = False  # --check and --verify: write nothing

    def put(self, path: Path, data: bytes) -> FileStatus:
        """Write ``data`` to ``path`` (UNCHANGED if it already holds exactly that), or
        with ``compare_only`` say whether it would be written. Raises
        output.WriteError when the file cannot be written."""
        if self.compare_only:
            same = file_sha256(path) == hashlib.sha256(data).hexdigest()
            return FileStatus.UNCHANGED if same else FileStatus.WOULD_WRITE
        return FileStatus.WRITTEN if write_atomic(path, data) else FileStatus.UNCHANGED
