#!/usr/bin/env python3
"""Screenshots of a built card, front and back, day and night, phone and desktop.

    .venv/bin/python scripts/screenshots.py [--dist dist] [--out docs/screenshots] [--retired]
    .venv/bin/python scripts/screenshots.py --samples [--out docs/screenshots]
    .venv/bin/python scripts/screenshots.py --languages | --struck [--out docs/screenshots]

With ``--retired``: the same card as a learner who has it sees it after the authors
removed its question and the learner re-imported (docs/sharing.md), in
``retired-<side>-<size>-<theme>.png``. With ``--samples``: cards of the fixture banks in
tests/fixtures/real-shaped/ and exam-shaped/ (built here, into a throw-away folder):
highlighted code, a table, an explanation that names a choice by letter, choices that
carry code, a question with three answers picked one right and one wrong, and an image,
in ``sample-<name>-<side>-<size>-<theme>.png``.

Imports the decks in ``dist/`` into a throw-away collection with the real ``anki`` backend,
shows one card in headless Chromium the way Anki's clients do (tests/card_browser.py),
picks a wrong choice on the front and flips. The shuffle is seeded so the pictures only
change when the card does. Needs the test set-up (README) and Debian's chromium.

With ``--languages``: the several-answer card built in each language the card speaks but
English (``language`` in nca-anki.toml; nca_anki/language.py), one right pick and one
wrong, on a phone by day, in ``language-<code>-<side>-phone-day.png``. With ``--struck``:
a card with two choices struck out and one picked, front and back, in
``struck-<side>-<size>-<theme>.png`` (phone by day, desktop at night).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from anki_client import cards_in_deck, import_package, open_collection  # noqa: E402
from card_browser import CardHtml, CardServer, Reviewer, chromium_path, launch  # noqa: E402
from card_kinds import every_kind  # noqa: E402

DECK = "NCA::Neural Network Applications and Frameworks"
PROMPT = "What is model quantization"  # a card with a long correct choice: a hard layout
SIZES = {"phone": (390, 700), "desktop": (1000, 640)}
# Replaces crypto.getRandomValues with a fixed sequence, so the shuffle is the same each run.
SEEDED_RANDOM = """(() => {
    let state = 20261130;
    crypto.getRandomValues = (array) => {
        for (let i = 0; i < array.length; i++) {
            state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
            array[i] = state;
        }
        return array;
    };
})();"""


SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


# The cards pictured by --samples: name -> (bank in tests/fixtures/, deck, words of its
# prompt, words of the choices picked on the front; none: the second choice shown).
SAMPLES: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "code": ("real-shaped", "NCA::Systems Programming", "What does this program print", ()),
    "table": ("real-shaped", "NCA::GPU Infrastructure", "Based on the table below", ()),
    "reference": ("real-shaped", "NCA::GPU Infrastructure", "Training loss keeps falling", ()),
    "code-choices": ("real-shaped", "NCA::Systems Programming",
                     "Which docstring holds a doctest", ()),
    # One of the three answers and one wrong choice: right, missed and wrong marks at once.
    "several": ("exam-shaped", "NCA::Generative AI", "Which three are decoding strategies",
                ("Beam search", "Weight decay")),
    "image": ("exam-shaped", "NCA::Training Diagnostics", "which stack is the encoder",
              ("Stack 2",)),
    "image-choices": ("exam-shaped", "NCA::Training Diagnostics", "Which shows overfitting", ()),
}


def the_card(dist: Path, deck: str = DECK, prompt: str = PROMPT) -> CardHtml:
    with tempfile.TemporaryDirectory() as folder:
        col = open_collection(Path(folder) / "collection.anki2")
        try:
            for apkg in sorted(dist.glob("*.apkg")):
                import_package(col, apkg)
            view = next(c for c in cards_in_deck(col, deck) if prompt in c.question_html)
            media = Path(col.media.dir())
            names = sorted(set(re.findall(r'src="(nca-[^"]+)"', view.question_html
                                          + view.answer_html)))
            files = tuple((name, (media / name).read_bytes()) for name in names)
        finally:
            col.close()
    return CardHtml(view.question_html, view.answer_html, view.css, media=files)


def the_samples() -> dict[str, CardHtml]:
    """The --samples cards, from the fixture banks built with this checkout."""
    cards = {}
    with tempfile.TemporaryDirectory() as folder:
        for bank in sorted({bank for bank, *_ in SAMPLES.values()}):
            work = Path(folder, bank)
            shutil.copytree(ROOT / "tests" / "fixtures" / bank, work / "source")
            shutil.copytree(ROOT / "templates", work / "templates")
            env = {**os.environ, "SOURCE_DATE_EPOCH": "1796500000"}
            subprocess.run([sys.executable, str(ROOT / "build_decks.py")], cwd=work, env=env,
                           check=True, capture_output=True)
            cards.update({name: the_card(work / "dist", deck, prompt)
                          for name, (b, deck, prompt, _) in SAMPLES.items() if b == bank})
    return {name: cards[name] for name in SAMPLES}


def the_retired_card(dist: Path) -> CardHtml:
    """The card after its question was removed from a copy of the project and the
    learner re-imported the rebuilt decks (fixed clocks: the same pictures each run)."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for name in ("source", "templates"):
            shutil.copytree(ROOT / name, work / name)
        shutil.copytree(dist, work / "dist", ignore=shutil.ignore_patterns(".*"))
        col = open_collection(work / "col" / "collection.anki2")
        try:
            for apkg in sorted((work / "dist").glob("*.apkg")):
                import_package(col, apkg)
            source = next(p for p in (work / "source").glob("*.txt") if PROMPT in
                          p.read_text(encoding="utf-8"))
            lines = source.read_text(encoding="utf-8").split("\n")
            start = next(i for i, line in enumerate(lines)
                         if line.startswith("Question ") and PROMPT in line)
            del lines[start:start + 7]  # header, four choices, answer, explanation
            source.write_text("\n".join(lines), encoding="utf-8")
            env = {**os.environ, "SOURCE_DATE_EPOCH": "1796500000"}  # 2026-12-05
            subprocess.run([sys.executable, str(ROOT / "build_decks.py")], cwd=work, env=env,
                           check=True, capture_output=True)
            for apkg in sorted((work / "dist").glob("*.apkg")):
                import_package(col, apkg)
            view = next(c for c in cards_in_deck(col, DECK) if PROMPT in c.question_html)
            assert "nca::retired" in view.tags, view.tags
        finally:
            col.close()
    return CardHtml(view.question_html, view.answer_html, view.css)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--retired", action="store_true",
                        help="the card as a learner sees it once its question is withdrawn")
    parser.add_argument("--samples", action="store_true",
                        help="code, table, letter-reference, code-choice, several-answer and "
                             "image cards of the fixture banks")
    parser.add_argument("--languages", action="store_true",
                        help="the several-answer card in each language but English")
    parser.add_argument("--struck", action="store_true",
                        help="a card with two choices struck out and one picked")
    args = parser.parse_args(argv)
    if chromium_path() is None:
        print("screenshots: Debian's chromium is not installed (apt-get install chromium)",
              file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    if args.languages or args.struck:
        return other_pictures(args)
    if args.samples:
        cards = {f"sample-{name}-": card for name, card in the_samples().items()}
    elif args.retired:
        cards = {"retired-": the_retired_card(args.dist)}
    else:
        cards = {"": the_card(args.dist)}
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright, CardServer() as server:
        browser = launch(playwright)
        try:
            for prefix, card in cards.items():
                name = prefix.removeprefix("sample-").rstrip("-")
                picks = SAMPLES[name][3] if args.samples else ()
                if not capture(browser, server, card, prefix, args.out,
                               pick=1 if args.samples else 0, picks=picks):
                    return 1
        finally:
            browser.close()
    return 0


def other_pictures(args: argparse.Namespace) -> int:
    """--languages and --struck (see the module's docstring)."""
    import anki_client
    from playwright.sync_api import sync_playwright

    anki_client.MARKED = True  # every_kind opens real collections (tests' guard: marked)
    jobs: list[tuple[str, CardHtml, dict]] = []
    with tempfile.TemporaryDirectory() as folder:
        if args.languages:
            from nca_anki.language import LANGUAGES

            for code in (c for c in LANGUAGES if c != "en"):
                card = every_kind(Path(folder, code), code)["several"]
                jobs.append((f"language-{code}-", card, {
                    "picks": ("Beam search", "Weight decay"), "shots": (("phone", "day"),)}))
        if args.struck:
            card = every_kind(Path(folder, "en"))["single"]
            jobs.append(("struck-", card, {"pick": 0, "strike": (1, 3),
                                           "shots": (("phone", "day"), ("desktop", "night"))}))
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright, CardServer() as server:
        browser = launch(playwright)
        try:
            for prefix, card, how in jobs:
                if not capture(browser, server, card, prefix, args.out, **how):
                    return 1
        finally:
            browser.close()
    return 0


def capture(browser: object, server: CardServer, card: CardHtml, prefix: str, out: Path,
            pick: int = 0, picks: tuple[str, ...] = (), strike: tuple[int, ...] = (),
            shots: tuple[tuple[str, str], ...] | None = None) -> bool:
    """Pictures of ``card``, front and back, for each size and theme (or each of ``shots``),
    after striking out the choices in the places ``strike`` (a right-click) and picking the
    choices whose text starts with each of ``picks``, or else its choice number ``pick``
    (from 0), on the front. False if the card logged an error."""
    wanted = shots or tuple((size, theme) for size in SIZES for theme in ("day", "night"))
    for size, viewport in SIZES.items():
        for theme in ("day", "night"):
            if (size, theme) not in wanted:
                continue
            mode = "mobile" if size == "phone" else "desktop"
            with Reviewer(browser, server, mode=mode, night=theme == "night",
                          viewport=viewport, device_scale_factor=1,
                          touch=size == "phone") as reviewer:
                reviewer.page.add_init_script(SEEDED_RANDOM)
                reviewer.page.evaluate(SEEDED_RANDOM)  # desktop: page already loaded
                reviewer.show_question(card)
                choices = reviewer.page.locator(".nca-choice-list > *")
                for place in strike:
                    choices.nth(place).click(button="right")
                if picks:
                    for words in picks:
                        choices.filter(has_text=words).first.click()
                else:
                    choices.nth(pick).click()  # with this seed, a wrong choice
                reviewer.page.mouse.move(0, 0)  # no hover shading in the picture
                for side in ("front", "back"):
                    if side == "back":
                        reviewer.show_answer(card)
                        reviewer.page.wait_for_function(  # its verdict, once written
                            "() => !document.querySelector('.nca-js')"
                            " || document.querySelector('.nca-verdict[data-nca-said]')")
                    # Two frames painted after the last event: the picture shows a
                    # settled page, the same on every run.
                    reviewer.page.wait_for_function(
                        "() => [...document.images].every(i => i.complete && i.naturalWidth)")
                    reviewer.page.evaluate(SETTLED)
                    path = out / f"{prefix}{side}-{size}-{theme}.png"
                    reviewer.page.screenshot(path=str(path))
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                if reviewer.console_errors():
                    print(f"screenshots: card errors: {reviewer.console_errors()}",
                          file=sys.stderr)
                    return False
    return True


if __name__ == "__main__":
    sys.exit(main())
