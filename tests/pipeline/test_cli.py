"""The command line: arguments, messages, exit statuses, and what it leaves on disk."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, distribution

import pytest

from conftest import REPO, edit
from nca_anki.cli import run


def test_help_and_usage_errors_exit_0_and_2(cli):
    assert cli("--help").status == 0
    run = cli("--no-such-option")
    assert run.status == 2
    assert "unrecognized arguments: --no-such-option" in run.err


def test_version_and_help_follow_the_conventions(cli):
    from nca_anki import __version__
    run = cli("--version")
    assert (run.status, run.out) == (0, f"build_decks.py {__version__}\n")
    assert distribution("nca-anki").version == __version__  # one version, in one place
    help_text = cli("-h").out
    block = help_text.split("\nexit status:")[0].split("options:")[1].strip("\n").splitlines()
    options = [re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in block]
    assert all(len(o) == 2 and o[0].startswith("-") for o in options), block  # flag, help
    listed = {flag.split(",")[0].split()[0] for flag, _ in options}  # "-h, --help" is -h
    assert listed == {"-h", "--version", "--source", "--templates", "--out", "--check",
                      "--verify", "--release", "--preview", "--jobs", "--cache-dir", "--no-cache",
                      "--watch", "--warnings", "--quiet", "--strict", "--note-type-change",
                      "--json"}
    # One line each: every line of the block is an option with its help (none runs on).
    assert "exit status:" in help_text and "  130  interrupted" in help_text


@pytest.mark.parametrize("argv0, name", [("/x/build_decks.py", "build_decks.py"),
                                         ("/venv/bin/nca-anki", "nca-anki"),
                                         ("/x/nca_anki/__main__.py", "nca-anki")])
def test_usage_names_the_command_that_was_run(argv0, name):
    from nca_anki.cli import program_name
    assert program_name(argv0) == name
    script = (f"import sys; sys.argv = [{argv0!r}, '--bogus']\n"
              "from nca_anki.cli import run\nrun()")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=REPO, env={**os.environ, "COLUMNS": "80"})
    assert result.returncode == 2 and result.stderr.startswith(f"usage: {name} ")


def test_summary_names_each_topic_count_file_and_change(project, cli):
    run = cli()
    assert run.status == 0
    assert run.out.splitlines() == [
        "NCA::AI & Deep Learning Frameworks: 7 questions (7 unchanged) -> "
        "dist/ai-deep-learning-frameworks.apkg written",
        "NCA::Deep Learning Training Techniques and Optimization: 6 questions (6 unchanged) -> "
        "dist/deep-learning-training-techniques-and-optimization.apkg written",
        "NCA::Neural Network Applications and Frameworks: 6 questions (6 unchanged) -> "
        "dist/neural-network-applications-and-frameworks.apkg written",
        "index and bundle: dist/nca_all_topics.apkg, dist/manifest.json, dist/README.md, "
        "dist/CHANGELOG.md written",
    ]
    # The seed's damage is reported where it is, and nothing worse.
    assert "warning[W102] encoding damage repaired, 2 times:\n" \
           "  source/neural-network-applications-and-frameworks-2.txt:1,29\n" in run.err
    assert ": error[" not in run.err
    assert cli().out.count(" unchanged\n") == 3


def test_check_validates_without_writing(project, cli):
    lock = (project / "source" / "nca-anki.lock").read_bytes()
    (project / "source" / "new.txt").write_text(
        "Extra Topic 1 — Questions and Answers\nQuestion 1: Q?\n- a (Correct answer)\n- b\n"
        "Correct answer: a\nWhy.\n", encoding="utf-8")
    run = cli("--check")
    assert run.status == 0, run.err
    assert "NCA::Extra Topic: 1 question (1 new) -> dist/extra-topic.apkg would write" in run.out
    assert not (project / "dist").exists()
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


def test_check_reports_errors_with_status_1(project, cli):
    (project / "source" / "bad.txt").write_text(
        "Bad 1 — Questions and Answers\nQuestion 1: Q?\nCorrect answer: a\n", encoding="utf-8")
    run = cli("--check")
    assert run.status == 1
    assert "source/bad.txt:2: error[E117]: Question 1 has no choices" in run.err
    assert run.err.count(": error[") == 1
    assert run.err.splitlines()[-1].startswith("failed: 1 error, ")


def test_missing_source_and_templates_folders_are_named(tmp_path, cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = cli()
    assert run.status == 2
    assert run.err.splitlines()[:2] == [
        "source: error: source folder not found; run from the project folder or pass "
        "--source DIR",
        "templates: error: templates folder not found; run from the project folder or pass "
        "--templates DIR",
    ]


def test_missing_template_names_the_folder_searched_and_keeps_decks(project, cli):
    assert cli().status == 0
    before = {p.name: p.read_bytes() for p in (project / "dist").iterdir() if p.is_file()}
    (project / "templates" / "back.html").unlink()
    run = cli()
    assert run.status == 1
    assert ("templates/back.html: error[E401]: template not found; searched templates; restore it "
            "from the project's templates/") in run.err
    assert before == {p.name: p.read_bytes() for p in (project / "dist").iterdir() if p.is_file()}


def test_undefined_template_variable_is_an_error_at_its_line(project, cli):
    front = project / "templates" / "front.html"
    front.write_text(front.read_text() + "\n{{ no_such_thing }}\n")
    run = cli()
    assert run.status == 1
    line = front.read_text().splitlines().index("{{ no_such_thing }}") + 1
    assert f"templates/front.html:{line}: error[E402]: template error: 'no_such_thing' is undefined" \
        in run.err


def test_unwritable_output_is_a_clear_error_without_traceback(project, cli):
    (project / "dist").write_text("not a folder")
    run = cli()
    assert run.status == 2
    assert run.err == "dist: error: --out names a file, not a folder; pass --out DIR\n"
    assert "Traceback" not in run.err


@pytest.mark.parametrize("flag", ["--source", "--templates", "--out"])
def test_an_empty_folder_argument_is_a_usage_error_and_writes_nothing(project, cli, flag):
    # `--source "$SRC"` with SRC unset must not build the current folder as source.
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    run = cli(flag, "")
    assert run.status == 2
    assert run.err == (f"{flag}: error: {flag} is empty; name a folder (is a shell variable "
                       "unset?)\n")
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before


def test_source_naming_a_file_is_a_usage_error(project, cli):
    run = cli("--source", "source/nca-anki.lock")
    assert run.status == 2
    assert run.err == ("source/nca-anki.lock: error: --source names a file, not a "
                       "folder; pass --source DIR\n")
    assert not (project / "dist").exists()


def test_ctrl_c_while_the_pipeline_loads_or_runs_is_not_a_traceback(project, cli, monkeypatch):
    import nca_anki.build

    def interrupted(options, progress=None, *, sink=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(nca_anki.build, "build", interrupted)
    run = cli()
    assert run.status == 130
    assert run.err == "interrupted; nothing half-written was left behind\n"


def test_the_command_line_module_loads_no_pipeline_library():
    # So a Ctrl-C during the slow imports lands inside main()'s guard.
    code = ("import sys, nca_anki.cli; "
            "print(sorted(m for m in ('genanki', 'jinja2', 'markdown', 'nca_anki.build') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "[]\n"


def test_a_terminal_that_cannot_show_the_text_gets_escapes_not_a_traceback(project):
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, str(REPO / "build_decks.py"), "--warnings=all"],
                          cwd=project, env=env,
                          capture_output=True, text=True, encoding="ascii")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "damaged character '\\u03b2'" in done.stderr  # the seed's 'β', escaped
    assert sum(line.endswith(".apkg written") for line in done.stdout.splitlines()) == 3


def test_output_folder_that_cannot_be_created(project, cli):
    blocker = project / "file"
    blocker.write_text("x")
    run = cli("--out", "file/dist")
    assert run.status == 1
    assert "file/dist/" in run.err and "cannot write" in run.err
    assert "Traceback" not in run.err


def test_damaged_lock_without_decks_stops_the_build_and_says_how_to_recover(project, cli):
    lock = project / "source" / "nca-anki.lock"
    text = lock.read_text()
    lock.write_text(text[:text.index("\nQ ") + 20])  # cut in the first question line
    run = cli()
    assert run.status == 1
    assert ("source/nca-anki.lock: error[E301]: 1 line(s) of the lock file cannot be read and there "
            "are no published decks in dist to recover them from; restore it from version "
            "control") in run.err
    assert not (project / "dist").exists()


def test_damaged_lock_is_filled_in_from_the_published_decks(project, cli):
    assert cli().status == 0
    lock = project / "source" / "nca-anki.lock"
    whole = lock.read_text()
    guids = sorted(re.findall(r"^Q (\S+)", whole, re.MULTILINE))
    lock.write_text(whole[:len(whole) // 2])  # cut in the middle of a question line
    run = cli()
    assert run.status == 0, run.err
    assert "ends in the middle of a line (cut short?)" in run.err
    assert " new" not in run.out
    assert sorted(re.findall(r"^Q (\S+)", lock.read_text(), re.MULTILINE)) == guids


def test_entry_point_script_runs_as_documented(project):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, str(REPO / "build_decks.py"), "--check"],
                            cwd=project, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("questions") == 3


def test_the_command_exits_with_the_status_main_returns(project):
    """run() freezes the collector before exiting; the status must come through as is."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def command(*args: str) -> int:
        return subprocess.run([sys.executable, str(REPO / "build_decks.py"), *args],
                              cwd=project, capture_output=True, env=env,
                              timeout=120).returncode

    assert command("--jobs", "0") == 2
    (project / "source" / "broken-1.txt").write_text(
        "Broken 1 — Questions and Answers\nQuestion 1: No choices?\n", encoding="utf-8")
    assert command() == 1
    (project / "source" / "broken-1.txt").unlink()
    assert command() == 0


def test_readme_test_command_is_what_ci_runs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in readme.splitlines()
                if line.strip().startswith("python3 -m venv")]
    assert len(commands) == 2, commands
    build_command, test_command = commands
    assert "build_decks.py" in build_command
    assert "pytest" in test_command
    assert test_command in ci


def test_broken_choices_template_builds_nothing_and_keeps_decks(project, cli):
    assert cli().status == 0
    before = {p.name: p.read_bytes() for p in (project / "dist").iterdir() if p.is_file()}
    lock = (project / "source" / "nca-anki.lock").read_bytes()
    (project / "templates" / "choices.html").write_text("{{ choices | no_such_filter }}")
    run = cli()
    assert run.status == 1
    assert [line for line in run.err.splitlines() if ": error[" in line] == [
        "templates/choices.html:1: error[E402]: template syntax error: No filter named "
        "'no_such_filter'."]
    assert run.out.count(": failed;") == 3
    assert before == {p.name: p.read_bytes() for p in (project / "dist").iterdir() if p.is_file()}
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


def test_console_command_is_installed_and_points_at_the_cli():
    try:
        scripts = distribution("nca-anki").entry_points.select(group="console_scripts")
    except PackageNotFoundError:
        pytest.skip("nca-anki is not installed in this environment (pip install -e .)")
    (script,) = [s for s in scripts if s.name == "nca-anki"]
    assert script.load() is run


def test_first_build_without_a_lock_does_not_claim_changed_templates(project, cli):
    (project / "source" / "nca-anki.lock").unlink()
    run = cli()
    assert run.status == 0
    assert "card templates changed" not in run.out
    assert run.out.count("(7 new)") == 1 and run.out.count("(6 new)") == 2


@pytest.mark.parametrize("value", ["abc", " 1800000000", "1800000000\n", "²", "1.8e9", "-5"])
def test_a_malformed_source_date_epoch_is_a_usage_error(project, cli, monkeypatch, value):
    # The reproducible-builds spec: a malformed value fails the build, never is ignored.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    run = cli()
    assert run.status == 2, run.err
    assert run.err == (f"SOURCE_DATE_EPOCH: error: {value!r} is not a number of seconds; set "
                       "it to whole seconds since 1970 (as `git log -1 --format=%ct` gives) "
                       "or unset it\n")
    assert not (project / "dist").exists()


def test_a_source_date_epoch_in_milliseconds_is_a_usage_error(project, cli, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000000")
    run = cli()
    assert run.status == 2
    assert run.err.startswith("SOURCE_DATE_EPOCH: error: 1800000000000 is after the year "
                              "2286 (milliseconds?)")
    assert not (project / "dist").exists()


def test_a_source_date_epoch_older_than_the_lock_fails_and_writes_nothing(project, cli,
                                                                         monkeypatch):
    source = project / "source" / "nca-ai-deep-learning-frameworks-4.txt"
    edit(source, "What problem does gradient clipping solve", "Which problem does gradient clipping solve")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    assert cli().status == 0
    published = {p.name: p.read_bytes() for p in (project / "dist").iterdir()}
    lock = (project / "source" / "nca-anki.lock").read_bytes()
    edit(source, "Which problem does gradient clipping solve", "What does gradient clipping solve")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # an older commit's time
    run = cli()
    assert run.status == 1
    assert ("source/nca-anki.lock: error[E302]: this build's time (2023-11-14 22:13:20 UTC) is "
            "before the newest change the lock records (2027-01-15 08:00:00 UTC)") in run.err
    assert {p.name: p.read_bytes() for p in (project / "dist").iterdir()} == published
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


@pytest.mark.parametrize("args, said", [
    (["--out", "templates"], "templates: error: --out is inside --templates (templates)"),
    (["--out", "source/dist"], "source/dist: error: --out is inside --source (source)"),
    (["--out", "templates", "--watch"], "templates: error: --out is inside --templates"),
    (["--release", "templates/rel"], "templates/rel: error: --release is inside --templates"),
    (["--release", "source"], "source: error: --release is inside --source (source)"),
])
def test_an_output_folder_among_the_inputs_is_a_usage_error(project, cli, args, said):
    # --watch would rebuild after each of its own writes (13 rebuilds in 8 s, no edit).
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    run = cli(*args)
    assert run.status == 2
    assert run.err.startswith(said) and run.err.rstrip().endswith("name a folder outside it")
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before


@pytest.mark.parametrize("probe", [
    "{{ field.__globals__['__builtins__']['open']('/etc/hostname').read() }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
])
def test_a_template_cannot_reach_python_or_the_machine(project, cli, probe):
    # A pull request editing templates/ is code run on the release machine: sandboxed.
    assert cli().status == 0
    decks = {p.name: p.read_bytes() for p in (project / "dist").iterdir()}
    css = project / "templates" / "style.css"
    css.write_text(css.read_text(encoding="utf-8") + f"/* {probe} */\n", encoding="utf-8")
    line = css.read_text(encoding="utf-8").count("\n")
    run = cli()
    assert run.status == 1
    assert f"templates/style.css:{line}: error[E402]: template error: access to attribute " in run.err
    assert "is unsafe. Templates run sandboxed" in run.err and "Traceback" not in run.err
    assert {p.name: p.read_bytes() for p in (project / "dist").iterdir()} == decks


@pytest.mark.parametrize("name, shown", [
    (b"new\nline.txt", "source/new\\nline.txt"),
    (b"caf\xe9.txt", "source/caf\\xe9.txt"),  # Latin-1, not UTF-8
])
def test_a_file_name_the_lock_cannot_hold_is_an_error_that_builds_nothing(
        project, cli, name, shown):
    assert cli().status == 0
    published = {p.name: p.read_bytes() for p in (project / "dist").iterdir()}
    lock = (project / "source" / "nca-anki.lock").read_bytes()
    original = project / "source" / "nca-ai-deep-learning-frameworks-4.txt"
    os.rename(original, os.path.join(os.fsencode(project / "source"), name))
    run = cli()
    assert run.status == 1 and "Traceback" not in run.err
    assert f"{shown}: error[E101]: this file name is not plain UTF-8 text" in run.err
    assert {p.name: p.read_bytes() for p in (project / "dist").iterdir()} == published
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


@pytest.mark.parametrize("tamper", [lambda g: g[:-1] + ("0" if g[-1] != "0" else "1") + "x",
                                    lambda g: "nca-<b>" + g[7:]])
def test_a_tampered_guid_in_the_lock_is_filled_in_from_the_decks(project, cli, tamper):
    assert cli().status == 0
    published = {p.name: p.read_bytes() for p in (project / "dist").iterdir()}
    path = project / "source" / "nca-anki.lock"
    lock = path.read_text(encoding="utf-8")
    guid = next(line.split(" ")[1] for line in lock.splitlines() if line.startswith("Q "))
    path.write_text(lock.replace(guid, tamper(guid)), encoding="utf-8")
    run = cli()
    assert run.status == 0
    assert "source/nca-anki.lock:" in run.err and "not a lock line, ignored" in run.err
    assert {p.name: p.read_bytes() for p in (project / "dist").iterdir()} == published
    assert path.read_text(encoding="utf-8") == lock  # no learner gets a duplicate card


def test_the_readme_example_question_builds_without_a_word(tmp_path):
    """The question file the README shows authors is what the parser reads cleanly."""
    from nca_anki.reading.parse import parse

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```text\n(.*?)```", readme, re.S)
    assert example is not None
    parsed = parse(example.group(1), "example.txt")
    assert [str(d) for d in parsed.diagnostics] == []
    assert [q.prompt for q in parsed.file.questions] == [
        "What does mixed-precision training keep in FP32?"]
