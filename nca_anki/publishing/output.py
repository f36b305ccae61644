"""Write build results atomically, or not at all.

A file is written to a temporary file in its own folder, flushed, then renamed over the
target, so a reader sees the old file or the new one, never half of one. Identical content
is not rewritten (the file and its time stay as they are). Errors come back as messages.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# A temporary file is named ".<target>.<8 random characters>.tmp" next to its target.
_TEMP_RE = re.compile(r"^\.(?P<target>.+)\.[A-Za-z0-9_]{8}\.tmp$")
# A write renames its temporary file within moments; one older than this belongs to a
# build that was killed (SIGKILL, power loss) and can go.
STALE_AFTER_SECONDS = 60


class WriteError(Exception):
    """A file could not be written: ``path`` and ``reason`` say which and why."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def write_atomic(path: Path, data: bytes, durable: bool = True) -> bool:
    """Write ``data`` to ``path``; return False if it already held exactly ``data``.
    ``durable``: on disk (fsync) before it replaces the old file, so a power cut leaves
    one or the other; a cache, checked whenever it is read, need not wait for that."""
    try:
        if path.is_file() and not path.is_symlink() and path.read_bytes() == data:
            return False
    except OSError:
        pass  # unreadable: try to replace it, and report the write error if that fails
    tmp_name = None
    try:
        tmp_name = _temporary(path, data, durable, 0o644)
        os.replace(tmp_name, path)  # a link in its place is replaced, never followed
        tmp_name = None
    except OSError as exc:
        raise WriteError(path, f"cannot write: {exc.strerror or exc}; {_remedy(exc)} "
                         "(the previous file, if any, is unchanged)") from exc
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
    return True


def write_new(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` to ``path``, which must not exist: a file, a folder or a link there
    (even one pointing nowhere) raises FileExistsError and is left as it is; other
    failures raise OSError. As ``write_atomic``: whole or absent, through a temporary
    file of a name no one can guess, so nothing is ever written through a link planted
    at a name known in advance. The temporary file is linked to ``path`` (which fails if
    anything is there, with no moment between the look and the write); on a file system
    without hard links it is renamed once nothing is seen there."""
    tmp_name = _temporary(path, data, True, mode)
    try:
        try:
            os.link(tmp_name, path)
        except FileExistsError:
            raise
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV,
                                 errno.EMLINK, errno.ENOSYS):
                raise
            if os.path.lexists(path):
                raise FileExistsError(errno.EEXIST, "File exists", str(path)) from exc
            os.rename(tmp_name, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)


def _temporary(path: Path, data: bytes, durable: bool, mode: int) -> str:
    """A new file beside ``path``, holding ``data`` with ``mode``, named
    ".<name>.<8 random characters>.tmp" and created exclusively (mkstemp: O_EXCL, so
    never through a link); its name. Deleted again if it cannot be written whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            if durable:
                os.fsync(tmp.fileno())
        os.chmod(tmp_name, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    return tmp_name


def _remedy(exc: OSError) -> str:
    """What the user can do about a failed write."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "free space on that disk and build again"
    if exc.errno == errno.EROFS:
        return "the disk is read-only: build into a writable folder (--out DIR)"
    return "check that the folder is writable"


def write_cache(path: Path, data: bytes) -> bool:
    """``write_atomic`` for a cache entry: atomic, not waited onto the disk (a cache is
    checked when it is read, and losing it costs only time). Writing the 100 parse-cache
    entries of a 10,000-question build durably took 0.1 s."""
    return write_atomic(path, data, durable=False)


def temporary_target(name: str) -> str | None:
    """The name of the file a temporary file called ``name`` was being written for; None
    if ``name`` is not one of ours."""
    found = _TEMP_RE.match(name)
    return found.group("target") if found else None


def remove_stale_temporaries(folder: Path, target_suffix: str, now: float | None = None
                             ) -> list[Path]:
    """Delete temporary files a killed build left in ``folder`` for targets ending in
    ``target_suffix``; return them. Young ones may belong to a build running right now."""
    now = time.time() if now is None else now
    removed = []
    try:
        candidates = list(folder.iterdir())
    except OSError:
        return []
    for path in candidates:
        target = temporary_target(path.name)
        if target is None or not target.endswith(target_suffix):
            continue
        try:
            if path.is_file() and now - path.stat().st_mtime > STALE_AFTER_SECONDS:
                path.unlink()
                removed.append(path)
        except OSError:
            pass  # gone already, or not ours to delete: the build goes on
    return removed


def inside(folder: Path, path: Path) -> bool:
    """True if ``path`` resolves to a location inside ``folder``."""
    return path.resolve().is_relative_to(folder.resolve())


def replace_folder(folder: Path, files: dict[str, bytes], marker: str,
                   written: Callable[[bytes], set[str] | None]) -> dict[str, bool]:
    """Make ``folder`` hold exactly ``files`` (name -> bytes; names may hold "/"), whole:
    the new folder is written beside it and renamed into its place, so a reader, or a
    build killed at any moment, finds the old folder or the new one. Only an empty folder,
    none, or one that holds nothing but what its file ``marker`` says was written there
    (``written`` reads the names from it; None: not a marker) is replaced; anything else
    raises WriteError and is left untouched. Returns, for each name, whether its bytes
    are new (False: the folder held them already)."""
    if folder.is_symlink():
        raise WriteError(folder, "is a link; name a folder (links are not followed)")
    if folder.exists() and not folder.is_dir():
        raise WriteError(folder, "is a file, not a folder; name a new or empty folder")
    try:
        held = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
    except OSError as exc:
        raise WriteError(folder, f"cannot read it: {exc.strerror or exc}") from exc
    if held:
        names = _marked(folder, held, marker, written)
        if names is None:
            raise WriteError(folder, f"holds files this tool did not write (no {marker}); "
                             "nothing in it was changed: name a new or empty folder")
        if held - names:
            raise WriteError(folder, f"holds {sorted(held - names)[0]!r}, which this tool did "
                             "not write; nothing in the folder was changed: move that away, "
                             "or name a new or empty folder")
    parent = folder.parent if folder.parent != Path("") else Path(".")
    _remove_stale_folders(parent, folder.name, marker, written)
    changed = {}
    new = None
    try:
        parent.mkdir(parents=True, exist_ok=True)
        new = Path(tempfile.mkdtemp(dir=parent, prefix=f".{folder.name}.new-"))
        # The marker first: a folder left by a build killed while writing is then known
        # as this tool's by what it holds, not only by its name (_remove_stale_folders).
        for name, data in sorted(files.items(), key=lambda item: item[0] != marker):
            target = new / name
            if not inside(new, target):
                raise ValueError(f"{name!r} is not a name inside the folder")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            os.chmod(target, 0o644)
            try:
                changed[name] = (folder / name).read_bytes() != data
            except OSError:
                changed[name] = True
        os.chmod(new, 0o755)
        _swap(new, folder)
        new = None
    except OSError as exc:
        raise WriteError(folder, f"cannot write: {exc.strerror or exc}; {_remedy(exc)} "
                         "(the folder, if any, is as it was)") from exc
    finally:
        if new is not None:
            shutil.rmtree(new, ignore_errors=True)
    return changed


def _swap(new: Path, folder: Path) -> None:
    """Rename ``new`` to ``folder``, moving the old ``folder`` out of the way first and
    deleting it after. Another build may do the same at once: the later one wins."""
    for _ in range(5):
        old = None
        if folder.exists():
            old = Path(tempfile.mkdtemp(dir=new.parent, prefix=f".{folder.name}.old-"))
            try:
                os.replace(folder, old)  # onto the empty folder just made
            except FileNotFoundError:  # another build moved it meanwhile
                old.rmdir()
                old = None
        try:
            os.rename(new, folder)
        except OSError as exc:
            if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                if old is not None:
                    os.replace(old, folder)  # put the old one back
                raise
            continue  # another build put its folder there meanwhile: move that one away
        finally:
            if old is not None and old.exists():
                shutil.rmtree(old, ignore_errors=True)
        return
    raise OSError(errno.EBUSY, "other builds keep replacing it")


def _marked(folder: Path, held: set[str], marker: str,
            written: Callable[[bytes], set[str] | None]) -> set[str] | None:
    """The names ``folder`` (holding ``held``) has from this tool, as its ``marker`` lists
    them; None if it has no marker of ours."""
    try:
        names = written((folder / marker).read_bytes()) if marker in held else None
    except OSError:
        return None
    return None if names is None else names | {n.split("/")[0] for n in names}


def _remove_stale_folders(parent: Path, name: str, marker: str,
                          written: Callable[[bytes], set[str] | None],
                          now: float | None = None) -> None:
    """Delete what a killed replace_folder left beside ``name``: a folder named as its
    temporary folders are, older than a build (a young one may be a build's running right
    now), and holding nothing, or nothing but what its ``marker`` says this tool wrote
    there. Anything else with such a name is the user's, and stays."""
    now = time.time() if now is None else now
    try:
        candidates = [p for p in parent.iterdir()
                      if p.name.startswith((f".{name}.new-", f".{name}.old-"))]
    except OSError:
        return
    for path in candidates:
        try:
            if not path.is_dir() or path.is_symlink() \
                    or now - path.stat().st_mtime <= STALE_AFTER_SECONDS:
                continue
            held = {p.name for p in path.iterdir()}
            names = _marked(path, held, marker, written) if held else set()
            if names is not None and held <= names:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass
