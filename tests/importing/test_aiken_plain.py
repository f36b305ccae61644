"""Aiken is plain text (issue 46, round 5): Moodle's import escapes every "<" and "&" of it
and shows it as typed, so the card must too: no emphasis from "*" or "_", no heading from
a "#" at a line's start, no list from "1." or "- ", no quote from ">", "&lt;" shown as
typed. Every bank here is written for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import as_read, built_and_imported, written_questions

BANK = """Is *this* _so_ or a_b or <b>bold</b> or &lt;tag&gt;?
# not a heading
## nor this
> not a quote
1. not a list
- nor this
===
A. **two** stars
B) _one_ & <i>x</i>
C. 4*8 and `ticks`
ANSWER: B
"""


def _import(cli, tmp_path: Path) -> None:
    bank = tmp_path / "in" / "plain.aiken"
    bank.parent.mkdir(parents=True)
    bank.write_text(BANK, encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "source"))
    assert done.status == 0, done.err


def test_aiken_text_is_written_to_show_as_typed(tmp_path, cli):
    _import(cli, tmp_path)
    [(prompt, choices)] = written_questions(tmp_path / "source", explained=False)
    assert prompt.split("\n") == [
        "Is \\*this\\* \\_so\\_ or a_b or <b>bold</b> or \\&lt;tag\\&gt;?",
        "\\# not a heading", "\\## nor this", "\\> not a quote", "1\\. not a list",
        "\\- nor this", "\\==="]
    assert choices == ["\\*\\*two\\*\\* stars", "*\\_one\\_ & <i>x</i>",
                       "4*8 and \\`ticks\\`"]


@pytest.mark.anki
def test_aiken_text_shows_on_the_card_as_typed(tmp_path, cli):
    _import(cli, tmp_path)
    _, decks = built_and_imported(tmp_path)
    [card] = [c for cards in decks.values() for c in cards]
    prompt, choices, _ = as_read(card)
    assert prompt.split() == BANK.split("\nA.")[0].split()
    assert "<em>" not in card.fields["Prompt"] + card.fields["Choices"]
    assert "<h1>" not in card.fields["Prompt"] and "<ol>" not in card.fields["Prompt"]
    assert sorted(choices) == sorted(["**two** stars", "*_one_ & <i>x</i>",
                                      "4*8 and `ticks`"])
