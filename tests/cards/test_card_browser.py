"""The card browser harness itself, with tiny inline cards (not the project's templates)."""

from __future__ import annotations

import pytest

from card_browser import CardHtml, Reviewer, require_chromium

MODES = ["desktop", "mobile"]

# Each script appends a word to #log, so a test reads back exactly which scripts ran, in order.
LOG = '<div id="log"></div>'


def log(expression: str) -> str:
    return f'<script>document.getElementById("log").textContent += " " + ({expression});</script>'


def logged(r: Reviewer) -> list[str]:
    return (r.page.locator("#log").text_content() or "").split()


@pytest.mark.parametrize("mode", MODES)
def test_scripts_run_on_both_sides_in_document_order(reviewer, mode):
    card = CardHtml(LOG + log('"q1"') + log('"q2"'), LOG + log('"a1"') + "<p>x</p>" + log('"a2"'), "")
    r = reviewer(mode)
    r.show_question(card)
    assert logged(r) == ["q1", "q2"]
    r.show_answer(card)
    assert logged(r) == ["a1", "a2"]
    assert r.console_errors() == []


@pytest.mark.parametrize(("mode", "seen"), [("desktop", "42"), ("mobile", "undefined")])
def test_window_variables_reach_the_back_only_in_desktop_mode(reviewer, mode, seen):
    card = CardHtml("<script>window.fromFront = 42;</script>", LOG + log("String(window.fromFront)"), "")
    r = reviewer(mode)
    r.show_question(card)
    r.show_answer(card)
    assert logged(r) == [seen]


@pytest.mark.parametrize("mode", MODES)
def test_session_storage_survives_from_front_to_back(reviewer, mode):
    card = CardHtml('<script>sessionStorage.setItem("pick", "B");</script>',
                    LOG + log('sessionStorage.getItem("pick")'), "")
    r = reviewer(mode)
    r.show_question(card)
    r.show_answer(card)
    assert logged(r) == ["B"]
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_scripts_do_not_run_with_javascript_disabled(reviewer, mode):
    card = CardHtml(LOG + log('"q"'), LOG + log('"a"') + '<p id="answer">shown</p>', "")
    r = reviewer(mode, javascript=False)
    r.show_question(card)
    assert logged(r) == []
    r.show_answer(card)
    assert logged(r) == []
    assert r.page.locator("#answer").text_content() == "shown"  # the HTML itself still shows


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("night", [False, True])
def test_body_carries_card_and_night_mode_classes(reviewer, mode, night):
    card = CardHtml("<p>q</p>", "<p>a</p>", "", ord=1)
    r = reviewer(mode, night=night)
    for show in (r.show_question, r.show_answer):
        show(card)
        classes = set(r.page.evaluate("[...document.body.classList]"))
        night_classes = {"nightMode", "night_mode"} if night else set()
        assert classes == {"card", "card2"} | night_classes


def test_desktop_sets_body_class_only_after_the_card_scripts_ran(reviewer):
    card = CardHtml(LOG + log('document.body.className || "none"'), "", "")
    r = reviewer("desktop", night=True)
    r.show_question(card)
    assert logged(r) == ["none"]


@pytest.mark.parametrize("mode", MODES)
def test_card_css_applies(reviewer, mode):
    card = CardHtml('<p id="p">q</p>', '<p id="p">a</p>', "#p { color: rgb(1, 2, 3); }")
    r = reviewer(mode)
    for show in (r.show_question, r.show_answer):
        show(card)
        assert r.page.evaluate('getComputedStyle(document.getElementById("p")).color') == "rgb(1, 2, 3)"


@pytest.mark.parametrize("mode", MODES)
def test_back_scrolls_the_answer_into_view(reviewer, mode):
    tall = '<div style="height: 3000px">front</div>'
    card = CardHtml(tall, tall + '<hr id="answer">' + tall, "")  # room to scroll #answer to the top
    r = reviewer(mode, viewport=(390, 700))
    r.show_question(card)
    assert r.page.evaluate("window.scrollY") == 0
    r.show_answer(card)
    assert r.page.evaluate("window.scrollY") > 2000
    top = r.page.evaluate('document.getElementById("answer").getBoundingClientRect().top')
    assert abs(top) < 1


@pytest.mark.parametrize("mode", MODES)
def test_page_errors_and_console_errors_are_collected(reviewer, mode):
    card = CardHtml('<script>console.error("front says no");</script>',
                    '<script>throw new Error("back broke");</script>', "")
    r = reviewer(mode)
    r.show_question(card)
    assert r.console_errors() == ["console.error: front says no"]
    r.show_answer(card)
    errors = r.console_errors()
    assert len(errors) == 2 and "back broke" in errors[1]


def test_desktop_session_keeps_one_page_across_cards(reviewer):
    first = CardHtml("<script>window.seen = (window.seen || 0) + 1;</script>",
                     '<div style="height: 3000px"></div><hr id="answer">', "")
    second = CardHtml(LOG + log("window.seen"), "", "")
    r = reviewer("desktop")
    r.show_question(first)
    r.show_answer(first)
    url = r.page.url
    r.show_question(second)
    assert logged(r) == ["1"]
    assert r.page.url == url
    assert r.page.evaluate("window.scrollY") == 0  # the next question starts at the top again


def test_require_chromium_skips_locally_but_fails_under_ci(monkeypatch):
    monkeypatch.setattr("card_browser.chromium_path", lambda: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        require_chromium()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        require_chromium()
