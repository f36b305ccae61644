"""The edges a build is handed by the command: the clock (or SOURCE_DATE_EPOCH), the cores
this process may use, the cycle collector, and the terminal (progress bars, output a
terminal cannot encode). The library itself reads none of them (house style: the
clock, the environment and signals are resolved at the command).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

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
        self.bar = tqdm.tqdm(total=total, desc=stage, unit=" questions", file=self.stream,
                             leave=False, dynamic_ncols=True,
                             delay=max(0.0, PROGRESS_AFTER_SECONDS - waited))

    def advance(self, done: int) -> None:
        if self.bar is not None:
            self.bar.update(done)

    def note(self, message: str) -> None:
        self.close()
        print(message, file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


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
