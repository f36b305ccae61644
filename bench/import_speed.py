#!/usr/bin/env python3
"""Speed of ``build_decks.py import`` on generated structured banks (not a test).

    python bench/import_speed.py [--sizes 10000,100000] [--formats json,typescript,csv]

For each size and format, writes a bank of that many questions (four choices, an index
answer, an explanation, a category of ten) into a temporary folder and imports it as a
user does, in a child process: its wall time from start to exit and its peak memory
(``ru_maxrss`` from ``os.wait4``, as bench/benchmark.py measures). The last column is the
time per 1,000 questions: flat from row to row means reading is linear.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def rows(count: int) -> list[dict[str, object]]:
    return [{"id": n, "category": f"Area {n % 10}",
             "question": f"Which option is right for generated question number {n}?",
             "options": [f"Option {k} of question {n}" for k in range(4)],
             "correctAnswerIndex": n % 4,
             "explanation": f"Option {n % 4} is right for question {n}, by construction."}
            for n in range(count)]


def write(folder: Path, fmt: str, count: int) -> Path:
    data = rows(count)
    if fmt == "json":
        path = folder / "bank.json"
        path.write_text(json.dumps({"questions": data}, indent=1), encoding="utf-8")
    elif fmt == "yaml":
        import yaml
        path = folder / "bank.yaml"
        path.write_text(yaml.safe_dump({"questions": data}, allow_unicode=True, sort_keys=False),
                        encoding="utf-8")
    elif fmt == "typescript":
        path = folder / "bank.ts"
        body = ",\n".join("  {" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in r.items()) + "}"
                          for r in data)
        path.write_text(f"// generated\nexport const questions = [\n{body},\n];\n",
                        encoding="utf-8")
    else:
        path = folder / "bank.csv"
        lines = ["Question,A,B,C,D,Answer,Explanation,Category"]
        lines += [f'"{r["question"]}",' + ",".join(f'"{o}"' for o in r["options"])  # type: ignore[union-attr]
                  + f',{"ABCD"[r["correctAnswerIndex"]]},"{r["explanation"]}",{r["category"]}'  # type: ignore[index]
                  for r in data]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def measure(bank: Path, out: Path) -> tuple[float, int, int]:
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, str(REPO / "build_decks.py"), "import",
                              str(bank), "--out", str(out)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--formats", default="json,yaml,typescript,csv")
    parser.add_argument("--write", nargs=3, metavar=("FORMAT", "SIZE", "DIR"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        fmt, size, folder = args.write
        write(Path(folder), fmt, int(size))
        return
    print("| format | questions | bank size | time | peak memory | time per 1,000 | exit |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for fmt in args.formats.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            with tempfile.TemporaryDirectory() as tmp:
                # Written by a child of its own: a big bank made here would count in the
                # importer's peak memory (a forked child's pages are the parent's until exec).
                subprocess.run([sys.executable, __file__, "--write", fmt, str(size), tmp],
                               check=True)
                bank = next(Path(tmp).glob("bank.*"))
                seconds, kib, code = measure(bank, Path(tmp) / "out")
                written = sum(1 for _ in (Path(tmp) / "out").glob("*.txt"))
                print(f"| {fmt} | {size:,} | {bank.stat().st_size / 1e6:.1f} MB | {seconds:.2f} s "
                      f"| {kib / 1024:.0f} MiB | {seconds / size * 1000:.3f} s | {code} "
                      f"({written} files) |", flush=True)


if __name__ == "__main__":
    main()
