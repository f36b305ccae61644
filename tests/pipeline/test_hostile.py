"""What a hostile or unlucky file in the project does: a clear message naming it, exit 1
or 2, nothing published, never a hang, a traceback or exit 3 (issue 35, items 9-13).

Each build runs as a child process with a time limit, so a hang fails the test instead of
stopping the suite."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from growth import least_cpu
from conftest import REPO
from images import png

SEED = "nca-ai-deep-learning-frameworks-4.txt"


def build(root: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NCA_ANKI_CACHE_DIR"}
    return subprocess.run([sys.executable, str(REPO / "build_decks.py"), *args], cwd=root,
                          capture_output=True, text=True, timeout=timeout, env=env)


def show_image(root: Path, name: str) -> None:
    """The seed's first prompt (line 2) shows the image ``name`` of the source folder."""
    seed = root / "source" / SEED
    lines = seed.read_bytes().split(b"\n")
    lines[1] += f" ![a diagram]({name})".encode()
    seed.write_bytes(b"\n".join(lines))


def outputs(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / "dist").iterdir())}


def assert_refused(done: subprocess.CompletedProcess[str], shown: str, why: str) -> None:
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert any(line.startswith(f"{shown}") and why in line
               for line in done.stderr.splitlines()), done.stderr


# --- item 9: named pipes and devices are refused, never opened -----------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("mode", [(), ("--check",), ("--preview", "site")])
@pytest.mark.parametrize("where", ["source/nca-anki.toml", "source/nca-anki.lock",
                                   "source/zz-1.txt", "templates/back.html", "source/pipe.png"])
def test_a_named_pipe_anywhere_the_build_reads_is_refused_by_name(project, where, mode):
    assert build(project).returncode == 0
    before = outputs(project)
    path = project / where
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    if where.endswith(".png"):
        seed = project / "source" / SEED
        seed.write_bytes(seed.read_bytes().replace(b"\n", b" ![a pipe](pipe.png)\n", 2)
                         .replace(b" ![a pipe](pipe.png)\n", b"\n", 1))
    done = build(project, *mode)
    shown = f"source/{SEED}" if where.endswith(".png") else where
    assert_refused(done, shown, "named pipe")
    assert outputs(project) == before


def test_a_device_as_a_question_file_is_refused(project):
    (project / "source" / "zz-1.txt").symlink_to("/dev/zero")
    assert_refused(build(project, "--check"), "source/zz-1.txt", "not a regular file")


# --- item 11: time linear in the input, through the whole build --------------------------------

def cpu_of_build(root: Path) -> float:
    """The CPU time (user and system) of one build of ``root``, as a child process: what
    the children this process waited for used, before and after."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {k: v for k, v in os.environ.items() if k != "NCA_ANKI_CACHE_DIR"}
    child = subprocess.Popen([sys.executable, str(REPO / "build_decks.py"), "--no-cache",
                              "--jobs", "1", "-q"], cwd=root, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, err = child.communicate(timeout=300)
    finally:
        child.kill()
    assert b"Traceback" not in err and child.returncode in (0, 1), err[-2000:]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


@pytest.mark.parametrize("unit, field", [
    ("![", "prompt"), ("http://a", "explanation"), ("\\(", "choice"), ("<sub>", "prompt"),
    ("](x", "explanation"), ("![a](b.png) ", "prompt"), ("(Correct answer) ", "choice"),
    ("Correct answer: ", "explanation"), ("[sound:", "choice"), ("`a", "explanation")])
def test_build_time_grows_linearly_with_a_hostile_line(tmp_path, unit, field):
    """What is checked is growth, not speed (docs/contributing.md): the child's CPU time
    for a line four times as long is about four times as much when every stage is linear
    (start-up, the same for both, makes it less), sixteen times when one is quadratic.
    100,000 "![" on a prompt line took 205 s before."""
    def project(count: int) -> Path:
        root = tmp_path / str(count)
        (root / "source").mkdir(parents=True)
        shutil.copytree(REPO / "templates", root / "templates")
        text = {"prompt": "What is it?", "choice": "alpha", "explanation": "Because."}
        text[field] += " " + unit * count
        (root / "source" / "zed-1.txt").write_text(
            f"Zed Topic 1 — Questions\nQuestion 1: {text['prompt']}\n"
            f"- {text['choice']} (Correct answer)\n- beta\nCorrect answer: {text['choice']}\n"
            f"{text['explanation']}\n", encoding="utf-8")
        return root

    short, long = cpu_of_build(project(10_000)), cpu_of_build(project(40_000))
    assert long < 8 * short, (unit, field, short, long)




def _texts() -> list[tuple[str, object, str]]:
    """(what, a function of one text, a hostile unit) for each text path that once held a
    pattern scanning from every opening to the end, or trying every space again."""
    from nca_anki.cards import references, render
    from nca_anki.identity import recover
    from nca_anki.importing import bank, gift, lettered, markdown as md_import, moodle_xml
    from nca_anki.publishing import changes, preview
    from nca_anki.reading import media, title

    def finds(pattern):  # type: ignore[no-untyped-def]
        return lambda text: list(pattern.finditer(text))

    def matches(pattern):  # type: ignore[no-untyped-def]
        return lambda text: [pattern.match(line) for line in text.split("\n")]

    return [
        ("image references", lambda t: media.referenced(t, Path("q.txt")), "!["),
        ("prose of a choice", references.prose, "\\("),
        ("prose of a choice", references.prose, "\\["),
        ("a title's part", matches(title.PART_RE), "a "),
        ("choices read back from a deck", finds(recover._CHOICE_RE), "<li>a"),
        ("choices read back from a deck", finds(recover._CHOICE_RE), "<li"),
        ("a template's tags", finds(render._ANKI_TAG_RE), "{{"),
        ("images of a field", finds(render._IMG_SRC_RE), "<img "),
        ("images of a preview", finds(preview._IMG_SRC_RE), "<img "),
        ("images of a published field", finds(changes._MEDIA_NAME_RE), "<img "),
        ("HTML a browser never shows", finds(bank._UNSEEN_RE), "<!--"),
        ("HTML a browser never shows", finds(bank._UNSEEN_RE), "<head>"),
        ("HTML a browser never shows", finds(bank._UNSEEN_RE), "<style>"),
        ("a GIFT category", lambda t: gift._CATEGORY_RE.match("$CATEGORY: a" + t + "b"), " "),
        ("a Moodle XML bank", lambda t: moodle_xml.read(f"<quiz>{t}</quiz>", "q.xml"),
         "<!-- <question -->\n"),
        ("a Moodle XML bank", lambda t: moodle_xml.read(
            f"<quiz><question type='description'><questiontext><text>{t}</text>"
            "</questiontext></question></quiz>", "q.xml"), "<![CDATA[<question]]>"),
        ("GIFT answers never closed", lambda t: gift.read("Q? {" + t, "q.gift"), "\n~a"),
        ("GIFT answers never closed", lambda t: gift.read(t, "q.gift"), "::Q:: a? {\n"),
        ("GIFT answers never closed", lambda t: gift.read(t, "q.gift"), "~a {"),
        ("GIFT escapes", lambda t: gift.read("Q? {=a ~" + t + "}", "q.gift"), "\\{"),
        ("a lettered choice", lambda t: lettered._CHOICE_RE.match("A. a" + t + "b"), " "),
        ("a numbered question", lambda t: lettered._NUMBERED_RE.match("1. a" + t + "b"), " "),
        ("a heading", lambda t: md_import._HEADING_RE.match("# a" + t + "b"), " "),
        ("a heading", lambda t: lettered._HEADING_RE.match("# a" + t + "b"), " "),
    ]


@pytest.mark.parametrize("what, call, unit", _texts(),
                         ids=[f"{what}-{unit!r}" for what, _, unit in _texts()])
def test_every_text_path_is_linear(what, call, unit):
    """Growth, not speed: four times the text is about four times the CPU time when the
    path is linear, sixteen when quadratic (each of these took minutes at 100,000)."""
    short = least_cpu(lambda: call(unit * 20_000))
    long = least_cpu(lambda: call(unit * 80_000))
    assert long < 8 * max(short, 0.05), (what, unit, short, long)


# --- item 12: the user's input is never reported as our bug ----------------------------------

@pytest.mark.parametrize("flag", ["--cache-dir", "--out", "--preview"])
def test_a_folder_that_is_a_link_to_itself_is_a_usage_error(project, flag):
    (project / "loop").symlink_to("loop")
    done = build(project, flag, "loop")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"loop: error: {flag} is a symbolic link that leads back to itself" in done.stderr


def test_the_cache_folder_from_the_environment_that_loops_is_a_usage_error(project):
    (project / "loop").symlink_to("loop")
    env = {**os.environ, "NCA_ANKI_CACHE_DIR": "loop"}
    done = subprocess.run([sys.executable, str(REPO / "build_decks.py")], cwd=project,
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 2, done.stderr
    assert "NCA_ANKI_CACHE_DIR is a symbolic link that leads back to itself" in done.stderr


@pytest.mark.parametrize("value", ["[" * 100_000 + "]" * 100_000,
                                   "{a=" * 100_000 + "}" * 100_000])
def test_settings_nested_100_000_deep_are_an_error_not_a_bug(project, value):
    assert build(project).returncode == 0
    before = outputs(project)
    (project / "source" / "nca-anki.toml").write_text(f"x = {value}\n", encoding="utf-8")
    assert_refused(build(project), "source/nca-anki.toml", "nested far too deep")
    assert outputs(project) == before


# --- item 13: limits, with clear errors ----------------------------------------------------

def test_a_parent_deck_of_a_megabyte_is_refused(project):
    (project / "source" / "nca-anki.toml").write_text(
        f'parent_deck = "{"A" * 1_000_000}"\n', encoding="utf-8")
    assert_refused(build(project, "--check"), "source/nca-anki.toml:1",
                   "has a part of 1,000,000 characters")


def test_a_title_of_a_megabyte_is_refused(project):
    seed = project / "source" / SEED
    lines = seed.read_bytes().split(b"\n")
    seed.write_bytes(b"\n".join([b"Topic " + b"x" * 1_000_000 + b" 4", *lines[1:]]))
    done = build(project, "--check")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"source/{SEED}:1: error" in done.stderr and "1,000,00" in done.stderr, done.stderr


def test_an_image_of_20000_by_20000_pixels_is_refused_at_its_question(project):
    (project / "source" / "huge.png").write_bytes(png(20_000, 20_000))
    show_image(project, "huge.png")
    assert_refused(build(project, "--check"), f"source/{SEED}:2",
                   "20,000 x 20,000 pixels, more than a phone can show")


# --- item 10: SVG that reaches outside, through a build -------------------------------------

@pytest.mark.parametrize("body, why", [
    ('<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>', "<script>"),
    ('<use xlink:href="javascript&#58;alert(1)"/>', "refers outside the file"),
    ('<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://x.org"/>'
     '</foreignObject>', "holds <iframe>"),
    ('<image href="https://x.org/a.png"/>', "refers outside the file"),
    ('<style>@import url(https://x.org/a.css);</style>', "imports a style sheet")])
def test_an_svg_that_reaches_outside_fails_its_topic_naming_its_line(project, body, why):
    (project / "source" / "d.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">\n'
        f"{body}\n</svg>\n", encoding="utf-8")
    show_image(project, "d.svg")
    done = build(project, "--check")
    assert_refused(done, f"source/{SEED}:2", "image 'd.svg' cannot be shown on a card: line 2")
    assert why in done.stderr


def test_an_xxe_svg_is_refused_before_anything_is_expanded(project):
    (project / "source" / "d.svg").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        '<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>\n', encoding="utf-8")
    show_image(project, "d.svg")
    done = build(project, "--check")
    assert_refused(done, f"source/{SEED}:2", "document type declares")
    assert "root:" not in done.stderr


# --- item 14: --preview removes only what it made --------------------------------------------

def test_preview_keeps_folders_it_did_not_write_whatever_their_name(project):
    old = time.time() - 3600
    backup = project / ".site.old-backup"
    backup.mkdir()
    (backup / "notes.txt").write_text("mine", encoding="utf-8")
    empty = project / ".site.new-abcdef"  # what a build killed at once leaves: empty
    empty.mkdir()
    os.utime(backup, (old, old))
    os.utime(empty, (old, old))
    assert build(project, "--preview", "site").returncode == 0
    # A site written, then copied aside as a build killed mid-swap leaves it.
    left = project / ".site.old-x1y2z3"
    shutil.copytree(project / "site", left)
    own = project / ".site.new-mine"
    shutil.copytree(project / "site", own)
    (own / "my-notes.md").write_text("mine too", encoding="utf-8")
    for folder in (left, own):
        os.utime(folder, (old, old))
    assert build(project, "--preview", "site").returncode == 0
    assert (backup / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (own / "my-notes.md").read_text(encoding="utf-8") == "mine too"
    assert not empty.exists() and not left.exists()
