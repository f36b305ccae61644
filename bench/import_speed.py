#!/usr/bin/env python3
"""Speed and memory of ``build_decks.py import`` on generated banks, in every format it
reads (not a test).

    python bench/import_speed.py [--sizes 10000,100000] [--formats json,gift,...] [--json FILE]

For each format and size, writes a bank of that many questions into a temporary folder
(in a child process of its own, so the bank's making never counts) and imports it as a
user does, in a child process: wall time from start to exit, CPU time (user + system, of
the import and any process it waited for, from ``os.wait4``), peak memory (``ru_maxrss``
from the same call: the import runs in one process, so that is the whole tree's peak), the
bank's and the output's size. The questions are as real banks hold them: four or five
choices, an explanation, every seventh with two right answers (where the format has
them), every fifth with code, three in four with text beyond ASCII (accents, Chinese,
Cyrillic). The last column is the CPU time of the largest size over the smallest's,
divided by how much larger it is: about 1 means linear.

``--phases`` imports each bank once more, in a child that calls the import itself (Linux:
``/proc/self/status``'s VmHWM, reset through ``/proc/self/clear_refs`` between phases), and
adds the resident peak while the files are read (the format's reader) and while they are
converted and written: which of the two holds the memory.
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
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FORMATS = ("json", "yaml", "typescript", "javascript", "csv", "tsv", "gift", "moodle-xml",
           "xml", "aiken", "md-checkbox", "md-lettered", "md-details")
_WORDS = ("", " — naïve café façade", " 中文的问题", " на русском языке")


def records(count: int) -> list[dict[str, object]]:
    """``count`` questions, each different, as a structured bank holds them."""
    out: list[dict[str, object]] = []
    for n in range(count):
        width = 4 + n % 2
        code = n % 5 == 0
        words = _WORDS[n % 4]
        right = [n % width] + ([(n + 2) % width] if n % 7 == 0 else [])
        out.append({
            "id": n, "category": f"Area {n % 10}",
            "question": (f"Which option is right for question {n}{words}"
                         + (f", given `x = {n} * 2`" if code else "") + "?"),
            "options": [f"Option {k} of question {n}" + (f" `f({k})`" if code and k == 1
                                                         else "")
                        for k in range(width)],
            "answer": sorted(right),
            "explanation": f"Option {right[0]} is right for question {n}{words}, by design.",
        })
    return out


def _letters(indexes: object) -> str:
    return "".join("ABCDE"[i] for i in indexes)  # type: ignore[attr-defined]


def _csv(data: list[dict[str, object]], sep: str) -> str:
    def cell(text: object) -> str:
        return '"' + str(text).replace('"', '""') + '"'
    lines = [sep.join(("Question", "A", "B", "C", "D", "E", "Answer", "Explanation",
                       "Category"))]
    for r in data:
        options = list(r["options"]) + [""] * (5 - len(r["options"]))  # type: ignore[arg-type]
        lines.append(sep.join([cell(r["question"]), *map(cell, options),
                               _letters(r["answer"]), cell(r["explanation"]),
                               cell(r["category"])]))
    return "\n".join(lines) + "\n"


def _gift(data: list[dict[str, object]]) -> str:
    def esc(text: object) -> str:
        return "".join("\\" + c if c in "{}=~#:" else c for c in str(text))
    blocks = []
    for r in data:
        right = r["answer"]
        mark = ("=" if len(right) == 1 else "~%50%")  # type: ignore[arg-type]
        answers = "\n".join(f"  {mark if k in right else '~'}{esc(o)}"  # type: ignore[operator]
                            for k, o in enumerate(r["options"]))  # type: ignore[arg-type]
        blocks.append(f"::Q{r['id']}:: {esc(r['question'])} {{\n{answers}\n"
                      f"  ####{esc(r['explanation'])}\n}}\n")
    return "\n".join(blocks)


def _moodle(data: list[dict[str, object]]) -> str:
    from xml.sax.saxutils import escape
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>"]
    for r in data:
        right = r["answer"]
        single = len(right) == 1  # type: ignore[arg-type]
        out.append(f'<question type="multichoice"><name><text>Q{r["id"]}</text></name>'
                   f'<questiontext format="html"><text>{escape(str(r["question"]))}</text>'
                   f'</questiontext><generalfeedback format="html"><text>'
                   f'{escape(str(r["explanation"]))}</text></generalfeedback>'
                   f'<single>{"true" if single else "false"}</single>')
        for k, option in enumerate(r["options"]):  # type: ignore[arg-type]
            fraction = (100 if single else 50) if k in right else 0  # type: ignore[operator]
            out.append(f'<answer fraction="{fraction}"><text>{escape(option)}</text></answer>')
        out.append("</question>")
    out.append("</quiz>")
    return "\n".join(out) + "\n"


def _xml(data: list[dict[str, object]]) -> str:
    from xml.sax.saxutils import escape, quoteattr
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<questions>"]
    for r in data:
        out.append(f'<question text={quoteattr(str(r["question"]))} '
                   f'answer_idx="{r["answer"][0]}" '  # type: ignore[index]
                   f'context={quoteattr(str(r["explanation"]))}>')
        out += [f"<option>{escape(o)}</option>" for o in r["options"]]  # type: ignore[attr-defined]
        out.append("</question>")
    out.append("</questions>")
    return "\n".join(out) + "\n"


def _aiken(data: list[dict[str, object]]) -> str:
    return "\n".join(
        f"{r['question']}\n" + "".join(f"{'ABCDE'[k]}. {o}\n"
                                       for k, o in enumerate(r["options"]))  # type: ignore[arg-type]
        + f"ANSWER: {'ABCDE'[r['answer'][0]]}\n" for r in data)  # type: ignore[index]


def _markdown(data: list[dict[str, object]], shape: str) -> str:
    blocks = []
    for r in data:
        right, options = r["answer"], r["options"]
        head = f"#### Q{r['id']}. {r['question']}\n\n"
        if shape == "md-checkbox":
            body = "".join(f"- [{'x' if k in right else ' '}] {o}\n"  # type: ignore[operator]
                           for k, o in enumerate(options))  # type: ignore[arg-type]
            blocks.append(f"{head}{body}\n{r['explanation']}\n")
            continue
        body = "".join(f"{'ABCDE'[k]}. {o}\n" for k, o in enumerate(options))  # type: ignore[arg-type]
        letters = " and ".join("ABCDE"[i] for i in right)  # type: ignore[attr-defined]
        if shape == "md-lettered":
            blocks.append(f"{head}{body}\n**Answer: {letters}**\n\n{r['explanation']}\n")
        else:
            blocks.append(f"{head}{body}\n<details><summary>Answer</summary>\n\n"
                          f"Answer: {letters}\n\n{r['explanation']}\n\n</details>\n")
    return "# Generated bank\n\n" + "\n".join(blocks)


def _script(data: list[dict[str, object]], typed: bool) -> str:
    body = ",\n".join("  {" + ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}"
                                        for k, v in r.items()) + "}" for r in data)
    head = ("// generated\ninterface Q { id: number }\nexport const questions: Q[] = [\n"
            if typed else "// generated\nvar questions = [\n")
    return f"{head}{body},\n];\n"


_NAMES = {"json": "bank.json", "yaml": "bank.yaml", "typescript": "bank.ts",
          "javascript": "bank.js", "csv": "bank.csv", "tsv": "bank.tsv", "gift": "bank.gift",
          "moodle-xml": "bank.xml", "xml": "bank.xml", "aiken": "bank.txt",
          "md-checkbox": "bank.md", "md-lettered": "bank.md", "md-details": "bank.md"}


def write(folder: Path, fmt: str, count: int) -> Path:
    data = records(count)
    if fmt == "json":
        text = json.dumps({"questions": data}, indent=1, ensure_ascii=False)
    elif fmt == "yaml":
        import yaml
        text = yaml.safe_dump({"questions": data}, allow_unicode=True, sort_keys=False)
    elif fmt in ("typescript", "javascript"):
        text = _script(data, fmt == "typescript")
    elif fmt in ("csv", "tsv"):
        text = _csv(data, "," if fmt == "csv" else "\t")
    elif fmt == "gift":
        text = _gift(data)
    elif fmt == "moodle-xml":
        text = _moodle(data)
    elif fmt == "xml":
        text = _xml(data)
    elif fmt == "aiken":
        text = _aiken(data)
    else:
        text = _markdown(data, fmt)
    path = folder / _NAMES[fmt]
    path.write_text(text, encoding="utf-8")
    return path


def measure(bank: Path, out: Path) -> dict[str, float]:
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, str(REPO / "build_decks.py"), "import",
                              str(bank), "--out", str(out)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    errors = child.stderr.read().decode("utf-8", "replace") if child.stderr else ""
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "peak_mib": usage.ru_maxrss / 1024, "exit": os.waitstatus_to_exitcode(status),
            "problems": sum(": error[" in line for line in errors.splitlines())}


def _high_water() -> float:
    """The process's resident peak since it started or was last reset, in MiB (Linux)."""
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmHWM:")[1].split()[0]) / 1024


def phases(bank: str, out: str) -> None:
    """Import ``bank`` into ``out`` in this process and print the resident peak of reading
    the files and of converting and writing them, as JSON (run in a child: --phases)."""
    sys.path.insert(0, str(REPO))
    from nca_anki.importing import run

    peaks: dict[str, float] = {}
    convert = run.convert

    def converted(*args: Any, **kwargs: Any) -> Any:
        if not peaks:  # the files are read: the conversion starts (it may run twice)
            peaks["read_mib"] = _high_water()
            Path("/proc/self/clear_refs").write_text("5")
        return convert(*args, **kwargs)

    Path("/proc/self/clear_refs").write_text("5")
    run.convert = converted
    run.import_banks([bank], None, Path(out), None)
    peaks.setdefault("read_mib", 0.0)
    peaks["convert_mib"] = _high_water()
    print(json.dumps(peaks))


def one(fmt: str, size: int, split: bool = False) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, __file__, "--write", fmt, str(size), tmp], check=True)
        bank = next(p for p in Path(tmp).iterdir() if p.is_file())
        row: dict[str, object] = {"format": fmt, "questions": size,
                                  "bank_mb": bank.stat().st_size / 1e6}
        row.update(measure(bank, Path(tmp) / "out"))
        written = list((Path(tmp) / "out").glob("*.txt"))
        row["out_mb"] = sum(p.stat().st_size for p in written) / 1e6
        row["files"] = len(written)
        if split:
            done = subprocess.run([sys.executable, __file__, "--phase-child", str(bank),
                                   str(Path(tmp) / "again")], check=True,
                                  capture_output=True, text=True)
            row.update(json.loads(done.stdout.splitlines()[-1]))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--json", metavar="FILE", help="also write the rows to FILE")
    parser.add_argument("--phases", action="store_true",
                        help="also the resident peak of reading and of converting (Linux)")
    parser.add_argument("--write", nargs=3, metavar=("FORMAT", "SIZE", "DIR"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--phase-child", nargs=2, metavar=("BANK", "OUT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase_child:
        phases(*args.phase_child)
        return
    if args.write:
        fmt, size, folder = args.write
        write(Path(folder), fmt, int(size))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"load average at start: {os.getloadavg()[0]:.2f}", flush=True)
    split = ("| reading | converting " if args.phases else "", "---:|---:|" if args.phases
             else "")
    print("| format | questions | bank | output | wall | CPU | peak memory | CPU growth "
          f"| exit (errors) {split[0]}|")
    print(f"|---|---:|---:|---:|---:|---:|---:|---:|---:|{split[1]}")
    rows = []
    for fmt in args.formats.split(","):
        first: dict[str, object] | None = None
        for size in sizes:
            row = one(fmt, size, args.phases)
            first = first or row
            growth = (float(row["cpu"]) / float(first["cpu"])  # type: ignore[arg-type]
                      / (size / int(first["questions"])))  # type: ignore[call-overload]
            row["cpu_ratio"] = float(row["cpu"]) / float(first["cpu"])  # type: ignore[arg-type]
            row["load"] = os.getloadavg()[0]
            rows.append(row)
            print(f"| {fmt} | {size:,} | {row['bank_mb']:.1f} MB | {row['out_mb']:.1f} MB "
                  f"| {row['wall']:.1f} s | {row['cpu']:.1f} s | {row['peak_mib']:.0f} MiB "
                  f"| {row['cpu_ratio']:.1f}× ({growth:.2f}) | {row['exit']} "
                  f"({row['problems']}) |" + (f" {row['read_mib']:.0f} MiB | "
                                              f"{row['convert_mib']:.0f} MiB |"
                                              if args.phases else ""), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
