"""The seed decks studied in the real Anki desktop app (aqt, under Xvfb), with real key
presses and clicks (tests/anki_desktop.py): the keys the card's hint advertises pick, the
pick and the order survive Anki's own flip (Space), no other window opens, and the
reviewer's console logs no error. Skipped where the app cannot run, failed under CI."""

from __future__ import annotations

import json
import os
import re
import shutil
import time

import pytest

from anki_desktop import AnkiDesktop, missing
from conftest import REPO
from conftest import copy_project

pytestmark = pytest.mark.desktop

MAIN_WINDOW = "User 1 - Anki"
READ = """(() => {
    const card = document.querySelector(".nca-card");
    const items = [...document.querySelectorAll(".nca-choice-list > *")];
    return {
        side: card ? (card.classList.contains("nca-back") ? "back" : "front") : null,
        ready: !!(card && card.classList.contains("nca-js")),
        prompt: (document.querySelector(".nca-prompt") || {}).textContent || "",
        hint: (document.querySelector(".nca-hint") || {}).textContent || "",
        verdict: (document.querySelector(".nca-verdict") || {}).textContent || "",
        texts: items.map(li => li.querySelector(".nca-text").firstChild.textContent.trim()),
        // the front's radios and checkboxes; the back's list items, by their class
        checked: items.map(li => li.getAttribute("aria-checked")
            || (li.classList.contains("nca-picked") ? "true" : "false")),
        struck: items.map(li => li.classList.contains("nca-struck")),
        focused: items.map(li => document.activeElement === li),
        labels: items.map(li => li.querySelector(".nca-label").textContent),
    };
})()"""


@pytest.fixture(scope="module")
def seed_decks(tmp_path_factory):
    absent = missing()
    if absent:
        if os.environ.get("CI"):
            pytest.fail(f"the real Anki desktop app cannot run: no {absent}; its tests must "
                        "not be skipped under CI")
        pytest.skip(f"the real Anki desktop app cannot run here: no {absent}")
    from nca_anki.build import BuildOptions, build
    root = tmp_path_factory.mktemp("desktop")
    copy_project(root, templates=False)
    report = build(BuildOptions(root / "source", REPO / "templates", root / "dist",
                                now=1_800_000_000))
    assert report.ok
    return root, sorted(p for p in (root / "dist").glob("*.apkg")
                        if not p.name.startswith("nca_all"))


# The back, once its verdict is written (a moment after it shows: a live region).
BACK_SAID = "document.querySelector('.nca-card.nca-back.nca-js .nca-verdict[data-nca-said]') !== null"


def read(app: AnkiDesktop) -> dict:
    return app.value(READ)


def when_checked(app: AnkiDesktop, checked: list[str]) -> dict:
    """The card once its choices' states are ``checked``. A key or a click reaches the
    page some time after xdotool sends it (later on a loaded machine): wait for the state,
    never for a time; a state that never comes fails with the reviewer's log."""
    wanted = json.dumps(json.dumps(checked, separators=(",", ":")))  # as JSON.stringify writes it
    app.wait_for("JSON.stringify([...document.querySelectorAll('.nca-choice-list > *')]"
                 f".map(li => li.getAttribute('aria-checked'))) === {wanted}", timeout=15)
    return read(app)


def errors(reply: dict) -> list[dict]:
    return [m for m in reply["console"] if m["level"] >= 2]  # Qt: 2 is an error


def test_every_seed_card_picks_by_its_advertised_keys_and_keeps_the_pick_across_the_flip(
        seed_decks):
    root, decks = seed_decks
    seen = []
    with AnkiDesktop(decks, root / "app", "NCA") as app:
        while len(seen) < 19:
            app.wait_for("document.querySelector('.nca-card.nca-front.nca-js') !== null")
            front = read(app)
            count = len(front["texts"])
            assert front["hint"] == (f"Choose: click a choice or press Alt+1\u2013{count}. "
                                     f"Right-click a choice, or press Alt+Shift+1\u2013{count}, "
                                     "to strike it out.")
            app.key(f"alt+{count}")  # the last place, then the first: the last key wins
            when_checked(app, ["false"] * (count - 1) + ["true"])
            app.key("alt+1")
            picked = when_checked(app, ["true"] + ["false"] * (count - 1))
            app.key("space")  # Anki's own shortcut: shows the answer
            app.wait_for(BACK_SAID)
            back = read(app)
            assert back["texts"] == front["texts"] and back["labels"] == front["labels"]
            assert back["checked"] == picked["checked"]
            assert re.match(r"^(✓ Correct — you chose A\.|✗ You chose A; the answer is [B-J]\.)$",
                            back["verdict"]), back["verdict"]
            reply = app.ask(None)
            assert reply["windows"] == [MAIN_WINDOW] and reply["reviewer"] == "answer"
            assert errors(reply) == [], errors(reply)
            seen.append(front["prompt"])
            app.key("3")  # Good: the next card
            if len(seen) < 19:
                app.wait_for(f"(document.querySelector('.nca-prompt') || {{}}).textContent "
                             f"!== {front['prompt']!r} && document.querySelector('.nca-front')")
    assert len(set(seen)) == 19


def test_a_click_picks_and_keys_anki_binds_do_nothing_on_the_card(seed_decks):
    root, decks = seed_decks
    with AnkiDesktop(decks, root / "click", "NCA") as app:
        app.click_on(".nca-choice-list > *", 2)
        front = when_checked(app, ["false", "false", "true", "false"])
        app.key("1", "2", "c")  # Anki's answer keys (nothing on the front), a free letter
        assert read(app)["checked"] == front["checked"]
        app.key("space")
        app.wait_for(BACK_SAID)
        back = read(app)
        assert back["texts"] == front["texts"] and back["checked"] == front["checked"]
        assert back["verdict"].startswith(("✓ Correct — you chose C.", "✗ You chose C;"))
        reply = app.ask(None)
        assert reply["windows"] == [MAIN_WINDOW] and errors(reply) == []


def test_with_show_answer_on_pick_a_pick_shows_the_answer_in_the_app(seed_decks):
    root, _ = seed_decks
    from nca_anki.build import BuildOptions, build
    source = root / "source-flip"
    shutil.copytree(root / "source", source)
    (source / "nca-anki.toml").write_text("show_answer_on_pick = true\n", encoding="utf-8")
    assert build(BuildOptions(source, REPO / "templates", root / "dist-flip",
                              now=1_800_000_000)).ok
    decks = sorted(p for p in (root / "dist-flip").glob("*.apkg")
                   if not p.name.startswith("nca_all"))
    with AnkiDesktop(decks, root / "flip", "NCA") as app:
        assert " Picking shows the answer. " in read(app)["hint"]
        app.key("alt+2")  # and nothing else: Anki's own flip follows the pick
        app.wait_for(BACK_SAID, 10)
        back = read(app)
        assert back["checked"][1] == "true"
        assert back["verdict"].startswith(("✓ Correct — you chose B.", "✗ You chose B;"))
        reply = app.ask(None)
        assert reply["reviewer"] == "answer" and reply["windows"] == [MAIN_WINDOW]
        assert errors(reply) == []


def test_a_right_click_strikes_out_and_the_keyboard_reaches_the_choices(seed_decks):
    """Striking out and the choices' keys, as the real app passes them to the card."""
    root, decks = seed_decks
    with AnkiDesktop(decks, root / "strike", "NCA") as app:
        app.wait_for("document.querySelector('.nca-card.nca-front.nca-js') !== null")
        app.click_on(".nca-choice-list > *", 0, button=3)  # the right button
        app.wait_for("document.querySelector('.nca-choice-list > *').classList"
                     ".contains('nca-struck')", timeout=15)
        front = read(app)
        assert front["struck"] == [True, False, False, False]
        assert front["checked"] == ["false"] * 4
        reply = app.ask(None)
        assert reply["windows"] == [MAIN_WINDOW]  # no context menu window opened
        app.key("alt+shift+3")
        app.wait_for("document.querySelectorAll('.nca-choice-list > *')[2].classList"
                     ".contains('nca-struck')", timeout=15)
        # The right-click left the keyboard's focus on the first choice. (Tab does not bring
        # the focus into the card in the app: measured, no choice ever had it.)
        assert read(app)["focused"] == [True, False, False, False]
        app.key("Down", "x")  # the second choice: struck out by its key
        app.wait_for("document.querySelectorAll('.nca-choice-list > *')[1].classList"
                     ".contains('nca-struck')", timeout=15)
        app.key("alt+4")
        when_checked(app, ["false", "false", "false", "true"])
        app.key("space")  # Anki's: shows the answer (the card never sees it)
        app.wait_for(BACK_SAID)
        back = read(app)
        assert back["struck"] == [True, True, True, False]
        assert back["checked"] == ["false", "false", "false", "true"]
        assert re.match(r"^(✓ Correct — you chose D\.|✗ You chose D; the answer is [A-C]\.)$",
                        back["verdict"]), back["verdict"]
        reply = app.ask(None)
        assert reply["windows"] == [MAIN_WINDOW] and errors(reply) == [], errors(reply)


REPORT_URL = ("https://example.org/new?fingerprint={fingerprint}&guid={guid}&version={version}"
              "&source={file}%3A{line}&pick={pick}&verdict={verdict}")


def test_with_report_url_the_back_links_to_a_report_with_the_pick(seed_decks):
    """report_url: the back shows the link, and the desktop app's card script puts the
    pick and the verdict in its address."""
    root, _ = seed_decks
    from nca_anki.build import BuildOptions, build
    source = root / "source-report"
    shutil.copytree(root / "source", source)
    (source / "nca-anki.toml").write_text(f'report_url = "{REPORT_URL}"\n', encoding="utf-8")
    assert build(BuildOptions(source, REPO / "templates", root / "dist-report",
                              now=1_800_000_000)).ok
    decks = sorted(p for p in (root / "dist-report").glob("*.apkg")
                   if not p.name.startswith("nca_all"))
    with AnkiDesktop(decks, root / "report", "NCA") as app:
        app.wait_for("document.querySelector('.nca-card.nca-front.nca-js') !== null")
        assert app.value("document.querySelectorAll('a.nca-report').length") == 0
        front = read(app)
        app.key("alt+2")
        when_checked(app, ["false", "true"] + ["false"] * (len(front["texts"]) - 2))
        app.key("space")
        app.wait_for(BACK_SAID)
        link = app.value("(() => { const a = document.querySelector('a.nca-report');"
                         " return a && {href: a.href, text: a.textContent}; })()")
        assert link["text"] == "Report a problem with this question"
        assert link["href"].startswith("https://example.org/new?fingerprint=")
        fields = dict(pair.split("=", 1) for pair in link["href"].split("?", 1)[1].split("&"))
        assert re.fullmatch(r"[0-9a-f]{12}", fields["fingerprint"])
        assert re.fullmatch(r"nca-[0-9a-f]{16}", fields["guid"])
        assert fields["version"] == "2027-01-15"
        assert re.fullmatch(r"[a-z0-9-]+\.txt%3A\d+", fields["source"])
        from urllib.parse import unquote
        assert unquote(fields["pick"]) == front["texts"][1][:120]
        assert fields["verdict"] in ("right", "wrong")
        # A click hands the address to the learner's browser; the review stays.
        app.click_on("a.nca-report")
        deadline = time.monotonic() + 20
        while not app.opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # polls a state (the file), never waits a fixed time
        assert app.opened.read_text(encoding="utf-8").splitlines() == [link["href"]]
        reply = app.ask(None)
        assert reply["windows"] == [MAIN_WINDOW] and errors(reply) == []
        assert reply["reviewer"] == "answer" and read(app)["side"] == "back"
