#!/usr/bin/env python3
"""What each level of the build cache saves (not a test; docs/speed.md has the figures).

    python bench/cache_levels.py [--runs 3] [--sizes seeds,2500,10000]

For each bank (the project's seeds, and generated banks of 2,500 and 10,000 questions as
long as the real ones; bench/benchmark.py), a full build first; then, each time from a
copy of that built project, a timed rebuild with nothing changed and one after a prompt
is reworded in one topic, with every level of the cache, with one level taken away (its
entries deleted just before the timed build, as a cache that never had them), and with
``--no-cache``. Each command is timed as a user runs it (a child process; bytecode cached),
medians of --runs. The levels (nca_anki/caching/state.py):

1. replay: the no-op answered from a fingerprint (the state file's ``replay``);
2. topics: unchanged topics neither rendered nor packaged (the state file's ``topics``);
3. parsed: unchanged source files not parsed again (``parsed/``);
4. decks: what the index read from each published deck (``decks/``);
5. bundle: the all-topics bundle's deflated pieces (``bundle/``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmark import REPO, edit_one_prompt, run, write_bank

CACHE = ".nca-anki-cache"


def command(root: Path, *extra: str) -> list[str]:
    return [sys.executable, str(REPO / "build_decks.py"), "--source", str(root / "source"),
            "--out", str(root / "dist"), "--templates", str(root / "templates"), *extra]


def with_cache(root: Path) -> list[str]:
    return command(root, "--cache-dir", str(root / CACHE))


def state_files(root: Path) -> list[Path]:
    return sorted((root / CACHE).glob("state-*.json"))


def edit_state(root: Path, key: str, value: object) -> None:
    for path in state_files(root):
        data = json.loads(path.read_text(encoding="utf-8"))
        data[key] = value
        path.write_text(json.dumps(data), encoding="utf-8")


def drop(level: str) -> Callable[[Path], None]:
    def take_away(root: Path) -> None:
        if level == "replay":
            edit_state(root, "replay", None)
        elif level == "topics":
            edit_state(root, "topics", {})
            edit_state(root, "replay", None)
        else:
            shutil.rmtree(root / CACHE / level)
    return take_away


def keep(root: Path) -> None:
    pass


def edit(root: Path) -> None:
    edit_one_prompt(sorted((root / "source").rglob("*.txt"))[0])


def bank(folder: Path, size: str) -> None:
    """A project at ``folder`` with the given bank and the templates."""
    if size == "seeds":
        shutil.copytree(REPO / "source", folder / "source")
    else:
        questions = int(size)
        topics = max(1, questions // 500)
        write_bank(folder / "source", topics, 5, questions // (topics * 5))
    shutil.copytree(REPO / "templates", folder / "templates")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="seeds,2500,10000")
    parser.add_argument("--only", default="", help="measure only the rows whose cache column "
                        "contains this text (e.g. 'decks')")
    args = parser.parse_args()
    rows = [("no-op", "every level", keep, True), ("no-op", "without 1. replay",
                                                   drop("replay"), True),
            ("no-op", "no cache at all", keep, False),
            ("one-topic edit", "every level", keep, True),
            ("one-topic edit", "without 2. topics", drop("topics"), True),
            ("one-topic edit", "without 3. parsed", drop("parsed"), True),
            ("one-topic edit", "without 4. decks", drop("decks"), True),
            ("one-topic edit", "without 5. bundle", drop("bundle"), True),
            ("one-topic edit", "no cache at all", keep, False)]
    rows = [row for row in rows if args.only in row[1]]
    sizes = args.sizes.split(",")
    table: dict[tuple[str, str], dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="nca-cache-levels-") as tmp:
        for size in sizes:
            built = Path(tmp) / f"built-{size}"
            bank(built, size)
            run(with_cache(built), f"full build ({size})")
            for scenario, what, change, cached in rows:
                times = []
                for n in range(args.runs):
                    root = Path(tmp) / f"run-{size}-{n}"
                    shutil.rmtree(root, ignore_errors=True)
                    shutil.copytree(built, root, symlinks=True)
                    # The cache names the folders it was built for: one untimed build
                    # makes this copy's own, as its author's would be.
                    for path in state_files(built):
                        (root / CACHE / path.name).unlink()
                    run(with_cache(root), f"settle ({size})")
                    if scenario == "one-topic edit":
                        edit(root)
                    change(root)
                    cmd = with_cache(root) if cached else command(root, "--no-cache")
                    times.append(run(cmd, f"{scenario}, {what} ({size})").seconds)
                table.setdefault((scenario, what), {})[size] = statistics.median(times)
    names = {"seeds": "seeds (19)", "2500": "2,500", "10000": "10,000"}
    print(f"median of {args.runs} run(s), seconds, each a command as a user runs it\n")
    print("| rebuild | cache | " + " | ".join(names.get(s, s) for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    for (scenario, what), by_size in table.items():
        print(f"| {scenario} | {what} | " + " | ".join(f"{by_size[s]:.2f}" for s in sizes)
              + " |")


if __name__ == "__main__":
    main()
