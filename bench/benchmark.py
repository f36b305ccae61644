#!/usr/bin/env python3
"""Measure build speed on a generated question bank (not part of the test suite).

    python bench/benchmark.py [--topics 10] [--questions 200]

Generates TOPICS topics of QUESTIONS questions each (two parts per topic) in a temporary
folder, then times: a first build (no lock), a rebuild with nothing changed, and a rebuild
after editing 1% of the questions and inserting one at the top of every part. Prints the
figures and the output size; removes everything it made.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from nca_anki.build import BuildOptions, build
from nca_anki.lockfile import LOCK_NAME, load_lock

REPO = Path(__file__).resolve().parent.parent
WORDS = ("gradient tensor kernel batch layer optimizer precision latency throughput "
         "memory inference training cluster network pipeline model weight schedule").split()


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize()


def write_part(path: Path, title: str, rng: random.Random, count: int, extra: bool) -> None:
    lines = [f"{title} — Questions and Answers"]
    questions = [(sentence(rng, 14) + "?", [sentence(rng, 8) for _ in range(4)],
                  rng.randrange(4), sentence(rng, 40) + ".") for _ in range(count)]
    if extra:
        questions.insert(0, ("An inserted question about NVLink?", ["a", "b", "c", "d"], 0,
                             "Inserted."))
    for number, (prompt, choices, correct, explanation) in enumerate(questions, start=1):
        lines.append(f"Question {number}: {prompt}")
        lines += [f"- {c}" + (" (Correct answer)" if i == correct else "")
                  for i, c in enumerate(choices)]
        lines += [f"Correct answer: {choices[correct]}", explanation]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def timed(options: BuildOptions) -> float:
    start = time.perf_counter()
    report = build(options)
    elapsed = time.perf_counter() - start
    assert report.ok, [str(d) for d in report.diagnostics if d.is_error][:5]
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=10)
    parser.add_argument("--questions", type=int, default=200, help="per topic")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="nca-anki-bench-"))
    try:
        source, out = root / "source", root / "dist"
        source.mkdir()
        half = args.questions // 2
        for t in range(args.topics):
            for part in (1, 2):
                write_part(source / f"t{t}-{part}.txt", f"Bench Topic {t} {part}",
                           random.Random(t * 10 + part), half, extra=False)
        options = BuildOptions(source, REPO / "templates", out, now=1_800_000_000)
        total = args.topics * half * 2
        first = timed(options)
        again = timed(options)
        rng = random.Random(99)
        for t in range(args.topics):
            for part in (1, 2):
                write_part(source / f"t{t}-{part}.txt", f"Bench Topic {t} {part}",
                           random.Random(t * 10 + part), half, extra=True)
        files = sorted(source.glob("*.txt"))
        for path in rng.sample(files, max(1, len(files) // 5)):
            text = path.read_text(encoding="utf-8").replace(" gradient ", " gradients ", 1)
            path.write_text(text, encoding="utf-8")
        edited = timed(BuildOptions(source, REPO / "templates", out, now=1_800_000_100))
        size = sum(p.stat().st_size for p in out.glob("*.apkg"))
        lock_text = (source / LOCK_NAME).read_text(encoding="utf-8")
        loads = []
        for _ in range(5):
            start = time.perf_counter()
            load_lock(lock_text, LOCK_NAME)
            loads.append(time.perf_counter() - start)
        print(f"{total} questions in {args.topics} topics")
        print(f"first build (no lock):        {first:6.2f} s  ({total / first:7.0f} questions/s)")
        print(f"rebuild, nothing changed:     {again:6.2f} s")
        print(f"rebuild, inserts and edits:   {edited:6.2f} s")
        print(f"output: {size / 1024:.0f} KiB in {args.topics} .apkg files "
              f"({size / total:.0f} bytes per question)")
        print(f"lock: {len(lock_text.encode()) / total:.0f} bytes per question, loads in "
              f"{statistics.median(loads) * 1000:.0f} ms (median of 5)")
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
