"""Emphasis written in HTML (Moodle's editor, GIFT, HTML in a bank) reaches the card as
emphasis, also when the author's spaces sit just inside the tag."""
from __future__ import annotations

import pytest

from nca_anki.cards.markup import Markdown
from nca_anki.importing.bank import html_to_markdown


@pytest.mark.parametrize(("html", "strong", "rest"), [
    ("<b>See also: </b>chapter four", "See also:", "chapter four"),
    ("<p><strong>&nbsp;Hint:</strong>&nbsp;think of caches</p>", "Hint:", "think of caches"),
    ("Read <b> the manual </b>first", "the manual", "first"),
])
def test_spaces_inside_bold_stay_outside_so_the_card_shows_bold(html: str, strong: str,
                                                                rest: str) -> None:
    card = Markdown().block(html_to_markdown(html)).html
    assert f"<strong>{strong}</strong>" in card
    assert "*" not in card
    assert rest in card


def test_italic_inside_bold_with_spaces_is_both() -> None:
    card = Markdown().block(html_to_markdown("a<b> <i> word </i> </b>b")).html
    assert "<strong>word</strong>" in card and "<em>" in card and "*" not in card


@pytest.mark.parametrize("html", ["<b></b>text", "<i>  </i>text", "<strong> </strong>text"])
def test_empty_emphasis_leaves_no_marks(html: str) -> None:
    assert html_to_markdown(html) == "text"
