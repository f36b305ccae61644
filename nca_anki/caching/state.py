"""Remember what each topic's deck was built from, so an unchanged topic is not rendered or
packaged again, and what a whole build saw, so a rebuild with nothing changed is answered
at once (replay.py).

A topic's key is a hash of everything its ``.apkg`` depends on: the bytes of its source
files, its deck name and settings, every file in the templates folder, its lock entries and
the note type's version, and the code that builds it (this package and the versions of the
libraries and zlib it uses). A state file in the cache folder, one per set of source,
templates and output folders (``state_path``), maps each topic to its key and the SHA-256
of the deck written. A topic is reused only if both still match: content hashes, never
file times (a fresh clone has new times). A corrupt or foreign cache is ignored with a
warning; deleting it only costs time.

The cache folder is never inside the output folder, which holds only what is published
(by default ``.nca-anki-cache/`` in the project folder, git-ignored; files.py). Beside the
state files, folders of entries (entries.py); docs/speed.md lists every level and what
each saves. A build given no cache folder reads and writes none of them.

Light on purpose (the standard library, and none of the records): replay.py reads the
state before anything else of the pipeline is loaded.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import re
import sys
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from nca_anki.codes import CODES
from nca_anki.diagnostics import Diagnostic, Severity, warning
from nca_anki.files import (CACHE_FOLDERS, CACHE_TAG_NAME, OLD_CACHE_FILE, OLD_CACHE_FOLDERS,
                            file_sha256)
from nca_anki.publishing.output import remove_stale_temporaries

if TYPE_CHECKING:
    from nca_anki.records import LockEntry

_FORMAT = "nca-anki-cache-3"
# Libraries whose version can change a deck's bytes. (Imported by version number only:
# importing them here would cost the no-op check the time it exists to save.)
# (import name, distribution name as its .dist-info folder spells it)
_LIBRARIES = (("genanki", "genanki"), ("jinja2", "jinja2"), ("markdown_it", "markdown_it_py"),
              ("mdurl", "mdurl"), ("linkify_it", "linkify_it_py"),
              ("pygments", "pygments"), ("nh3", "nh3"),
              ("ftfy", "ftfy"))


@dataclass(frozen=True, kw_only=True)
class Replay:
    """What a rebuild of exactly the state ``state`` reports (see replay.py)."""

    state: str
    topics: tuple[tuple[str, str, int], ...]  # (deck name, output as shown, questions)
    diagnostics: tuple[Diagnostic, ...]
    acknowledged: int = 0  # warnings left out of ``diagnostics`` (BuildReport.acknowledged)


@dataclass(frozen=True)
class Cache:
    topics: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # -> (key, deck SHA-256)
    replay: Replay | None = None


def _digest(parts: Iterable[str]) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def folder_digest(folder: Path, pattern: str = "*") -> str:
    """A hash of the names and bytes of the files in ``folder`` and its subfolders (a
    template can include another from a subfolder)."""
    files = sorted(p for p in folder.rglob(pattern) if not p.is_dir())
    # A pipe or a device is never opened (files.read_regular); it counts as "?".
    return _digest(f"{p.relative_to(folder).as_posix()}:{file_sha256(p) or '?'}" for p in files)


@functools.cache
def code_digest() -> str:
    """This package's source, the versions of the libraries that shape a deck, and zlib's
    (compressed bytes depend on it): a cache written by other code is never trusted."""
    return _digest([folder_digest(Path(__file__).parent.parent, "*.py"),  # the whole package
                    *(_installed(name, dist) for name, dist in _LIBRARIES),
                    zlib.ZLIB_RUNTIME_VERSION, sys.version])


def _installed(name: str, dist: str) -> str:
    """Which version of library ``name`` is installed, without importing it: the name of
    its ``dist-VERSION.dist-info`` folder (importlib.metadata would cost 60 ms to load),
    else the bytes of its top module."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin:
        return f"{name}: none"
    origin = Path(spec.origin)
    folder = origin.parent.parent if origin.name == "__init__.py" else origin.parent
    try:
        infos = sorted(p.name for p in folder.iterdir()
                       if p.name.lower().startswith(f"{dist}-") and p.name.endswith(".dist-info"))
        if infos:
            return " ".join(infos)
        return f"{name}: {hashlib.sha256(origin.read_bytes()).hexdigest()}"
    except OSError:
        return f"{name}: unknown"


def topic_key(*, files: Iterable[str], deck: str, settings: str, templates: str,
              note_type: str, entries: Iterable[LockEntry], code: str) -> str:
    """The key of one topic (see the module docstring); ``files`` are its sources' hashes."""
    lines = (f"{e.guid} {e.part} {e.mod} {e.content_hash} {e.slots} {e.removed} {e.file}"
             for e in sorted(entries, key=lambda e: e.guid))
    return _digest([_FORMAT, *files, deck, settings, templates, note_type, code, *lines])


def state_path(cache: Path, source: Path, templates: Path, out: Path) -> Path:
    """The state file of builds of these folders in the cache folder ``cache``: builds of
    other folders sharing one cache (a preview into another output folder) keep their own."""
    folders = "\x1f".join(str(folder.resolve()) for folder in (source, templates, out))
    return cache / f"state-{_digest([folders])[:16]}.json"


_TAG = (b"Signature: 8a477f597d28d172789f06886806bc55\n"
        b"# This folder is the build cache of nca-anki: safe to delete, never to publish.\n"
        b"# See https://bford.info/cachedir/ (backup tools skip a folder tagged so).\n")


def tag_folder(cache: Path, write: Callable[[Path, bytes], object]) -> None:
    """Mark ``cache`` as a cache folder (CACHEDIR.TAG) with ``write``, once."""
    if not (cache / CACHE_TAG_NAME).is_file():
        write(cache / CACHE_TAG_NAME, _TAG)


def sweep_cache(cache: Path) -> None:
    """Remove temporary files a killed build left among the cache's entries."""
    if not (cache / CACHE_TAG_NAME).is_file():
        return  # not a folder we made: nothing in it is ours to delete
    remove_stale_temporaries(cache, ".json")
    for name, suffix in CACHE_FOLDERS:
        if not (cache / name).is_symlink():  # never delete through a link
            remove_stale_temporaries(cache / name, suffix)


def remove_old_caches(out: Path) -> None:
    """Delete the caches that versions before 2026-12 kept in the output folder (the
    folder learners download), with what killed builds left of them. What cannot be
    deleted is left for the next build."""
    try:
        (out / OLD_CACHE_FILE).unlink(missing_ok=True)
    except OSError:
        pass
    remove_stale_temporaries(out, OLD_CACHE_FILE, now=float("inf"))
    for name, suffix in OLD_CACHE_FOLDERS:
        folder = out / name
        if not folder.is_dir():
            continue
        remove_stale_temporaries(folder, suffix, now=float("inf"))
        try:
            for entry in folder.glob(f"*{suffix}"):
                entry.unlink(missing_ok=True)
            folder.rmdir()
        except OSError:
            pass


def load_cache(path: Path | None) -> tuple[Cache, tuple[Diagnostic, ...]]:
    """The cache at ``path``; an unreadable one is empty, with a warning. None: no cache."""
    if path is None or not path.is_file():
        return Cache(), ()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != _FORMAT:
            raise ValueError(f"format {data.get('format')!r}")
        topics = {str(topic): (str(item["key"]), str(item["sha256"]))
                  for topic, item in data["topics"].items()}
        replay = None
        if data.get("replay") is not None:
            item = data["replay"]
            replay = Replay(state=str(item["state"]),
                            topics=tuple((str(d), str(o), int(q)) for d, o, q in item["topics"]),
                            diagnostics=diagnostics_from_json(item["diagnostics"]),
                            acknowledged=_count(item.get("acknowledged", 0)))
        return Cache(topics, replay), ()
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return Cache(), (warning("W601", path.as_posix(), 0, "build cache ignored "
                                 f"({type(exc).__name__}: "
                                 f"{exc}); every topic is built again and the cache rewritten"),)


def dump_cache(cache: Cache) -> str:
    replay = cache.replay
    return json.dumps({
        "format": _FORMAT,
        "topics": {topic: {"key": key, "sha256": sha}
                   for topic, (key, sha) in sorted(cache.topics.items())},
        "replay": None if replay is None else {
            "state": replay.state, "topics": [list(t) for t in replay.topics],
            "diagnostics": diagnostics_json(replay.diagnostics),
            "acknowledged": replay.acknowledged},
    }, indent=1, ensure_ascii=False) + "\n"


def diagnostics_json(diagnostics: Iterable[Diagnostic]) -> list[list[object]]:
    return [[d.path, d.line, d.severity.value, d.message, d.code, d.question]
            for d in diagnostics]


def diagnostics_from_json(items: Iterable[list[object]]) -> tuple[Diagnostic, ...]:
    return tuple(Diagnostic(path=str(p), line=int(n), severity=Severity(s),  # type: ignore[call-overload,arg-type]
                            message=str(m), code=_code(c, s), question=_question(q))
                 for p, n, s, m, c, q in items)


def _count(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"not a count: {value!r}")
    return value


def _question(value: object) -> str:
    if not isinstance(value, str) or (value and not re.fullmatch(r"[0-9a-f]{12}", value)):
        raise ValueError(f"not a question fingerprint: {value!r}")
    return value


def _code(code: object, severity: object) -> str:
    """A cached diagnostic's code, checked: a cache is read back, so it is validated."""
    if code not in CODES or str(code)[0] != ("E" if severity == "error" else "W"):
        raise ValueError(f"unknown diagnostic code {code!r}")
    return str(code)
