"""What the learner sees, end to end (issue 45, items 5, 7, 8 and 19): real builds through
the command, imported into real collections with the `anki` package.

- Two choices that differ only by an invisible character are an error at the line, and
  the topic keeps its last good deck.
- A mistyped '— Questions and Answers' gives no second deck.
- Every search a deck's description offers finds the notes it says it finds, in every
  kind of version: the first, a changed question, a question withdrawn, the layout only,
  the card's language.
- A [deck_names] key typed in decomposed form (NFD) names its deck.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from anki_client import cards_in_deck, deck_names, html_to_text, import_package, open_collection
from conftest import build_at, the_day_after_the_committed_lock

pytestmark = pytest.mark.anki

DAY1 = the_day_after_the_committed_lock()
DAY2 = DAY1 + 86_400
DAY3 = DAY2 + 86_400
AI = "source/nca-ai-deep-learning-frameworks-4.txt"
DL = "source/deep-learning-training-techniques-and-optimization-2.txt"
NN = "source/neural-network-applications-and-frameworks-2.txt"
AI_DECK = "NCA::AI & Deep Learning Frameworks"
DL_DECK = "NCA::Deep Learning Training Techniques and Optimization"


def decks_of(project: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((project / "dist").glob("*.apkg"))}


def imported(project: Path, folder: Path):
    """A new collection with every topic's deck of ``project`` imported."""
    col = open_collection(folder / "collection.anki2")
    for apkg in sorted((project / "dist").glob("*.apkg")):
        if not apkg.name.endswith("_all_topics.apkg"):
            import_package(col, apkg)
    return col


def append(path: str, text: str) -> None:
    file = Path(path)
    file.write_text(file.read_text(encoding="utf-8").rstrip("\n") + "\n" + text,
                    encoding="utf-8")


# --- item 5: a choice twice, but for a zero-width space ----------------------------------------

def test_a_choice_repeated_but_for_a_zero_width_space_is_an_error_and_keeps_the_deck(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build_at(cli, monkeypatch, DAY1)
    before = decks_of(project)
    col = imported(project, tmp_path / "learner")
    try:
        cards = cards_in_deck(col, AI_DECK)
        lines = len(Path(AI).read_text(encoding="utf-8").rstrip("\n").split("\n"))
        append(AI, "Question 8: Which letter comes first?\n- alpha (Correct answer)\n"
                   "- al\u200bpha\n- beta\nCorrect answer: alpha\nThe Greek alphabet.\n")
        run = build_at(cli, monkeypatch, DAY2, status=1)
        # The message shows the character it cannot show: repr's escape.
        assert (f"{AI}:{lines + 3}: error[E118]: Question 8 lists the choice 'al\\u200bpha' "
                f"twice (also at line {lines + 2}); they differ only in invisible characters "
                "(U+200B (ZERO WIDTH SPACE))") in run.err, run.err
        assert f"{AI_DECK}: failed" in run.out
        assert decks_of(project) == before  # the topic keeps its last good deck
        for apkg in sorted((project / "dist").glob("*.apkg")):
            if not apkg.name.endswith("_all_topics.apkg"):
                import_package(col, apkg)
        assert cards_in_deck(col, AI_DECK) == cards  # no card shows "alpha" twice
    finally:
        col.close()


# --- item 7: the title's suffix mistyped -----------------------------------------------------

def test_a_mistyped_title_suffix_keeps_the_deck_and_says_how_to_write_it(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build_at(cli, monkeypatch, DAY1)
    before = decks_of(project)
    col = imported(project, tmp_path / "learner")
    try:
        names = deck_names(col)
        path = Path(DL)
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("Optimization 2 — Questions and Answers",
                                     "Optimization 2 - Questions & Answers"), encoding="utf-8")
        run = build_at(cli, monkeypatch, DAY2, "--warnings=all")
        assert (f"{DL}:1: warning[W110]: title ends with '- Questions & Answers', read as "
                "'— Questions and Answers' (the deck keeps its name)") in run.out + run.err
        assert decks_of(project) == before  # the same deck, not a renamed one
        for apkg in sorted((project / "dist").glob("*.apkg")):
            if not apkg.name.endswith("_all_topics.apkg"):
                import_package(col, apkg)
        assert deck_names(col) == names
        # A title whose end is not read as the suffix would move the questions: an error.
        path.write_text(text.replace("Optimization 2 — Questions and Answers",
                                     "Optimization 2 — Qs and As"), encoding="utf-8")
        run = build_at(cli, monkeypatch, DAY2, status=1)
        assert f"{DL}:1: error[E123]: title makes topic" in run.err
        assert decks_of(project) == before
    finally:
        col.close()


# --- item 8: every search a description offers finds what it says ----------------------------

def _searches(col, deck: str) -> tuple[str, list[str]]:
    desc = col.decks.by_name(deck)["desc"]
    return html_to_text(desc), re.findall(r"<code>(tag:[^<]+)</code>", desc)


def _check_descriptions(project: Path, folder: Path) -> dict[str, tuple[str, dict[str, int]]]:
    """Each deck's description and, for each search it offers as what changed, how many
    notes it finds, typed as offered; every such search finds at least one. (A withdrawn
    question reaches a new learner as a note without a card, so in no deck: the search is
    not limited to the deck.)"""
    col = imported(project, folder)
    try:
        found = {}
        for deck in sorted(d for d in deck_names(col) if d.startswith("NCA::")):
            text, searches = _searches(col, deck)
            offered = [s for s in searches if f"search {s}" in text]
            counts = {s: len(col.find_notes(s)) for s in offered}
            assert all(counts.values()), (deck, text, counts)
            found[deck] = (text, counts)
        return found
    finally:
        col.close()


def test_each_description_offers_only_searches_that_find_notes(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The committed lock's newest change is the card's layout: a layout-only version.
    build_at(cli, monkeypatch, DAY1)
    first = _check_descriptions(project, tmp_path / "first")
    for text, counts in first.values():
        assert "changed only the card's layout" in text and counts == {}, text

    # A question changed: the version's tag finds exactly it.
    path = Path(AI)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "Which NVIDIA GPU architecture first introduced Tensor Cores",
        "Which NVIDIA GPU architecture was the first with Tensor Cores"), encoding="utf-8")
    build_at(cli, monkeypatch, DAY2)
    changed = _check_descriptions(project, tmp_path / "changed")
    text, counts = changed[AI_DECK]
    assert counts == {f"tag:nca::updated::{_day(DAY2)}": 1}, text
    assert all(counts == {} for deck, (_, counts) in changed.items() if deck != AI_DECK)

    # A question withdrawn, nothing else: the retired tag, not the version's.
    file = Path(DL)
    lines = file.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Question 6: "))
    del lines[start:start + 7]
    file.write_text("\n".join(lines), encoding="utf-8")
    build_at(cli, monkeypatch, DAY3)
    withdrawn = _check_descriptions(project, tmp_path / "withdrawn")
    text, counts = withdrawn[DL_DECK]
    assert counts == {"tag:nca::retired": 1}, text
    assert f"tag:nca::updated::{_day(DAY3)}" not in text

    # The card's language: a new layout, and every note's words (its fields hold some).
    (project / "source" / "nca-anki.toml").write_text('language = "de"\n', encoding="utf-8")
    build_at(cli, monkeypatch, DAY3 + 86_400)
    german = _check_descriptions(project, tmp_path / "german")
    text, counts = german["NCA::Neural Network Applications and Frameworks"]
    assert counts == {f"tag:nca::updated::{_day(DAY3 + 86_400)}": 18}, text  # 1 withdrawn

    # The layout alone: the version's tag is on no note, and no search is offered.
    css = project / "templates" / "style.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* a layout edit */\n",
                   encoding="utf-8")
    build_at(cli, monkeypatch, DAY3 + 2 * 86_400)
    layout = _check_descriptions(project, tmp_path / "layout")
    for text, counts in layout.values():
        assert "changed only the card's layout" in text and counts == {}, text


def test_a_first_version_offers_the_search_that_finds_every_question(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (project / "source" / "nca-anki.lock").unlink()
    build_at(cli, monkeypatch, DAY1)
    found = _check_descriptions(project, tmp_path / "first")
    assert found[AI_DECK][1] == {f"tag:nca::updated::{_day(DAY1)}": 19}  # every deck


def _day(moment: int) -> str:
    from nca_anki.publishing.versions import day
    return day(moment)


# --- item 19: a [deck_names] key in NFD ------------------------------------------------------

def test_a_deck_name_keyed_in_nfd_names_the_deck(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = Path(AI)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "AI & Deep Learning Frameworks", "AI & Réseaux de neurones"), encoding="utf-8")
    key = unicodedata.normalize("NFD", "AI & Réseaux de neurones")
    (project / "source" / "nca-anki.toml").write_text(
        f'[renamed]\n"AI & Deep Learning Frameworks" = "AI & Réseaux de neurones"\n'
        f'[deck_names]\n"{key}" = "AI and neural networks"\n', encoding="utf-8")
    run = build_at(cli, monkeypatch, DAY1, "--warnings=all")
    assert "W201" not in run.out + run.err
    col = imported(project, tmp_path / "learner")
    try:
        assert "NCA::AI and neural networks" in deck_names(col)
        assert len(cards_in_deck(col, "NCA::AI and neural networks")) == 7
    finally:
        col.close()
