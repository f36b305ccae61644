#!/usr/bin/env python3
"""Speed of the authoring tools at the size of a real bank (not a test).

    python bench/authoring.py [--runs 3] [--topics 20] [--parts 5] [--per-part 100]

On the benchmark's bank (bench/benchmark.py; by default 10,000 questions) measures:

- ``build_decks.py --preview``: wall time and peak memory of the command, the site's
  size and its largest page;
- that largest page opened from disk in headless Chromium (Debian's, if installed):
  the time until its first card shows its front, and until every card has, scrolled
  through from top to bottom as a reader would;
- ``build_decks.py import --from markdown``: the same bank written as Markdown
  checkbox quizzes (one file per part), converted back; wall time and peak memory;
- ``build_decks.py import --from typescript``: the same bank as TypeScript files
  (``export const questions = [{question, options, correct, explanation}]``, one per part).

Median of --runs, min-max in brackets; everything is made in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from benchmark import REPO, Measured, mib, run, seconds, write_bank


def as_markdown(part: Path, out: Path) -> int:
    """The question file ``part`` (the benchmark's shape) as a Markdown checkbox quiz."""
    lines = part.read_text(encoding="utf-8").split("\n")
    title = lines[0].split(" — ")[0].rsplit(" ", 1)[0]
    written = [f"## {title}", ""]
    count = 0
    for line in lines[1:]:
        if line.startswith("Question "):
            count += 1
            written += ["", f"#### Q{count}. {line.split(': ', 1)[1]}", ""]
        elif line.startswith("- "):
            text = line[2:]
            mark = text.endswith(" (Correct answer)")
            written.append(f"- [{'x' if mark else ' '}] {text.removesuffix(' (Correct answer)')}")
        elif line.startswith("Correct answer: "):
            continue
        elif line:
            written += ["", line]
    out.write_text("\n".join(written) + "\n", encoding="utf-8")
    return count


def as_typescript(markdown: Path, out: Path) -> None:
    """The bank's Markdown quiz (as_markdown) as a TypeScript file of the common shape."""
    lines = markdown.read_text(encoding="utf-8").split("\n")
    title = lines[0].removeprefix("## ")
    questions: list[dict] = []
    for line in lines[1:]:
        if line.startswith("#### "):
            questions.append({"question": line.split(". ", 1)[1], "options": [], "correct": [],
                              "explanation": ""})
        elif line.startswith("- ["):
            if line.startswith("- [x]"):
                questions[-1]["correct"].append(len(questions[-1]["options"]))
            questions[-1]["options"].append(line[6:])
        elif line and questions:
            questions[-1]["explanation"] = line
    body = ",\n".join(
        f"  {{\n    question: {json.dumps(q['question'])},\n    options: "
        f"[{', '.join(map(json.dumps, q['options']))}],\n    correct: {q['correct']},\n"
        f"    explanation: {json.dumps(q['explanation'])},\n  }}" for q in questions)
    out.write_text(f"// {title}\nexport const quiz = {{\n title: {json.dumps(title)},\n"
                   f" questions: [\n{body},\n]}} as const;\n", encoding="utf-8")


def page_times(page_file: Path) -> tuple[float, float, int]:
    """Seconds until the first card shows, and until every card has (scrolled through);
    how many cards."""
    from card_browser import chromium_path, launch
    from playwright.sync_api import sync_playwright

    if chromium_path() is None:
        return float("nan"), float("nan"), 0
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 1000, "height": 800})
        start = time.perf_counter()
        page.goto(page_file.as_uri(), wait_until="load")
        page.wait_for_function("document.querySelector('.card-slot.shown')")
        first = time.perf_counter() - start
        cards = page.locator(".card-slot").count()
        shown = page.evaluate("""async () => {
            /* down a screen at a time; a card not shown yet is scrolled to, as a reader
               waits for it. A card far off the screen lets its frame go (preview.js), so
               what counts is each card that has shown once. */
            const slots = [...document.querySelectorAll('.card-slot')];
            const seen = new Set(slots.filter(s => s.classList.contains('shown')));
            new MutationObserver(changes => {
                for (const c of changes) {
                    if (c.target.classList.contains('shown')) seen.add(c.target);
                }
            }).observe(document.querySelector('.cards'),
                       {subtree: true, attributes: true, attributeFilter: ['class']});
            for (let step = 0; step < slots.length * 20; step++) {
                const next = slots.find(slot => !seen.has(slot));
                if (!next) break;
                if (next.getBoundingClientRect().top > window.innerHeight) {
                    window.scrollBy(0, window.innerHeight);
                } else {
                    next.scrollIntoView();
                }
                await new Promise(done => setTimeout(done, 16));
            }
            return seen.size;
        }""")
        every = time.perf_counter() - start if shown == cards else float("nan")
        browser.close()
    return first, every, cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--topics", type=int, default=20)
    parser.add_argument("--parts", type=int, default=5)
    parser.add_argument("--per-part", type=int, default=100)
    args = parser.parse_args()
    total = args.topics * args.parts * args.per_part
    root = Path(tempfile.mkdtemp(prefix="nca-anki-authoring-"))
    try:
        bank = root / "bank"
        write_bank(bank, args.topics, args.parts, args.per_part)
        markdown = root / "markdown"
        markdown.mkdir()
        converted = sum(as_markdown(p, markdown / f"{p.stem}.md") for p in sorted(bank.iterdir()))
        typescript = root / "typescript"
        typescript.mkdir()
        for p in sorted(markdown.iterdir()):
            as_typescript(p, typescript / f"{p.stem}.ts")
        previews: list[Measured] = []
        imports: list[Measured] = []
        ts_imports: list[Measured] = []
        firsts, everys = [], []
        for k in range(args.runs):
            site = root / f"site-{k}"
            previews.append(run([sys.executable, str(REPO / "build_decks.py"), "--no-cache",
                                 "--source", str(bank), "--templates", str(REPO / "templates"),
                                 "--out", str(root / "dist"), "--preview", str(site)],
                                "preview"))
            out = root / f"imported-{k}"
            imports.append(run([sys.executable, str(REPO / "build_decks.py"), "import",
                                "--from", "markdown", *map(str, sorted(markdown.iterdir())),
                                "--out", str(out)], "import"))
            ts_imports.append(run([sys.executable, str(REPO / "build_decks.py"), "import",
                                   "--from", "typescript", *map(str, sorted(typescript.iterdir())),
                                   "--out", str(root / f"imported-ts-{k}")], "import"))
            pages = sorted(site.glob("*.html"), key=lambda p: p.stat().st_size)
            first, every, cards = page_times(pages[-1])
            firsts.append(first)
            everys.append(every)
        size = sum(p.stat().st_size for p in site.iterdir())
        largest = pages[-1].stat().st_size
        print(f"bank: {total:,} questions ({args.topics} topics x {args.parts} parts x "
              f"{args.per_part}); median of {args.runs}, min-max in brackets\n")
        print("| | time | peak memory | output |\n|---|---|---|---|")
        print(f"| `--preview` | {seconds([m.seconds for m in previews])} | "
              f"{mib([m.maxrss_kib for m in previews])} | {size / 2**20:.1f} MiB, largest page "
              f"{largest / 2**20:.1f} MiB ({cards} cards) |")
        print(f"| largest page in Chromium: first card shown | {seconds(firsts)} | — | — |")
        print(f"| largest page in Chromium: every card shown, scrolled through | "
              f"{seconds(everys)} | — | — |")
        print(f"| `import --from markdown` ({converted:,} questions, "
              f"{len(list(markdown.iterdir()))} files) | {seconds([m.seconds for m in imports])}"
              f" | {mib([m.maxrss_kib for m in imports])} | "
              f"{len(list((root / 'imported-0').iterdir()))} question files |")
        print(f"| `import --from typescript` (the same, {len(list(typescript.iterdir()))} "
              f"files) | {seconds([m.seconds for m in ts_imports])} | "
              f"{mib([m.maxrss_kib for m in ts_imports])} | "
              f"{len(list((root / 'imported-ts-0').iterdir()))} question files |")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
