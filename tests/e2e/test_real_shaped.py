"""A real-shaped bank, built and imported into a real Anki collection, then shown in
Chromium: code, tables, escapes, inline tags, references to choices and look-alike
choices as real banks write them (issue 21). The bank is tests/fixtures/real-shaped/,
written for this project in the shapes of converted public banks (none copied)."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass

import pytest

from anki_client import CardView
from card_browser import CardHtml
from conftest import REPO, built_and_imported

pytestmark = pytest.mark.anki  # every test here reads cards from a real collection

BANK = REPO / "tests" / "fixtures" / "real-shaped"
MODES = ["desktop", "mobile"]


@dataclass(frozen=True)
class Bank:
    cards: tuple[CardView, ...]
    diagnostics: tuple[str, ...]

    def card(self, prompt: str) -> CardView:
        found = [c for c in self.cards if prompt in c.fields["Prompt"]]
        assert len(found) == 1, prompt
        return found[0]


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Bank:
    root = tmp_path_factory.mktemp("real-shaped")
    shutil.copytree(BANK, root / "source")
    report, decks = built_and_imported(root, ("NCA::Systems Programming",
                                              "NCA::GPU Infrastructure", "NCA::Go Programming",
                                              "NCA::C++ Programming"))
    return Bank(tuple(card for cards in decks.values() for card in cards),
                tuple(str(d) for d in report.diagnostics))


def choices(card: CardView) -> list[str]:
    return re.findall(r'<span class="nca-text">(.*?)</span></li>', card.fields["Choices"],
                      re.DOTALL)


def shuffles(card: CardView) -> bool:
    return 'data-nca-shuffle="yes"' in card.fields["Choices"]


def test_the_whole_bank_is_imported(bank: Bank) -> None:
    assert len(bank.cards) == 15


# 1. references to choices ---------------------------------------------------------------

def test_an_explanation_naming_a_choice_keeps_the_written_order(bank: Bank) -> None:
    card = bank.card("Training loss keeps falling")  # "The correct answer is a) Overfitting"
    assert not shuffles(card)
    assert choices(card)[0] == "Overfitting" and card.fields["Answer"] == "A"
    ordinal = bank.card("exponent range of FP32")  # "The second answer keeps ..."
    assert not shuffles(ordinal) and choices(ordinal)[1] == "BF16"


def test_names_with_capital_letters_do_not_freeze_a_question(bank: Bank) -> None:
    assert shuffles(bank.card("CUDA C and C++ kernels"))
    assert shuffles(bank.card("A/B testing"))


# 2. "#define" ----------------------------------------------------------------------------

def test_hash_words_are_choices_not_headings(bank: Bank) -> None:
    card = bank.card("define the macros")
    assert sorted(choices(card)) == ["#define", "#macro", "define", "macro"]
    assert "<h1" not in card.question_html and "<h1" not in card.answer_html


# 3. escapes, breaks, tags ----------------------------------------------------------------

def test_escaped_dollars_show_without_their_backslash(bank: Bank) -> None:
    card = bank.card("what does <code>$#</code> hold")
    assert {"The script's name, like $0", "The ID of the shell's process, like $$"} <= set(
        choices(card))
    assert "\\" not in card.fields["Choices"] + card.fields["Explanation"]
    assert "script's name.<br>" in card.fields["Explanation"]  # the trailing backslash


def test_br_sub_sup_kbd_are_markup(bank: Bank) -> None:
    signal = bank.card("<kbd>Ctrl</kbd>+<kbd>C</kbd>")
    assert "may catch.<br>SIGKILL cannot be caught<br>or ignored." in signal.fields["Explanation"]
    formula = bank.card("E = mc<sup>2</sup>")
    assert "H<sub>2</sub>O" in formula.fields["Explanation"]
    assert "<s>heat</s>" in formula.fields["Explanation"]


# 4. tables ----------------------------------------------------------------------------------

def test_a_table_under_a_line_of_text_is_a_table(bank: Bank) -> None:
    prompt = bank.card("Based on the table below").fields["Prompt"]
    assert prompt.startswith('<div class="nca-prose"><p>Based on the table below, which GPU')
    assert prompt.count("<tr>") == 5 and "|" not in prompt


# 5. case is meaning -----------------------------------------------------------------------

def test_choices_differing_in_case_are_two_choices_without_a_warning(bank: Bank) -> None:
    card = bank.card("associative array")
    assert {"declare -a", "declare -A"} <= set(choices(card))
    assert choices(card)["ABCD".index(card.fields["Answer"])] == "declare -A"
    assert not [d for d in bank.diagnostics if "twice" in d]


# 6. code -----------------------------------------------------------------------------------

def test_code_is_highlighted_with_its_tabs(bank: Bank) -> None:
    prompt = bank.card("What does this program print").fields["Prompt"]
    assert '<span class="kt">int</span>' in prompt and '<span class="cp">#include</span>' in prompt
    assert "\t" in prompt and '<span class="mi">4</span><span class="o">*</span>' in prompt


# code under choices (issue 22, begun) -----------------------------------------------------

def test_choices_carry_their_code_blocks(bank: Bank) -> None:
    card = bank.card("Which docstring holds a doctest")
    texts = choices(card)
    assert len(texts) == 4 and all("<pre><code>" in text for text in texts)
    assert sum('<span class="k">def</span>' in text for text in texts) == 3
    assert any("print" in text and "<pre><code>" in text for text in texts)  # indented lines
    right = texts["ABCD".index(card.fields["Answer"])]
    assert right.startswith("<p>An interactive session")


# 8. false alarms -----------------------------------------------------------------------------

def test_go_and_cpp_are_two_topics_without_a_typo_warning(bank: Bank) -> None:
    assert not [d for d in bank.diagnostics if "looks like" in d]
    assert {c.deck for c in bank.cards} >= {"NCA::Go Programming", "NCA::C++ Programming"}


# --- in the browser: 4, 6, 7 -------------------------------------------------------------------

OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
BOX_SCROLLS = """(selector) => [...document.querySelectorAll(selector)].map(
    e => [e.scrollWidth > e.clientWidth, getComputedStyle(e).overflowX])"""


def html_of(card: CardView) -> CardHtml:
    return CardHtml(card.question_html, card.answer_html, card.css)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("width", [320, 390])
def test_wide_tables_and_long_code_lines_scroll_in_their_box_not_the_card(
        reviewer, bank: Bank, mode: str, width: int) -> None:
    r = reviewer(mode, viewport=(width, 700))
    for prompt, box in (("Based on the table below", ".nca-prompt table"),
                        ("What does this program print", ".nca-prompt pre code"),
                        ("Which docstring holds a doctest", ".nca-text pre code")):
        card = html_of(bank.card(prompt))
        r.show_question(card)
        assert r.page.evaluate(OVERFLOW) <= 0
        scrolls = r.page.evaluate(BOX_SCROLLS, box)
        if box.startswith(".nca-text"):  # code in a choice wraps: nothing to scroll
            assert scrolls and all(s == [False, "visible"] for s in scrolls), scrolls
        else:  # each scrolls inside itself
            assert [True, "auto"] in scrolls and all(style == "auto" for _, style in scrolls)
        r.page.locator(".nca-choice-list > *").first.click()
        r.show_answer(card)
        assert r.page.evaluate(OVERFLOW) <= 0
    assert r.console_errors() == []


STYLE = """(selector) => { const s = getComputedStyle(document.querySelector(selector));
    return {weight: s.fontWeight, color: s.color, background: s.backgroundColor,
            border: s.borderTopWidth + " " + s.borderTopStyle}; }"""


def _luminance(rgb: str) -> float:
    channels = [int(v) / 255 for v in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# The code block's background is a translucent tint over the card's: what the eye sees.
PAINTED = """(selector) => { const e = document.querySelector(selector);
    const canvas = document.createElement("canvas"); canvas.width = canvas.height = 1;
    const g = canvas.getContext("2d");
    g.fillStyle = getComputedStyle(document.querySelector(".card") || document.body).backgroundColor;
    g.fillRect(0, 0, 1, 1);
    g.fillStyle = getComputedStyle(e).backgroundColor; g.fillRect(0, 0, 1, 1);
    const [r, gr, b] = g.getImageData(0, 0, 1, 1).data; return `rgb(${r}, ${gr}, ${b})`; }"""


@pytest.mark.parametrize("night", [False, True])
def test_table_header_and_code_colours_read_in_day_and_night(reviewer, bank: Bank,
                                                             night: bool) -> None:
    r = reviewer("mobile", viewport=(390, 700), night=night)
    r.show_question(html_of(bank.card("Based on the table below")))
    th, td = r.page.evaluate(STYLE, ".nca-prompt th"), r.page.evaluate(STYLE, ".nca-prompt td")
    assert th["weight"] == "700" and td["weight"] == "400"
    assert th["background"] != td["background"]  # a distinct header
    assert td["border"].endswith("solid") and not td["border"].startswith("0px")
    r.show_question(html_of(bank.card("What does this program print")))
    background = r.page.evaluate(PAINTED, ".nca-prompt pre code")
    plain = r.page.evaluate(STYLE, ".nca-prompt pre code")["color"]
    for token in (".k", ".kt", ".cp", ".cpf", ".mi", ".s", ".c1", ".nf"):
        color = r.page.evaluate(STYLE, f".nca-prompt pre {token}")["color"]
        assert color != plain, token  # highlighted
        assert contrast(color, background) >= 4.5, (token, color, background)


@pytest.mark.parametrize("prompt, weight", [
    ("What does this program print", "400"),  # code
    ("Based on the table below", "400"),  # a table
    ("A research team trains a 13-billion-parameter", "400"),  # a 440-character scenario
    ("Training loss keeps falling", "600"),  # 101 characters of text: the card's heading
    ("Which keyword starts a goroutine", "600"),
    ("Which <code>declare</code> option", "600"),  # its code span: 400 (below)
])
def test_long_or_code_bearing_prompts_are_set_in_normal_weight(reviewer, bank: Bank,
                                                               prompt: str, weight: str) -> None:
    r = reviewer("desktop", viewport=(1000, 700))
    r.show_question(html_of(bank.card(prompt)))
    text = r.page.locator(".nca-prompt").first
    assert text.evaluate("e => getComputedStyle(e.firstElementChild?.matches('.nca-prose')"
                         " ? e.firstElementChild : e).fontWeight") == weight
    for code in r.page.locator(".nca-prompt code").all():
        assert code.evaluate("e => getComputedStyle(e).fontWeight") == "400"
