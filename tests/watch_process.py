"""A real ``build_decks.py --watch`` process, as an author runs it, for the tests that stop
it with real signals (tests/pipeline/test_watch.py, tests/publishing/test_transaction.py)."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from conftest import REPO

# A build's verdict, the last line of its report (nca_anki/commands/output.py, verdict).
VERDICT = re.compile(r"^(built|failed|checked)\b")
# A loaded CI machine: generous, never a guess.
TIMEOUT_SECONDS = 120


def _default_sigint() -> None:
    # A test run started in the background of a shell ignores SIGINT, and a child inherits
    # that; an author's terminal delivers it. The child gets the terminal's disposition.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class WatchProcess:
    """``--watch`` running in ``project`` with ``env``; its stderr is read line by line as
    it comes, its stdout when it ends. Killed on leaving the ``with`` block if still up."""

    def __init__(self, project: Path, env: Mapping[str, str]) -> None:
        self.child = subprocess.Popen([sys.executable, str(REPO / "build_decks.py"), "--watch"],
                                      cwd=project, env=dict(env), stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                      preexec_fn=_default_sigint)
        self.lines: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(
            target=lambda: [self.lines.put(line) for line in self.child.stderr or ()],
            daemon=True)
        self.reader.start()
        self.seen: list[str] = []

    def __enter__(self) -> WatchProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.child.poll() is None:
            self.child.kill()
            self.child.wait()

    def wait_for(self, text: str | re.Pattern[str]) -> None:
        """Until a line holding ``text`` (or matching it) is printed (fails if the process
        ends first)."""
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                assert self.child.poll() is None, "".join(self.seen)
                continue
            self.seen.append(line)
            if (text.match(line) if isinstance(text, re.Pattern) else text in line):
                return
        pytest.fail(f"no {text!r} within {TIMEOUT_SECONDS} s:\n{''.join(self.seen)}")

    def wait_for_verdict(self) -> None:
        """Until a build's report has ended (its verdict, the last line it prints): the
        watch then waits for the next change."""
        self.wait_for(VERDICT)

    def stop(self, signum: int) -> tuple[int, str, str]:
        """Send ``signum``; the exit status, stdout and all of stderr once it has ended."""
        self.child.send_signal(signum)
        out = self.child.stdout.read() if self.child.stdout else ""
        self.child.wait(timeout=TIMEOUT_SECONDS)
        self.reader.join(timeout=TIMEOUT_SECONDS)  # it ends when the process's stderr closes
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return self.child.returncode, out, "".join(self.seen)
