"""Shared fixtures: a throw-away copy of the project, and running the real CLI on it."""

from __future__ import annotations

import re
import shutil
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from card_browser import CardServer, Reviewer, launch, require_chromium
from nca_anki.caching.state import state_path
from nca_anki.cli import main
from nca_anki.files import CACHE_ENV
from nca_anki.report import BuildOptions

REPO = Path(__file__).resolve().parent.parent


def archive_entries(path: Path) -> dict[str, bytes]:
    """What a learner's Anki reads from an .apkg: each entry's name and uncompressed bytes.
    (The compressed bytes also depend on the zlib build and level: see nca_anki/publishing/package.py.)"""
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def the_day_after_the_committed_lock() -> int:
    """8:00 UTC on the day after the committed lock's newest time: a build then finds every
    committed time in its past, and one that changes nothing keeps the committed version."""
    lock = REPO / "source" / "nca-anki.lock"
    times = [int(line.split()[4 if line.startswith("Q ") else 2])
             for line in lock.read_text(encoding="utf-8").splitlines()
             if line.startswith(("Q ", "N "))]
    return (max(times) // 86_400 + 1) * 86_400 + 8 * 3_600


def copy_project(root: Path, *, templates: bool = True) -> Path:
    """A copy of the repository's source/ (seeds and lock) and, unless ``templates`` is
    False, templates/ in ``root``, the way a user has them in a fresh clone."""
    shutil.copytree(REPO / "source", root / "source")
    if templates:
        shutil.copytree(REPO / "templates", root / "templates")
    return root


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """An author's edit of a file: its first ``count`` ``old`` become ``new``. Bytes, not
    text, so every other byte stays as it was (the seeds' damage and line ends too)."""
    data = path.read_bytes()
    assert old.encode() in data, old
    path.write_bytes(data.replace(old.encode(), new.encode(), count))


def build_at(cli, monkeypatch: pytest.MonkeyPatch, moment: int, *args: str,
             status: int = 0):
    """Build with the clock at ``moment`` (SOURCE_DATE_EPOCH), expecting exit ``status``."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(moment))
    run = cli(*args)
    assert run.status == status, run.err
    return run


@dataclass(frozen=True)
class Run:
    status: int
    out: str
    err: str


# The build cache of a project (the command's default: .nca-anki-cache in the current folder).
CACHE = Path(".nca-anki-cache")


def options(**kwargs: Any) -> BuildOptions:
    """Options as the command passes them for the project in the current folder: its
    default folders and cache, and the clock as it is now."""
    return BuildOptions(Path("source"), Path("templates"), Path("dist"),
                        **{"now": int(time.time()), "cache": CACHE, "render_key": RENDER_KEY,
                           **kwargs})


RENDER_KEY = b"a test's render cache key, 32 b."  # what edges.render_key gives the command


def state_file(root: Path) -> Path:
    """The cache's state file for the default folders of the project at ``root``."""
    return state_path(root / CACHE, root / "source", root / "templates", root / "dist")


# --- markers: what a test needs beyond Python (docs/contributing.md, "Markers") -----------------

def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that uses the ``browser`` fixture (directly or through ``reviewer``, a page
    or a deck fixture built on it) is marked ``browser``: the mark follows the fixture, so
    it cannot be forgotten."""
    for item in items:
        if {"browser", "webkit_display", "drive"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before any fixture of ``item`` runs: a test not marked ``anki`` (or ``desktop``)
    that opens a real Anki collection fails, naming the mark (anki_client.MARKED)."""
    import anki_client

    anki_client.MARKED = any(item.get_closest_marker(m) for m in ("anki", "desktop"))


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command run outside a project copy keeps its cache in the test's own folder, never
    in the checkout (where one test's cache would meet the next one's)."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "nca-anki-cache"))
    # The render cache's key (edges.render_key): the test's own, never the user's.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the repository's source/ (seeds and lock) and templates/, as the current
    folder, the way a user works in a fresh clone (so the cache is its .nca-anki-cache)."""
    root = copy_project(tmp_path / "project")
    monkeypatch.chdir(root)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.delenv(CACHE_ENV, raising=False)
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


# --- WebKit (tests/webkit_browser.py), and one driver for either engine (tests/card_driver.py) --

@pytest.fixture(scope="session")
def webkit_display():
    """One Xvfb for the run's WebKit windows; skipped without WebKit, failed under CI."""
    from webkit_browser import WebKitDisplay, require_webkit

    require_webkit()
    display = WebKitDisplay()
    yield display
    display.close()


@pytest.fixture
def drive(request: pytest.FixtureRequest, server):
    """Factory: ``drive(engine, mode, **options)`` opens a card page in "chromium" or
    "webkit" (options as Reviewer's: night, viewport, touch) as a card_driver.Driver."""
    from card_driver import Driver

    opened = []

    def make(engine: str, mode: str, **options) -> Driver:
        if engine == "chromium":
            reviewer = Reviewer(request.getfixturevalue("browser"), server, mode=mode, **options)
        else:
            from webkit_browser import WebKitReviewer

            options.pop("touch", None)  # WebKitGTK has no touch screen to emulate
            reviewer = WebKitReviewer(request.getfixturevalue("webkit_display"), server,
                                      mode=mode, **options)
        opened.append(reviewer)
        return Driver(engine, reviewer)

    yield make
    for each in opened:
        each.close()


def built_and_imported(root: Path, decks: tuple[str, ...] | None = None, *,
                       source: str = "source"):
    """Build ``root/<source>`` with the repository's templates and a fixed clock into
    ``root/dist``, import each topic's package into a new collection in ``root/anki`` with
    the real backend (its media stays in ``root/anki/collection.media``), and return the
    build's report and the cards of each of ``decks`` (None: of every topic the build
    reported)."""
    from anki_client import cards_in_deck, import_package, open_collection
    from nca_anki.build import BuildOptions, build

    report = build(BuildOptions(root / source, REPO / "templates", root / "dist",
                                now=1_800_000_000))
    assert report.ok, [str(d) for d in report.diagnostics if d.is_error]
    col = open_collection(root / "anki" / "collection.anki2")
    try:
        for apkg in sorted((root / "dist").glob("*.apkg")):
            if not apkg.name.endswith("_all_topics.apkg"):
                import_package(col, apkg)
        names = decks if decks is not None else tuple(t.deck_name for t in report.topics)
        return report, {deck: cards_in_deck(col, deck) for deck in names}
    finally:
        col.close()


_CHOICE_RE = re.compile(r'<li\b[^>]*><span class="nca-label">([A-J])</span> '
                        r'<span class="nca-text">(.*?)</span></li>', re.DOTALL)


def as_read(card) -> tuple[str, list[str], str]:
    """A card as the learner reads it: its prompt, its choices in the card's order with a
    "*" before each the card counts right, and its explanation, as text."""
    from anki_client import html_to_text

    right = set(re.findall(r"[A-J]", card.fields["Answer"]))
    return (html_to_text(card.fields["Prompt"]).strip(),
            [("*" if label in right else "") + html_to_text(text).strip()
             for label, text in _CHOICE_RE.findall(card.fields["Choices"])],
            html_to_text(card.fields["Explanation"]).strip())


def written_questions(out: Path, explained: bool = True) -> list[tuple]:
    """Every question an import wrote into ``out``, as the build's parser reads it back:
    (prompt, choices with "*" before each right one, explanation), or without the
    explanation. The question files must read back without an error."""
    from nca_anki.reading.parse import parse

    found: list[tuple] = []
    for path in sorted(out.glob("*.txt")):
        result = parse(path.read_text(encoding="utf-8"), path.name)
        assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
        found += [(q.prompt, [("*" if c.correct else "") + c.text for c in q.choices],
                   *((q.explanation,) if explained else ())) for q in result.file.questions]
    return found
