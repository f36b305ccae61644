"""Versions (nca_anki/publishing/versions.py): one version a day, records reconciled with their
deck, and the deck description. End to end, with real imports: tests/e2e/test_sharing.py."""

from __future__ import annotations

from nca_anki.identity.retired import retired_mod, revived_mod, strip_notice
from nca_anki.publishing.versions import (DeckState, DeckVersion, Events, advance, day,
                                          description, reconcile, with_notice)

DAY1 = 1_796_200_000  # 2026-12-02
DAY2 = DAY1 + 3 * 86_400


def test_builds_on_one_day_make_one_version() -> None:
    state = DeckState({"a": DAY1, "b": DAY1})
    first = advance(None, Events(added=frozenset({"a"}), changed=frozenset({"b"})), state, DAY1)
    assert first == DeckVersion(version=day(DAY1), added=("a",), changed=("b",))
    # Later that day: "a" edited again (still added), "b" withdrawn, "c" added.
    second = advance(first, Events(added=frozenset({"c"}), changed=frozenset({"a"}),
                                   removed=frozenset({"b"})), state, DAY1 + 60)
    assert second == DeckVersion(version=day(DAY1), added=("a", "c"), removed=("b",))
    # Added and withdrawn on one day: never in a version.
    third = advance(second, Events(removed=frozenset({"c"})), state, DAY1 + 120)
    assert third == DeckVersion(version=day(DAY1), added=("a",), removed=("b",))
    # The next day starts a new version; a build without events keeps the record.
    assert advance(third, Events(), state, DAY2) is third
    assert advance(third, Events(changed=frozenset({"a"})), state, DAY2) == \
        DeckVersion(version=day(DAY2), changed=("a",))


def test_the_description_escapes_the_topic_and_names_parts_and_version() -> None:
    text = description("A & <B>", [1, 2], 2, DeckVersion(version="2026-12-02", changed=("g",)))
    assert "<p>2 multiple-choice questions on A &amp; &lt;B&gt; (parts 1, 2).</p>" in text
    assert "<b>Version 2026-12-02</b>: 1 question changed." in text
    assert "tag:nca::updated::2026-12-02" in text


def test_a_record_written_for_another_file_of_the_deck_takes_in_what_the_deck_shows() -> None:
    record = DeckVersion(version=day(DAY1), added=("a",), changed=("b",))
    found = DeckVersion(version=day(DAY1), removed=("r",), updated=("a", "b", "c"))
    assert reconcile(record, found) == DeckVersion(version=day(DAY1), added=("a",), changed=("b",),
                                                   removed=("r",), updated=("c",))
    newer = DeckVersion(version=day(DAY2), updated=("c",))
    assert reconcile(record, newer) is newer and reconcile(None, newer) is newer
    assert reconcile(DeckVersion(version=day(DAY2)), found) == DeckVersion(version=day(DAY2))


def test_the_withdrawn_notice_comes_off_as_it_went_on_and_times_only_rise() -> None:
    prompt = "What is <code>nvcc</code>?"
    noticed = with_notice(prompt, DAY2)
    assert noticed.startswith(f'<span class="nca-retired">Withdrawn on {day(DAY2)}: ')
    assert strip_notice(noticed) == prompt and strip_notice(prompt) == prompt
    assert with_notice(noticed, DAY2) == noticed  # never two notices
    assert retired_mod(DAY1, DAY2) == DAY2 and retired_mod(DAY2, DAY2) == DAY2 + 1
    assert revived_mod(DAY1, DAY2, DAY2) == DAY2 + 1 > retired_mod(DAY1, DAY2)
