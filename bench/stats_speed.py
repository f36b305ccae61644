#!/usr/bin/env python3
"""How long ``build_decks.py stats`` takes on many learners' exports (not a test).

    python bench/stats_speed.py [--questions 10000] [--learners 50] [--runs 3]

Builds the benchmark's generated bank (bench/benchmark.py: 20 topics x 5 parts, 100
questions a part by default), imports its decks into one real Anki collection with the
``anki`` package, answers every card once through Anki's scheduler, and exports it as a
deck package with scheduling (what a learner sends: docs/study-groups.md). The other
learners are that export with other grades: its collection is inflated, each first
review's grade and each card's lapses are drawn again (seeded), the creation time is
changed (so no two count as one collection), and it is compressed and zipped again as
Anki writes it. Then ``stats`` runs on all of them as a child process, as a user runs
it; the table shows its wall time (median, min-max) and peak memory. Needs the test
set-up (``pip install -e '.[test]'``). Everything it makes is removed at the end.
"""

from __future__ import annotations

import argparse
import io
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tests"))

import benchmark  # noqa: E402  (bench/benchmark.py: the bank and the child runner)


def one_learner(work: Path, topics: int, parts: int, per_part: int) -> tuple[Path, Path]:
    """(the project's source folder, one real learner's export)."""
    import anki_client
    from anki.collection import DeckIdLimit, ExportAnkiPackageOptions

    anki_client.MARKED = True  # the harness asks tests to be marked; this is no test
    source = work / "project" / "source"
    benchmark.write_bank(source, topics, parts, per_part)
    benchmark.run([sys.executable, str(REPO / "build_decks.py"), "--source", str(source),
                   "--out", str(work / "project" / "dist"), "--templates",
                   str(REPO / "templates"), "--no-cache", "-q"], "the build")
    col = anki_client.open_collection(work / "learner" / "collection.anki2")
    try:
        for deck in sorted((work / "project" / "dist").glob("*.apkg")):
            if "all_topics" not in deck.name:
                anki_client.import_package(col, deck)
        col.decks.select(col.decks.id_for_name("NCA"))
        # Each deck's new-card limit is 20 a day by default: lift it for this learner to
        # the most Anki takes (9,999); any card left new gets a review in other_learner.
        config = col.decks.config_dict_for_deck_id(col.decks.id_for_name("NCA"))
        config["new"]["perDay"] = config["rev"]["perDay"] = 9999
        col.decks.update_config(config)
        rng = random.Random(0)
        anki_client.review_each_new(col, "NCA", lambda _g: "again" if rng.random() < 0.2
                                    else "good")
        out = work / "learners" / "learner-0.apkg"
        out.parent.mkdir(parents=True)
        col.export_anki_package(out_path=str(out), options=ExportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=False, with_media=False, legacy=False),
            limit=DeckIdLimit(col.decks.id_for_name("NCA")))
    finally:
        col.close()
    return source, out


def other_learner(first: Path, n: int) -> Path:
    """``first`` as learner ``n``: other grades and lapses, another creation time."""
    import zstandard

    with zipfile.ZipFile(first) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    data = zstandard.ZstdDecompressor().stream_reader(
        io.BytesIO(entries["collection.anki21b"])).read()
    data = data[:18] + b"\x01\x01" + data[20:]  # out of WAL mode, to open it in memory
    conn = sqlite3.connect(":memory:")
    conn.deserialize(data)
    rng = random.Random(n)
    conn.execute("UPDATE col SET crt = crt + ?", (n,))
    # A card the first learner's day left new is reviewed too (a row like the others).
    conn.execute("INSERT INTO revlog SELECT (SELECT max(id) FROM revlog) + c.id % 1000000, "
                 "c.id, -1, 3, 1, 0, 0, 1000, 0 FROM cards c WHERE NOT EXISTS "
                 "(SELECT 1 FROM revlog r WHERE r.cid = c.id)")
    rows = conn.execute("SELECT id FROM revlog").fetchall()
    conn.executemany("UPDATE revlog SET ease = ? WHERE id = ?",
                     [(1 if rng.random() < 0.2 else 3, rid) for (rid,) in rows])
    cards = conn.execute("SELECT id FROM cards").fetchall()
    conn.executemany("UPDATE cards SET lapses = ? WHERE id = ?",
                     [(rng.choice((0, 0, 0, 1, 2)), cid) for (cid,) in cards])
    conn.commit()
    entries["collection.anki21b"] = zstandard.ZstdCompressor().compress(conn.serialize())
    conn.close()
    out = first.with_name(f"learner-{n}.apkg")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name, value in entries.items():
            archive.writestr(name, value)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--learners", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    topics, parts = 20, 5
    per_part = max(1, args.questions // (topics * parts))
    with tempfile.TemporaryDirectory(prefix="nca-anki-stats-") as folder:
        work = Path(folder)
        started = time.perf_counter()
        source, first = one_learner(work, topics, parts, per_part)
        exports = [first, *(other_learner(first, n) for n in range(1, args.learners))]
        made = time.perf_counter() - started
        size = sum(p.stat().st_size for p in exports)
        command = [sys.executable, str(REPO / "build_decks.py"), "stats", *map(str, exports),
                   "--source", str(source), "--json"]
        measured = [benchmark.run(command, "stats") for _ in range(args.runs)]
        import json
        import subprocess
        found = json.loads(subprocess.run(command, capture_output=True, check=True).stdout)
    reviewed = {q["learners"] for q in found["questions"]}
    times = sorted(m.seconds for m in measured)
    print(f"{topics * parts * per_part} questions, {args.learners} learners' exports "
          f"({size / 2**20:.1f} MiB together; made in {made:.0f} s); stats reported "
          f"{len(found['questions'])} questions, each reviewed by {sorted(reviewed)} "
          f"learners, {sum(q['flagged'] for q in found['questions'])} flagged\n")
    print("| | stats |\n|---|---|")
    print(f"| time | {statistics.median(times):.2f} s ({times[0]:.2f}–{times[-1]:.2f}) |")
    print(f"| peak memory | {max(m.maxrss_kib for m in measured) / 1024:.0f} MiB |")


if __name__ == "__main__":
    main()
