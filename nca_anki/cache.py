"""Remember what each topic's deck was built from, so an unchanged topic is not rendered or
packaged again.

A topic's key is a hash of everything its ``.apkg`` depends on: the bytes of its source
files, its deck name and settings, every file in the templates folder, its lock entries and
the note type's version, and this package's own code. The cache, ``.nca-anki-cache.json``
in the output folder (git-ignored), maps each topic to its key and the SHA-256 of the deck
written. A topic is reused only if both still match: content hashes, never file times (a
fresh clone has new times). A corrupt or foreign cache is ignored with a warning; deleting
it only costs time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from .diagnostics import Diagnostic, warning
from .identity import LockEntry

CACHE_NAME = ".nca-anki-cache.json"
_FORMAT = "nca-anki-cache-1"


def _digest(parts: Iterable[str]) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def folder_digest(folder: Path, pattern: str = "*") -> str:
    """A hash of the names and bytes of the files in ``folder`` (not recursive)."""
    files = sorted(p for p in folder.glob(pattern) if p.is_file())
    return _digest(f"{p.name}:{hashlib.sha256(p.read_bytes()).hexdigest()}" for p in files)


def code_digest() -> str:
    """This package's source: a cache written by other code is never trusted."""
    return folder_digest(Path(__file__).parent, "*.py")


def topic_key(*, files: Iterable[str], deck: str, settings: str, templates: str,
              note_type: str, entries: Iterable[LockEntry], code: str) -> str:
    """The key of one topic (see the module docstring); ``files`` are its sources' hashes."""
    lines = (f"{e.guid} {e.part} {e.mod} {e.content_hash} {e.slot} {e.removed} {e.file}"
             for e in sorted(entries, key=lambda e: e.guid))
    return _digest([_FORMAT, *files, deck, settings, templates, note_type, code, *lines])


def load_cache(path: Path) -> tuple[dict[str, tuple[str, str]], tuple[Diagnostic, ...]]:
    """topic -> (key, deck SHA-256); an unreadable cache is empty, with a warning."""
    if not path.is_file():
        return {}, ()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != _FORMAT:
            raise ValueError(f"format {data.get('format')!r}")
        return {str(topic): (str(item["key"]), str(item["sha256"]))
                for topic, item in data["topics"].items()}, ()
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return {}, (warning(path.as_posix(), 0, f"build cache ignored ({type(exc).__name__}: "
                            f"{exc}); every topic is built again and the cache rewritten"),)


def dump_cache(topics: Mapping[str, tuple[str, str]]) -> str:
    return json.dumps({"format": _FORMAT, "topics": {
        topic: {"key": key, "sha256": sha} for topic, (key, sha) in sorted(topics.items())}},
        indent=1) + "\n"
