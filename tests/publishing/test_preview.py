"""The preview site (``--preview DIR``, nca_anki/publishing/preview.py, docs/preview.md),
opened from disk in headless Chromium as an author opens it: every seed question is there,
each card fills its templates as the real Anki backend does, and a pick then "Show
answer" gives the verdict, by day and at night, on a phone and on a desktop."""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from anki_client import html_to_text
from conftest import REPO, built_and_imported
from conftest import copy_project, edit

SEED_DECKS = ("NCA::AI & Deep Learning Frameworks",
              "NCA::Deep Learning Training Techniques and Optimization",
              "NCA::Neural Network Applications and Frameworks")
_CHOICE_RE = re.compile(r'<li\b[^>]*><span class="nca-label">([A-J])</span> '
                        r'<span class="nca-text">(.*?)</span></li>', re.DOTALL)


def _squeezed(text: str) -> str:
    """Text without white space: the browser's textContent and html_to_text space tags
    differently."""
    return re.sub(r"\s+", "", text)


def preview(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``build_decks.py --preview root/site`` in ``root``, as an author runs it."""
    return subprocess.run([sys.executable, str(REPO / "build_decks.py"), "--no-cache",
                           "--preview", "site", *args], cwd=root, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory):
    """The seeds' preview site, and the seeds' cards as the real Anki backend imports and
    renders them from the decks built from the same source."""
    root = tmp_path_factory.mktemp("preview")
    copy_project(root)
    done = preview(root)
    assert done.returncode == 0, done.stderr
    _, cards = built_and_imported(root, SEED_DECKS)
    return root / "site", cards


def _deck_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.glob("*.html") if p.name != "index.html")


def _open(browser, url: str, *, width: int = 390, night: bool = False):
    """A fresh browser session on ``url``, its console errors and every URL it asked for;
    ``night``: the switch pressed once."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(url, wait_until="load")
    assert page.get_attribute("html", "data-theme") == "day"  # Chromium headless: light
    if night:
        page.click(".theme-switch")
        assert page.get_attribute("html", "data-theme") == "night"
    return context, page, errors, requests


def _card_frame(page, index: int):
    """The frame of the deck page's card ``index`` (0-based), once it shows its front."""
    slot = page.locator(".card-slot").nth(index)
    slot.scroll_into_view_if_needed()
    slot.locator("iframe").wait_for()
    frame = slot.locator("iframe").element_handle().content_frame()
    frame.wait_for_selector("body[data-side=front] .nca-choice-list", timeout=10_000)
    return frame


# Each card's frame is sandboxed, so Chromium runs it in a process of its own (an
# out-of-process iframe), and a click is routed to it by where the browser last saw it on
# the screen. A click sent within a frame or two of a scroll or a card's change of height
# reaches the page instead of the card: logged in this test, Playwright scrolled "Again"
# into view and clicked 17 ms later, and the page got the pointer down on the card's
# <iframe>. A reader does not click that fast after the page moves; the tests wait, as a
# reader does, until the page has been still for three animation frames: no card moved,
# grew or changed side, and every card frame on the screen has shown its card. (A frame
# off the screen, even by a few pixels, may not show until it comes on: Chromium holds
# such frames back.)
_ON_SCREEN = "(box) => box.bottom > 0 && box.top < window.innerHeight"
_STILL = """async () => {
    const onScreen = """ + _ON_SCREEN + """;
    const look = () => JSON.stringify([scrollY, ...[...document.querySelectorAll('.card-slot')]
        .map(slot => { const box = slot.getBoundingClientRect();
                       const frame = slot.querySelector('iframe');
                       return [slot.id, box.top, box.height, slot.getAttribute('data-side'),
                               !frame || !onScreen(frame.getBoundingClientRect())
                               || slot.classList.contains('shown')]; })]);
    const until = performance.now() + 10000;
    let last = null, still = 0;
    while (still < 3) {
        await new Promise(done => requestAnimationFrame(() => done()));
        const now = look();
        if (performance.now() > until) return `not still: ${last} then ${now}`;
        still = now === last && !now.includes('false') ? still + 1 : 0;
        last = now;
    }
    return null;
}"""


def _click(page, target) -> None:
    """Click ``target`` (a locator in a card's frame) as a reader does: on the screen, once
    the page is still."""
    target.scroll_into_view_if_needed()
    moving = page.evaluate(_STILL)
    assert moving is None, moving
    target.click()


def _pick(page, frame, index: int) -> None:
    """Pick choice ``index`` of the card in ``frame`` as a reader does, and wait until the
    card shows it picked. A reader who sees no pick clicks again: Chromium routes a click
    into a card's out-of-process frame by where it last saw that frame, and on a loaded
    machine a click can still reach the page instead (seen once in a CI run with other
    work beside it, 2026-12-04, after the page had been still for three frames). One more
    click is allowed; a card that never shows the pick fails the test."""
    choice = frame.locator(".nca-choice-list > *").nth(index)
    for _ in range(2):
        _click(page, choice)
        try:
            frame.wait_for_selector(f".nca-choice-list > :nth-child({index + 1}).nca-picked",
                                    timeout=3_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"choice {index} never showed as picked after two clicks")


def _colours(browser, png: bytes) -> tuple[int, float]:
    """How many distinct colours a screenshot has, and its mean brightness (0-255)."""
    page = browser.new_page()
    try:
        return tuple(page.evaluate("""async (url) => {
            const img = new Image(); img.src = url; await img.decode();
            const canvas = document.createElement("canvas");
            canvas.width = img.width; canvas.height = img.height;
            const g = canvas.getContext("2d"); g.drawImage(img, 0, 0);
            const d = g.getImageData(0, 0, img.width, img.height).data;
            const seen = new Set(); let sum = 0;
            for (let i = 0; i < d.length; i += 4) {
                seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
                sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
            }
            return [seen.size, sum / (d.length / 4)];
        }""", "data:image/png;base64," + base64.b64encode(png).decode()))
    finally:
        page.close()


@pytest.mark.anki
def test_the_index_lists_every_deck_and_each_page_holds_every_question(browser, seeds):
    site, cards = seeds
    context, page, errors, requests = _open(browser, (site / "index.html").as_uri())
    try:
        links = page.locator(".decks a")
        assert links.count() == 3
        assert sorted(links.all_inner_texts()) == sorted(d.split("::")[-1] for d in SEED_DECKS)
        assert "3 decks, 19 questions" in page.inner_text(".deck-facts")
        shown_prompts = []
        for k in range(3):
            page.goto((site / "index.html").as_uri())
            page.locator(".decks a").nth(k).click()
            page.wait_for_load_state("load")
            deck = page.inner_text("h1")
            slots = page.locator(".card-slot").count()
            assert slots == len(cards[f"NCA::{deck}"])
            for index in range(slots):
                frame = _card_frame(page, index)
                shown_prompts.append(frame.inner_text(".nca-prompt"))
        expected = [html_to_text(c.fields["Prompt"]) for deck in SEED_DECKS for c in cards[deck]]
        assert len(shown_prompts) == 19
        assert sorted(map(_squeezed, shown_prompts)) == sorted(map(_squeezed, expected))
        assert errors == []
        # Opened from disk, the site asks for nothing but its own files.
        assert requests and all(u.startswith(("file://", "about:", "data:")) for u in requests)
    finally:
        context.close()


@pytest.mark.anki
def test_each_card_fills_its_templates_as_anki_does(browser, seeds):
    """The preview's fill() against the real Anki backend's rendering of the same notes:
    the same front and back HTML, card.js included, for every seed card."""
    site, cards = seeds
    anki = {c.fields["Prompt"]: c for deck in SEED_DECKS for c in cards[deck]}
    compared = 0
    context, page, errors, _ = _open(browser, (site / "index.html").as_uri())
    try:
        for deck_page in _deck_pages(site):
            page.goto(deck_page.as_uri())
            rendered = page.evaluate("""() => {
                const deck = JSON.parse(document.getElementById("deck-data").textContent);
                return deck.cards.map((card) => {
                    const fields = NcaPreview.cardFields(deck, card);
                    return [card.fields.Prompt, NcaPreview.fill(deck.front, fields),
                            NcaPreview.fill(deck.back, fields), deck.css];
                });
            }""")
            for prompt, front, back, css in rendered:
                card = anki[prompt]
                assert front == card.question_html
                assert back == card.answer_html
                assert css == card.css
                compared += 1
        assert compared == 19
        assert errors == []
    finally:
        context.close()


# Three cards, one in each deck: (deck page, card, pick the correct choice?)
PLAYED = [(0, 0, True), (1, 2, False), (2, 4, True)]


@pytest.mark.anki
@pytest.mark.parametrize("night", [False, True], ids=["day", "night"])
@pytest.mark.parametrize("width", [390, 1100], ids=["phone", "desktop"])
def test_pick_then_show_answer_gives_the_verdict(browser, seeds, night, width):
    site, cards = seeds
    pages = _deck_pages(site)
    screenshots = []
    for deck_index, card_index, pick_correct in PLAYED:
        context, page, errors, _ = _open(browser, pages[deck_index].as_uri(), width=width,
                                         night=night)
        try:
            deck = page.inner_text("h1")
            note = cards[f"NCA::{deck}"][card_index]
            static = dict(_CHOICE_RE.findall(note.fields["Choices"]))
            correct = _squeezed(html_to_text(static[note.fields["Answer"]]))
            frame = _card_frame(page, card_index)
            body = frame.locator("body")
            assert ("nightMode" in body.get_attribute("class")) is night
            shown = [_squeezed(t) for t in frame.locator(".nca-choice-list .nca-text")
                     .all_inner_texts()]
            assert sorted(shown) == sorted(_squeezed(html_to_text(t)) for t in static.values())
            answer = "ABCDEFGHIJ"[shown.index(correct)]
            pick = shown.index(correct) if pick_correct else (shown.index(correct) + 1) % len(shown)
            letter = "ABCDEFGHIJ"[pick]
            _pick(page, frame, pick)
            _click(page, frame.locator("#show-answer"))
            # The verdict is written a moment after the back shows (a live region).
            frame.wait_for_selector("body[data-side=back] #answer[data-nca-said]")
            verdict = frame.inner_text("#answer")
            assert verdict == (f"✓ Correct — you chose {letter}." if pick_correct
                               else f"✗ You chose {letter}; the answer is {answer}.")
            background = frame.evaluate("getComputedStyle(document.body).backgroundColor")
            level = sum(map(int, re.findall(r"\d+", background)[:3])) / 3
            assert (level < 80) if night else (level > 200), background
            # "Again" shows the front once more, shuffled anew, with no pick.
            _click(page, frame.locator("#again"))
            frame.wait_for_selector("body[data-side=front] .nca-choice-list")
            assert frame.locator(".nca-choice-list > [aria-checked=true]").count() == 0
            _click(page, frame.locator("#show-answer"))
            frame.wait_for_selector("body[data-side=back] #answer[data-nca-said]")
            assert frame.inner_text("#answer").startswith("The answer is ")
            screenshots.append(page.screenshot())
            assert errors == []
        finally:
            context.close()
    for png in screenshots:
        colours, brightness = _colours(browser, png)
        assert colours > 50, "a blank screenshot"
        assert (brightness < 100) if night else (brightness > 180)


@pytest.mark.anki
def test_the_switch_turns_every_card_to_night_and_back(browser, seeds):
    site, _ = seeds
    page_url = _deck_pages(site)[0].as_uri()
    context, page, errors, _ = _open(browser, page_url)
    try:
        frame = _card_frame(page, 0)
        assert "nightMode" not in frame.locator("body").get_attribute("class")
        page.click(".theme-switch")
        frame.wait_for_selector("body.nightMode.night_mode")
        page.reload()  # the choice is remembered
        assert page.get_attribute("html", "data-theme") == "night"
        frame = _card_frame(page, 0)
        frame.wait_for_selector("body.nightMode")
        page.click(".theme-switch")
        frame.wait_for_selector("body:not(.nightMode)")
        assert errors == []
    finally:
        context.close()


@pytest.mark.anki
@pytest.mark.parametrize("night", [False, True])
def test_axe_finds_no_violation_on_the_preview_or_in_a_card_frame(browser, seeds, night):
    """axe-core (tests/axe_check.py) over the site's index and a deck's page, and over a
    card's frame (a document of its own) before and after its answer is shown."""
    from axe_check import require_axe, violations

    source = require_axe()
    site, _ = seeds
    found = []
    for url in ((site / "index.html").as_uri(), _deck_pages(site)[0].as_uri()):
        context, page, errors, _ = _open(browser, url, night=night)
        try:
            found += [(url, "page", v) for v in violations(page, source, None)]
            if url.endswith("index.html"):
                continue
            frame = _card_frame(page, 0)
            found += [(url, "front", v) for v in violations(frame, source, None)]
            frame.click("#show-answer")
            frame.wait_for_selector("body[data-side=back]")
            found += [(url, "back", v) for v in violations(frame, source, None)]
            assert errors == []
        finally:
            context.close()
    assert found == [], found


def _long_deck(count: int) -> str:
    """A question file of ``count`` questions, each worded apart from the others."""
    words = ("tensor", "kernel", "gradient", "batch", "optimizer", "layer", "token", "cache",
             "shard", "epoch", "stream", "buffer", "schedule", "replica", "adapter", "scale")
    lines = ["Long Deck 1 — Questions and Answers"]
    for n in range(1, count + 1):
        a, b, c = words[n % 16], words[(n // 16) % 16], words[(n // 256) % 16]
        lines += [f"Question {n}: In setup {n}, which {a} setting keeps the {b} and {c} "
                  f"work of step {n * 7} in order?",
                  f"- The {a} of step {n} (Correct answer)", f"- The {b} of step {n + 1}",
                  f"- The {c} of step {n + 2}", f"Correct answer: The {a} of step {n}",
                  f"Step {n} reads its {a} first."]
    return "\n".join(lines) + "\n"


_IN_VIEW = ("() => [...document.querySelectorAll('.card-slot')].filter(slot => ("
            + _ON_SCREEN + ")(slot.getBoundingClientRect()))")


@pytest.fixture(scope="module")
def long_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of a deck of 300 cards."""
    root = tmp_path_factory.mktemp("long-deck")
    (root / "source").mkdir(parents=True)
    shutil.copytree(REPO / "templates", root / "templates")
    (root / "source" / "long-deck-1.txt").write_text(_long_deck(300), encoding="utf-8")
    done = preview(root)
    assert done.returncode == 0, done.stderr
    return root / "site" / "long-deck.html"


def test_a_long_deck_shows_the_cards_on_the_screen_after_a_fast_scroll(browser, long_deck):
    """On a page of hundreds of cards, every card on the screen shows, wherever a fast
    scroll stops, and the page holds frames only near the screen. Read from the page alone:
    driving a card's frame from the test would wake it, which a reader's browser does not."""
    context, page, errors, _ = _open(browser, long_deck.as_uri(), width=1100)
    try:
        assert page.locator(".card-slot").count() == 300
        every_shown = f"({_IN_VIEW})().every(slot => slot.classList.contains('shown'))"
        page.wait_for_function(every_shown, timeout=15_000)
        for stop in (150, 290, 40, 0):  # a screen every 16 ms for 40 screens, then a stop
            page.evaluate("""async () => { for (let i = 0; i < 40; i++) {
                window.scrollBy(0, window.innerHeight);
                await new Promise(done => setTimeout(done, 16)); } }""")
            page.evaluate(f"document.querySelectorAll('.card-slot')[{stop}].scrollIntoView()")
            page.wait_for_function(every_shown, timeout=15_000)
            numbers = page.evaluate(f"({_IN_VIEW})().map(slot => slot.id)")
            assert f"card-{stop + 1}" in numbers
            assert page.evaluate(f"({_IN_VIEW})().every(slot => "
                                 "slot.getAttribute('data-side') === 'front')")
            assert page.locator("iframe").count() <= 40  # not one per card passed by
        assert errors == []
    finally:
        context.close()


# The page's two IntersectionObservers, replaced before preview.js runs by ones the test
# drives: window.observers[margin] delivers the entries the test gives, as Chromium does
# when the page is busy (several entries for one card in one callback, oldest first).
_DRIVEN_OBSERVERS = """
window.observers = {};
window.IntersectionObserver = class {
    constructor(callback, options) { window.observers[options.rootMargin] = this;
                                     this.callback = callback; }
    observe() {}
    deliver(entries) {
        const slots = document.querySelectorAll('.card-slot');
        this.callback(entries.map(([card, isIntersecting]) =>
            ({target: slots[card], isIntersecting})), this);
    }
};
"""


def test_a_card_near_the_screen_is_never_let_go_by_an_old_entry(browser, long_deck):
    """A fast scroll away and back, seen by a busy page as two entries for one card in one
    callback ("far", then "near"), keeps the card's frame: acting on the first let it go,
    and, its place not moving again, it never came back (a CI run waited 15 s for it). A
    card far from the screen is still let go."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    try:
        page = context.new_page()
        page.add_init_script(_DRIVEN_OBSERVERS)
        page.goto(long_deck.as_uri(), wait_until="load")
        assert sorted(page.evaluate("Object.keys(window.observers)")) == \
            ["1600px 0px", "200px 0px"]
        near, kept = "window.observers['200px 0px']", "window.observers['1600px 0px']"
        frames = "document.querySelectorAll('.card-slot iframe').length"
        page.evaluate(f"{near}.deliver([[0, true], [1, true]])")
        assert page.evaluate(frames) == 2
        page.evaluate(f"{kept}.deliver([[0, false], [0, true]])")  # away and back
        page.evaluate(f"{kept}.deliver([[1, false]])")  # an entry older than the page's place
        assert page.evaluate(frames) == 2
        page.evaluate("document.querySelectorAll('.card-slot')[150].scrollIntoView()")
        page.evaluate(f"{kept}.deliver([[0, false], [1, false]])")  # now truly far
        assert page.evaluate(frames) == 0
    finally:
        context.close()


HOSTILE = """Hostile Text 1 — Questions and Answers
Question 1: What does `</script><script>window.pwned = 1</script>` print? <img src=x onerror="window.pwned = 2">
![Both losses fall together](images/loss-healthy.png)
- Nothing </script><b onclick="window.pwned = 3">bold</b> (Correct answer)
- An alert
Correct answer: Nothing </script><b onclick="window.pwned = 3">bold</b>
It is text: ]]> --> <!-- and "quotes" & ampersands stay text.
"""


def test_source_text_stays_text_and_images_show_from_disk(browser, tmp_path):
    """Text that looks like markup, in every field, is shown as written and runs nothing;
    an image is shown from a site opened from disk, without a server."""
    root = tmp_path / "project"
    (root / "source" / "images").mkdir(parents=True)
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copy(REPO / "tests" / "fixtures" / "exam-shaped" / "images" / "loss-healthy.png",
                root / "source" / "images")
    (root / "source" / "hostile-text-1.txt").write_text(HOSTILE, encoding="utf-8")
    done = preview(root)
    assert done.returncode == 0, done.stderr
    page_file = root / "site" / "hostile-text.html"
    # preview.js's, the site's words' and the deck's data: no text ended a script early
    assert page_file.read_text().count("</script>") == 1 + 1 + 1
    context, page, errors, requests = _open(browser, page_file.as_uri())
    try:
        frame = _card_frame(page, 0)
        prompt = frame.inner_text(".nca-prompt")
        assert "</script><script>window.pwned = 1</script>" in prompt
        assert "<img src=x onerror=" in prompt
        assert frame.locator(".nca-prompt img").evaluate("img => img.naturalWidth") > 0
        _pick(page, frame, 0)
        _pick(page, frame, 1)
        _click(page, frame.locator("#show-answer"))
        frame.wait_for_selector("body[data-side=back] #answer")
        assert '</script><b onclick="window.pwned = 3">bold</b>' in frame.inner_text(".nca-back")
        assert "]]> --> <!-- and \"quotes\" & ampersands stay text." in \
            frame.inner_text(".nca-explanation")
        _click(page, frame.locator(".nca-back b, .nca-back .nca-text").first)
        assert frame.evaluate("window.pwned") is None
        assert page.evaluate("window.pwned") is None
        assert errors == []
        assert all(u.startswith(("file://", "about:", "data:")) for u in requests)
    finally:
        context.close()

# --- what an author meets on the command line (in process, no browser) ------------------------

AI = "nca-ai-deep-learning-frameworks-4.txt"


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_preview_writes_the_site_and_nothing_else(project, cli):
    before = _tree(project / "source")
    done = cli("--preview", "site")
    assert done.status == 0, done.err
    assert sorted(_tree(project / "site")) == [
        ".nca-anki-preview", "ai-deep-learning-frameworks.html",
        "deep-learning-training-techniques-and-optimization.html", "index.html",
        "neural-network-applications-and-frameworks.html", "preview.css", "preview.js"]
    assert _tree(project / "source") == before  # no lock written
    assert not (project / "dist").exists()  # no deck
    assert "preview: site/index.html written; open it in a browser" in done.out
    assert done.err.splitlines()[-1].startswith("previewed 3 decks, 19 questions: 0 errors")


def test_the_same_source_gives_the_same_site_byte_for_byte(project, cli):
    assert cli("--preview", "site").status == 0
    first = _tree(project / "site")
    again = cli("--preview", "site")
    assert again.status == 0
    assert _tree(project / "site") == first
    assert "preview: site/index.html unchanged" in again.out
    edit(project / "source" / AI, "Vanishing gradients caused", "Vanishing gradients, caused")
    edited = cli("--preview", "site")
    assert "ai-deep-learning-frameworks.html written" in edited.out
    assert "neural-network-applications-and-frameworks.html unchanged" in edited.out


def test_a_folder_the_tool_did_not_write_is_never_replaced(project, cli):
    (project / "notes").mkdir()
    (project / "notes" / "mine.txt").write_text("my notes")
    done = cli("--preview", "notes")
    assert done.status == 1
    assert "notes: error[E501]: preview not written: holds files this tool did not write" \
        in done.err
    assert _tree(project / "notes") == {"mine.txt": b"my notes"}
    # Nor one of its own previews that someone added a file to.
    assert cli("--preview", "site").status == 0
    (project / "site" / "draft.html").write_text("mine")
    done = cli("--preview", "site")
    assert done.status == 1
    assert "holds 'draft.html', which this tool did not write" in done.err
    assert (project / "site" / "draft.html").read_text() == "mine"


def test_a_topic_with_an_error_is_left_out_and_named_on_the_index(project, cli):
    edit(project / "source" / AI, "Correct answer: Exploding gradients", "Correct answer: Exploding gradient")
    done = cli("--preview", "site")
    assert done.status == 1
    assert f"source/{AI}:7: error[E121]" in done.err
    assert "NCA::AI & Deep Learning Frameworks: failed; not in the preview" in done.out
    assert done.err.splitlines()[-1].startswith("failed: 1 error")
    assert "; 1 of 3 decks not in the preview" in done.err.splitlines()[-1]
    pages = sorted(_tree(project / "site"))
    assert "ai-deep-learning-frameworks.html" not in pages
    assert "neural-network-applications-and-frameworks.html" in pages
    index = (project / "site" / "index.html").read_text()
    assert "Not in this preview" in index
    assert "NCA::AI &amp; Deep Learning Frameworks</span>: 1 error in source/" + AI \
        in index


def test_leftovers_of_a_killed_preview_are_swept(project, cli):
    """What a killed preview leaves holds its marker (written first) and some of the files
    it lists; folders named so that hold anything else are the user's: test_hostile.py."""
    import os
    assert cli("--preview", "site").status == 0
    stale, young = project / ".site.new-abcdefgh", project / ".site.old-ijklmnop"
    for folder in (stale, young):
        shutil.copytree(project / "site", folder)
        (folder / "index.html").write_text("half")
    os.utime(stale, (0, 0))
    assert cli("--preview", "site").status == 0
    assert not stale.exists()
    assert young.exists()  # it may belong to a preview running right now


@pytest.mark.parametrize("args, says", [
    (("--preview", "site", "--check"), "--preview: error: --preview writes the preview site"),
    (("--preview", "site", "--release", "rel"), "--preview: error:"),
    (("--preview", "source/site"), "source/site: error: --preview is inside --source"),
    (("--preview", "dist/site"), "dist/site: error: --preview is inside --out"),
    (("--preview", ""), "--preview: error: --preview is empty"),
])
def test_usage_errors(project, cli, args, says):
    done = cli(*args)
    assert done.status == 2
    assert says in done.err
    assert not (project / "site").exists()


def test_a_file_in_the_way_is_a_usage_error(project, cli):
    (project / "site").write_text("a file")
    done = cli("--preview", "site")
    assert done.status == 2
    assert "site: error: --preview names a file, not a folder" in done.err


def test_the_json_report_of_a_preview(project, cli):
    import json

    import jsonschema

    done = cli("--preview", "site", "--json")
    assert done.status == 0
    report = json.loads(done.out)
    jsonschema.validate(report, json.loads((REPO / "docs" / "report.schema.json").read_text()))
    assert report["mode"] == "preview"
    assert report["files"] == [{"file": "site/index.html", "status": "written"}]
    assert {t["file"] for t in report["topics"]} == {
        "site/ai-deep-learning-frameworks.html",
        "site/deep-learning-training-techniques-and-optimization.html",
        "site/neural-network-applications-and-frameworks.html"}


@pytest.mark.anki
def test_the_preview_speaks_the_projects_language(browser, tmp_path):
    """With ``language = "ar"`` the site's own words, its direction and its card frames'
    buttons are Arabic (nca_anki/language.py); the questions stay as written."""
    from nca_anki.language import preview_words_in, words_in

    copy_project(tmp_path)
    (tmp_path / "source" / "nca-anki.toml").write_text('language = "ar"\n', encoding="utf-8")
    done = preview(tmp_path)
    assert done.returncode == 0, done.stderr
    words = preview_words_in("ar")
    context, page, errors, _ = _open(browser, (tmp_path / "site" / "index.html").as_uri())
    try:
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") \
            == ["ar", "rtl"]
        assert page.inner_text("h1") == words["decks_title"]
        assert words["questions_many"].format(n=19) in page.inner_text(".deck-facts")
        assert page.inner_text(".theme-switch") == words["night_mode"]
        page.click(".decks a")
        frame = _card_frame(page, 0)
        assert frame.inner_text("#show-answer") == words["show_answer"]
        assert frame.inner_text(".nca-hint").startswith(words_in("ar")["hint_one_keys"][:12])
        assert errors == []
    finally:
        context.close()
