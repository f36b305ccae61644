"""The card for every hand and every reader, in Chromium and in WebKit (the engine family
of AnkiMobile): a touch that scrolls picks nothing, every element of a choice meets
AnkiMobile's tap rule, the choices are one keyboard group, the verdict is announced,
choices can be struck out, the card speaks the project's language, and axe-core finds no
violation on any kind of card (tests/card_kinds.py), front and back, day and night,
phone and desktop. docs/card.md says what each promises.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from axe_check import require_axe, violations
from card_driver import CHOICES, Driver
from card_kinds import KINDS, every_kind

pytestmark = pytest.mark.anki  # every card here is built and rendered by the real backend

REPO = Path(__file__).resolve().parents[2]
ENGINES = ["chromium", "webkit"]
PHONE, DESKTOP = (390, 700), (1000, 700)


@pytest.fixture(scope="session")
def kinds(tmp_path_factory) -> dict:
    return every_kind(tmp_path_factory.mktemp("kinds"))


@pytest.fixture(scope="session")
def speaking(tmp_path_factory):
    """language -> its one-answer and several-answer cards (each language built once, when
    first asked)."""
    built: dict[str, dict] = {}

    def cards(language: str) -> dict:
        if language not in built:
            built[language] = every_kind(tmp_path_factory.mktemp(f"kinds-{language}"),
                                         language, only=("single", "several"))
        return built[language]

    return cards


def said(d: Driver) -> str:
    """The verdict, once written (it is written a moment after the back is shown)."""
    d.wait("() => document.querySelector('.nca-verdict[data-nca-said]')")
    return " ".join(d.js("() => document.querySelector('.nca-verdict').textContent").split())


# --- axe-core: zero violations, best practices included ----------------------------------------

def axe(d: Driver, source: str) -> list[dict]:
    """axe-core's violations in the card (#qa: Anki's page around it is not the card's, so
    page-level rules such as the page's title and landmarks do not apply)."""
    return violations(d.reviewer.view if d.engine == "chromium" else d.reviewer.driver, source)


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("engine", ENGINES)
def test_axe_finds_no_violation(drive, kinds, engine, kind):
    card = kinds[kind]
    source = require_axe()
    found = []
    for size in (PHONE, DESKTOP):
        d = drive(engine, "desktop", viewport=size)
        for night in (False, True):
            d.reviewer.night = night  # the body's classes at the next card shown
            d.show_question(card)
            found += [(size, night, "front", v) for v in axe(d, source)]
            # A choice picked, one struck out, and the pointer over a third: every state.
            d.click(1)
            d.right_click(0)
            if engine == "chromium":
                d.reviewer.page.hover(f"{CHOICES} >> nth=2")
            found += [(size, night, "front, picked and struck", v) for v in axe(d, source)]
            d.show_answer(card)
            said(d)
            found += [(size, night, "back", v) for v in axe(d, source)]
            assert d.errors() == []
    assert found == [], json.dumps(found, indent=1)[:3000]


# --- touch: a scroll is never a pick -----------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
def test_a_touch_that_scrolls_or_swipes_picks_nothing_and_a_tap_picks(drive, kinds, engine):
    card = kinds["code-choices"]  # taller than a phone's screen, with code in its choices
    d = drive(engine, "mobile", viewport=(390, 600), touch=True)
    d.show_question(card)
    top = d.scroll_y()
    d.touch(1, moves=tuple((0, -dy) for dy in range(0, 180, 15)))  # scroll the page up 175 px
    if engine == "chromium":  # the browser itself took it for a scroll
        d.wait("(top) => window.scrollY > top + 100", top)
        d.settle()
    d.touch(2, moves=tuple((-dx, 0) for dx in range(0, 90, 15)))  # a sideways swipe
    d.settle()
    if engine == "webkit":
        d.touch(2, moves=((0, 4),), end="cancel")  # the engine cancels: it scrolls instead
    assert d.picked() == [False] * 4
    d.touch(3, moves=((2, 3),))  # a tap, with the small movement of a real finger
    d.wait("(s) => document.querySelectorAll(s)[3].getAttribute('aria-checked') === 'true'",
           CHOICES)
    assert d.picked() == [False, False, False, True]
    assert d.errors() == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_drag_never_switches_a_choice_of_several_on(drive, kinds, engine):
    d = drive(engine, "desktop", viewport=(390, 600), touch=True)
    d.show_question(kinds["several"])
    d.touch(0, moves=tuple((0, dy) for dy in range(0, 120, 20)))
    assert d.picked() == [False] * 5
    d.touch(0)
    d.wait("(s) => document.querySelectorAll(s)[0].getAttribute('aria-checked') === 'true'",
           CHOICES)
    d.touch(0)  # a second tap unpicks
    d.wait("(s) => document.querySelectorAll(s)[0].getAttribute('aria-checked') === 'false'",
           CHOICES)
    assert d.errors() == []


_TAP_RULE_JS = """(selector) => {
    // AnkiMobile passes a tap to the card only on a link, a button, an element with an
    // onclick handler or the class "tappable"; some versions check the tapped element alone.
    const passes = e => e.tagName === "A" || e.tagName === "BUTTON" || e.onclick
        || e.classList.contains("tappable");
    const failing = [];
    for (const item of document.querySelectorAll(selector)) {
        for (const e of [item, ...item.querySelectorAll("*")]) {
            if (!passes(e)) failing.push(e.tagName + "." + e.className);
        }
    }
    return {count: document.querySelectorAll(selector + ", " + selector + " *").length,
            failing: failing};
}"""


@pytest.mark.parametrize("engine", ENGINES)
def test_every_element_inside_a_choice_meets_ankimobiles_tap_rule(drive, kinds, engine):
    d = drive(engine, "desktop")
    for kind, card in kinds.items():
        d.show_question(card)
        d.right_click(0)  # the words a struck choice carries for a screen reader too
        front = d.js(_TAP_RULE_JS, CHOICES)
        d.show_answer(card)
        back = d.js(_TAP_RULE_JS, CHOICES)
        assert front["failing"] == [] and back["failing"] == [], kind
        assert front["count"] > 4 and back["count"] > 4, kind
    assert d.errors() == []


# --- keyboard ----------------------------------------------------------------------------------

_FOCUS_RING_JS = """() => {
    const e = document.activeElement, style = getComputedStyle(e);
    return {style: style.outlineStyle, width: parseFloat(style.outlineWidth)};
}"""


@pytest.mark.parametrize("kind", ["single", "several"])
@pytest.mark.parametrize("engine", ENGINES)
def test_the_choices_are_one_tab_stop_arrows_move_space_picks_x_strikes(drive, kinds, engine,
                                                                        kind):
    d = drive(engine, "desktop", night=kind == "several")
    card = kinds[kind]
    d.show_question(card)
    state = d.state()
    assert state["group"] == ("radiogroup" if kind == "single" else "group")
    assert [i["role"] for i in state["items"]] == \
        ["radio" if kind == "single" else "checkbox"] * len(state["items"])
    assert [i["tabindex"] for i in state["items"]].count("0") == 1  # one tab stop
    d.press("Tab")
    d.wait("(s) => document.activeElement === document.querySelector(s)", CHOICES)
    ring = d.js(_FOCUS_RING_JS)
    assert ring["style"] != "none" and ring["width"] >= 2, ring  # a visible focus ring
    d.press("ArrowDown", "ArrowDown")
    assert [i["focused"] for i in d.state()["items"]].index(True) == 2
    d.press("ArrowUp")
    d.press("Space")
    assert d.picked()[1] and sum(d.picked()) == 1
    d.press("End", "x")
    assert d.struck()[-1] and not any(d.struck()[:-1])
    d.press("Home")
    assert d.state()["items"][0]["focused"]
    d.press("ArrowUp")  # from the first, round to the last
    assert d.state()["items"][-1]["focused"]
    assert [i["tabindex"] for i in d.state()["items"]].count("0") == 1  # still one stop
    d.js("() => { const b = document.createElement('button'); b.id = 'after';"
         " b.textContent = 'after the card'; document.body.appendChild(b); }")
    d.press("Tab")  # out of the group, to what follows it: one tab stop, not one per choice
    assert d.js("() => document.activeElement.id") == "after"
    d.js("() => document.getElementById('after').remove()")
    d.show_answer(card)
    said(d)
    assert d.errors() == []


@pytest.mark.parametrize("engine", ENGINES)
def test_alt_and_a_digit_picks_and_alt_shift_and_a_digit_strikes(drive, kinds, engine):
    d = drive(engine, "desktop")
    d.show_question(kinds["single"])
    d.press("Alt+2")
    assert d.picked() == [False, True, False, False]
    d.press("Alt+Shift+3")
    assert d.struck() == [False, False, True, False] and d.picked()[1]
    assert d.errors() == []


# --- screen readers: the verdict is announced -------------------------------------------------

# Records every text the verdict has while the back is shown, with its role at that time.
_WATCH_JS = """() => {
    window.__verdicts = [];
    const seen = () => {
        const v = document.querySelector(".nca-verdict");
        if (v) window.__verdicts.push([v.getAttribute("role"), v.textContent]);
    };
    new MutationObserver(seen).observe(document,
        {subtree: true, childList: true, characterData: true});
}"""


@pytest.mark.parametrize("mode", ["desktop", "mobile"])
@pytest.mark.parametrize("engine", ENGINES)
def test_the_verdict_is_a_live_region_emptied_then_written(drive, kinds, engine, mode):
    card = kinds["single"]
    d = drive(engine, mode)
    d.show_question(card)
    d.click(1)
    if mode == "desktop":  # one page: watch it from now on
        d.js(_WATCH_JS)
    elif engine == "chromium":  # a new page: watch it from before its first script
        d.reviewer.page.add_init_script(f"({_WATCH_JS})();")
    # (WebKit's pages watch themselves from their first line: webkit_browser._COLLECT.)
    d.show_answer(card)
    verdict = said(d)
    assert verdict.startswith(("✓", "✗"))
    seen = d.js("() => window.__verdicts")
    texts = [text for _, text in seen]
    assert {role for role, _ in seen} == {"status"}
    assert "" in texts and texts.index("") < len(texts) - 1, texts  # empty, then written
    assert " ".join(texts[-1].split()) == verdict


# --- striking out ----------------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
def test_a_right_click_strikes_out_never_picks_and_the_back_shows_it_uncounted(drive, kinds,
                                                                              engine):
    card = kinds["single"]
    d = drive(engine, "desktop")
    d.show_question(card)
    d.right_click(0)
    assert d.struck() == [True, False, False, False] and d.picked() == [False] * 4
    assert "(struck out)" in d.state()["items"][0]["text"]  # read with the choice
    d.right_click(0)  # again: back in play
    assert d.struck() == [False] * 4
    d.right_click(2)
    d.click(2)  # a pick undoes a strike
    assert d.struck() == [False] * 4 and d.picked() == [False, False, True, False]
    d.right_click(2)  # a strike undoes a pick
    assert d.picked() == [False] * 4 and d.struck() == [False, False, True, False]
    d.right_click(3)
    d.click(1)
    front = d.state()["items"]
    d.show_answer(card)
    verdict = said(d)
    back = d.state()["items"]
    assert [i["struck"] for i in back] == [i["struck"] for i in front] == [False, False, True, True]
    assert [i["checked"] for i in back] == [False, True, False, False]
    assert re.search(r"chose (\w+)", verdict).group(1) == "B", verdict  # the struck: not picks
    assert d.errors() == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_touch_held_on_a_choice_strikes_it_out_and_picks_nothing(drive, kinds, engine):
    d = drive(engine, "mobile", touch=True)
    d.show_question(kinds["single"])
    d.touch(1, end="hold")
    d.wait("(s) => document.querySelectorAll(s)[1].classList.contains('nca-struck')", CHOICES)
    d.lift(1)
    assert d.struck() == [False, True, False, False] and d.picked() == [False] * 4
    d.touch(0)
    d.wait("(s) => document.querySelectorAll(s)[0].classList.contains('nca-picked')", CHOICES)
    assert d.struck() == [False, True, False, False]
    assert d.errors() == []


@pytest.mark.parametrize("engine", ENGINES)
def test_no_more_picks_than_the_question_asks_for(drive, kinds, engine):
    d = drive(engine, "desktop")
    d.show_question(kinds["several"])  # choose 3 of 5
    for index in range(4):
        d.click(index)
    assert d.picked() == [True, True, True, False, False]
    count = d.js("() => document.querySelector('.nca-choose').textContent")
    assert count == "Choose 3 answers. 3 picked. Unpick one to pick another."
    d.click(0)
    d.click(3)
    assert d.picked() == [False, True, True, True, False]
    assert d.errors() == []


# --- the card's language ---------------------------------------------------------------------

@pytest.mark.parametrize("language", ["de", "fr", "ar"])
@pytest.mark.parametrize("engine", ENGINES)
def test_the_card_speaks_the_projects_language(drive, speaking, engine, language):
    from nca_anki.language import direction, words_in

    words = words_in(language)
    cards = speaking(language)
    d = drive(engine, "desktop")
    d.show_question(cards["several"])
    root = d.js("() => { const r = document.querySelector('.nca-card');"
                " return [r.lang, r.dir, getComputedStyle(r).direction]; }")
    assert root == [language, direction(language), direction(language)]
    hint = d.js("() => document.querySelector('.nca-hint').textContent")
    expected = words["hint_several_keys"].split("{keys}")[0]
    assert hint.startswith(expected), hint
    assert d.js("() => document.querySelector('.nca-choose').textContent") == \
        words["choose_count"].format(n=3)
    d.click(0)
    d.show_answer(cards["several"])
    verdict = said(d)
    assert verdict.startswith(tuple(words[k].split("{chosen}")[0].strip() for k in
                                    ("verdict_wrong_several", "verdict_right_several")))
    marks = d.js("() => [...document.querySelectorAll('.nca-mark')].map(m => m.textContent)")
    assert set(marks) <= {words[k] for k in ("mark_right", "mark_missed", "mark_answer",
                                             "mark_wrong_pick", "mark_your_choice")}
    # An English question in this card still reads left to right.
    prompt = d.js("() => { const p = document.querySelector('.nca-prompt');"
                  " const r = document.createRange(); r.selectNodeContents(p);"
                  " const first = r.getClientRects()[0], box = p.getBoundingClientRect();"
                  " return first.left - box.left; }")
    assert prompt < 5
    assert d.errors() == []


def test_without_javascript_the_back_names_the_answer_in_the_language(reviewer, speaking):
    from nca_anki.language import words_in

    card = speaking("ar")["single"]
    r = reviewer("mobile", javascript=False)
    r.show_answer(card)
    assert r.page.text_content(".nca-verdict").startswith(words_in("ar")["answer_static"])
    after = r.page.evaluate("""() => getComputedStyle(document.querySelector(
        '.nca-choices[data-answer] .nca-choice-list > li:nth-child(' + (1 + 'ABCDEFGHIJ'
        .indexOf(document.querySelector('.nca-choices').dataset.answer)) + ')'), '::after')
        .content""")
    assert words_in("ar")["correct_static"] in after


# --- contrast and what is out of sight --------------------------------------------------------

def _luminance(rgb: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = map(channel, rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _rgb(css: str) -> tuple[float, ...]:
    return tuple(float(x) for x in re.findall(r"[\d.]+", css)[:3])


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(_rgb(a)), _luminance(_rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("night", [False, True])
def test_a_choices_outline_stands_out_three_to_one_even_when_hovered(drive, kinds, night):
    d = drive("chromium", "desktop", night=night)
    d.show_question(kinds["single"])
    colours = d.js("""(s) => {
        const item = document.querySelectorAll(s)[3];
        return [getComputedStyle(item).borderTopColor,
                getComputedStyle(document.body).backgroundColor];
    }""", CHOICES)
    d.reviewer.page.hover(f"{CHOICES} >> nth=3")
    hovered = d.js("""(s) => {
        const item = document.querySelectorAll(s)[3];
        // the soft hover colour laid over the card's background
        const soft = getComputedStyle(item).backgroundColor.match(/[\\d.]+/g).map(Number);
        const page = getComputedStyle(document.body).backgroundColor.match(/[\\d.]+/g).map(Number);
        const a = soft[3] ?? 1;
        return "rgb(" + [0, 1, 2].map(i => soft[i] * a + page[i] * (1 - a)).join(",") + ")";
    }""", CHOICES)
    assert contrast(colours[0], colours[1]) >= 3, colours
    assert contrast(colours[0], hovered) >= 3, (colours, hovered)


@pytest.mark.parametrize("engine", ENGINES)
def test_code_wider_than_a_phone_is_a_tab_stop_and_shows_it_goes_on(drive, kinds, engine):
    d = drive(engine, "desktop", viewport=PHONE)
    d.show_question(kinds["code-prompt"])
    boxes = d.js("""() => [...document.querySelectorAll("pre > code")].map(c => ({
        scrolls: c.scrollWidth > c.clientWidth + 1, tabindex: c.getAttribute("tabindex"),
        shadow: getComputedStyle(c).backgroundImage.split("gradient").length - 1}))""")
    assert any(b["scrolls"] for b in boxes)
    assert all((b["tabindex"] == "0") == b["scrolls"] for b in boxes), boxes
    assert all(b["shadow"] == 4 for b in boxes), boxes  # two covers, two edge shadows
    d.show_question(kinds["code-choices"])  # code in a choice wraps: nothing out of sight
    assert d.js("""(s) => [...document.querySelectorAll(s + " pre > code")].every(
        c => c.scrollWidth <= c.clientWidth + 1)""", CHOICES)
    assert d.errors() == []


# --- the report link (report_url: cards/report_link.py) -----------------------------------------

def _report(d: Driver) -> dict[str, str]:
    from urllib.parse import parse_qs, urlsplit
    href = d.js("() => document.querySelector('a.nca-report').href")
    return {k: v[0] for k, v in parse_qs(urlsplit(href).query, keep_blank_values=True).items()}


@pytest.mark.parametrize("kind", ["single", "several"])
@pytest.mark.parametrize("engine", ENGINES)
def test_the_back_links_to_a_report_that_names_the_question_and_the_pick(drive, kinds,
                                                                        engine, kind):
    card = kinds[kind]
    d = drive(engine, "desktop")
    d.show_question(card)
    assert d.js("() => document.querySelectorAll('a.nca-report').length") == 0  # the back only
    d.click(0)
    picked = d.js("() => document.querySelector('.nca-choice-list > *')"
                  ".querySelector('.nca-text').textContent.replace(/\\s+/g, ' ').trim()")
    d.show_answer(card)
    verdict = said(d)
    found = _report(d)
    assert re.fullmatch(r"[0-9a-f]{12}", found["fingerprint"])
    assert re.fullmatch(r"nca-[0-9a-f]{16}", found["guid"])
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", found["version"])
    assert re.fullmatch(r"[a-z0-9-]+\.txt:\d+", found["source"])
    assert found["deck"] == KINDS[kind][0]
    assert found["pick"] == picked[:120]
    assert found["verdict"] == ("right" if verdict.startswith("✓") else "wrong")
    text = d.js("() => document.querySelector('a.nca-report').textContent")
    assert text == "Report a problem with this question"


@pytest.mark.parametrize("engine", ENGINES)
def test_without_a_pick_the_report_says_none(drive, kinds, engine):
    card = kinds["single"]
    d = drive(engine, "desktop")
    d.show_question(card)
    d.show_answer(card)
    said(d)
    found = _report(d)
    assert (found["pick"], found["verdict"]) == ("", "none")
