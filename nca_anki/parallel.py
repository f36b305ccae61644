"""Run one task per topic on several cores, where that pays; the results are the same.

The workers are forked from the build, so they inherit everything it has read and
rendered: a task is only an index into data the parent already holds, and only small
results (note fields, a status, a hash) travel back. Shipping the parsed questions to
workers instead would cost about as much as rendering them (measured: pickling and
unpickling 10,000 parsed questions took 0.7 s).

Where forking is not safe or not available (Windows has no fork; macOS's system libraries
may not survive one), with one core, or for little work, the tasks run in this process,
one after another. Either way the results come back in task order, so the output is
byte for byte the same.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any, Generic, Self, TypeVar, cast

T = TypeVar("T")

# Below this many questions a build is done before forked workers would pay for themselves.
# Measured on this project's 2-core machine (whole command, 4 topics, medians of 3):
# 250 questions 0.93 s with one process, 1.03 s with two; 500: 1.13 s, 1.06 s; 1,000:
# 1.51 s, 1.28 s; 2,000: 2.23 s, 1.82 s.
MIN_QUESTIONS = 500

def worker_count(requested: int | None, cores: int, questions: int) -> int:
    """How many processes to use: ``requested`` (--jobs) if given, else all ``cores``
    when there is enough work and forking is safe here, else 1."""
    if requested is not None:
        return max(1, requested) if can_fork() else 1
    if questions < MIN_QUESTIONS or not can_fork():
        return 1
    return max(1, cores)


def can_fork() -> bool:
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


class _Worker:
    """What one forked worker runs. The task reaches it through the fork itself (a
    process's arguments are inherited, never pickled, under "fork"), so the process that
    calls ``run_tasks`` keeps no state of it."""

    task: Callable[[int], object] | None = None  # set in the worker only, once

    @classmethod
    def start(cls, task: Callable[[int], object]) -> None:
        # Ctrl-C reaches every process in the terminal's group; the parent alone handles
        # it (and stops the workers), so the user sees one message, not one per worker.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        cls.task = task

    @classmethod
    def run(cls, index: int) -> object:
        assert cls.task is not None
        return cls.task(index)


def run_tasks(task: Callable[[int], T], count: int, workers: int) -> Iterator[T]:
    """``task(0)``, ``task(1)``, ... ``task(count - 1)``, yielded in that order as each
    completes, on up to ``workers`` forked processes."""
    if workers <= 1 or count <= 1:
        for index in range(count):
            yield task(index)
        return
    context = multiprocessing.get_context("fork")
    with context.Pool(min(workers, count), initializer=_Worker.start,
                      initargs=(task,)) as pool:
        # One task at a time per worker: topics differ in size, and the big ones should
        # not queue behind each other on one worker.
        yield from pool.imap(_Worker.run, range(count), chunksize=1)


class Meanwhile(Generic[T]):
    """``work()``, started now on one forked process when ``fork`` is true (the caller
    has decided a second core pays: ``worker_count``), else run by ``result()`` in this
    process; the result is the same either way. Used as a context manager, so the
    process is stopped on every way out (an error, Ctrl-C, a result not wanted)."""

    def __init__(self, work: Callable[[], T], *, fork: bool) -> None:
        self._work = work
        self._pool: Any = None
        self._pending: Any = None
        if fork and can_fork():
            self._pool = multiprocessing.get_context("fork").Pool(
                1, initializer=_Worker.start, initargs=(lambda _: work(),))
            self._pending = self._pool.apply_async(_Worker.run, (0,))

    def result(self) -> T:
        """The result (once; the process, if any, is then stopped)."""
        if self._pending is None:
            return self._work()
        try:
            return cast(T, self._pending.get())
        finally:
            self.close()

    def close(self) -> None:
        """Stop the process, if any (its result, if it had one, is dropped)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = self._pending = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
