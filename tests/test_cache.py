"""Tests for nca_anki.cache: unchanged topics are neither rendered nor packaged again, and
the cache is never trusted beyond what content hashes prove."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from nca_anki.build import BuildOptions, build
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
