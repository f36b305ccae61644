#!/usr/bin/env python3
"""Speed benchmark: nca-anki's CLI against a straightforward peer script (not a test).

    python bench/benchmark.py [--runs 3] [--topics 20] [--parts 5] [--per-part 100] [--big]

Generates a question bank in a temporary folder (TOPICS topics x PARTS parts x PER_PART
questions; by default 10,000), with a little Markdown in about one field in ten, then
measures, side by side in one invocation:

- full build: ``build_decks.py`` (ours) and ``bench/peer.py`` (the peer), each into an
  empty output folder from a fresh copy of the bank (ours writes its lock into the source);
- ours only: a rebuild with nothing changed, right after the full build; a rebuild after
  editing one prompt in one part of one topic; and, on a separate bank of one topic of
  5,000 questions, that topic's full build and its rebuild after a CSS rule is appended
  to (a copy of) ``templates/style.css``;
- peak memory of the full builds and the total size of the ``.apkg`` files written.

Every command runs as a child process, as a user runs it: its time is the wall time from
start to exit, interpreter start-up included, with Python's bytecode cache as it is by
default (nca_anki is byte-compiled first; see CHILD_ENV). Its memory is the ``ru_maxrss`` that
``os.wait4`` reports for it: on Linux that is the largest resident set of the child *or of
any descendant it waited for* (the kernel folds waited-for children's peaks into a
process's own; checked: a child whose forked, exec'd or multiprocessing grandchild touches
300 MB reports ~310 MiB, one that leaves an orphan reports only its own ~12 MiB). It is the
largest single process, not the sum of processes running at once (two concurrent 200 MB
grandchildren report ~207 MiB). Each scenario is repeated --runs times on fresh copies;
the table shows the median, with the min-max range when there is more than one run.
``--big`` adds a 100,000-question bank (50 x 10 x 200), ours only, one run of each.
Everything the benchmark makes is removed at the end.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORDS = ("gradient tensor kernel batch layer optimizer precision latency throughput "
         "memory inference training cluster network pipeline model weight schedule").split()
MARKUP = ("`{}`", "**{}**", "*{}*")  # a code span, bold, emphasis
CSS_EDIT = "\n/* benchmark edit */\n.card { letter-spacing: 0.01em; }\n"


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize()


def marked(rng: random.Random, text: str) -> str:
    """``text`` with one word as Markdown about one time in ten (so both tools take their
    Markdown path sometimes), else unchanged."""
    if rng.random() >= 0.1:
        return text
    words = text.split(" ")
    at = rng.randrange(1, len(words))  # not the first word: keep the capital visible
    words[at] = rng.choice(MARKUP).format(words[at])
    return " ".join(words)


# Words per prompt, choice and explanation: about the lengths of the real question files
# (source/, measured: on average 73, 57 and 165 characters; these give 74, 56 and 164).
# The first version of this benchmark used 14, 8 and 40 words (115, 65 and 327
# characters). In two runs on 2026-11-30, same code: the shorter text took 9 % off
# nca-anki's full build and 2.5 % off the peer's (Python-Markdown's cost is mostly per
# call, not per character), so the speed ratio rose from 2.9x to 3.1x, while the size
# ratio with the bundle rose from 0.195 to 0.21 (shorter fields, the same markup).
PROMPT_WORDS, CHOICE_WORDS, EXPLANATION_WORDS = 9, 7, 20


def write_part(path: Path, title: str, rng: random.Random, count: int) -> None:
    lines = [f"{title} — Questions and Answers"]
    for number in range(1, count + 1):
        choices: list[str] = []
        while len(choices) < 4:  # distinct within the question
            choice = marked(rng, sentence(rng, CHOICE_WORDS))
            if choice not in choices:
                choices.append(choice)
        correct = rng.randrange(4)
        lines.append(f"Question {number}: {marked(rng, sentence(rng, PROMPT_WORDS))}?")
        lines += [f"- {c}" + (" (Correct answer)" if i == correct else "")
                  for i, c in enumerate(choices)]
        lines += [f"Correct answer: {choices[correct]}",
                  marked(rng, sentence(rng, EXPLANATION_WORDS)) + "."]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_bank(folder: Path, topics: int, parts: int, per_part: int) -> None:
    folder.mkdir(parents=True)
    for t in range(topics):
        for p in range(1, parts + 1):
            write_part(folder / f"t{t}-{p}.txt", f"Bench Topic {t} {p}",
                       random.Random(t * 1000 + p), per_part)


def edit_one_prompt(path: Path) -> None:
    """Change the first three words of the file's first prompt."""
    lines = path.read_text(encoding="utf-8").split("\n")
    head, prompt = lines[1].split(": ", 1)
    lines[1] = f"{head}: Edited benchmark wording {prompt.split(' ', 3)[3]}"
    path.write_text("\n".join(lines), encoding="utf-8")


@dataclass(frozen=True)
class Measured:
    seconds: float
    maxrss_kib: int  # see the module docstring
    stderr: str


# Python's default: a module is compiled once and its bytecode kept. A shell that sets
# PYTHONDONTWRITEBYTECODE (this project's machine does) would make every timed build
# compile again each module changed since its bytecode was last written: measured, 70 ms
# of a build's start-up for six edited modules. The children run as a user's Python does.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str], what: str) -> Measured:
    """Run ``command`` as a child; exit 1 with its stderr's tail if it fails."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err, cwd=REPO, env=CHILD_ENV)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # already reaped: tell Popen
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    if child.returncode != 0:
        tail = "\n".join(stderr.splitlines()[-20:])
        sys.exit(f"{what} failed (exit status {child.returncode}):\n{tail}")
    return Measured(seconds, usage.ru_maxrss, stderr)


def ours(source: Path, out: Path, templates: Path, what: str) -> Measured:
    """Our command on a work folder made by ``fresh``; its cache is that folder's own (as
    a project's is), so a fresh copy never starts with another run's cache."""
    return run([sys.executable, str(REPO / "build_decks.py"), "--source", str(source),
                "--out", str(out), "--templates", str(templates),
                "--cache-dir", str(source.parent / ".nca-anki-cache")], f"nca-anki ({what})")


def peer(source: Path, out: Path) -> Measured:
    return run([sys.executable, str(REPO / "bench" / "peer.py"), str(source), str(out)],
               "peer (full build)")


def apkg_bytes(out: Path, topics: int, who: str) -> int:
    """Total size of the per-topic decks: what both tools write. (nca-anki also writes the
    all-topics bundle, "*_all_topics.apkg", reported on its own: bundle_bytes.)"""
    decks = [p for p in out.glob("*.apkg") if not p.name.endswith("_all_topics.apkg")]
    if len(decks) != topics:
        sys.exit(f"{who} wrote {len(decks)} .apkg files for {topics} topics in {out}")
    return sum(p.stat().st_size for p in decks)


def bundle_bytes(out: Path) -> int:
    return sum(p.stat().st_size for p in out.glob("*_all_topics.apkg"))


def fresh(root: Path, bank: Path) -> tuple[Path, Path, Path]:
    """An empty work folder with a copy of ``bank`` and of the templates: (source, out,
    templates)."""
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(bank, root / "source")
    shutil.copytree(REPO / "templates", root / "templates")
    return root / "source", root / "out", root / "templates"


def template_edit(root: Path, bank: Path, topics: int) -> tuple[Measured, Measured]:
    """A full build of ``bank``, then a rebuild after a CSS edit."""
    source, out, templates = fresh(root, bank)
    full = ours(source, out, templates, "full build")
    apkg_bytes(out, topics, "nca-anki")
    with open(templates / "style.css", "a", encoding="utf-8") as css:
        css.write(CSS_EDIT)
    return full, ours(source, out, templates, "rebuild after a template edit")


def seconds(values: list[float]) -> str:
    text = f"{statistics.median(values):.2f} s"
    return text + (f" ({min(values):.2f}–{max(values):.2f})" if len(values) > 1 else "")


def mib(kib: list[int]) -> str:
    text = f"{statistics.median(kib) / 1024:.0f} MiB"
    return text + (f" ({min(kib) / 1024:.0f}–{max(kib) / 1024:.0f})" if len(kib) > 1 else "")


def faster(ours_s: float, peer_s: float) -> str:
    ratio = peer_s / ours_s
    return f"{ratio:.1f}× faster than the peer" if ratio >= 1 else \
        f"{1 / ratio:.1f}× slower than the peer"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="repeats of each scenario")
    parser.add_argument("--topics", type=int, default=20)
    parser.add_argument("--parts", type=int, default=5, help="files per topic")
    parser.add_argument("--per-part", type=int, default=100, help="questions per file")
    parser.add_argument("--big", action="store_true",
                        help="also a 100,000-question bank, ours only, one run")
    args = parser.parse_args()
    total = args.topics * args.parts * args.per_part
    print(f"machine: {os.cpu_count()} CPUs, {platform.platform()}, Python "
          f"{platform.python_version()}")
    print(f"bank: {args.topics} topics × {args.parts} parts × {args.per_part} = {total:,} "
          f"questions; template edit over 1 topic × 5 parts × 1,000; median of {args.runs} "
          f"run(s), min–max in brackets\n")
    # Byte-compiled before any timing, as an installed copy is after its first run.
    run([sys.executable, "-m", "compileall", "-q", str(REPO / "nca_anki")], "compileall")
    root = Path(tempfile.mkdtemp(prefix="nca-anki-bench-"))
    try:
        bank, topic_bank = root / "bank", root / "bank-5k"
        write_bank(bank, args.topics, args.parts, args.per_part)
        write_bank(topic_bank, 1, 5, 1000)
        full: list[Measured] = []
        noop: list[Measured] = []
        edit: list[Measured] = []
        peers: list[Measured] = []
        topic_full: list[Measured] = []
        topic_edit: list[Measured] = []
        for _ in range(args.runs):
            source, out, templates = fresh(root / "run", bank)
            full.append(ours(source, out, templates, "full build"))
            size = apkg_bytes(out, args.topics, "nca-anki")
            bundle = bundle_bytes(out)
            noop.append(ours(source, out, templates, "no-op rebuild"))
            edit_one_prompt(source / "t0-1.txt")
            edit.append(ours(source, out, templates, "rebuild after one edit"))
            peers.append(peer(bank, root / "run" / "peer-out"))
            peer_size = apkg_bytes(root / "run" / "peer-out", args.topics, "peer")
            first, again = template_edit(root / "run", topic_bank, 1)
            topic_full.append(first)
            topic_edit.append(again)
        if full[0].stderr.strip():
            print("nca-anki on the bank said (first lines):\n    " + "\n    ".join(
                full[0].stderr.splitlines()[:5]) + "\n")
        t = {name: [m.seconds for m in ms] for name, ms in (
            ("full", full), ("noop", noop), ("edit", edit), ("peer", peers),
            ("topic", topic_full), ("topic_edit", topic_edit))}
        ours_s, peer_s = statistics.median(t["full"]), statistics.median(t["peer"])
        topic_s = statistics.median(t["topic"])
        ours_kib = [m.maxrss_kib for m in full]
        peer_kib = [m.maxrss_kib for m in peers]
        print("| | nca-anki | ratio | peer |\n|---|---|---|---|")
        print(f"| full build | {seconds(t['full'])} | {faster(ours_s, peer_s)} | "
              f"{seconds(t['peer'])} |")
        for label, key in (("no-op rebuild", "noop"), ("one-topic edit", "edit")):
            share = statistics.median(t[key]) / ours_s
            print(f"| {label} | {seconds(t[key])} | {share:.0%} of our full build | — |")
        print(f"| template edit over one 5,000-question topic | {seconds(t['topic_edit'])} | "
              f"{statistics.median(t['topic_edit']) / topic_s:.2f}× that topic's full build, "
              f"{seconds(t['topic'])} | — |")
        print(f"| peak memory | {mib(ours_kib)} | "
              f"{statistics.median(ours_kib) / statistics.median(peer_kib):.2f}× the peer's | "
              f"{mib(peer_kib)} |")
        print(f"| total size of the per-topic decks | {size / 2**20:.2f} MiB | "
              f"{size / peer_size:.2f}× the peer's | {peer_size / 2**20:.2f} MiB |")
        print(f"| with the all-topics bundle (nca-anki only) | {(size + bundle) / 2**20:.2f} MiB "
              f"| {(size + bundle) / peer_size:.2f}× the peer's | — |")
        if args.big:
            big = root / "bank-100k"
            write_bank(big, 50, 10, 200)
            shutil.rmtree(bank)
            first, again = template_edit(root / "run", big, 50)
            print("\n100,000 questions (50 topics × 10 parts × 200), nca-anki only, one run:\n")
            print("| | nca-anki |\n|---|---|")
            print(f"| full build | {first.seconds:.2f} s |")
            print(f"| peak memory | {first.maxrss_kib / 1024:.0f} MiB |")
            print(f"| template edit (every topic) | {again.seconds:.2f} s "
                  f"({again.seconds / first.seconds:.2f}× the full build) |")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
