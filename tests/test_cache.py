"""Tests for nca_anki.cache: unchanged topics are neither rendered nor packaged again, and
the cache is never trusted beyond what content hashes prove."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import REPO
from nca_anki.build import BuildOptions, build
from nca_anki.cli import main
from nca_anki.files import CACHE_NAME
from nca_anki.render import Renderer

AI = "nca-ai-deep-learning-frameworks-4.txt"


def options(**kwargs) -> BuildOptions:
    return BuildOptions(Path("source"), Path("templates"), Path("dist"), **kwargs)


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The prompt of every question the build renders."""
    seen: list[str] = []
    real = Renderer.note

    def note(self, topic, part, question, layout):
        seen.append(topic.name)
        return real(self, topic, part, question, layout)

    monkeypatch.setattr(Renderer, "note", note)
    return seen


def decks(root: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (root / "dist").glob("*.apkg")}


def test_a_rebuild_with_nothing_changed_renders_nothing_and_touches_nothing(project, rendered):
    assert build(options()).ok
    assert len(rendered) == 19
    before, lock = decks(project), (project / "source" / "nca-anki.lock").read_bytes()
    rendered.clear()
    report = build(options())
    assert report.ok and rendered == []
    assert [(t.questions, t.unchanged, t.status) for t in report.topics] == [
        (7, 7, "unchanged"), (6, 6, "unchanged"), (6, 6, "unchanged")]
    assert decks(project) == before
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


def test_only_the_edited_topic_is_built_again(project, rendered):
    assert build(options()).ok
    source = project / "source" / AI
    source.write_text(source.read_text(encoding="utf-8").replace(
        "Which NVIDIA GPU architecture first", "Which NVIDIA GPU architecture was the first"),
        encoding="utf-8")
    rendered.clear()
    report = build(options())
    assert report.ok
    assert set(rendered) == {"AI & Deep Learning Frameworks"} and len(rendered) == 7
    assert [t.changed for t in report.topics] == [1, 0, 0]


def test_a_template_edit_builds_every_topic(project, rendered):
    assert build(options()).ok
    css = project / "templates" / "style.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.nca-prompt { letter-spacing: 0; }\n",
                   encoding="utf-8")
    rendered.clear()
    assert build(options()).ok
    assert len(rendered) == 19


def test_new_file_times_alone_reuse_everything(project, rendered):
    # A fresh clone has new file times and the same content.
    assert build(options()).ok
    later = time.time() + 100
    for path in project.rglob("*"):
        os.utime(path, (later, later))
    rendered.clear()
    assert build(options()).ok
    assert rendered == []


@pytest.mark.parametrize("damage", [b"{not json", b'{"format": "other", "topics": {}}', b"[]"])
def test_a_corrupt_or_foreign_cache_is_ignored_with_a_warning(project, rendered, damage):
    assert build(options()).ok
    before = decks(project)
    (project / "dist" / CACHE_NAME).write_bytes(damage)
    rendered.clear()
    report = build(options())
    assert report.ok and len(rendered) == 19
    (warned,) = [d for d in report.diagnostics if d.path == f"dist/{CACHE_NAME}"]
    assert warned.message.startswith("build cache ignored (")
    assert warned.message.endswith("every topic is built again and the cache rewritten")
    assert {name: data for name, (data, _) in decks(project).items()} == {
        name: data for name, (data, _) in before.items()}
    rendered.clear()
    assert build(options()).ok and rendered == []  # rewritten, trusted again


def test_a_deck_changed_or_deleted_in_the_output_is_built_again(project, rendered):
    assert build(options()).ok
    good = (project / "dist" / "ai-deep-learning-frameworks.apkg").read_bytes()
    (project / "dist" / "ai-deep-learning-frameworks.apkg").write_bytes(b"tampered")
    (project / "dist" / "neural-network-applications-and-frameworks.apkg").unlink()
    rendered.clear()
    assert build(options()).ok
    assert sorted(set(rendered)) == ["AI & Deep Learning Frameworks",
                                     "Neural Network Applications and Frameworks"]
    assert (project / "dist" / "ai-deep-learning-frameworks.apkg").read_bytes() == good


def test_a_setting_change_builds_that_topic_again(project, rendered):
    assert build(options()).ok
    (project / "source" / "nca-anki.toml").write_text(
        '[shuffle]\n"Neural Network Applications and Frameworks" = false\n', encoding="utf-8")
    rendered.clear()
    assert build(options()).ok
    assert set(rendered) == {"Neural Network Applications and Frameworks"}


def test_deleting_the_cache_only_costs_time(project, rendered):
    assert build(options()).ok
    before = decks(project)
    (project / "dist" / CACHE_NAME).unlink()
    shutil.rmtree(project / "source" / "__pycache__", ignore_errors=True)
    rendered.clear()
    report = build(options())
    assert report.ok and len(rendered) == 19
    assert {t.status for t in report.topics} == {"unchanged"}
    assert decks(project) == before


# --- every cache state builds what no cache builds ---------------------------------------------

FILES = (AI, "deep-learning-training-techniques-and-optimization-2.txt",
         "neural-network-applications-and-frameworks-2.txt")
TOPICS = ("AI & Deep Learning Frameworks", "Deep Learning Training Techniques and Optimization",
          "Neural Network Applications and Frameworks")
STEPS = ("reword", "explain", "add", "remove", "css", "choices", "settings", "drop cache",
         "corrupt cache", "delete deck", "nothing")


def _change(root: Path, step: str, n: int) -> None:
    """One thing an author (or a tool, or bad luck) does between two builds."""
    source = root / "source" / FILES[n % 3]
    text = source.read_text(encoding="utf-8")
    headers = [m for m in re.finditer(r"^Question (\d+): ", text, re.MULTILINE)]
    if step == "reword":
        at = headers[n % len(headers)].end()
        source.write_text(text[:at] + f"(variant {n}) " + text[at:], encoding="utf-8")
    elif step == "explain":
        source.write_text(re.sub(r"^(Correct answer: .*\n.*)$", rf"\1 See note {n}.", text,
                                 count=1 + n % 3, flags=re.MULTILINE), encoding="utf-8")
    elif step == "add":
        source.write_text(text.rstrip("\n") + f"\n\nQuestion {len(headers) + 1}: Which library "
                          f"number {n} is it?\n- cuDNN\n- NCCL (Correct answer)\n- DALI\n"
                          "Correct answer: NCCL\nIt is NCCL.\n", encoding="utf-8")
    elif step == "remove" and len(headers) > 1:
        source.write_text(text[:headers[-1].start()], encoding="utf-8")
    elif step == "css":
        with open(root / "templates" / "style.css", "a", encoding="utf-8") as css:
            css.write(f"\n/* {n} */\n")
    elif step == "choices":
        with open(root / "templates" / "choices.html", "a", encoding="utf-8") as choices:
            choices.write(f"<!-- {n} -->\n")
    elif step == "settings":
        (root / "source" / "nca-anki.toml").write_text(
            f'[shuffle]\n"{TOPICS[n % 3]}" = {"false" if n % 2 else "true"}\n', encoding="utf-8")
    elif step in ("drop cache", "corrupt cache"):
        found = sorted(p for p in (root / "dist").rglob("*")
                       if p.is_file() and ".nca-anki" in p.relative_to(root / "dist").as_posix())
        if found:
            target = found[n % len(found)]
            if step == "drop cache":
                target.unlink()
            else:
                target.write_bytes(target.read_bytes()[:n % 50] + b"\x00{not what was kept")
    elif step == "delete deck":
        decks = sorted((root / "dist").glob("*.apkg"))
        decks[n % len(decks)].unlink()


def _published(root: Path) -> dict[str, bytes]:
    """Everything a build publishes (decks, index, lock), without its caches."""
    files = {p.relative_to(root / "dist").as_posix(): p.read_bytes()
             for p in (root / "dist").rglob("*") if p.is_file()}
    files = {name: data for name, data in files.items() if not name.startswith(".nca-anki")}
    return {**files, "lock": (root / "source" / "nca-anki.lock").read_bytes()}


@pytest.fixture(scope="module")
def built_seeds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("seeds") / "project"
    shutil.copytree(REPO / "source", root / "source")
    shutil.copytree(REPO / "templates", root / "templates")
    assert _command(root, 1_800_000_000) == 0
    return root


def _command(root: Path, now: int) -> int:
    """build_decks.py in this process, as the user runs it (a no-op is replayed)."""
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(now)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return main(["--source", str(root / "source"), "--templates",
                         str(root / "templates"), "--out", str(root / "dist")])
    finally:
        if before is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


@settings(derandomize=True, max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(STEPS), st.integers(0, 99)), min_size=1, max_size=4))
@example([(step, n) for n, step in enumerate(STEPS)])  # every kind of change, one after another
def test_whatever_the_caches_hold_a_build_publishes_what_a_build_without_them_does(
        built_seeds: Path, steps: list[tuple[str, int]]) -> None:
    """After each change, the project built with every cache it has left (the no-op
    replay, unchanged topics, parsed files, deck facts, bundle pieces; some dropped or
    damaged) publishes the same bytes, and exits the same, as a copy of it built with no
    cache at all."""
    with tempfile.TemporaryDirectory() as temp:
        kept = Path(temp) / "kept"
        shutil.copytree(built_seeds, kept)
        for number, (step, n) in enumerate(steps, start=1):
            _change(kept, step, n)
            bare = Path(temp) / f"bare-{number}"
            shutil.copytree(kept, bare, ignore=shutil.ignore_patterns(".nca-anki*"))
            now = 1_800_000_000 + 100 * number
            assert _command(kept, now) == _command(bare, now), steps
            assert _published(kept) == _published(bare), steps
