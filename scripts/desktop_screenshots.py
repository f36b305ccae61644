#!/usr/bin/env python3
"""Pictures of a seed card in the real Anki desktop app, day and night, front and back.

    .venv/bin/python scripts/desktop_screenshots.py [--dist dist] [--out docs/screenshots]

Starts Anki (the aqt package of the test set-up) under Xvfb on a fresh profile, imports
the decks in ``dist/``, picks the second choice with Alt+2 as a learner would, shows the
answer with Space, and saves ``desktop-<side>-<theme>.png`` (tests/anki_desktop.py). The
shuffle is the card's own, so the order differs from run to run. Needs the test set-up
(README) and Debian's xvfb and xdotool (.ci/run installs them).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from anki_desktop import AnkiDesktop, missing  # noqa: E402

DECK = "NCA::Neural Network Applications and Frameworks"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args(argv)
    absent = missing()
    if absent:
        print(f"desktop_screenshots: the Anki desktop app cannot run: no {absent}",
              file=sys.stderr)
        return 1
    decks = sorted(p for p in args.dist.glob("*.apkg") if not p.name.startswith("nca_all"))
    args.out.mkdir(parents=True, exist_ok=True)
    for theme in ("day", "night"):
        with tempfile.TemporaryDirectory() as folder, \
                AnkiDesktop(decks, Path(folder), DECK, night=theme == "night") as app:
            app.key("alt+2")
            for side in ("front", "back"):
                if side == "back":
                    app.key("space")
                    app.wait_for("document.querySelector('.nca-card.nca-back.nca-js')")
                app.value("new Promise(done => requestAnimationFrame(() => "
                          "requestAnimationFrame(() => done(1))))")
                path = args.out / f"desktop-{side}-{theme}.png"
                app.screenshot(path.resolve())
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
            errors = [m for m in app.ask(None)["console"] if m["level"] >= 2]
            if errors:
                print(f"desktop_screenshots: the reviewer logged errors: {errors}",
                      file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
