#!/usr/bin/env python3
"""Screenshots of the preview site (``build_decks.py --preview``), as the README shows it.

    .venv/bin/python scripts/preview_screenshots.py [--out docs/screenshots]

Writes the seeds' preview into a throw-away folder, opens it from disk in headless
Chromium and saves ``preview-index-phone-day.png`` (the decks), and for one card on a
desktop by day and on a phone at night ``preview-front-…`` and, after a wrong pick and
"Show answer", ``preview-back-…``. The shuffle is seeded (scripts/screenshots.py), so the
pictures change only when the pages or the card do. Needs the test set-up (README) and
Debian's chromium.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

from card_browser import chromium_path, launch  # noqa: E402
from screenshots import SEEDED_RANDOM  # noqa: E402

DECK_PAGE = "neural-network-applications-and-frameworks.html"
CARD = 1  # the second card: NAS, a correct choice that wraps on a phone
SHOTS = {"desktop-day": ((1000, 760), False), "phone-night": ((390, 800), True)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args()
    if chromium_path() is None:
        print("needs Debian's chromium (apt-get install chromium)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        root = Path(work)
        shutil.copytree(ROOT / "source", root / "source")
        shutil.copytree(ROOT / "templates", root / "templates")
        subprocess.run([sys.executable, str(ROOT / "build_decks.py"), "--no-cache", "-q",
                        "--preview", "site"], cwd=root, check=True)
        site = root / "site"
        with sync_playwright() as playwright:
            browser = launch(playwright)
            context = browser.new_context(viewport={"width": 390, "height": 620})
            page = context.new_page()
            page.goto((site / "index.html").as_uri())
            page.screenshot(path=out / "preview-index-phone-day.png")
            context.close()
            for name, ((width, height), night) in SHOTS.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                context.add_init_script(SEEDED_RANDOM)  # every frame's shuffle, too
                page = context.new_page()
                page.goto((site / DECK_PAGE).as_uri())
                if night:
                    page.click(".theme-switch")
                slot = page.locator(".card-slot").nth(CARD)
                slot.scroll_into_view_if_needed()
                frame = slot.locator("iframe").element_handle().content_frame()
                frame.wait_for_selector("body[data-side=front] .nca-choice-list")
                page.wait_for_timeout(300)  # the frame's height, told to the page
                slot.evaluate("slot => slot.scrollIntoView()")
                page.screenshot(path=out / f"preview-front-{name}.png")
                frame.locator(".nca-choice-list > li").nth(0).click()
                frame.click("#show-answer")
                frame.wait_for_selector("body[data-side=back] #answer")
                page.wait_for_timeout(300)
                slot.evaluate("slot => slot.scrollIntoView()")
                page.screenshot(path=out / f"preview-back-{name}.png")
                context.close()
            browser.close()
    for path in sorted(out.glob("preview-*.png")):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
