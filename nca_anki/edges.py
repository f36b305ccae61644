"""The edges a build is handed by the command: the clock (or SOURCE_DATE_EPOCH), the cores
this process may use, the cycle collector, the terminal (progress bars, output a
terminal cannot encode), what the last git commit holds of the outputs, and this user's
key for the render cache. The library
itself reads none of them (house style: the clock, the environment and signals are
resolved at the command).
"""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from nca_anki.files import INDEX_FILES, LOCK_NAME, read_regular

if TYPE_CHECKING:
    from nca_anki.report import Committed

PROGRESS_AFTER_SECONDS = 2.0  # a quicker build shows no progress bar at all


class ProgressBars:
    """One tqdm bar per build stage, on stderr, shown only once the build has run for
    ``PROGRESS_AFTER_SECONDS`` and only on a terminal; each clears itself when done."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started = time.monotonic()
        isatty = getattr(stream, "isatty", None)
        self.enabled = bool(isatty and isatty())
        self.bar: Any = None

    def start(self, stage: str, total: int) -> None:
        self.close()
        if not self.enabled:
            return
        import tqdm  # only on a terminal: not worth loading otherwise

        tqdm.tqdm.monitor_interval = 0  # no monitor thread: the build forks workers
        waited = time.monotonic() - self.started
        with _output_may_be_gone():
            self.bar = tqdm.tqdm(total=total, desc=stage, unit=" questions", file=self.stream,
                                 leave=False, dynamic_ncols=True,
                                 delay=max(0.0, PROGRESS_AFTER_SECONDS - waited))

    def advance(self, done: int) -> None:
        if self.bar is not None:
            with _output_may_be_gone():
                self.bar.update(done)

    def note(self, message: str) -> None:
        self.close()
        with _output_may_be_gone():
            print(message, file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            with _output_may_be_gone():
                self.bar.close()
            self.bar = None


@contextlib.contextmanager
def _output_may_be_gone() -> Iterator[None]:
    """What the build shows while it runs is for the eye only: a stream closed meanwhile
    (a closed pipe, a terminal gone) must not stop the build, which then publishes as it
    would have; the command finds the stream closed when it prints the report."""
    try:
        yield
    except (OSError, ValueError):
        pass


# The exit status of a command whose output was closed before it was all printed (a
# reader such as ``| head -1`` that stopped reading): a shell's for a command that
# SIGPIPE ended, 128 + 13.
OUTPUT_CLOSED = 141


def flush_output() -> None:
    """Write out what stdout and stderr still hold, while a closed output can still be
    told (BrokenPipeError) rather than found by the interpreter as it exits."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()


def output_closed() -> int:
    """After a BrokenPipeError: whatever stdout and stderr still hold, and anything
    printed later, goes to the null device (os.dup2), so nothing is written to a closed
    pipe again and the interpreter's own flush at exit finds nothing to complain about;
    OUTPUT_CLOSED. The recommended pattern of Python's documentation (signal module,
    "Note on SIGPIPE")."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return OUTPUT_CLOSED
    try:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, OSError, ValueError):
                os.dup2(null, stream.fileno())
    finally:
        os.close(null)
    return OUTPUT_CLOSED


def clock() -> tuple[int, bool]:
    """The build's time, and whether it is this machine's real clock: SOURCE_DATE_EPOCH
    (reproducible builds) when it is set (checked by arguments.epoch_problem), else the clock."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    return (int(epoch), False) if epoch else (int(time.time()), True)


def cores() -> int:
    """The cores this process may use (a container's share, on Linux)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# The room a folder in memory must have free to take scratch files (``scratch``).
SCRATCH_ROOM = 1 << 30


def scratch() -> Path | None:
    """A folder for scratch files that memory holds (a tmpfs: ``/dev/shm`` on Linux),
    when this machine has one that is writable with a gigabyte free; None otherwise (the
    system's temporary folder, on disk). The bundle is merged there when it is small
    (package.merge_packages): SQLite writing its pages into the page cache of a disk's
    file system took a third of the merge (70 ms against 46 ms for 10,000 questions)."""
    folder = Path("/dev/shm")
    try:
        if not (sys.platform.startswith("linux") and folder.is_dir()
                and os.access(folder, os.W_OK | os.X_OK)):
            return None
        room = os.statvfs(folder)
    except OSError:
        return None
    return folder if room.f_bavail * room.f_frsize >= SCRATCH_ROOM else None


def wait_until(moment: int) -> None:
    """Return once ``moment`` (a build's newest note time, BuildReport.newest) is past."""
    delay = moment - time.time()
    if 0 < delay <= 2:
        time.sleep(delay)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the build, back as it was after. A build makes
    hundreds of thousands of objects that live until it ends and form no cycles that
    matter, and the collector scanned them again and again: a tenth of a full build's
    time (docs/speed.md). Frozen objects are also never touched by it in the forked
    workers, so their memory stays shared with the parent (copy-on-write)."""
    enabled = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def tolerant_output() -> None:
    """Print what a terminal cannot encode as escapes instead of failing after the build
    (a deck name with a dash on an ASCII or legacy Windows console)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass  # not a text stream we own (a test's capture, say): leave it


KEY_BYTES = 32


def render_key(environ: Mapping[str, str] = os.environ) -> bytes | None:
    """The key this user's builds sign the notes they keep in the render cache with
    (caching/entries.py, ``RenderCache``): 32 random bytes in the user's own cache folder
    (``$XDG_CACHE_HOME/nca-anki/render.key``, else ``~/.cache/...``), made by the first
    build, readable by this user alone. It is kept outside the project on purpose: a
    project's cache folder that came from elsewhere (a shared zip, a restored CI cache)
    was signed with another key, so the HTML it holds never reaches a deck. None when it
    cannot be read or made: the build then renders every note."""
    home = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(home) / "nca-anki" / "render.key"
    key: bytes | None
    try:
        key = read_regular(path, KEY_BYTES)  # a pipe there is refused, never waited on
    except FileNotFoundError:
        key = _new_key(path)
    except OSError:
        return None
    return key if key is not None and len(key) == KEY_BYTES else None


def _new_key(path: Path) -> bytes | None:
    """A new key written to ``path`` (mode 0600, whole, never through a link:
    output.write_new); None if it cannot be, or if another build is making it right now
    (it is read next time)."""
    from nca_anki.publishing.output import write_new

    key = os.urandom(KEY_BYTES)
    try:
        write_new(path, key, mode=0o600)  # never replaces a key another build made meanwhile
    except OSError:
        return None
    return key


def committed(source: Path, templates: Path, out: Path) -> Committed | None:
    """What the last git commit holds of the lock and the output folder, when the inputs
    (question files, settings, images, templates) are exactly as committed and the lock
    or the outputs are not: an edit was built, then undone. Measured against the commit,
    the build then writes back what was committed, and learners get no "changed" card
    for a change that is not there. None in every other case, and whenever git cannot
    tell: not a repository, git absent, a merge or rebase under way, outputs never
    committed (then the output folder is the only record of what was published)."""
    from nca_anki.report import Committed

    def git(*args: str, data: bytes | None = None) -> bytes | None:
        try:
            done = subprocess.run(["git", "-C", str(source), *args], input=data,
                                  capture_output=True, timeout=60, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout if done.returncode == 0 else None

    found = git("rev-parse", "--show-toplevel", "--absolute-git-dir")
    if found is None or len(found.splitlines()) != 2:
        return None
    top, git_dir = (Path(line.decode(errors="surrogateescape")) for line in found.splitlines())
    if any((git_dir / name).exists() for name in
           ("MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD")):
        return None
    try:
        paths = [p.resolve().relative_to(top.resolve()).as_posix()
                 for p in (source, templates, out)]
    except (OSError, RuntimeError, ValueError):
        return None  # a folder outside the repository
    source_at, templates_at, out_at = paths
    lock_at = f"{source_at}/{LOCK_NAME}" if source_at != "." else LOCK_NAME

    def changed(*where: str) -> list[str] | None:
        listed = git("-C", str(top), "status", "--porcelain=v1", "-z", "--untracked-files=all",
                     "--", *where)
        return None if listed is None else [
            entry[3:].decode(errors="surrogateescape") for entry in listed.split(b"\0")
            if len(entry) > 3]

    inputs = changed(source_at, templates_at)
    outputs = changed(lock_at, out_at)
    if inputs is None or outputs is None or [p for p in inputs if p != lock_at] or not outputs:
        return None
    listed = git("-C", str(top), "ls-tree", "-z", "--name-only", "HEAD", "--", f"{out_at}/")
    names = [] if listed is None else [n.decode(errors="surrogateescape")
                                       for n in listed.split(b"\0") if n]
    names = [n for n in names if "/" not in n[len(out_at) + 1:] and
             (n.endswith(".apkg") or n.rsplit("/", 1)[-1] in INDEX_FILES)]
    if not any(n.endswith(".apkg") for n in names):
        return None
    wanted = [lock_at, *names]
    blobs = git("-C", str(top), "cat-file", "--batch",
                data="".join(f"HEAD:{n}\n" for n in wanted).encode(errors="surrogateescape"))
    if blobs is None:
        return None
    contents: dict[str, bytes | None] = {}
    at = 0
    for name in wanted:  # "<sha> blob <size>\n<bytes>\n", or "<object> missing\n"
        end = blobs.index(b"\n", at)
        header = blobs[at:end].split()
        if len(header) != 3:
            contents[name], at = None, end + 1
            continue
        size = int(header[2])
        contents[name], at = blobs[end + 1:end + 1 + size], end + 2 + size
    lock = contents.pop(lock_at)
    try:
        lock_text = lock.decode("utf-8") if lock is not None else None
    except UnicodeDecodeError:
        return None
    return Committed(lock_text, {n.rsplit("/", 1)[-1]: data for n, data in contents.items()
                                 if data is not None})


def lock_history(source: Path) -> list[str]:
    """Every question line the lock in ``source`` has had, from git's history of it
    (lines added and removed by each commit); [] when git cannot tell (not a
    repository, git absent). For ``locate``: the change times a question ever had."""
    try:
        done = subprocess.run(["git", "-C", str(source), "log", "--format=", "-p", "-U0",
                               "--no-color", "--no-ext-diff", "--", LOCK_NAME],
                              capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    if done.returncode != 0:
        return []
    return [line[1:] for line in done.stdout.decode("utf-8", "replace").splitlines()
            if line.startswith(("+Q ", "-Q "))]
