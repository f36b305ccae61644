#!/usr/bin/env python3
"""Compare what the parser at another commit makes of question files with this checkout's.

    python bench/compare_parse.py [REV] [--generated 3000]      (default REV: 3abfd17)

A change to the parser that must change nothing is proven here, before the slower
byte-for-byte build comparison (scripts/compare_with.py): ``nca_anki`` at REV (from ``git
archive``) and this checkout's each parse the same texts in a child process, and every
field of each ``ParseResult`` (line numbers, paths and keys too, which equality leaves out)
and every diagnostic (code, line, text, in order) is compared. The texts: each question
file under ``source/`` and ``tests/`` (as decoded and as raw UTF-8), a generated bank, and
``--generated`` texts made from those and from question-shaped pieces by a seeded mutator
(mistyped and lookalike headers, lookalike choices, missing or wrong answer lines, code
fences, conflict markers, footers and other parts' titles, a damaged title dash,
invisible characters, CRLF, repeated lines). Exit status 0 when every text compares equal.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from benchmark import write_bank  # noqa: E402

# Run in a child with one version of nca_anki first on the path: each text's result, as
# one JSON line of every field (dataclasses.fields, so compare=False fields too).
_DUMP = r"""
import dataclasses, enum, json, sys
sys.path.insert(0, sys.argv[1])
from nca_anki.reading.parse import parse

def dump(value):
    if dataclasses.is_dataclass(value):
        return [type(value).__name__] + [[f.name, dump(getattr(value, f.name))]
                                         for f in dataclasses.fields(value)]
    if isinstance(value, (tuple, list)):
        return [type(value).__name__] + [dump(v) for v in value]
    if isinstance(value, enum.Enum):
        return repr(value)
    return value

with open(sys.argv[2], encoding="utf-8") as texts, open(sys.argv[3], "w") as out:
    for line in texts:
        out.write(json.dumps(dump(parse(json.loads(line), "q.txt")), ensure_ascii=False) + "\n")
"""

TITLES = ["Sample Topic 3 — Questions and Answers", "Sample Topic 3 β Questions and Answers",
          "Sample Topic — Questions and Answers", "Sample Topic 3", "Sample Topic 3 - Q&A",
          "Sample Topic 3 | Questions and Answers", "",
          "\u200bSample Topic 3 — Questions and Answers", " — Questions and Answers",
          "Question 1: no title"]
PIECES = [
    "QUESTION 3: Shouted?", "Question3: glued", "Question #4: hash", "Question No. 5: no",
    "Q3: short", "Qn 3: qn", "Question 3) paren", "QUESTION 3. dot", "Question 3",
    "Qestion 7: typo", "Quiz 3: other words", "Question 9. dotted", "Question 0: zero", "Q4",
    "- a choice", "- (Correct answer)", "- dup", "- dup ", "- DUP (Correct answer)", "-", "- ",
    "– en dash", "— em dash", "• bullet", "* star", "+ plus", "-glued", "A) letter", "b. letter",
    "Correct answer: dup", "Correct answer: nothing like it", "correct answer : DUP",
    "Correct answer:", "text ending (Correct answer)", "Explanation.", "", "", "  ", "\t",
    "<<<<<<< HEAD", "=======", ">>>>>>> branch", "||||||| base", "```", "```python", "~~~~",
    "    indented code", "  two-space text", "  - nested", "\u200bQuestion 2: hidden",
    "\ufeff- hidden choice", "\u2060Correct answer: hidden", "data β each", "x β1 y",
    "Sample Topic 3", "Sample Topic 4", "Sample Topic 3 — Questions and Answers",
    "Sample Topic 3 — Questons & Answers", "See Topic 3", "line\r", "- `code`", "- :"]


def _question(rng: random.Random, number: int) -> list[str]:
    choices = [f"choice {rng.choice('abcdefg')}{i}" for i in range(rng.randint(0, 5))]
    right = rng.sample(range(len(choices)), k=min(len(choices), rng.choice([0, 1, 1, 1, 2])))
    lines = [f"Question {number}: Prompt {rng.choice(['one', 'β', 'data β each'])} {number}?"]
    lines += [f"- {text}" + (" (Correct answer)" if i in right else "")
              for i, text in enumerate(choices)]
    lines += [f"Correct answer: {rng.choice([choices[i], choices[i].upper(), choices[0]])}"
              for i in right]
    return lines + rng.sample(["Because.", "", "```", "code", "```", "See Topic 3"],
                              k=rng.randint(0, 4))


def _mutate(rng: random.Random, lines: list[str]) -> list[str]:
    lines = list(lines) or [""]
    for _ in range(rng.randint(1, 6)):
        op, at = rng.random(), rng.randrange(len(lines))
        if op < 0.3:
            lines.insert(at, rng.choice(PIECES))
        elif op < 0.45 and len(lines) > 1:
            del lines[at]
        elif op < 0.6:
            lines.insert(at, rng.choice(lines))
        elif op < 0.7:
            lines[at] = rng.choice(["\u200b", "\ufeff", " ", "\u00a0"]) + lines[at]
        elif op < 0.8:
            lines[at] = lines[at].replace(" — ", rng.choice([" β ", " - ", " "]))
        elif op < 0.9:
            lines[at] += rng.choice(["\r", " (Correct answer)", " ", " β x"])
        elif op < 0.95:  # another part's title, then perhaps a prompt
            prompts = [line.split(": ", 1)[-1] for line in lines if line.startswith("Question")]
            lines += [rng.choice(["Sample Topic 3", "Sample Topic 4", "See Topic 3"]),
                      rng.choice(prompts or ["x"])][: rng.choice([1, 2])]
        else:  # the footer, then perhaps more questions
            lines += [lines[0], rng.choice([x for x in lines if x.startswith("Question")] or ["x"])]
            if rng.random() < 0.4:
                lines += _question(rng, 99)
    return lines


def texts(generated: int, tmp: Path) -> list[str]:
    from nca_anki.reading.decode import decode_source
    files = sorted(p for p in [*REPO.glob("source/**/*.txt"), *REPO.glob("tests/**/*.txt"),
                               *REPO.glob("tests/**/*.md")] if p.is_file())
    write_bank(tmp / "bank", 2, 2, 50)
    files += sorted((tmp / "bank").glob("*.txt"))
    found = []
    for path in files:
        data = path.read_bytes()
        found += [decode_source(data, str(path)).text, data.decode("utf-8", "replace")]
    rng = random.Random(47)
    seeds = [t for t in found if t.count("\n") < 400]
    for k in range(generated):
        if k % 3 == 0:
            lines = [rng.choice(TITLES)]
            for n in range(1, rng.randint(1, 6)):
                lines += _question(rng, n + rng.choice([0, 0, 0, 1]))
            text = "\n".join(_mutate(rng, lines) if rng.random() < 0.7 else lines)
        else:
            text = "\n".join(_mutate(rng, rng.choice(seeds).split("\n")))
        found.append(text.replace("\n", "\r\n") if rng.random() < 0.05 else text)
    return found


def results(code: Path, corpus: Path, out: Path) -> list[str]:
    subprocess.run([sys.executable, "-c", _DUMP, str(code), str(corpus), str(out)], check=True,
                   cwd=out.parent)
    return out.read_text(encoding="utf-8").splitlines()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", nargs="?", default="3abfd17")
    parser.add_argument("--generated", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nca-parse-") as tmp:
        work = Path(tmp)
        archive = subprocess.run(["git", "archive", args.rev, "nca_anki"], cwd=REPO, check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(work / "old", filter="data")
        corpus = texts(args.generated, work)
        (work / "texts.jsonl").write_text(
            "".join(json.dumps(t) + "\n" for t in corpus), encoding="utf-8")
        old = results(work / "old", work / "texts.jsonl", work / "old.jsonl")
        new = results(REPO, work / "texts.jsonl", work / "new.jsonl")
    differ = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    print(f"{args.rev} against this checkout: {len(corpus) - len(differ)}/{len(corpus)} texts "
          f"parse alike ({args.generated} generated)")
    for i in differ[:5]:
        print(f"\n--- text {i}:\n{corpus[i][:2000]}\n--- {args.rev}: {old[i][:2000]}\n"
              f"--- this checkout: {new[i][:2000]}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
