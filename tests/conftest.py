"""Shared fixtures: a throw-away copy of the project, and running the real CLI on it."""

from __future__ import annotations

import shutil
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from card_browser import CardServer, Reviewer, launch, require_chromium
from nca_anki.cli import main

REPO = Path(__file__).resolve().parent.parent


def archive_entries(path: Path) -> dict[str, bytes]:
    """What a learner's Anki reads from an .apkg: each entry's name and uncompressed bytes.
    (The compressed bytes also depend on the zlib build and level: see nca_anki/package.py.)"""
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


@dataclass(frozen=True)
class Run:
    status: int
    out: str
    err: str


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the repository's source/ (seeds and lock) and templates/, as the current
    folder, the way a user works in a fresh clone."""
    root = tmp_path / "project"
    shutil.copytree(REPO / "source", root / "source")
    shutil.copytree(REPO / "templates", root / "templates")
    monkeypatch.chdir(root)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    return root


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Run ``build_decks.py`` in-process with the given arguments."""

    def run(*args: str) -> Run:
        capsys.readouterr()
        status = main(list(args))
        captured = capsys.readouterr()
        return Run(status, captured.out, captured.err)

    return run


# --- headless Chromium, for the card's browser tests (tests/card_browser.py) --------------------

@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole run; skipped without one, failed under CI."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def server() -> Iterator[CardServer]:
    with CardServer() as server:
        yield server


@pytest.fixture
def reviewer(browser, server):
    """Factory: ``reviewer(mode, **options)`` opens a Reviewer; all are closed after the test."""
    opened: list[Reviewer] = []

    def make(mode: str, **options) -> Reviewer:
        opened.append(Reviewer(browser, server, mode=mode, **options))
        return opened[-1]

    yield make
    for each in opened:
        each.close()
