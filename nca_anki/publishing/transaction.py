"""Publish a build's files together, all of them or none, one build at a time
(docs/architecture.md, "Publishing is one transaction").

A build *stages* each file it changes - the lock in the source folder, the decks and the
index files in the output folder - as ``.<name>.staged`` beside it, whole and on disk.
Only when everything is staged does it *commit*: it writes a journal naming the staged
files into the output folder, renames each over its target, and deletes the journal.

- A build killed before the journal is written has published nothing: the next build
  deletes the staged files (``recover``) and starts from the state before it.
- A build killed after has published everything, in effect: the next build finishes the
  renames the journal names before it reads anything, and starts from the state an
  uninterrupted build leaves.

Either way a rebuild gives the bytes an uninterrupted build gives; ``pending`` lets
``--check`` and ``--verify`` say that an interrupted build is still to be finished.

``hold`` keeps a second build of the same folders out meanwhile: a build holds an
exclusive lock (``flock``) on the source and output folders from before it reads them
until it has committed; ``--check`` holds a shared one. A second build waits.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.publishing.output import (WriteError, remove_stale_temporaries, temporary_target,
                                        write_atomic)

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no locking (docs/architecture.md)
    fcntl = None  # type: ignore[assignment]

STAGED_SUFFIX = ".staged"
JOURNAL_NAME = ".nca-anki-publishing.json"  # in the output folder, only mid-commit
_FORMAT = "nca-anki-publishing-1"
# What a build publishes, by folder: the lock in "source", decks and index in "out".
_SUFFIXES = {"source": (".lock", ".lock.json"), "out": (".apkg", ".json", ".md")}


def staged(path: Path) -> Path:
    """Where ``path``'s new content waits until the commit."""
    return path.with_name(f".{path.name}{STAGED_SUFFIX}")


def stage(path: Path, data: bytes, same: bool | None = None) -> bool:
    """Stage ``data`` for ``path``; False (nothing staged) if ``path`` already holds
    exactly it (``same``, when the caller knows from a read of its own; else ``path`` is
    read). Raises output.WriteError if it cannot be staged, or if something other than a
    file is in the way (the commit could not rename over it)."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise WriteError(path, "cannot write: something other than a file is in its place "
                         "(a folder or a link); move it away and build again")
    if same is None:
        try:
            same = path.is_file() and path.read_bytes() == data
        except OSError:
            same = False  # unreadable: stage it; the commit replaces it or says why not
    if same:
        return False
    write_atomic(staged(path), data)  # whole or absent, and on disk
    return True


def _staged_targets(folders: Mapping[str, Path]) -> list[tuple[str, str]]:
    """(folder key, target name) of every staged file in ``folders``."""
    found = []
    for key, folder in sorted(folders.items()):
        try:
            names = sorted(p.name for p in folder.iterdir())
        except OSError:
            continue
        for name in names:
            target = name[1:-len(STAGED_SUFFIX)] if name.startswith(".") \
                and name.endswith(STAGED_SUFFIX) else ""
            if _valid_name(key, target):
                found.append((key, target))
    return found


def _valid_name(key: str, name: str) -> bool:
    """A file this module may stage, rename or delete: a plain name in a known folder,
    with one of that folder's suffixes (never a path, never a hidden file)."""
    return (key in _SUFFIXES and bool(name) and name == Path(name).name
            and name not in (".", "..") and not name.startswith(".")
            and "\\" not in name and "\x00" not in name and name.endswith(_SUFFIXES[key]))


def abandon(folders: Mapping[str, Path]) -> None:
    """Delete every staged file, and the temporary files of unfinished writes of our
    files (output.write_atomic's): nothing of this build is published. Only while
    holding ``hold``: no other build's write is under way."""
    for key, name in _staged_targets(folders):
        with contextlib.suppress(OSError):
            staged(folders[key] / name).unlink()
    for key, folder in folders.items():
        for suffix in (*_SUFFIXES[key], STAGED_SUFFIX):
            remove_stale_temporaries(folder, suffix, now=float("inf"))


def commit(folders: Mapping[str, Path], delete: Iterable[tuple[str, str]] = ()) -> int:
    """Publish every staged file in ``folders`` (keys "source" and "out") and delete the
    files named in ``delete`` (folder key, name); return how many files were published.
    Raises output.WriteError if the journal cannot be written (nothing published then:
    the staged files are deleted) or a rename fails (the journal stays, and the next
    build finishes the commit once the cause is mended)."""
    files = _staged_targets(folders)
    gone = [(k, n) for k, n in delete if _valid_name(k, n) and (folders[k] / n).exists()]
    if not files and not gone:
        return 0
    journal = folders["out"] / JOURNAL_NAME
    record = {"format": _FORMAT, "publish": [list(f) for f in files],
              "delete": [list(g) for g in gone]}
    try:
        write_atomic(journal, (json.dumps(record, indent=1) + "\n").encode())
        _sync_folder(folders["out"])
    except WriteError:
        abandon(folders)
        raise
    _finish(folders, files, gone)
    return len(files)


def _finish(folders: Mapping[str, Path], files: list[tuple[str, str]],
            gone: list[tuple[str, str]]) -> None:
    """The renames and deletions a journal names, then the journal's removal. Each step
    can be done again: a file already renamed has no staged file left."""
    for key, name in files:
        target = folders[key] / name
        try:
            if staged(target).exists():
                os.replace(staged(target), target)
        except OSError as exc:
            raise WriteError(target, f"cannot write: {exc.strerror or exc}; the other files "
                             "of this build are published and this one waits beside it: "
                             "mend the cause and build again to finish") from exc
    for key, name in gone:  # one that cannot be deleted is only left over
        with contextlib.suppress(OSError):
            (folders[key] / name).unlink()
    for folder in {folders[key] for key, _ in (*files, *gone)}:
        _sync_folder(folder)
    journal = folders["out"] / JOURNAL_NAME
    journal.unlink()
    _sync_folder(folders["out"])


def _sync_folder(folder: Path) -> None:
    """The renames in ``folder`` on disk too (a power cut after it keeps them)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def interrupted(folders: Mapping[str, Path]) -> bool:
    """True if an interrupted build left anything in ``folders``: a journal, a staged file,
    or a temporary file of an unfinished write (output.write_atomic's). The no-op replay
    then runs the build, whose ``recover`` settles it, rather than answer around it."""
    for key, folder in folders.items():
        try:
            names = [p.name for p in folder.iterdir()]
        except OSError:
            continue
        ours = (*_SUFFIXES[key], STAGED_SUFFIX)
        for name in names:
            target = temporary_target(name)
            if name == JOURNAL_NAME or name.startswith(".") and name.endswith(STAGED_SUFFIX) \
                    or target is not None and target.endswith(ours):
                return True
    return False


def settle(folders: Mapping[str, Path]) -> None:
    """After a build stopped part way (Ctrl-C, a bug): once its journal is written it has
    published, so the commit is finished; before, what it staged is deleted. Never
    raises: what cannot be settled now, the next build's ``recover`` settles."""
    try:
        if (folders["out"] / JOURNAL_NAME).exists():
            recover(folders)
        else:
            abandon(folders)
    except Exception:  # noqa: BLE001 - the next build's recover says what is wrong
        pass


def pending(out: Path) -> Diagnostic | None:
    """An error if an interrupted build's commit is still to be finished in ``out``."""
    journal = out / JOURNAL_NAME
    if not journal.exists():
        return None
    return error("E503", journal.as_posix(), 0, "a build was interrupted while it published: some "
                 "files are new and some old; build once (without --check or --verify) to "
                 "finish publishing, then check again")


def recover(folders: Mapping[str, Path]) -> list[Diagnostic]:
    """Before a build reads anything: finish the commit an interrupted build began (its
    journal is in the output folder), else delete what an interrupted build staged but
    never committed. Call only while holding ``hold``."""
    journal = folders["out"] / JOURNAL_NAME
    if not journal.exists():
        abandon(folders)
        return []
    try:
        record = json.loads(journal.read_text(encoding="utf-8"))
        files = _entries(record, "publish")
        gone = _entries(record, "delete")
        if record.get("format") != _FORMAT:
            raise ValueError(f"format {record.get('format')!r}")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError) as exc:
        return [error("E503",
                      journal.as_posix(), 0, f"damaged record of an interrupted build ({exc}); "
                      "restore the output folder and the lock from version control, delete "
                      "this file and the .staged files beside it, and build again")]
    try:
        _finish(folders, files, gone)
    except (WriteError, OSError) as exc:
        shown = exc.path.as_posix() if isinstance(exc, WriteError) else journal.as_posix()
        reason = exc.reason if isinstance(exc, WriteError) else str(exc)
        return [error("E501", shown, 0, reason)]
    return [warning("W501", journal.as_posix(), 0, f"a build was interrupted while it published; "
                    f"finished publishing its {len(files)} file(s) before this build")]


def _entries(record: object, key: str) -> list[tuple[str, str]]:
    """The journal's (folder key, name) pairs under ``key``, each checked: a journal is
    read back from the output folder, so it names nothing outside the folders we own."""
    if not isinstance(record, dict) or not isinstance(record.get(key), list):
        raise ValueError(f"no {key} list")
    pairs = []
    for item in record[key]:
        if not (isinstance(item, list) and len(item) == 2
                and all(isinstance(part, str) for part in item)
                and _valid_name(item[0], item[1])):
            raise ValueError(f"{item!r} is not a file this tool publishes")
        pairs.append((item[0], item[1]))
    return pairs


@contextlib.contextmanager
def hold(folders: Iterable[Path], *, shared: bool = False,
         on_wait: Callable[[str], None] = lambda message: None) -> Iterator[None]:
    """Hold a lock on each existing folder of ``folders`` (exclusive, or ``shared`` for a
    build that only reads) until the block ends; a build that holds one already makes
    this wait, after ``on_wait`` says so. Folders are taken in one order, so two builds
    never each hold one the other waits for. The lock ends with the process, however it
    ends (a killed build holds nothing)."""
    fds = []
    try:
        for folder in sorted({Path(os.path.realpath(f)) for f in folders if f.is_dir()},
                             key=str):
            try:
                fd = os.open(folder, os.O_RDONLY)
            except OSError:
                continue  # unreadable: the build says so when it reads it
            fds.append(fd)
            if fcntl is None:
                continue
            mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
            except BlockingIOError:
                on_wait(f"another build is using {folder.as_posix()}; waiting for it to "
                        "finish (Ctrl-C to give up)")
                fcntl.flock(fd, mode)
            except OSError:
                pass  # a file system without locks: build unguarded, as before
        yield
    finally:
        for fd in fds:
            os.close(fd)
