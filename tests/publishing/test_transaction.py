"""Publishing is one transaction (nca_anki/publishing/transaction.py): a build killed at
any moment, or two builds at once, leave what one uninterrupted build leaves."""

from __future__ import annotations

import os
import random
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

import nca_anki.cli as cli_module
from nca_anki.files import LOCK_NAME
from nca_anki.publishing import transaction
from nca_anki.publishing.transaction import JOURNAL_NAME, STAGED_SUFFIX
from conftest import copy_project

AI = "nca-ai-deep-learning-frameworks-4.txt"
FIRST, EDIT = "1800000000", "1800086400"
NEW_QUESTION = """Question 3: Which file format stores a trained network for exchange between frameworks?
- Protocol Buffers text dumps of the optimizer state
- ONNX model files (Correct answer)
- CUDA fat binaries
- TensorBoard event logs
Correct answer: ONNX model files
ONNX serialises the graph and weights in one portable file that other runtimes load.
"""


def _edit(root: Path) -> None:
    """An author's edit: one question reworded, one replaced by a new one."""
    path = root / "source" / AI
    text = path.read_text(encoding="utf-8")
    text = text.replace("What problem does gradient clipping solve",
                        "Which problem does gradient clipping solve")
    start, end = text.index("Question 3:"), text.index("Question 4:")
    path.write_text(text[:start] + NEW_QUESTION + text[end:], encoding="utf-8")


def _published(root: Path) -> dict[str, bytes]:
    """Every file of the project a build may write, but the cache: the output folder and
    the source folder (the lock)."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for folder in ("dist", "source") if (root / folder).is_dir()
            for p in sorted((root / folder).rglob("*")) if p.is_file()}


def _run(root: Path, *args: str) -> int:
    """The command, in this process, in ``root``."""
    old = Path.cwd()
    os.chdir(root)
    try:
        return cli_module.main(["--jobs", "1", *args])
    finally:
        os.chdir(old)


def _killed_build(root: Path, at: int | None = None, after: float | None = None) -> bool:
    """Run a build in a forked process and SIGKILL it just before its ``at``-th rename or
    deletion of a file (every boundary between two writes), or ``after`` seconds; True if
    it was killed before it ended."""
    pid = os.fork()
    if pid == 0:  # the child: the build, nothing of pytest's teardown
        try:
            if at is not None:
                calls = [0]
                for name in ("replace", "unlink"):
                    real = getattr(os, name)

                    def counted(*args, _real=real, **kwargs):
                        calls[0] += 1
                        if calls[0] == at:
                            os.kill(os.getpid(), signal.SIGKILL)
                        return _real(*args, **kwargs)
                    setattr(os, name, counted)
            status = _run(root)
        finally:
            os._exit(status if "status" in locals() else 99)
    if after is not None:
        time.sleep(after)
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status)


def _leftovers(root: Path) -> list[str]:
    return [p.name for folder in ("dist", "source") if (root / folder).is_dir()
            for p in (root / folder).iterdir()
            if p.name == JOURNAL_NAME or p.name.endswith(STAGED_SUFFIX)]


@pytest.fixture
def scenarios(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    """Per scenario: the state before the build, and the files an uninterrupted build of
    it leaves (the reference)."""

    monkeypatch.delenv("NCA_ANKI_CACHE_DIR", raising=False)  # each copy its own cache
    made = {}
    first = tmp_path / "first"  # a first build: no lock, no decks
    copy_project(first)
    (first / "source" / LOCK_NAME).unlink()
    edit = tmp_path / "edit"  # an edit build: published once, then edited
    shutil.copytree(first, edit)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIRST)
    assert _run(edit) == 0
    _edit(edit)
    for name, before, epoch in (("first", first, FIRST), ("edit", edit, EDIT)):
        reference = tmp_path / f"{name}-reference"
        shutil.copytree(before, reference)
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        assert _run(reference) == 0
        made[name] = (before, epoch, _published(reference))
    capsys.readouterr()
    return made


def _case(scenario, case: Path, monkeypatch) -> tuple[Path, Path, dict[str, bytes]]:
    """A copy of the scenario's state before its build at ``case``, on its clock: (the
    copy, the state, the reference)."""
    before, epoch, reference = scenario
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    shutil.copytree(before, case)
    return case, before, reference


def _check_recovers(case: Path, reference: dict[str, bytes], killed: bool, capsys) -> None:
    capsys.readouterr()
    if killed:
        verified = _run(case, "--verify")
        # Killed once everything was published (the cache was still being saved): the
        # state is the uninterrupted build's, and --verify says so; else it fails.
        assert (verified == 0) == (_published(case) == reference), capsys.readouterr().err
    assert _run(case) == 0, capsys.readouterr().err
    assert _published(case) == reference
    assert not _leftovers(case)
    assert _run(case, "--verify") == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["first", "edit"])
def test_a_build_killed_at_any_write_boundary_is_finished_or_undone_by_the_next(
        scenarios, tmp_path, monkeypatch, capsys, name):
    before, epoch, reference = scenarios[name]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    killed_at = []
    for at in range(1, 200):
        case = tmp_path / f"{name}-{at}"
        shutil.copytree(before, case)
        killed = _killed_build(case, at=at)
        _check_recovers(case, reference, killed, capsys)
        shutil.rmtree(case)
        if not killed:
            break  # past the build's last rename: every boundary was tried
        killed_at.append(at)
    # Every stage boundary was among them: the lock, the decks and the index files staged,
    # the journal, their renames, the journal's removal, then the cache's files (an edit
    # of one topic stages 6 files, a first build 8).
    assert len(killed_at) >= (2 * 6 + 2 if name == "edit" else 2 * 8 + 2), killed_at
    print(f"{name}: killed at {len(killed_at)} boundaries")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["first", "edit"])
def test_a_build_killed_at_random_moments_is_finished_or_undone_by_the_next(
        scenarios, tmp_path, monkeypatch, capsys, name):
    before, epoch, reference = scenarios[name]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    moments = random.Random(f"kill-{name}")  # the same moments every run
    for k in range(6):
        case = tmp_path / f"{name}-random-{k}"
        shutil.copytree(before, case)
        killed = _killed_build(case, after=moments.uniform(0.0, 1.2))
        _check_recovers(case, reference, killed, capsys)
        shutil.rmtree(case)


def test_two_builds_at_once_leave_what_one_leaves(scenarios, tmp_path, monkeypatch, capsys):
    case, before, reference = _case(scenarios["edit"], tmp_path / "together",
                                  monkeypatch)
    pids = []
    for _ in range(2):
        pid = os.fork()
        if pid == 0:
            status = 99
            try:
                status = _run(case)
            finally:
                os._exit(status)
        pids.append(pid)
    statuses = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]
    assert statuses == [0, 0]
    assert _published(case) == reference
    assert not _leftovers(case)


def test_a_second_build_waits_for_the_first_and_says_so(scenarios, tmp_path, monkeypatch,
                                                        capsys):
    case, before, reference = _case(scenarios["edit"], tmp_path / "waiting",
                                  monkeypatch)
    folders = [case / "source", case / "dist"]
    release = threading.Event()

    def holder() -> None:  # another build, holding the folders a moment
        with transaction.hold(folders):
            ready.set()
            release.wait(30)
    ready = threading.Event()
    thread = threading.Thread(target=holder)
    thread.start()
    ready.wait(30)
    # flock is per open file: a second one in this process waits as another process would.
    threading.Timer(0.5, release.set).start()
    capsys.readouterr()
    assert _run(case) == 0
    thread.join()
    err = capsys.readouterr().err
    assert f"another build is using {os.path.realpath(case / 'dist')}; waiting for it to " \
           "finish (Ctrl-C to give up)" in err or \
           f"another build is using {os.path.realpath(case / 'source')}; waiting" in err, err
    assert _published(case) == reference


def test_an_interrupted_commit_fails_check_until_a_build_finishes_it(scenarios, tmp_path,
                                                                    monkeypatch, capsys):
    case, before, reference = _case(scenarios["edit"], tmp_path / "journal",
                                  monkeypatch)
    at = 1  # the first rename after the journal: find it by killing later and later
    while not (_killed_build(case, at=at) and (case / "dist" / JOURNAL_NAME).exists()):
        shutil.rmtree(case)
        shutil.copytree(before, case)
        at += 1
    capsys.readouterr()
    assert _run(case, "--check") == 1
    err = capsys.readouterr().err
    assert "dist/.nca-anki-publishing.json: error[E503]: a build was interrupted while it " \
           "published" in err
    assert _run(case) == 0
    # The edit's: the lock, the one deck edited, the bundle and the three index files.
    assert "finished publishing its 6 file(s)" in capsys.readouterr().err
    assert _published(case) == reference


def test_a_damaged_journal_is_an_error_that_touches_nothing(scenarios, tmp_path, monkeypatch,
                                                           capsys):
    case, before, _ = _case(scenarios["edit"], tmp_path / "damaged",
                                  monkeypatch)
    outside = tmp_path / "precious.md"
    outside.write_text("mine")
    (case / "dist" / JOURNAL_NAME).write_text(
        '{"format": "nca-anki-publishing-1", "publish": [["out", "../../precious.md"]], '
        '"delete": [["out", "../precious.md"]]}')
    files = _published(case)
    capsys.readouterr()
    assert _run(case) == 1
    err = capsys.readouterr().err
    assert "dist/.nca-anki-publishing.json: error[E503]: damaged record of an interrupted build " \
           "(['out', '../../precious.md'] is not a file this tool publishes)" in err
    assert _published(case) == files and outside.read_text() == "mine"


def test_a_build_during_watch_leaves_what_one_build_leaves(scenarios, tmp_path, monkeypatch,
                                                           capsys):
    """An author's build in a second terminal while --watch rebuilds the same save."""
    from watch_process import WatchProcess

    before, epoch, reference = scenarios["edit"]
    case = tmp_path / "watched"
    shutil.copytree(before, case)
    edited = (case / "source" / AI).read_bytes()
    # The watch starts on the state as published (its first build changes nothing).
    shutil.copy(scenarios["first"][0] / "source" / AI, case / "source" / AI)
    env = {**os.environ, "SOURCE_DATE_EPOCH": epoch}
    env.pop("NCA_ANKI_CACHE_DIR", None)
    with WatchProcess(case, env) as watching:
        watching.wait_for_verdict()
        # A save the watch sees, and at once the author's own build of it.
        (case / "source" / AI).write_bytes(edited)
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        assert _run(case) == 0
        watching.wait_for("rebuilding")
        watching.wait_for_verdict()
        status, _, err = watching.stop(signal.SIGTERM)
    assert status == 0, err
    assert _published(case) == reference
    assert not _leftovers(case)


def test_a_ctrl_c_at_any_write_publishes_all_or_nothing_and_leaves_nothing_behind(
        scenarios, tmp_path, monkeypatch, capsys):
    # Ctrl-C (or the SIGTERM --watch turns into one) in the middle of publishing: once
    # the journal is written the commit is finished there and then, before it nothing
    # staged is kept (transaction.settle).
    before, epoch, reference = scenarios["edit"]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    real = os.replace
    outcomes = set()
    for at in range(1, 200):
        case = tmp_path / f"ctrl-c-{at}"
        shutil.copytree(before, case)
        original = _published(case)
        calls = [0]

        def interrupted(*args, calls=calls, at=at, **kwargs):
            calls[0] += 1
            if calls[0] == at:
                raise KeyboardInterrupt
            return real(*args, **kwargs)
        monkeypatch.setattr(os, "replace", interrupted)
        status = _run(case)
        monkeypatch.setattr(os, "replace", real)
        capsys.readouterr()
        if status == 0:
            break  # past the last write
        assert status == 130
        assert _published(case) in (original, reference), at
        outcomes.add("published" if _published(case) == reference else "not published")
        assert not _leftovers(case), at
        shutil.rmtree(case)
    assert outcomes == {"published", "not published"}


def test_the_no_op_answer_is_not_given_over_a_killed_builds_files(project, cli):
    # A build killed before its journal leaves staged files while the published state is
    # the last build's: the no-op replay would answer and leave them in dist/ (to be
    # committed); it runs the build, which deletes them.
    assert cli().status == 0
    assert cli().status == 0  # recorded: the next identical run is answered at once
    (project / "dist" / ".ai-deep-learning-frameworks.apkg.staged").write_bytes(b"half")
    (project / "source" / ".nca-anki.lock.abcd1234.tmp").write_bytes(b"half")
    run = cli()
    assert run.status == 0
    assert not [p.name for folder in ("dist", "source")
                for p in (project / folder).iterdir() if p.name.startswith(".")]
