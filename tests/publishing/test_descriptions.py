"""A deck's description offers a search only where it finds notes (issue 45, 8): the
version's tag when notes carry it, the retired tag when the version withdrew questions, and
none when the version changed only the card's layout. End to end, each search run in a
real collection: tests/e2e/test_what_learners_see.py."""

from __future__ import annotations

import pytest

from nca_anki.publishing.versions import DeckVersion, description

V = "2026-12-04"


def _said(version: DeckVersion, **counts: int) -> str:
    return description("Topic", [1], 3, version, **counts)


def test_a_layout_only_version_offers_no_search() -> None:
    text = _said(DeckVersion(version=V, layout=True), tagged=0, withdrawn=0)
    assert "tag:nca::updated::" not in text
    assert "changed only the card's layout: no question changed" in text


def test_a_version_whose_notes_carry_its_tag_offers_the_tag() -> None:
    text = _said(DeckVersion(version=V, changed=("g",), layout=True), tagged=1, withdrawn=0)
    assert f"See what changed: search <code>tag:nca::updated::{V}</code>." in text


def test_a_withdrawal_only_version_offers_the_retired_tag_not_its_own() -> None:
    text = _said(DeckVersion(version=V, removed=("g",)), tagged=0, withdrawn=1)
    assert "tag:nca::updated::" not in text
    assert "Withdrawn: search <code>tag:nca::retired</code>" in text


def test_a_version_that_changed_and_withdrew_offers_both() -> None:
    text = _said(DeckVersion(version=V, changed=("a",), removed=("b",)), tagged=1, withdrawn=1)
    assert f"<code>tag:nca::updated::{V}</code>" in text
    assert "What it withdrew: search <code>tag:nca::retired</code>" in text


@pytest.mark.parametrize("version", [DeckVersion(version=V, changed=("g",)),
                                     DeckVersion(version=V, added=("g",)),
                                     DeckVersion(version=V, updated=("g",))])
def test_a_record_claims_a_change_but_no_note_carries_the_tag(version: DeckVersion) -> None:
    """The notes decide, not the record (a record and a deck from two branches)."""
    assert "tag:nca::updated::" not in _said(version, tagged=0, withdrawn=0)


def test_without_counts_the_record_decides() -> None:
    assert "tag:nca::updated::" not in _said(DeckVersion(version=V, layout=True))
    assert "tag:nca::updated::" in _said(DeckVersion(version=V, added=("g",)))
    assert "No question changed in this version." in _said(DeckVersion(version=V))
