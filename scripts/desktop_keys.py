#!/usr/bin/env python3
"""Which keys reach the card in the real Anki desktop app, on the front and on the back.

    .venv/bin/python scripts/desktop_keys.py [--dist dist] [--side front|back|both]

For each key: a fresh look at a card (every other window closed, the card shown again),
the key pressed as a real X key event, then what happened: whether the card's page saw
the key, whether the card's choices changed, which window opened, whether Anki left the
card (tests/anki_desktop.py). Prints a Markdown table (docs/card.md, "Keys", was made
with it). A key Anki acts on may change the collection (undo, bury): this works on a
throw-away profile only.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from anki_desktop import AnkiDesktop, missing  # noqa: E402

KEYS = [*"1234567890", *"abcdefghijklmnopqrstuvwxyz", *(f"alt+{n}" for n in "1234567890")]
LISTEN = ("window.__ncaKeys = []; document.addEventListener('keydown', "
          "e => window.__ncaKeys.push(e.key), true); 1")
READ = ("[(window.__ncaKeys || []).length, [...document.querySelectorAll("
        "'.nca-choice-list > li')].map(li => li.getAttribute('aria-checked')).join(' '), "
        "(document.querySelector('.nca-prompt') || {}).textContent || '', "
        "(document.querySelector('.nca-card') || {}).className || '']")


def measure(app: AnkiDesktop, key: str, side: str) -> dict:
    app.reset()
    if side == "back":
        app.key("space")
        app.wait_for("document.querySelector('.nca-card.nca-back.nca-js') !== null")
    time.sleep(0.5)  # let Anki finish showing the card
    app.value(LISTEN)
    before = app.ask(READ)["value"]
    app.key(key)
    reply = app.ask(READ)
    seen, picks, prompt, card = reply["value"]
    windows = [w for w in reply["windows"] if w != "User 1 - Anki"]
    left = reply["state"] != "review" or (prompt, card) != (before[2], before[3])
    return {"key": key, "reached": seen > 0, "picked": picks != before[1] and not left,
            "windows": windows, "left": left, "state": reply["state"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--side", choices=("front", "back", "both"), default="both")
    args = parser.parse_args(argv)
    if absent := missing():
        print(f"desktop_keys: the Anki desktop app cannot run: no {absent}", file=sys.stderr)
        return 1
    decks = sorted(p for p in args.dist.glob("*.apkg") if not p.name.startswith("nca_all"))
    print("| side | key | reaches the card | picks | opens | leaves the card |")
    print("|---|---|---|---|---|---|")
    for side in ("front", "back") if args.side == "both" else (args.side,):
        folder = Path(tempfile.mkdtemp(prefix="nca-keys-"))
        app, runs = None, 0
        try:
            for key in KEYS:
                for attempt in range(3):  # a key that broke the session: measure it anew
                    try:
                        if app is None:
                            runs += 1
                            app = AnkiDesktop(decks, folder / f"run-{runs}", "NCA")
                        found = measure(app, key, side)
                        # Anki may show the card again while a key is measured (a late
                        # render after the reset): measure such a key once more.
                        if found["left"] and found["state"] == "review" \
                                and not found["windows"] and attempt < 2:
                            continue
                        break
                    except (TimeoutError, RuntimeError):
                        if app is not None:
                            app.close()
                        app = None
                else:
                    print(f"| {side} | `{key}` | not measured | | | |")
                    continue
                print(f"| {side} | `{key}` | {'yes' if found['reached'] else 'no'} | "
                      f"{'yes' if found['picked'] else 'no'} | {', '.join(found['windows'])} | "
                      f"{'yes (' + found['state'] + ')' if found['left'] else 'no'} |",
                      flush=True)
        finally:
            if app is not None:
                app.close()
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
