#!/usr/bin/env python3
"""Compare what this checkout publishes with what another commit publishes, byte for byte.

    python scripts/compare_with.py [REV]      (default REV: 62827fa)

A refactoring that learners must not notice is proven here: the code at REV (from
``git archive``, in a temporary folder) and this checkout's code build the same scenarios
with the same clock (SOURCE_DATE_EPOCH), each in its own copy, and after every step each
published file (every ``.apkg``, README.md, CHANGELOG.md, manifest.json) and the lock are
compared byte for byte. The scenarios: the seeds as a fresh clone has them (lock and
published decks); the seeds from nothing (no lock, no decks); and a generated bank of
2,400 questions built from nothing, then edited step by step (prompts reworded, a question
removed, a file deleted, a question added, a template's CSS changed, a topic's
questions shuffled off in the settings). Cache files are not published and not compared:
REV may keep them in the output folder. Exit status 0 when every file is identical.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from benchmark import edit_one_prompt, write_bank  # noqa: E402

OLD_CACHES = {".nca-anki-cache.json", ".nca-anki-parsed", ".nca-anki-decks", ".nca-anki-bundle"}
DAY = 86_400


def _no_links(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
    """The archive's files as tarfile's data filter allows them; a symbolic link (none
    builds a deck, and an old commit held one to a folder outside) is left out."""
    return None if member.issym() or member.islnk() else tarfile.data_filter(member, path)


def checkout(rev: str, into: Path) -> Path:
    """The files of ``rev`` in ``into`` (no git metadata)."""
    data = subprocess.run(["git", "archive", rev], cwd=REPO, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        archive.extractall(into, filter=_no_links)
    return into


def build(code: Path, root: Path, moment: int) -> None:
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(moment)}
    env.pop("NCA_ANKI_CACHE_DIR", None)
    result = subprocess.run([sys.executable, str(code / "build_decks.py")], cwd=root, env=env,
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"build with {code} in {root} failed ({result.returncode}):\n{result.stderr}")


def published(root: Path) -> dict[str, bytes]:
    files = {f"dist/{p.name}": p.read_bytes() for p in sorted((root / "dist").iterdir())
             if p.name not in OLD_CACHES and p.is_file()}
    lock = root / "source" / "nca-anki.lock"
    if lock.is_file():
        files["source/nca-anki.lock"] = lock.read_bytes()
    return files


# --- the edits of the generated bank -------------------------------------------------------

def reword_two_prompts(root: Path) -> None:
    edit_one_prompt(next(iter(sorted((root / "source").rglob("*.txt")))))
    edit_one_prompt(sorted((root / "source").rglob("*.txt"))[5])


def remove_a_question(root: Path) -> None:
    path = sorted((root / "source").rglob("*.txt"))[2]
    text = path.read_text(encoding="utf-8")
    second, third = text.index("Question 2:"), text.index("Question 3:")
    path.write_text(text[:second] + text[third:], encoding="utf-8")


def delete_a_file(root: Path) -> None:
    sorted((root / "source").rglob("*.txt"))[7].unlink()


def add_a_question(root: Path) -> None:
    path = sorted((root / "source").rglob("*.txt"))[3]
    numbers = [int(n) for n in re.findall(r"(?m)^Question (\d+):", path.read_text("utf-8"))]
    with path.open("a", encoding="utf-8") as file:
        file.write(f"\nQuestion {max(numbers) + 1}: Which precision format has an 8-bit "
                   "exponent and a 7-bit mantissa?\n- FP16\n- BF16 (Correct answer)\n- INT8\n"
                   "Correct answer: BF16\nBF16 keeps FP32's exponent range.\n")


def change_the_css(root: Path) -> None:
    with (root / "templates" / "style.css").open("a", encoding="utf-8") as file:
        file.write("\n/* compare_with.py */\n.card { letter-spacing: 0.01em; }\n")


def no_shuffling_for_a_topic(root: Path) -> None:
    title = sorted((root / "source").rglob("*.txt"))[0].read_text("utf-8").splitlines()[0]
    name = re.sub(r"\s+\d+\s+—.*$", "", title)
    (root / "source" / "nca-anki.toml").write_text(f'[shuffle]\n"{name}" = false\n',
                                                   encoding="utf-8")


STEPS: list[tuple[str, Callable[[Path], None]]] = [
    ("reword two prompts", reword_two_prompts), ("remove a question", remove_a_question),
    ("delete a part file", delete_a_file), ("add a question", add_a_question),
    ("append a CSS rule", change_the_css), ("turn shuffling off for a topic",
                                            no_shuffling_for_a_topic),
    ("rebuild with nothing changed", lambda root: None),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", nargs="?", default="62827fa")
    args = parser.parse_args()
    rows, differ = [], 0
    with tempfile.TemporaryDirectory(prefix="nca-compare-") as tmp:
        work = Path(tmp)
        old = checkout(args.rev, work / "old-code")

        def project(name: str, make: Callable[[Path], None]) -> tuple[Path, Path]:
            pair = []
            for side in ("old", "new"):
                root = work / name / side
                (root / "source").mkdir(parents=True)
                shutil.copytree(REPO / "templates", root / "templates")
                make(root)
                pair.append(root)
            return pair[0], pair[1]

        def compare(scenario: str, step: str, a: Path, b: Path) -> None:
            nonlocal differ
            left, right = published(a), published(b)
            same = [n for n in left if right.get(n) == left[n]]
            other = sorted(set(left) ^ set(right) | {n for n in left if n in right
                                                     and right[n] != left[n]})
            differ += len(other)
            rows.append((scenario, step, len(left), len(same), ", ".join(other) or "-"))

        def seeds_as_cloned(root: Path) -> None:
            shutil.copytree(REPO / "source", root / "source", dirs_exist_ok=True)
            shutil.copytree(REPO / "dist", root / "dist")

        def seeds_from_nothing(root: Path) -> None:
            for path in (REPO / "source").glob("*.txt"):
                shutil.copy(path, root / "source" / path.name)

        def bank(root: Path) -> None:
            (root / "source").rmdir()
            write_bank(root / "source", 6, 4, 100)

        moment = 1_800_000_000
        for scenario, make, steps in (("seeds, as cloned", seeds_as_cloned, []),
                                      ("seeds, from nothing", seeds_from_nothing, []),
                                      ("2,400-question bank", bank, STEPS)):
            a, b = project(scenario.split(",")[0].replace(" ", "-") + str(len(rows)), make)
            build(old, a, moment)
            build(REPO, b, moment)
            compare(scenario, "first build", a, b)
            for step, edit in steps:
                moment += DAY
                edit(a)
                edit(b)
                build(old, a, moment)
                build(REPO, b, moment)
                compare(scenario, step, a, b)
    print(f"{args.rev} against this checkout; published files and the lock, byte for byte\n")
    print("| scenario | step | files | identical | different |")
    print("|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")
    print(f"\n{'all identical' if not differ else f'{differ} file(s) differ'}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
