"""``build --watch``: build, then rebuild after each change to the inputs (watch.py), in
this process, so the libraries are loaded once; Ctrl-C or SIGTERM ends it with 0.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nca_anki.commands import output
from nca_anki.watch import changed_files, snapshot, wait_for_change

if TYPE_CHECKING:
    from nca_anki.diagnostics import Diagnostic
    from nca_anki.report import BuildReport

# What the build command hands the watch: one build (commands/build.py, run_build), and
# how its report is printed (print_report).
Build = Callable[..., "BuildReport | int"]
Show = Callable[["BuildReport", argparse.Namespace], None]


def watch(args: argparse.Namespace, build: Build, show: Show) -> int:
    """Build, then rebuild after each change to the inputs (watch.py), in this process, so
    the libraries are loaded once. A build with errors is reported and the watch goes on:
    the author fixes the file and saves again. Ctrl-C, or the SIGTERM of a service manager
    or `timeout`, ends it at any moment with exit status 0 and no traceback: between
    builds the last build is complete, and a build it interrupts publishes nothing
    (transaction.py). A bug of ours ends it as it ends any build (exit 3)."""
    stop = _Stop()
    previous: dict[signal.Signals, Any] = {}
    unraisable = sys.unraisablehook
    try:
        sys.unraisablehook = stop.unraisable(unraisable)
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(number, stop)
        status = _watch_loop(args, stop, build, show)
    except KeyboardInterrupt:
        status = 130
    finally:
        stop.requested = True  # a second signal while it ends is not another interrupt
        for number, handler in previous.items():
            signal.signal(number, handler)
        sys.unraisablehook = unraisable
    if status == 130:  # interrupted, between builds or in one
        with contextlib.suppress(OSError, ValueError):
            print("stopped watching", file=sys.stderr, flush=True)
        return 0
    return status


class _Stop:
    """The watch's handler of SIGINT and SIGTERM. The first signal asks it to stop
    (``requested``) and interrupts what runs (KeyboardInterrupt); a later one is ignored,
    so none escapes as a traceback while it ends.

    A signal can land in a finalizer (a ``__del__`` or a weak reference's callback, run
    when a last reference goes, or by the cycle collector at any allocation: after a
    build, its garbage is collected while the report prints). Python cannot pass an
    exception on from there: it prints "Exception ignored in ..." with a traceback and
    goes on, and the stop would be lost. ``unraisable`` keeps that silent, and ``check``,
    at each step of the watch (a build done, a report printed, each look at the files),
    ends it then."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: object) -> None:
        if not self.requested:
            self.requested = True
            raise KeyboardInterrupt

    def check(self) -> None:
        """Interrupt now if a stop was asked for and swallowed on its way."""
        if self.requested:
            raise KeyboardInterrupt

    def unraisable(self, previous: Callable[[Any], object]) -> Callable[[Any], object]:
        """A ``sys.unraisablehook`` silent about this stop's KeyboardInterrupt, and as
        ``previous`` about anything else."""
        def hook(info: Any) -> object:
            if self.requested and info.exc_type is KeyboardInterrupt:
                return None
            return previous(info)
        return hook


def _watch_loop(args: argparse.Namespace, stop: _Stop, build: Build, show: Show) -> int:
    """The watch's builds and waits; 130 once interrupted (any moment), 3 on a bug. Each
    rebuild says first what changed in the report since the last, and its report ends
    with the errors and the verdict, the last lines on the screen while the watch waits."""
    source, templates = Path(args.source), Path(args.templates)
    print(f"watching {source.as_posix()} and {templates.as_posix()}: each saved change is "
          "rebuilt; Ctrl-C to stop", file=sys.stderr, flush=True)
    seen = snapshot(source, templates)
    replayed = not args.strict and args.preview is None
    outcome = build(args, check=False, replayed=replayed)
    before: tuple[Diagnostic, ...] | None = None  # what the builds so far have found
    while not isinstance(outcome, int):
        stop.check()
        if before is not None:
            for line in output.changes(before, outcome.diagnostics,
                                          output.unchecked(outcome)):
                print(line, file=sys.stderr)
        show(outcome, args)
        stop.check()
        before = output.known(before or (), outcome)
        current = wait_for_change(seen, source, templates, stop.check)
        changed = changed_files(seen, current)
        named = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more"
                                          if len(changed) > 3 else "")
        print(f"\n{time.strftime('%H:%M:%S')} changed: {named}; rebuilding",
              file=sys.stderr, flush=True)
        seen = current
        outcome = build(args, check=False, replayed=replayed)
    return outcome
