"""The card as learners use it: built decks, rendered by the real `anki` backend, driven in
headless Chromium the way Anki's clients show cards (tests/card_browser.py).

``desktop``: one page, question then answer swapped in (Anki desktop, AnkiMobile);
``mobile``: front and back as separate page loads in one tab (AnkiDroid). templates/card.js
is under test here; docs/card.md says what it promises.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

import pytest

from anki_client import CardView, html_to_text
from card_browser import CardHtml, Reviewer
from card_reading import Shown, choice, shown, verdict
from conftest import built_and_imported
from conftest import copy_project

pytestmark = pytest.mark.anki  # every card here is built and rendered by the real backend

MODES = ["desktop", "mobile"]
SEED_DECKS = ("NCA::AI & Deep Learning Frameworks",
              "NCA::Deep Learning Training Techniques and Optimization",
              "NCA::Neural Network Applications and Frameworks")

# Questions made to exercise the rules: a pinned "None of the above", a question whose
# choices name others by letter, five choices (keys 5 and E), and a deck that never shuffles.
BEHAVIOUR = """Card Behaviour 1 — Questions and Answers
Question 1: Which architecture introduced Tensor Cores?
- Kepler
- Volta (Correct answer)
- Pascal
- None of the above
Correct answer: Volta
Volta (V100) introduced Tensor Cores.
Question 2: Which statements about reduced precision are true?
- FP16 halves activation memory
- BF16 keeps the exponent range of FP32
- Both A and B (Correct answer)
- Neither
Correct answer: Both A and B
Both hold: FP16 and BF16 are 16-bit formats; BF16 keeps FP32's 8 exponent bits.
Question 3: Which library moves data loading to the GPU?
- NCCL
- cuDNN
- TensorRT
- DALI (Correct answer)
- Triton
Correct answer: DALI
DALI runs decoding and augmentation on the GPU.
"""
FIXED = """Fixed Order 1 — Questions and Answers
Question 1: Which format lets models move between frameworks?
- ONNX (Correct answer)
- HDF5
- Pickle
- CSV
Correct answer: ONNX
ONNX is the Open Neural Network Exchange format.
"""


@dataclass(frozen=True)
class Built:
    """A built card: what Anki renders, and the static (no-JavaScript) facts about it."""

    html: CardHtml
    choices: tuple[str, ...]  # texts in the static order
    answer: str  # the correct choice's text
    explanation: str


def _texts_of(choices_field: str) -> tuple[str, ...]:
    return tuple(html_to_text(body) for body in re.findall(
        r'<span class="nca-text">(.*?)</span></li>', choices_field))


def _built(view: CardView) -> Built:
    choices = _texts_of(view.fields["Choices"])
    answer = choices["ABCDEFGHIJ".index(view.fields["Answer"])]
    return Built(CardHtml(view.question_html, view.answer_html, view.css), choices, answer,
                 html_to_text(view.fields["Explanation"]))


@pytest.fixture(scope="session")
def decks(tmp_path_factory) -> dict[str, list[Built]]:
    """The seeds plus the two behaviour decks, built and imported into a real collection."""
    root = tmp_path_factory.mktemp("card")
    copy_project(root, templates=False)
    (root / "source" / "card-behaviour-1.txt").write_text(BEHAVIOUR, encoding="utf-8")
    (root / "source" / "fixed-order-1.txt").write_text(FIXED, encoding="utf-8")
    (root / "source" / "nca-anki.toml").write_text('[shuffle]\n"Fixed Order" = false\n',
                                                   encoding="utf-8")
    _, cards = built_and_imported(root, (*SEED_DECKS, "NCA::Card Behaviour",
                                         "NCA::Fixed Order"))
    return {name: [_built(view) for view in views] for name, views in cards.items()}


@pytest.fixture(scope="session")
def seeds(decks) -> list[Built]:
    return [card for name in SEED_DECKS for card in decks[name]]


def review(r: Reviewer, card: Built, pick: str | None = None) -> tuple[Shown, Shown]:
    """Show the front, pick the choice with text ``pick`` (by a tap), flip; both sides seen."""
    r.show_question(card.html)
    front = shown(r)
    if pick is not None:
        choice(r, pick).click()
    r.show_answer(card.html)
    return front, shown(r)


def a_wrong_choice(card: Built) -> str:
    return next(c for c in card.choices if c != card.answer)


LABELS = tuple("ABCDEFGHIJ")


# --- picking, flipping, the verdict -----------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_wrong_pick_is_kept_across_the_flip_with_a_verdict_in_words(reviewer, seeds, mode):
    card = seeds[0]
    r = reviewer(mode)
    wrong = a_wrong_choice(card)
    r.show_question(card.html)
    front = shown(r)
    assert front.role == "radiogroup" and set(front.roles) == {"radio"}
    assert front.labels == LABELS[:len(card.choices)]
    assert sorted(front.texts) == sorted(card.choices)
    assert front.checked == ("false",) * len(card.choices)
    choice(r, wrong).click()
    picked = shown(r)
    assert picked.checked == tuple("true" if t == wrong else "false" for t in front.texts)

    r.show_answer(card.html)
    back = shown(r)
    assert back.texts == front.texts  # the back keeps the front's order
    assert back.labels == front.labels
    assert back.role is None and set(back.roles) == {None}  # the back: a list, marked
    assert back.checked == picked.checked  # the learner's pick, also on the back
    assert back.correct == tuple(t == card.answer for t in back.texts)
    assert back.marks[back.texts.index(wrong)] == ("✗ Your choice",)
    assert back.marks[back.texts.index(card.answer)] == ("✓ Correct answer",)
    assert verdict(r) == (f"✗ You chose {back.letter_of(wrong)}; "
                          f"the answer is {back.letter_of(card.answer)}.")
    assert card.explanation[:50] in html_to_text(r.page.content())
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_right_pick_and_no_pick(reviewer, seeds, mode):
    card = seeds[7]
    r = reviewer(mode)
    _, back = review(r, card, pick=card.answer)
    letter = back.letter_of(card.answer)
    assert verdict(r) == f"✓ Correct — you chose {letter}."
    assert back.marks[back.texts.index(card.answer)] == ("✓ Correct — your choice",)
    _, back = review(r, card)
    assert verdict(r) == f"The answer is {back.letter_of(card.answer)}."
    assert "true" not in back.checked
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_alt_and_a_digit_pick_and_keys_anki_binds_are_left_alone(reviewer, decks, mode):
    # Anki desktop binds the digits 1-7 and most letters, never Alt+digit (measured in the
    # real app: tests/e2e/test_desktop_app.py); the card picks only with Alt+digit.
    card = decks["NCA::Card Behaviour"][2]  # five choices
    r = reviewer(mode)
    r.show_question(card.html)
    assert r.page.inner_text(".nca-hint") == (
        "Choose: click a choice or press Alt+1\u20135. Right-click a choice, or press "
        "Alt+Shift+1\u20135, to strike it out.")
    r.page.keyboard.press("Alt+3")
    assert shown(r).checked == ("false", "false", "true", "false", "false")
    for key in ("2", "b", "e", "Control+2", "Alt+7"):  # Anki's, or no such place
        r.page.keyboard.press(key)
    assert shown(r).checked == ("false", "false", "true", "false", "false")
    r.page.keyboard.press("Alt+5")
    front = shown(r)
    assert front.checked == ("false",) * 4 + ("true",)
    r.show_answer(card.html)
    r.page.keyboard.press("Alt+1")  # keys on the back change nothing on the card
    back = shown(r)
    assert back.checked == front.checked and back.texts == front.texts
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_every_choice_is_a_tap_target_ankimobile_passes_through_44_px_tall(reviewer, seeds,
                                                                           mode):
    r = reviewer(mode, viewport=(390, 700))
    for card in seeds:
        for side in ("question", "answer"):
            (r.show_question if side == "question" else r.show_answer)(card.html)
            rows = r.page.evaluate("""() => [...document.querySelectorAll(
                ".nca-choice-list > *")].map(li => [li.classList.contains("tappable"),
                li.getBoundingClientRect().height])""")
            assert rows and all(tappable and height >= 44 for tappable, height in rows), rows


@pytest.mark.parametrize("mode", MODES)
def test_a_touch_screen_is_told_to_tap_and_a_tap_picks(reviewer, decks, mode):
    # A phone's browser: no hover, a coarse pointer (AnkiDroid, AnkiMobile).
    card = decks["NCA::Card Behaviour"][0]
    r = reviewer(mode, touch=True)
    r.show_question(card.html)
    assert r.page.inner_text(".nca-hint") == ("Choose: tap a choice. Touch and hold a choice "
                                              "to strike it out.")
    r.page.locator(".nca-choice-list > *").nth(1).tap()
    assert shown(r).checked == ("false", "true", "false", "false")
    r.show_answer(card.html)
    assert shown(r).checked == ("false", "true", "false", "false")
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_a_mouse_pick_is_saved_on_pointer_down_before_any_flip(reviewer, seeds, mode):
    # A client may flip on the press itself: the click may never arrive.
    card = seeds[3]
    r = reviewer(mode)
    r.show_question(card.html)
    wrong = a_wrong_choice(card)
    choice(r, wrong).dispatch_event("pointerdown", {"isPrimary": True, "button": 0, "bubbles": True,
                                                    "pointerType": "mouse"})
    r.show_answer(card.html)
    assert verdict(r).startswith(f"✗ You chose {shown(r).letter_of(wrong)};")


# --- shuffling ------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_every_review_shuffles_and_the_back_follows_the_front(reviewer, seeds, mode):
    card = seeds[12]
    r = reviewer(mode)
    orders = set()
    for _ in range(12):
        front, back = review(r, card, pick=card.answer)
        assert back.texts == front.texts
        assert verdict(r) == f"✓ Correct — you chose {back.letter_of(card.answer)}."
        orders.add(front.texts)
    assert len(orders) > 1
    assert r.console_errors() == []


def test_the_shuffle_is_uniform(reviewer, seeds):
    # Every choice lands in every place equally often (the known add-ons' sort-based shuffle
    # does not). 24,000 shuffles: 6,000 expected per cell, standard deviation about 67.
    r = reviewer("mobile")
    r.show_question(seeds[0].html)
    counts = r.page.evaluate("""() => {
        const list = document.querySelector(".nca-choice-list");
        const items = [...list.children];
        const counts = items.map(() => items.map(() => 0));
        for (let n = 0; n < 24000; n++) {
            NcaMcq.shuffledOrder(items, list).forEach((choice, place) => counts[choice][place]++);
        }
        return counts;
    }""")
    assert all(5640 <= cell <= 6360 for row in counts for cell in row), counts  # within 6%


@pytest.mark.parametrize("mode", MODES)
def test_pinned_choice_stays_last_and_lettered_choices_never_move(reviewer, decks, mode):
    pinned, lettered, _ = decks["NCA::Card Behaviour"]
    (fixed,) = decks["NCA::Fixed Order"]
    r = reviewer(mode)
    pinned_orders, others = set(), set()
    for _ in range(12):
        front, back = review(r, pinned, pick="Kepler")
        assert front.texts[-1] == back.texts[-1] == "None of the above"
        pinned_orders.add(front.texts)
        for card in (lettered, fixed):
            front, back = review(r, card, pick=card.answer)
            assert front.texts == back.texts == card.choices
            others.add(front.texts)
    assert len(pinned_orders) > 1
    assert others == {lettered.choices, fixed.choices}
    assert lettered.choices[2] == "Both A and B" and lettered.answer == "Both A and B"
    assert verdict(r) == "✓ Correct — you chose A."  # ONNX stays A in the fixed deck


# --- the sandboxed reviewer --------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_in_a_sandboxed_frame_the_card_never_errors_and_keeps_what_it_can(reviewer, seeds,
                                                                         mode):
    # The desktop's new reviewer: <iframe sandbox="allow-scripts">, an opaque origin.
    card = seeds[2]
    r = reviewer(mode, sandboxed=True)
    r.show_question(card.html)
    assert r.view.evaluate("""() => { try { sessionStorage.length; return "usable"; }
                                      catch (e) { return e.name; } }""") == "SecurityError"
    front = shown(r)
    assert front.role == "radiogroup" and sorted(front.texts) == sorted(card.choices)
    wrong = a_wrong_choice(card)
    choice(r, wrong).click()
    r.show_answer(card.html)
    back = shown(r)
    if mode == "desktop":  # one page: the pick is kept in the page itself
        assert back.texts == front.texts
        assert verdict(r) == (f"✗ You chose {back.letter_of(wrong)}; "
                              f"the answer is {back.letter_of(card.answer)}.")
    else:  # a new page and no storage: the plain answer, in the static order
        assert back.texts == card.choices and "true" not in back.checked
        assert verdict(r) == f"The answer is {back.letter_of(card.answer)}."
    assert back.correct == tuple(t == card.answer for t in back.texts)
    assert r.console_errors() == []


def test_keys_pressed_in_the_sandboxed_frame_pick(reviewer, decks):
    card = decks["NCA::Card Behaviour"][2]  # five choices
    r = reviewer("desktop", sandboxed=True)
    r.show_question(card.html)
    r.view.locator(".nca-prompt").click()  # the frame has the focus, as in the reviewer
    r.page.keyboard.press("Alt+4")
    assert shown(r).checked == ("false", "false", "false", "true", "false")
    r.show_answer(card.html)
    assert verdict(r).startswith(("✓ Correct — you chose D.", "✗ You chose D;"))
    assert r.console_errors() == []


# --- show the answer when I pick (nca-anki.toml: show_answer_on_pick) -------------------------

@pytest.fixture(scope="session")
def flipping(tmp_path_factory) -> list[Built]:
    """The behaviour deck built with show_answer_on_pick = true."""
    root = tmp_path_factory.mktemp("flip")
    (root / "source").mkdir()
    (root / "source" / "card-behaviour-1.txt").write_text(BEHAVIOUR, encoding="utf-8")
    (root / "source" / "nca-anki.toml").write_text("show_answer_on_pick = true\n",
                                                   encoding="utf-8")
    _, cards = built_and_imported(root, ("NCA::Card Behaviour",))
    return [_built(view) for view in cards["NCA::Card Behaviour"]]


# How each client lets a card show its answer: Anki desktop's pycmd, AnkiDroid's JS API.
_CLIENT_FLIP = {"desktop": "window.pycmd = (command) => window.__flips.push(command);",
                "ankidroid": "window.showAnswer = () => window.__flips.push('showAnswer');",
                "none": ""}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("client, expected", [("desktop", ["ans"]),
                                              ("ankidroid", ["showAnswer"]), ("none", [])])
def test_with_the_setting_a_pick_shows_the_answer_the_clients_way(reviewer, flipping, seeds,
                                                                  mode, client, expected):
    stub = "window.__flips = []; " + _CLIENT_FLIP[client]
    r = reviewer(mode)
    r.page.add_init_script(stub)  # each page load (mobile)
    r.view.evaluate(f"() => {{ {stub} }}")  # the page already loaded (desktop)
    card = flipping[0]
    r.show_question(card.html)
    assert " Picking shows the answer. " in r.view.inner_text(".nca-hint")
    choice(r, card.answer).click()
    r.page.wait_for_timeout(400)
    assert r.view.evaluate("window.__flips") == expected
    assert r.console_errors() == []
    # Without the setting (every other deck), a pick never flips.
    plain = reviewer(mode)
    plain.page.add_init_script(stub)
    plain.view.evaluate(f"() => {{ {stub} }}")
    plain.show_question(seeds[0].html)
    choice(plain, seeds[0].answer).click()
    plain.page.wait_for_timeout(400)
    assert plain.view.evaluate("window.__flips") == []
    assert "Picking" not in plain.view.inner_text(".nca-hint")


# --- state that is missing or stale -----------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_a_back_without_its_front_shows_the_answer_plainly(reviewer, seeds, mode):
    # The card browser and the editor's preview show the back alone.
    card = seeds[5]
    r = reviewer(mode)
    r.show_answer(card.html)
    back = shown(r)
    assert back.texts == card.choices  # the static order
    assert verdict(r) == f"The answer is {back.letter_of(card.answer)}."
    assert back.correct == tuple(t == card.answer for t in back.texts)
    assert "true" not in back.checked
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_another_cards_state_is_never_used(reviewer, seeds, mode):
    first, second = seeds[0], seeds[1]
    r = reviewer(mode)
    r.show_question(first.html)
    r.page.locator(".nca-choice-list > *").first.click()
    r.show_answer(second.html)  # a back whose front was another card
    assert verdict(r) == f"The answer is {shown(r).letter_of(second.answer)}."
    assert shown(r).texts == second.choices


@pytest.mark.parametrize("mode", MODES)
def test_a_back_shown_again_long_after_its_review_forgets_the_pick(reviewer, seeds, mode):
    card = seeds[2]
    r = reviewer(mode)
    review(r, card, pick=a_wrong_choice(card))
    assert verdict(r).startswith("✗ You chose")
    r.show_answer(card.html)  # shown again soon (say, after an edit): the pick stays
    assert verdict(r).startswith("✗ You chose")
    r.page.evaluate("""() => {  // eleven minutes later
        const state = JSON.parse(sessionStorage.getItem("nca-anki:mcq"));
        state.back -= 11 * 60 * 1000;
        sessionStorage.setItem("nca-anki:mcq", JSON.stringify(state));
        window.__ncaMcqState = JSON.stringify(state);
    }""")
    r.show_answer(card.html)
    assert verdict(r) == f"The answer is {shown(r).letter_of(card.answer)}."


STORAGE_DENIED = "() => { try { sessionStorage.length; return false; } catch (e) { return true; } }"


@pytest.mark.parametrize("mode", MODES)
def test_without_session_storage_the_card_still_works(reviewer, seeds, mode):
    card = seeds[4]
    r = reviewer(mode)
    r.page.add_init_script("""Object.defineProperty(window, "sessionStorage", {
        get() { throw new DOMException("denied", "SecurityError"); } });""")
    r.show_question(card.html)  # desktop: the page is loaded already, storage still works
    r.page.evaluate("""() => { try { Object.defineProperty(window, "sessionStorage", {
        get() { throw new DOMException("denied", "SecurityError"); } }); } catch (e) {} }""")
    assert r.page.evaluate(STORAGE_DENIED) is True
    wrong = a_wrong_choice(card)
    front = shown(r)
    choice(r, wrong).click()
    r.show_answer(card.html)
    assert r.page.evaluate(STORAGE_DENIED) is True
    back = shown(r)
    if mode == "desktop":  # same page: the window variable carries the pick
        assert back.texts == front.texts
        assert verdict(r).startswith(f"✗ You chose {back.letter_of(wrong)};")
    else:  # a new page and no storage: nothing to carry it, so the plain answer
        assert verdict(r) == f"The answer is {back.letter_of(card.answer)}."
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_the_card_asks_the_network_for_nothing(reviewer, seeds, mode):
    # No CDN script, font or image: the card works offline and leaks nothing.
    r = reviewer(mode)
    requested: list[str] = []
    r.page.on("request", lambda request: requested.append(request.url))
    review(r, seeds[9], pick=seeds[9].answer)
    pages = [url for url in requested if not url.endswith("/favicon.ico")]
    assert all(url.startswith(r.server.url_for("")) for url in pages), pages
    assert len(pages) == (0 if mode == "desktop" else 2)  # mobile: the two page loads


@pytest.mark.parametrize("mode", MODES)
def test_many_cards_in_one_session_raise_no_errors(reviewer, seeds, mode):
    r = reviewer(mode)
    for card in seeds:
        front, back = review(r, card, pick=a_wrong_choice(card))
        assert back.texts == front.texts
    assert r.console_errors() == []


# --- layout on a phone --------------------------------------------------------------------

_IN_VIEW_JS = """(selectors) => selectors.map(selector => {
    const box = document.querySelector(selector).getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
})"""


def test_on_a_phone_the_verdict_and_both_marked_choices_are_in_view(reviewer, seeds):
    # After Anki scrolls to #answer, on a 390x700 card area, for every seed card, with a
    # wrong pick (two marked choices) placed last, the worst case.
    for mode in MODES:
        r = reviewer(mode, viewport=(390, 700))
        for card in seeds:
            r.show_question(card.html)
            front = shown(r)
            wrong = next(t for t in reversed(front.texts) if t != card.answer)
            choice(r, wrong).click()
            r.show_answer(card.html)
            visible = r.page.evaluate(_IN_VIEW_JS, [
                ".nca-verdict", ".nca-prompt", ".nca-choice-list > .nca-correct",
                ".nca-choice-list > .nca-picked-wrong"])
            assert visible == [True, True, True, True], (mode, card.choices)


@pytest.mark.parametrize("mode", MODES)
def test_narrow_phone_with_large_text_never_scrolls_sideways(reviewer, seeds, mode):
    r = reviewer(mode, viewport=(320, 568), night=True)
    large = "() => { document.body.style.fontSize = '30px'; }"  # text zoom of about 160%
    overflow = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    for card in seeds:
        r.show_question(card.html)
        r.page.evaluate(large)
        assert r.page.evaluate(overflow) <= 0
        r.page.locator(".nca-choice-list > *").last.click()
        r.show_answer(card.html)
        r.page.evaluate(large)
        assert r.page.evaluate(overflow) <= 0


# --- without JavaScript ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_without_javascript_the_card_is_complete_and_static(reviewer, seeds, mode):
    for card in seeds[:7]:
        r = reviewer(mode, javascript=False)
        r.show_question(card.html)
        front_text = " ".join(r.page.inner_text(".nca-card").split())
        for label, text in zip(LABELS, card.choices):
            assert f"{label} {text}" in front_text
        assert "correct" not in front_text.lower()
        assert card.explanation[:40] not in front_text
        assert not r.page.is_visible(".nca-hint")
        r.show_answer(card.html)
        back_text = " ".join(r.page.inner_text(".nca-card").split())
        letter = LABELS[card.choices.index(card.answer)]
        assert back_text.startswith(f"Answer: {letter}")
        assert card.explanation[:60] in back_text
        marked = r.page.evaluate("""() => [...document.querySelectorAll(".nca-choice-list > li")]
            .map(li => getComputedStyle(li, "::after").content)""")
        assert marked == ['"✓\xa0correct"' if c == card.answer else "none"
                          for c in card.choices]
        r.close()


# --- no broken characters anywhere ----------------------------------------------------------

_GENERATED_TEXT_JS = """() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        if (walker.currentNode.parentElement.closest("script, style")) continue;
        found.push(walker.currentNode.data);
    }
    for (const el of document.querySelectorAll("body *")) {
        for (const pseudo of ["::before", "::after", "::marker"]) {
            const content = getComputedStyle(el, pseudo).content;
            if (content && content !== "none" && content !== "normal") found.push(content);
        }
    }
    found.push(document.querySelector(".nca-hint")?.textContent || "");
    return found;
}"""


def broken(text: str) -> list[str]:
    """Characters a learner would see as boxes or gibberish: unassigned code points, private
    use, replacement characters, stray controls."""
    return [f"U+{ord(ch):04X}" for ch in text
            if unicodedata.category(ch) in ("Cn", "Co", "Cs", "Cc") and ch not in "\n\t"
            or ch == "\ufffd"]


@pytest.mark.parametrize("javascript", [True, False])
@pytest.mark.parametrize("mode", MODES)
def test_no_generated_text_holds_a_broken_character(reviewer, seeds, decks, mode, javascript):
    r = reviewer(mode, javascript=javascript, night=True)
    for card in [*seeds, *decks["NCA::Card Behaviour"]]:
        r.show_question(card.html)
        if javascript:
            r.page.locator(".nca-choice-list > *").first.click()
        texts = r.page.evaluate(_GENERATED_TEXT_JS)
        r.show_answer(card.html)
        texts += r.page.evaluate(_GENERATED_TEXT_JS)
        assert [t for t in texts if broken(t)] == []
    # The exact marks, not just "nothing broken" (the old card showed "✔ orrect").
    assert "correct" in " ".join(texts).lower()


def test_marks_read_as_words_on_the_static_back(reviewer, seeds):
    r = reviewer("mobile", javascript=False)
    r.show_answer(seeds[0].html)
    after = r.page.evaluate("""() => getComputedStyle(
        document.querySelector(".nca-choices[data-answer] .nca-choice-list > li:nth-child("
        + (" ABCDEFGHIJ".indexOf(document.querySelector(".nca-choices").dataset.answer))
        + ")"), "::after").content""")
    assert html.unescape(after) == '"✓\xa0correct"'
