"""Questions real exams ask (issue 22): several correct answers, choices that carry code and
images, built from tests/fixtures/exam-shaped/, imported into a real Anki collection with
the `anki` package, and played in Chromium the way Anki's clients show cards
(tests/card_browser.py: ``desktop`` swaps the back into one page, ``mobile`` loads it as a
new page). The bank was written for this project in the shapes of public prep banks."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from anki_client import (CardView, cards_in_deck, html_to_text, import_package, open_collection,
                         review_all_new)
from card_browser import CardHtml, Reviewer
from conftest import REPO, built_and_imported
from nca_anki.build import BuildOptions, build
from nca_anki.publishing.sink import ComparingSink
from nca_anki.reading.media import MAX_IMAGE_BYTES
from card_reading import Shown, choice, shown, verdict

pytestmark = pytest.mark.anki  # every test here reads cards from a real collection

BANK = REPO / "tests" / "fixtures" / "exam-shaped"
MODES = ["desktop", "mobile"]
GENERATIVE = "NCA::Generative AI"
DIAGNOSTICS = "NCA::Training Diagnostics"
T0 = 1_800_000_000  # conftest.built_and_imported's clock


@dataclass(frozen=True)
class Card:
    view: CardView
    choices: tuple[str, ...]  # texts in the static order
    answers: tuple[str, ...]  # the correct choices' texts, in the static order

    media: tuple[tuple[str, bytes], ...] = ()  # the images it shows, from the collection

    @property
    def html(self) -> CardHtml:
        return CardHtml(self.view.question_html, self.view.answer_html, self.view.css,
                        media=self.media)

    @property
    def wrong(self) -> tuple[str, ...]:
        return tuple(c for c in self.choices if c not in self.answers)


def _card(view: CardView, media: Path) -> Card:
    texts = tuple(html_to_text(body) for body in re.findall(
        r'<span class="nca-text">(.*?)</span></li>', view.fields["Choices"], re.DOTALL))
    letters = re.findall(r"[A-J]", view.fields["Answer"])
    names = sorted(set(re.findall(r'src="(nca-[^"]+)"', view.question_html + view.answer_html)))
    return Card(view, texts, tuple(texts["ABCDEFGHIJ".index(x)] for x in letters),
                tuple((name, (media / name).read_bytes()) for name in names))


@dataclass(frozen=True)
class Bank:
    decks: dict[str, list[Card]]
    diagnostics: tuple[str, ...]
    root: Path

    def card(self, prompt: str) -> Card:
        found = [c for cards in self.decks.values() for c in cards
                 if prompt in c.view.fields["Prompt"]]
        assert len(found) == 1, prompt
        return found[0]


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Bank:
    root = tmp_path_factory.mktemp("exam-shaped")
    shutil.copytree(BANK, root / "source")
    report, decks = built_and_imported(root, (GENERATIVE, DIAGNOSTICS))
    media = root / "anki" / "collection.media"  # the real collection's media folder
    return Bank({name: [_card(v, media) for v in views] for name, views in decks.items()},
                tuple(str(d) for d in report.diagnostics), root)


def two(bank: Bank) -> Card:
    return bank.card("Which two techniques reduce the GPU memory")


def three(bank: Bank) -> Card:
    return bank.card("Which three are decoding strategies")


def pick_and_flip(r: Reviewer, card: Card, picks: tuple[str, ...]) -> tuple[Shown, Shown]:
    r.show_question(card.html)
    front = shown(r)
    for text in picks:
        choice(r, text).click()
    r.show_answer(card.html)
    return front, shown(r)


def letters(back: Shown, texts) -> str:
    found = sorted(back.letter_of(t) for t in texts)
    return found[0] if len(found) == 1 else f"{', '.join(found[:-1])} and {found[-1]}"


# --- several correct answers: the notes ------------------------------------------------------

def test_the_answer_field_names_every_correct_letter_and_the_front_says_how_many(bank):
    assert not [d for d in bank.diagnostics if "error" in d]
    card = two(bank)
    assert re.fullmatch(r"[A-D] and [A-D]", card.view.fields["Answer"])
    assert sorted(card.answers) == ["Gradient checkpointing",
                                    "Low-rank adaptation (LoRA) of the attention weights"]
    assert re.fullmatch(r"[A-E], [A-E] and [A-E]", three(bank).view.fields["Answer"])
    assert len(three(bank).answers) == 3
    assert 'data-nca-choose="2"' in card.view.fields["Choices"]
    assert "Choose 2 answers." in html_to_text(card.view.question_html)
    single = bank.card("n-gram overlap")
    assert single.view.fields["Answer"] in "ABCD" and "data-nca-choose" not in \
        single.view.fields["Choices"] and "Choose" not in single.view.fields["Choices"]


def test_the_static_order_spreads_the_answers_and_keeps_the_pinned_choice_last(bank):
    pinned = bank.card("cite documents which do not exist")
    assert pinned.choices[-1] == "None of the above" and len(pinned.answers) == 2
    places = [c.choices.index(a) for c in bank.decks[GENERATIVE] for a in c.answers]
    assert len(places) == 8 and len(set(places)) >= 3  # written first and third; not shown so


# --- several correct answers: the card -------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_both_correct_picks_give_the_correct_verdict_with_checkbox_semantics(reviewer, bank,
                                                                              mode):
    card = two(bank)
    r = reviewer(mode)
    front, back = pick_and_flip(r, card, card.answers)
    assert front.role == "group" and set(front.roles) == {"checkbox"}
    assert back.texts == front.texts and back.labels == front.labels  # order kept
    assert verdict(r) == f"✓ Correct: you chose {letters(back, card.answers)}."
    for text in card.answers:
        at = back.texts.index(text)
        assert back.marks[at] == ("✓ Correct — your choice",) and back.checked[at] == "true"
    assert back.checked.count("true") == 2
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_one_right_and_one_wrong_pick_names_the_right_missed_and_wrong(reviewer, bank, mode):
    card = three(bank)
    right, missed = card.answers[0], card.answers[1:]
    wrong = card.wrong[0]
    r = reviewer(mode)
    front, back = pick_and_flip(r, card, (right, wrong))
    assert back.texts == front.texts
    assert verdict(r) == (
        f"✗ You chose {letters(back, (right, wrong))}; the answers are "
        f"{letters(back, card.answers)}. Right: {back.letter_of(right)}. Missed: "
        f"{letters(back, missed)}. Wrong: {back.letter_of(wrong)}.")
    assert back.marks[back.texts.index(right)] == ("✓ Correct — your choice",)
    assert [back.marks[back.texts.index(m)] for m in missed] == [("✓ Correct — missed",)] * 2
    assert back.marks[back.texts.index(wrong)] == ("✗ Wrong pick",)
    assert back.marks[back.texts.index(card.wrong[1])] == ()
    # By shape too, not colour alone: solid, dotted, dashed borders.
    styles = r.page.evaluate("""() => [...document.querySelectorAll(".nca-choice-list > li")]
        .map(li => getComputedStyle(li).borderTopStyle)""")
    kinds = dict(zip(back.texts, styles))
    assert (kinds[right], kinds[missed[0]], kinds[wrong]) == ("solid", "dotted", "dashed")
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_nothing_picked_shows_the_answers_and_a_second_tap_unpicks(reviewer, bank, mode):
    card = two(bank)
    r = reviewer(mode)
    r.show_question(card.html)
    choice(r, card.wrong[0]).click()
    choice(r, card.wrong[0]).click()  # picked, then unpicked
    assert "true" not in shown(r).checked
    assert "Choose 2 answers." in r.page.inner_text(".nca-choices")
    r.show_answer(card.html)
    back = shown(r)
    assert verdict(r) == f"The answers are {letters(back, card.answers)}."
    assert [back.marks[back.texts.index(a)] for a in card.answers] == [("✓ Correct answer",)] * 2
    assert "true" not in back.checked and not r.page.is_visible(".nca-choose")
    assert r.console_errors() == []


@pytest.mark.parametrize("mode", MODES)
def test_keys_toggle_choices_and_the_count_follows(reviewer, bank, mode):
    card = two(bank)
    r = reviewer(mode)
    r.show_question(card.html)
    r.page.keyboard.press("Alt+1")
    r.page.keyboard.press("Alt+3")
    assert shown(r).checked == ("true", "false", "true", "false")
    assert "2 picked." in r.page.inner_text(".nca-choose")
    r.page.keyboard.press("Alt+1")
    assert shown(r).checked == ("false", "false", "true", "false")
    front = shown(r)
    r.show_answer(card.html)
    assert shown(r).checked == front.checked and shown(r).texts == front.texts


@pytest.mark.parametrize("mode", MODES)
def test_the_pinned_choice_stays_last_on_every_review(reviewer, bank, mode):
    card = bank.card("cite documents which do not exist")
    r = reviewer(mode)
    orders = set()
    for _ in range(10):
        front, back = pick_and_flip(r, card, card.answers)
        assert front.texts[-1] == back.texts[-1] == "None of the above"
        assert verdict(r).startswith("✓ Correct: you chose")
        orders.add(front.texts)
    assert len(orders) > 1


def test_on_a_phone_the_verdict_and_every_marked_choice_are_in_view(reviewer, bank):
    # After Anki scrolls to #answer on a 390x700 card area; the worst case: the last wrong
    # choice picked as well as one answer, so every choice but one carries a mark.
    for mode in MODES:
        r = reviewer(mode, viewport=(390, 700))
        for card in bank.decks[GENERATIVE]:
            r.show_question(card.html)
            texts = shown(r).texts
            picks = (card.answers[0], next(t for t in reversed(texts) if t not in card.answers))
            for text in picks:
                choice(r, text).click()
            r.show_answer(card.html)
            visible = r.page.evaluate("""() => [".nca-verdict", ".nca-prompt",
                ...[...document.querySelectorAll(".nca-choice-list > li")].map((_, i) =>
                    `.nca-choice-list > li:nth-child(${i + 1})`)].map(selector => {
                const box = document.querySelector(selector).getBoundingClientRect();
                return box.top >= 0 && box.bottom <= window.innerHeight;
            })""")
            assert all(visible), (mode, card.choices, visible)


@pytest.mark.parametrize("mode", MODES)
def test_without_javascript_the_back_names_and_marks_every_correct_choice(reviewer, bank, mode):
    for card in (two(bank), three(bank)):
        r = reviewer(mode, javascript=False)
        r.show_question(card.html)
        assert "Choose" in r.page.inner_text(".nca-choices")
        r.show_answer(card.html)
        text = " ".join(r.page.inner_text(".nca-card").split())
        assert text.startswith(f"Answer: {card.view.fields['Answer']}")
        marked = r.page.evaluate("""() => [...document.querySelectorAll(".nca-choice-list > li")]
            .map(li => getComputedStyle(li, "::after").content)""")
        assert marked == ['"✓\xa0correct"' if c in card.answers else "none"
                          for c in card.choices]
        r.close()


# --- images ----------------------------------------------------------------------------------

_SRC_RE = re.compile(r'<img src="([^"]+)" alt="([^"]*)">')


def media_name(path: Path) -> str:
    data = path.read_bytes()
    kind = {".png": "png", ".svg": "svg"}[path.suffix]
    return f"nca-{hashlib.sha256(data).hexdigest()[:16]}.{kind}"


def test_images_in_prompt_choice_and_explanation_travel_as_hashed_media(bank):
    images = BANK / "images"
    diagram = bank.card("which stack is the encoder")
    (src, alt), = _SRC_RE.findall(diagram.view.fields["Prompt"])
    assert src == media_name(images / "transformer.svg") and alt.startswith("A transformer:")
    plots = bank.card("Which shows overfitting")
    shown_in_choices = {a: s for s, a in _SRC_RE.findall(plots.view.fields["Choices"])}
    assert sorted(shown_in_choices.values()) == sorted(
        media_name(images / f"loss-{n}.png") for n in ("healthy", "overfitting", "underfitting"))
    answer = plots.answers[0]  # the choice is its image: its text is the alt text, none
    assert plots.view.fields["Answer"] in "ABC" and answer == ""
    curves = bank.card("starts rising after epoch 12")
    assert _SRC_RE.findall(curves.view.fields["Explanation"]) == [
        (media_name(images / "loss-overfitting.png"),
         "Training loss keeps falling while validation loss turns and rises")]
    # In the real collection's media folder, under those names, byte for byte.
    col = open_collection(bank.root / "anki" / "collection.anki2")
    try:
        folder = Path(col.media.dir())
    finally:
        col.close()
    for image in images.iterdir():
        assert (folder / media_name(image)).read_bytes() == image.read_bytes()
    # The manifest lists each deck's images with their SHA-256; the bundle carries all.
    manifest = json.loads((bank.root / "dist" / "manifest.json").read_text(encoding="utf-8"))
    (deck,) = [d for d in manifest["decks"] if d["deck"] == DIAGNOSTICS]
    assert deck["media"] == {media_name(p): {"sha256": hashlib.sha256(p.read_bytes()).hexdigest(),
                                             "bytes": p.stat().st_size}
                             for p in sorted(images.iterdir(), key=media_name)}
    with zipfile.ZipFile(bank.root / "dist" / "nca_all_topics.apkg") as bundle:
        listing = json.loads(bundle.read("media"))
        assert sorted(listing.values()) == sorted(deck["media"])
        assert all(bundle.read(n) == (images / next(p.name for p in images.iterdir()
                                                     if media_name(p) == name)).read_bytes()
                   for n, name in listing.items())


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(BANK, root / "source")
    return root


def _build(root: Path, now: int):
    return build(BuildOptions(root / "source", REPO / "templates", root / "dist", now=now))


def test_an_edited_image_updates_exactly_its_note_history_kept(tmp_path):
    root = _project(tmp_path)
    assert _build(root, T0).ok
    col = open_collection(tmp_path / "anki" / "collection.anki2")
    try:
        for apkg in sorted((root / "dist").glob("*.apkg")):
            if apkg.name != "nca_all_topics.apkg":
                import_package(col, apkg)
        assert review_all_new(col, DIAGNOSTICS) == 3
        before = {c.guid: c for c in cards_in_deck(col, DIAGNOSTICS)}
        svg = root / "source" / "images" / "transformer.svg"
        svg.write_text(svg.read_text(encoding="utf-8").replace("Stack 1", "Stack one"),
                       encoding="utf-8")
        report = _build(root, T0 + 86_400)
        assert report.ok
        counts = import_package(col, root / "dist" / "training-diagnostics.apkg")
        # Anki's log calls a note it already has, unchanged, a "duplicate": no copy is made.
        assert (counts.new, counts.updated, counts.duplicate, counts.conflicting) == (0, 1, 2, 0)
        after = {c.guid: c for c in cards_in_deck(col, DIAGNOSTICS)}
        assert set(after) == set(before)
        changed = [g for g in after if after[g].fields != before[g].fields]
        assert len(changed) == 1 and "which stack is the encoder" in after[changed[0]].fields[
            "Prompt"]
        assert media_name(svg) in after[changed[0]].fields["Prompt"]
        assert (Path(col.media.dir()) / media_name(svg)).read_bytes() == svg.read_bytes()
        assert all((a.reps, a.ivl, a.card_id) == (before[g].reps, before[g].ivl, before[g].card_id)
                   for g, a in after.items())
    finally:
        col.close()
    changelog = (root / "dist" / "CHANGELOG.md").read_text(encoding="utf-8")
    latest = changelog.split("\n## ")[1]
    assert "- Image changed: In the transformer below, which stack is the encoder?" in latest
    assert "- Changed:" not in latest.split("### NCA::Training Diagnostics")[1]
    # The published decks are what the source builds, images included.
    again = build(BuildOptions(root / "source", REPO / "templates", root / "dist",
                               now=T0 + 2 * 86_400), sink=ComparingSink())
    assert again.ok and not [t for t in again.topics if t.status.value != "unchanged"]


def test_two_topics_with_the_same_image_file_name_never_collide(tmp_path):
    root = tmp_path / "project"
    for topic, color in (("Alpha", "#1f5fbf"), ("Beta", "#b5530b")):
        folder = root / "source" / topic.lower()
        (folder / "images").mkdir(parents=True)
        (folder / "images" / "diagram.svg").write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
            f'<rect width="10" height="10" fill="{color}"/></svg>', encoding="utf-8")
        (folder / f"{topic.lower()}-1.txt").write_text(
            f"{topic} 1 — Questions and Answers\nQuestion 1: What colour? "
            f"![a square](images/diagram.svg)\n- Blue (Correct answer)\n- Red\n"
            f"Correct answer: Blue\nLook.\n", encoding="utf-8")
    assert _build(root, T0).ok
    manifest = json.loads((root / "dist" / "manifest.json").read_text(encoding="utf-8"))
    names = [set(d["media"]) for d in manifest["decks"]]
    assert len(names) == 2 and all(len(n) == 1 for n in names) and not names[0] & names[1]


def test_an_authors_image_mistakes_are_each_one_error_at_its_line(tmp_path):
    root = tmp_path / "project"
    (root / "source" / "images").mkdir(parents=True)
    (root / "source" / "images" / "notes.txt.png").write_text("not an image", encoding="utf-8")
    (root / "source" / "images" / "huge.png").write_bytes(
        b"\x89PNG\r\n\x1a\n" + b"\0" * MAX_IMAGE_BYTES)
    (root / "outside.png").write_bytes((BANK / "images" / "loss-healthy.png").read_bytes())
    (root / "source" / "mistakes-1.txt").write_text("\n".join([
        "Mistakes 1 — Questions and Answers",                              # 1
        "Question 1: Which layer? ![the layer](images/layer.png)",         # 2: missing
        "- Dense (Correct answer)",
        "- Conv",
        "Correct answer: Dense",
        "Because. ![notes](images/notes.txt.png)",                          # 6: not an image
        "Question 2: Which plot?",                                          # 7
        "- ![big](images/huge.png) (Correct answer)",                       # 8: too big
        "- ![elsewhere](../outside.png)",                                   # 9: outside
        "Correct answer: ![big](images/huge.png)",
        "",
        "See ![web](https://example.com/plot.png).",                        # 12: a web address
        ""]), encoding="utf-8")
    report = _build(root, T0)
    found = [(d.line, d.message) for d in report.diagnostics if d.is_error]
    assert [line for line, _ in found] == [2, 6, 8, 9, 12], found
    messages = dict(found)
    assert messages[2] == ("Question 1's prompt: image 'images/layer.png' not found (looked "
                           "for " + (root / "source" / "images" / "layer.png").as_posix()
                           + "); the path is relative to this question file")
    assert "is not an image the Anki apps show" in messages[6]
    assert "over the limit of 2.0 MiB per image" in messages[8]
    assert "outside the source folder" in messages[9] and "choice B" in messages[9]
    assert "is a web address" in messages[12] and "explanation" in messages[12]
    assert not (root / "dist" / "mistakes.apkg").exists()


@pytest.mark.parametrize("mode", MODES)
def test_images_fit_a_phone_day_and_night(reviewer, bank, mode):
    for night in (False, True):
        r = reviewer(mode, viewport=(320, 568), night=night)
        shown_images = 0
        for card in bank.decks[DIAGNOSTICS]:
            for side in ("question", "answer"):
                (r.show_question if side == "question" else r.show_answer)(card.html)
                r.page.wait_for_function("""() => [...document.images].every(
                    i => i.complete && i.naturalWidth > 0)""")
                boxes = r.page.evaluate("""() => ({
                    page: document.documentElement.scrollWidth - window.innerWidth,
                    card: document.querySelector(".nca-card").getBoundingClientRect().right,
                    images: [...document.images].map(i => [i.getBoundingClientRect().right,
                        getComputedStyle(i).backgroundColor, i.alt]),
                })""")
                html = card.html.question if side == "question" else card.html.answer
                assert boxes["page"] <= 0 and len(boxes["images"]) == html.count("<img")
                shown_images += len(boxes["images"])
                for right, background, alt in boxes["images"]:
                    assert right <= boxes["card"] + 0.5 and alt
                    assert background == ("rgb(255, 255, 255)" if night else "rgba(0, 0, 0, 0)")
        assert r.console_errors() == [] and shown_images == 9  # front+back: 1+1, 3+3, 0+1


@pytest.mark.parametrize("mode", MODES)
def test_on_a_touch_screen_each_tap_toggles_a_choice_once(reviewer, bank, mode):
    card = two(bank)
    r = reviewer(mode, touch=True)
    r.show_question(card.html)
    assert r.page.inner_text(".nca-hint") == ("Tap choices to pick or unpick them. Touch and "
                                              "hold a choice to strike it out.")
    items = r.page.locator(".nca-choice-list > *")
    items.nth(0).tap()
    items.nth(2).tap()
    assert shown(r).checked == ("true", "false", "true", "false")
    items.nth(2).tap()  # a second tap unpicks
    assert shown(r).checked == ("true", "false", "false", "false")
    assert r.console_errors() == []


def test_with_several_answers_the_answer_shows_once_all_are_picked(browser, server):
    # show_answer_on_pick on a two-answer question (the Choices field as render.py writes it).
    items = "".join(f'<li><span class="nca-label">{x}</span> <span class="nca-text">{t}</span>'
                    f"</li>" for x, t in zip("ABC", ("LoRA", "A higher rate", "Checkpointing")))
    script = (REPO / "templates" / "card.js").read_text(encoding="utf-8")
    html = ('<!doctype html><div class="nca-card nca-front"><div class="nca-choices">'
            '<ol class="nca-choice-list" data-nca-shuffle="no" data-nca-choose="2" '
            f'data-nca-flip="pick">{items}</ol></div><p class="nca-hint" hidden></p>'
            f'<script>window.__flips = []; window.pycmd = c => window.__flips.push(c);\n'
            f'{script}\nNcaMcq.start("front");</script></div>')
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.put("several-flip/front.html", html))
        page.locator(".nca-choice-list > *").nth(0).click()
        page.wait_for_timeout(400)
        assert page.evaluate("window.__flips") == []  # one of two: not yet
        page.locator(".nca-choice-list > *").nth(2).click()
        page.wait_for_timeout(400)
        assert page.evaluate("window.__flips") == ["ans"]
    finally:
        context.close()
