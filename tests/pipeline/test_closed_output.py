"""An output closed before everything was printed (``build_decks.py ... | head -1``,
``| true``): every command ends quietly with exit status 141, as a shell reports a
command that SIGPIPE ended, and what it writes to files is whole all the same. Real
processes on real pipes: the reader closes its end before the command writes, or reads
one line and closes while the command still has more to print than the pipe holds.
And a signal that arrives while a report prints never ends in a traceback."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from conftest import REPO

OUTPUT_CLOSED = 141
TIMEOUT_SECONDS = 120  # a loaded CI machine: a limit that only ends a hang
PIPE_BYTES = 4096  # the smallest pipe Linux makes (one page): see _small


def _command(*args: str) -> list[str]:
    return [sys.executable, str(REPO / "build_decks.py"), *args]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}


def _small(fd: int) -> None:
    """Make the pipe of ``fd`` hold one page: a command's output of a few kilobytes then
    fills it, and the command is still printing when its reader stops."""
    setting = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setting is None:  # pragma: no cover - not Linux
        pytest.skip("the pipe's size cannot be set here")
    assert fcntl.fcntl(fd, setting, PIPE_BYTES) == PIPE_BYTES


def _run_closed(args: Sequence[str], cwd: Path, closed: str) -> tuple[int, str, str]:
    """Run the command with ``closed`` ("stdout", "stderr" or "both") a pipe whose reader
    has gone before the command started; (status, stdout, stderr) of what was not."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            list(args), cwd=cwd, env=_env(), text=True, timeout=TIMEOUT_SECONDS,
            stdout=writer if closed in ("stdout", "both") else subprocess.PIPE,
            stderr=writer if closed in ("stderr", "both") else subprocess.PIPE)
    finally:
        os.close(writer)
    return done.returncode, done.stdout or "", done.stderr or ""


def _quiet(*said: str) -> None:
    for text in said:
        assert "Traceback" not in text and "internal error" not in text \
            and "Exception ignored" not in text and "Broken pipe" not in text, text


def _published_whole(project: Path) -> None:
    """Nothing half-written or staged is left, and the output is what the source builds
    (--verify finds nothing stale)."""
    for folder in (project / "dist", project / "source"):
        assert not [p.name for p in folder.iterdir()
                    if p.name.startswith(".") and p.name != ".gitignore"], folder
    done = subprocess.run(_command("--verify"), cwd=project, env=_env(), text=True,
                          capture_output=True, timeout=TIMEOUT_SECONDS)
    assert done.returncode == 0, done.stderr


# Every command, with what it needs: its arguments, the streams it prints on, and its
# exit status when both are open. The build's write the decks before they print.
_COMMANDS = {
    "build": (["--no-cache"], "both", 0),
    "replayed build": ([], "both", 0),
    "check": (["--check"], "both", 0),
    "json": (["--json"], "stdout", 0),
    "verify": (["--verify"], "both", 0),
    "watch": (["--watch"], "both", None),
    "import": (["import", "bank.txt", "--out", "imported"], "both", 0),
    "locate": (["locate", "gradient"], "stdout", 0),
    "locate, nothing found": (["locate", "no question says this"], "stderr", 1),
    "stats": (["stats", "learner.apkg"], "both", 1),
    "report-form": (["report-form", "form", "--repository", "study/bank"], "stdout", 0),
    "help": (["-h"], "stdout", 0),
    "version": (["--version"], "stdout", 0),
    "import help": (["import", "-h"], "stdout", 0),
    "locate help": (["locate", "-h"], "stdout", 0),
    "usage error": (["--no-such-option"], "stderr", 2),
}
_BANK = """1. Which planet is known as the red planet?
A. Venus
B. Mars
C. Jupiter
Answer: B
"""


def _prepare(project: Path, name: str) -> None:
    (project / "bank.txt").write_text(_BANK, encoding="utf-8")
    if name in ("replayed build", "check", "verify", "locate", "stats"):
        done = subprocess.run(_command(), cwd=project, env=_env(), capture_output=True,
                              timeout=TIMEOUT_SECONDS)
        assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("closed", ["stdout", pytest.param("stderr", marks=pytest.mark.slow),
                                    pytest.param("both", marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", list(_COMMANDS))
def test_a_closed_output_ends_every_command_quietly_with_status_141(project, name, closed):
    _prepare(project, name)
    args, prints_on, status_otherwise = _COMMANDS[name]
    status, out, err = _run_closed(_command(*args), project, closed)
    _quiet(out, err)
    cut = "both" in (closed, prints_on) or closed == prints_on
    assert status == (OUTPUT_CLOSED if cut else status_otherwise), (out, err)
    if name in ("build", "replayed build", "json") or name == "watch" and closed == "stdout":
        _published_whole(project)
    if name == "watch" and closed != "stdout":  # it says "watching" before it builds
        assert not (project / "dist").exists()
    if name == "import":
        assert (project / "imported" / "bank-1.txt").read_text(encoding="utf-8").count(
            "Mars") == 2
    if name == "report-form":
        assert (project / "form" / ".github" / "ISSUE_TEMPLATE" / "question.yml").is_file()


def _read_one_line_then_close(args: Sequence[str], cwd: Path) -> tuple[int, bytes, str]:
    """Run the command with a reader on its stdout that reads one line, byte by byte (so
    it takes no more than that line from the pipe), then closes its end; its status, the
    line, and stderr."""
    child = subprocess.Popen(list(args), cwd=cwd, env=_env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stderr is not None
        _small(child.stdout.fileno())
        line = b""
        while not line.endswith(b"\n"):
            byte = os.read(child.stdout.fileno(), 1)
            assert byte, "the command ended before it printed a line"
            line += byte
        child.stdout.close()
        err = child.stderr.read().decode("utf-8", "replace")
        child.wait(timeout=TIMEOUT_SECONDS)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, line, err


@pytest.mark.parametrize("args", [["--json", "--no-cache"], ["locate", "a", "--json"],
                                  ["--json", "--check"]],
                         ids=["build --json", "locate --json", "check --json"])
def test_a_reader_that_takes_one_line_and_goes_ends_the_command_quietly(project, args):
    """More than the pipe holds is still to be printed when the reader goes: the command
    cannot have finished printing, whatever the machine's speed."""
    status, line, err = _read_one_line_then_close(_command(*args), project)
    assert line == b"{\n"
    assert status == OUTPUT_CLOSED, err
    _quiet(err)
    if "--no-cache" in args:
        _published_whole(project)


def _many_topics(project: Path, topics: int = 60, questions: int = 1) -> None:
    """A source whose report is several pages long: on stdout a line per topic, on stderr
    (``--warnings all``) a line per question (each answer is the longest by far, W140)."""
    source = project / "source"
    for path in source.glob("*.txt"):
        path.unlink()
    (source / "nca-anki.lock").unlink()
    for t in range(topics):
        lines = [f"Topic number {t} of the watch"]
        for q in range(questions):
            answer = f"The one answer far longer than the others, number {t}-{q}"
            lines += [f"Question {q + 1}: What is said of item {t}-{q} in this bank?",
                      "- no", "- nope", f"- {answer} (Correct answer)", "- nay",
                      f"Correct answer: {answer}", f"Because {t}-{q}."]
        (source / f"topic-{t:02d}.txt").write_text("\n".join(lines) + "\n",
                                                   encoding="utf-8")


@pytest.mark.slow
def test_a_watch_whose_reader_goes_ends_quietly_and_its_build_is_published(project):
    _many_topics(project)
    status, line, err = _read_one_line_then_close(_command("--watch"), project)
    assert b"-> dist/" in line
    assert status == OUTPUT_CLOSED, err
    _quiet(err)
    _published_whole(project)


def _report_pages(project: Path, stream: str) -> None:
    """A source whose report is pages long on ``stream``, and on stdout no more than a
    pipe holds when it is stderr's turn (stdout is printed first, and not read)."""
    if stream == "stdout":
        _many_topics(project, topics=60, questions=1)  # 60 lines of about 120 bytes
    else:
        _many_topics(project, topics=10, questions=20)  # 10 lines; 200 warnings


def _read_line(fd: int) -> bytes:
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(fd, 1)
        assert byte, f"the command ended first: {line!r}"
        line += byte
    return line


def _stopped_while_printing(project: Path, args: Sequence[str], stream: str,
                            stop: signal.Signals) -> tuple[int, bytes, bytes]:
    """Start the command with small pipes, wait until the first line of its report on
    ``stream`` arrives (stderr: after the watch's own first line), then send ``stop``
    while more than a pipe holds is still to be printed; then read everything. The
    status, stdout and stderr."""
    child = subprocess.Popen(list(args), cwd=project, env=_env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert child.stdout is not None and child.stderr is not None
        for pipe in (child.stdout, child.stderr):
            _small(pipe.fileno())
        early = {"stdout": b"", "stderr": b""}
        if "--watch" in args:
            early["stderr"] += _read_line(child.stderr.fileno())  # "watching ..."
        if stream == "stderr":  # the summary on stdout comes first; it fits the pipe
            early["stderr"] += _read_line(child.stderr.fileno())
        else:
            early["stdout"] += _read_line(child.stdout.fileno())
        child.send_signal(stop)
        out, err = child.communicate(timeout=TIMEOUT_SECONDS)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, early["stdout"] + out, early["stderr"] + err


@pytest.mark.slow
@pytest.mark.parametrize("attempt", range(6))
@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_a_stop_while_the_watch_prints_its_report_ends_it_quietly(project, stream, attempt):
    """Repeated: a stop lands somewhere else in the printing each time."""
    _report_pages(project, stream)
    stop = signal.SIGTERM if attempt % 2 == 0 else signal.SIGINT
    status, out, err = _stopped_while_printing(
        project, _command("--watch", "--warnings", "all"), stream, stop)
    said = err.decode("utf-8", "replace")
    assert status == 0, said
    assert said.endswith("stopped watching\n") and "Traceback" not in said, said[-2000:]
    assert "Exception ignored" not in said
    _published_whole(project)


@pytest.mark.slow
@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_ctrl_c_while_a_build_prints_its_report_ends_it_quietly(project, stream):
    """The build is done when its report prints: the decks are published, whole."""
    _report_pages(project, stream)
    status, _, err = _stopped_while_printing(
        project, _command("--warnings", "all"), stream, signal.SIGINT)
    said = err.decode("utf-8", "replace")
    assert status == 130, said
    assert said.endswith("interrupted\n") and "Traceback" not in said, said[-2000:]
    _published_whole(project)


def _waiting_for_a_lock(pid: int) -> bool:
    """Whether process ``pid`` waits for a lock (a blocked waiter is listed with "->" in
    /proc/locks)."""
    try:
        listed = Path("/proc/locks").read_text(encoding="ascii")
    except OSError:  # pragma: no cover - not Linux
        pytest.skip("no /proc/locks to see a build wait")
    return any("->" in line and line.split()[5] == str(pid) for line in listed.splitlines())


@pytest.mark.slow
def test_a_build_that_cannot_say_it_waits_for_another_still_builds_and_publishes(project):
    """The only thing a build prints while it runs, that it waits for another build of
    the same folders, goes to a stderr already closed: it waits, builds and publishes
    all the same, and ends quietly when it comes to its report."""
    held = os.open(project / "source", os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)  # another build, as far as this one can tell
    reader, writer = os.pipe()
    os.close(reader)
    try:
        child = subprocess.Popen(_command("--no-cache"), cwd=project, env=_env(),
                                 stdout=subprocess.PIPE, stderr=writer)
    finally:
        os.close(writer)
    try:
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while not _waiting_for_a_lock(child.pid):
            assert child.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)  # a poll for the state, not a wait for a time
        os.close(held)
        held = -1
        child.communicate(timeout=TIMEOUT_SECONDS)
    finally:
        if held >= 0:
            os.close(held)
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == OUTPUT_CLOSED
    _published_whole(project)


@pytest.mark.parametrize("command", [[], ["import"], ["locate"], ["stats"], ["report-form"]])
def test_every_command_s_help_names_the_status_of_a_closed_output(cli, command):
    shown = cli(*command, "-h")
    assert shown.status == 0
    assert "\n  141  the output was closed before all of it was printed" in shown.out


class _CtrlCInAFinalizer:
    """An object whose finalizer is where a Ctrl-C lands: Python swallows the
    KeyboardInterrupt raised there, printing "Exception ignored in ..." and a traceback."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)
        for _ in range(100):  # the handler runs at the loop's first turn, in here
            pass


@pytest.mark.parametrize("command", [[], ["locate", "gradient"]], ids=["build", "locate"])
def test_a_ctrl_c_that_lands_in_a_finalizer_ends_the_command_as_interrupted(
        project, cli, monkeypatch, command):
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("Ctrl-C is not Python's KeyboardInterrupt in this test run")
    import nca_anki.cli as cli_module
    real = cli_module.edges.flush_output

    def flush_output() -> None:  # as the report's last line goes out
        _CtrlCInAFinalizer()
        real()

    monkeypatch.setattr(cli_module.edges, "flush_output", flush_output)
    run = cli(*command)
    assert run.status == 130, run.err
    assert run.err.endswith("interrupted\n")
    assert "Traceback" not in run.err and "Exception ignored" not in run.err
