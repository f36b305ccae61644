#!/usr/bin/env python3
"""Real public banks through ``import``, the build and a real Anki collection (not a test).

    python bench/real_banks.py bench/real_banks.json --root DIR

    python bench/real_banks.py MANIFEST --root DIR --mirror MIRROR [--only NAME …]

The manifest lists real public banks: ``{"name", "repo", "commit", "path" (a file or folder
in the repository), "shape" or "reader", …}``. Each must be on disk as
``DIR/<owner>+<name>/<path>``, exported at its commit, for example ``git -C clone archive
COMMIT PATH | tar -x -C DIR/owner+name``; with ``--mirror``, a bank missing there is
exported from ``MIRROR/<owner>+<name>`` (a bare clone or a clone's ``.git``) at its commit.
This script fetches nothing: CI has no network but package registries, and the banks are
other people's work, not this repository's. For each bank it

1. counts its multiple-choice questions **independently of the importer**, with a
   small counter per shape (below) or the bank's own ``"reader": "module:function"`` (a
   function in a module beside this one, ``(path, text) -> list[Expected]``), which also
   reads each question's prompt start, its choices' first lines, which are right and,
   where the reader says, the explanation's first words;
2. runs ``build_decks.py import --json`` on it, for converted and refused (by reason);
3. builds what was written with the project's templates and imports the decks into a
   new collection with the official ``anki`` package;
4. compares every card that arrived with the independent reading: the same number of
   choices, the same right ones, the prompt's first words and, where the reader gives
   one, the explanation's (``""``: the source has none, so the card must show none). A
   card is *faithful* when all agree.

It prints one Markdown row per bank and the totals.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

DUMP = False  # True: print each card that does not match, to see why
# The checkout measured: this one, or another one's (NCA_ANKI_REPO=/path/to/checkout, run with
# that checkout's interpreter), so that one script and one reader measure any commit alike.
REPO = Path(os.environ.get("NCA_ANKI_REPO") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))


@dataclass
class Expected:
    prompt: str  # the first words of the prompt, lower case, letters and digits only
    choices: list[str]  # each choice's first words, the same way
    right: set[int]
    # The explanation's first words the same way; "" when the source has none; None when
    # the counter does not read explanations (not compared).
    explanation: str | None = None


def words(text: str, n: int = 8) -> str:
    """The first ``n`` words of ``text``, lower case, without markup or entities."""
    import html
    seen = re.sub(r"<!--.*?-->|<(style|script|xml)\b.*?</\1>", " ", text, flags=re.S | re.I)
    seen = re.sub(r"</?(?:sup|sub|span|font|b|i|em|strong|u)\b[^>]*>", "", seen, flags=re.I)
    plain = re.sub(r"<[^>]+>|`|\*\*|__", " ", html.unescape(seen)).replace("\xa0", " ")
    plain = plain.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉ⁿ", "01234567890123456789n"))
    return " ".join(re.findall(r"[^\W_]+", plain.casefold())[:n])


# --- independent counters, one per shape ----------------------------------------------------

def count_checkbox_markdown(text: str) -> list[Expected]:
    """A heading, then a list of "- [ ]"/"- [x]" lines before the next heading."""
    found: list[Expected] = []
    prompt, choices, right = "", [], set()
    fence = False
    for line in text.split("\n") + ["# end"]:
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence:
            continue
        heading = re.match(r"^\s{0,3}#{1,6}\s+(.*)", line) or re.match(
            r"^(Q\d+\.\s.*)", line)  # "Q67. …" with no heading mark
        if heading:
            if choices:
                found.append(Expected(words(re.sub(r"^\w{0,9}\s*\d+\s*[.)]\s*", "", prompt)),
                                      [words(c) for c in choices], right))
            prompt, choices, right = heading[1], [], set()
            continue
        task = re.match(r"^\s{0,3}[-*+]\s+\[([ xX])\]\s*(.*)", line)
        if not task and not choices and not prompt and line.strip() and not line.startswith(
                ("---", "tags:", "difficulty:", "type:", "answer:")):
            prompt = line  # a file of one question, no heading: its first paragraph
        if task:
            if task[1] in "xX":
                right.add(len(choices))
            choices.append(task[2])
    return found


def count_lettered_markdown(text: str) -> list[Expected]:
    """A heading or numbered line, lettered choices ("- A: x", "A. x"), "Answer: X"."""
    found: list[Expected] = []
    text = re.sub(r"<a\b[^>]*></a>", "", text)  # anchors in headings
    blocks = re.split(r"\n(?=\s{0,3}#{1,6}\s+\d+\.|\s{0,3}\d+\.\s)", "\n" + text)
    for block in blocks:
        lines = block.strip("\n").split("\n")
        head = re.match(r"^\s{0,3}(?:#{1,6}\s+)?\d+\.\s+(.*)", lines[0]) if lines else None
        choices = [m for line in lines
                   if (m := re.match(r"^\s*(?:[-*]\s+)?([A-J])[.:)]\s+(.*)", line))]
        answer = next((m for line in lines if (m := re.search(
            r"(?i:correct\s+)?(?i:answer|antwort):?\s*\**\s*:?\s*([A-J](?:\s*,?\s*[A-J])*)\b",
            re.sub(r"<[^>]+>|\*\*|#", "", line)))), None)
        if head and len(choices) >= 2 and answer:
            letters = [c[1] for c in choices]
            right = {letters.index(x) for x in re.findall(r"[A-J]", answer[1]) if x in letters}
            found.append(Expected(words(head[1]), [words(c[2]) for c in choices], right))
    return found


def count_gift(text: str) -> list[Expected]:
    """Blocks with answers in braces that hold a "~" (multiple choice) or are {T}/{F}
    (true/false, which the importer gives two choices); the prompt is the text around the
    braces (a missing-word question's blank may come first)."""
    found = []
    body = re.sub(r"(?m)^\s*//.*$", "", text)
    for match in re.finditer(r"(?s)([^{}]*?)\{([^{}]*)\}([^{}\n]*)", body):
        answers = match[2].strip()
        before = re.sub(r"^.*::", "", match[1].strip().split("\n\n")[-1].replace("\n", " "))
        before = re.sub(r"^\s*\[\w+\]", "", before)
        prompt = words(f"{before} {match[3]}")
        truth = re.fullmatch(r"(?i)(T|F|TRUE|FALSE)\s*(#.*)?", answers)
        if truth:
            right = {0} if truth[1].upper().startswith("T") else {1}
            found.append(Expected(prompt, ["true", "false"], right))
            continue
        cloze = re.match(r"\d*:([A-Z_]+):", answers)
        if cloze and not cloze[1].startswith(("MC", "MULTICHOICE", "MR", "MULTIRESPONSE")):
            continue  # Moodle's embedded short answer or number
        answers = answers[cloze.end():] if cloze else answers
        if "~" not in answers or "->" in answers:
            continue
        parts = re.split(r"(?<!\\)(?=[~=])", answers.split("####")[0])
        parts = [q for q in parts if q.strip() and q.strip() not in "~="]
        choices = [re.sub(r"^[~=](%-?[\d.]+%)?", "", q).split("#")[0].strip() for q in parts]
        # As Moodle grades them: with an "=" answer, only full credit is right ("~%50%" is
        # partial credit); without one, every positive weight is.
        if any(q.startswith("=") for q in parts):
            right = {k for k, q in enumerate(parts)
                     if re.match(r"=(?!%)|[~=]%100(\.0*)?%", q)}
        else:
            right = {k for k, q in enumerate(parts) if re.match(r"~%0*[1-9]", q)}
        found.append(Expected(prompt, [words(c) for c in choices], right))
    return found


NODE = next(iter(Path(sys.prefix).glob("lib/python3*/site-packages/playwright/driver/node")),
            None)


def _objects_of_ts(text: str) -> list[dict]:
    """A data file's exported arrays of objects, evaluated by Node after its type
    annotations are cut (the files measured are plain literals with types)."""
    js = re.sub(r"(?m)^import .*$", "", text)
    js = re.sub(r"export\s+const\s+(\w+)\s*(?::\s*[\w\[\]<>| ]+)?\s*=", r"out.\1 =", js)
    js = re.sub(r"\bas const\b|\bsatisfies\s+\w+(\[\])?", "", js)
    run = subprocess.run([str(NODE), "-e", "const out = {};\n" + js +
                          "\nconsole.log(JSON.stringify(out))"], capture_output=True, text=True)
    data = json.loads(run.stdout or "{}")
    return [o for v in data.values() if isinstance(v, list) for o in v if isinstance(o, dict)]


def count_objects(objects: list[dict], spec: dict) -> list[Expected]:
    """Objects with a prompt, a list of choices and an answer, by the keys the manifest names
    (read off the bank by hand)."""
    found = []
    for o in objects:
        choices = o.get(spec["choices"])
        if not isinstance(choices, list) or len(choices) < 2:
            continue
        texts = [c if isinstance(c, str) else c.get(spec.get("text", "text"), "") for c in choices]
        answer = o.get(spec["answer"])
        answers = answer if isinstance(answer, list) else [answer]
        if spec.get("letters"):
            labels = [c.get(spec["letters"]) if isinstance(c, dict) else "ABCDEFGHIJ"[k]
                      for k, c in enumerate(choices)]
            right = {labels.index(a) for a in answers if a in labels}
        else:
            right = {int(a) for a in answers if isinstance(a, int)}
        found.append(Expected(words(o.get(spec["prompt"], "")), [words(t) for t in texts], right))
    return found


def count_csv(text: str, spec: dict) -> list[Expected]:
    import csv
    found = []
    for row in csv.DictReader(text.splitlines()):
        texts = [row.get(c, "") or "" for c in spec["choices"]]
        texts = [t for t in texts if t.strip()]
        answer = (row.get(spec["answer"]) or "").strip()
        if len(texts) < 2 or not re.fullmatch(r"[A-J]+", answer):
            continue
        found.append(Expected(words(row[spec["prompt"]]), [words(t) for t in texts],
                              {"ABCDEFGHIJ".index(x) for x in answer}))
    return found


def count_moodle_xml(text: str) -> list[Expected]:
    """<question type="multichoice"> and "truefalse": the question text, each answer's
    text and whether it is right as Moodle grades it: a fraction of 100 in a question of
    one answer (<single>, "true" when missing), a positive one in a question of several."""
    import xml.etree.ElementTree as ET
    found = []
    for q in ET.fromstring(text).iter("question"):
        if q.get("type") not in ("multichoice", "truefalse"):
            continue
        single = (q.findtext("single") or "true").strip() not in ("false", "0", "")
        answers = [(a.findtext("text") or "", float(a.get("fraction", "0")) >= 100 if single
                    or q.get("type") == "truefalse" else float(a.get("fraction", "0")) > 0)
                   for a in q.findall("answer")]
        answers = [(t, r) for t, r in answers if t.strip()]
        found.append(Expected(words(q.findtext("questiontext/text") or ""),
                              [words(t) for t, _ in answers],
                              {k for k, (_, r) in enumerate(answers) if r}))
    return found


def count_yaml_marked(text: str) -> list[Expected]:
    """A list of {q: prompt, a: [text, {correct: text}, ...]}."""
    import yaml
    found = []
    for item in yaml.safe_load(text) or []:
        answers = item.get("a") or []
        texts = [a if isinstance(a, str) else next(iter(a.values())) for a in answers]
        right = {k for k, a in enumerate(answers) if isinstance(a, dict)}
        if len(texts) >= 2 and right:
            found.append(Expected(words(item.get("q", "")), [words(str(t)) for t in texts],
                                  right))
    return found


COUNTERS = {"checkbox-markdown": count_checkbox_markdown, "moodle-xml": count_moodle_xml,
            "yaml-marked": count_yaml_marked,
            "lettered-markdown": count_lettered_markdown, "gift": count_gift}


def _reader(name: str) -> Callable[[Path, str], list[Expected]]:
    import importlib
    module, function = name.split(":")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    return getattr(importlib.import_module(module), function)


def independent(bank: dict) -> list[Expected]:
    path, shape = Path(bank["local"]), bank.get("shape", "")
    suffixes = tuple(bank.get("suffixes", (".md", ".gift", ".txt", ".ts", ".json", ".csv",
                                            ".xml")))
    files = [path] if path.is_file() else sorted(
        p for p in path.rglob("*") if p.is_file() and p.suffix in suffixes)
    found: list[Expected] = []
    for f in files:
        data = f.read_bytes()
        text = data.decode(bank.get("encoding", "utf-8"), errors="replace")
        if "reader" in bank:
            found += _reader(bank["reader"])(f, text)
        elif shape == "ts-objects":
            found += count_objects(_objects_of_ts(text), bank["keys"])
        elif shape == "json-objects":
            found += count_objects(json.loads(text), bank["keys"])
        elif shape == "csv":
            found += count_csv(text, bank["keys"])
        else:
            found += COUNTERS[shape](text)
    return found


# --- the importer, the build, Anki ----------------------------------------------------------

def _explained(expected: Expected, explanation: str) -> bool:
    """Whether the card's explanation (its first words) is the source's: none where the
    source has none, and starting as the source's does where it has one."""
    if expected.explanation is None:
        return True
    if not expected.explanation:
        return not explanation
    return explanation.startswith(expected.explanation)


def _matches(expected: Expected, got: list[tuple[str, bool]]) -> bool:
    """Whether each expected choice pairs off with its own card choice: the card's text
    starts with the expected one (its first 30 characters) and both are right or wrong."""
    if len(expected.choices) != len(got) or sum(r for _, r in got) != len(expected.right):
        return False
    wanted = [(t[:30], k in expected.right) for k, t in enumerate(expected.choices)]

    def pair(k: int, free: frozenset[int]) -> bool:  # at most 10 choices: a small search
        if k == len(wanted):
            return True
        text, right = wanted[k]
        return any(got[j][1] == right and got[j][0].startswith(text) and
                   pair(k + 1, free - {j}) for j in free)

    return pair(0, frozenset(range(len(got))))


def measure(bank: dict, work: Path) -> dict:
    from anki_client import cards_in_deck, html_to_text, import_package, open_collection
    from nca_anki.build import build
    from nca_anki.report import BuildOptions

    path = Path(bank["local"])
    expected = independent(bank)
    out = work / "source"
    run = subprocess.run([sys.executable, str(REPO / "build_decks.py"), "import", str(path),
                          "--out", str(out), "--json"], capture_output=True, text=True)
    outcome = json.loads(run.stdout) if run.stdout.strip() else {"counts": {}, "diagnostics": []}
    reasons: dict[str, int] = {}
    longest = max((len(d["message"]) for d in outcome["diagnostics"]), default=0)
    for d in outcome["diagnostics"]:
        if d["severity"] == "error":
            reasons[d["kind"]] = reasons.get(d["kind"], 0) + 1
    arrived = faithful = build_errors = 0
    if out.exists():
        report = build(BuildOptions(out, REPO / "templates", work / "dist", now=1_800_000_000))
        build_errors = sum(d.is_error for d in report.diagnostics)
        col = open_collection(work / "anki" / "collection.anki2")
        try:
            for apkg in sorted((work / "dist").glob("*.apkg")):
                if not apkg.name.endswith("_all_topics.apkg"):
                    import_package(col, apkg)
            by_prompt: dict[str, list[Expected]] = {}
            for e in expected:  # by the prompt's first two words
                by_prompt.setdefault(" ".join(e.prompt.split()[:2]), []).append(e)
            for topic in report.topics:
                for card in cards_in_deck(col, topic.deck_name):
                    arrived += 1
                    prompt = words(html_to_text(card.fields["Prompt"]), 40)
                    choices = [words(html_to_text(c)) for c in re.findall(
                        r'<span class="nca-text">(.*?)</span></li>', card.fields["Choices"], re.S)]
                    right = {"ABCDEFGHIJ".index(x)
                             for x in re.findall(r"[A-J]", card.fields["Answer"])}
                    # The card shows its choices in a balanced fixed order (cards/shuffle.py):
                    # each expected choice must match a card choice one to one, by the start of
                    # its text (the counter reads a choice's first line; a card's choice also
                    # holds the code under it) and by whether it is right.
                    got = [(c, k in right) for k, c in enumerate(choices)]
                    why = words(html_to_text(card.fields.get("Explanation", "")), 40)
                    near = by_prompt.get(" ".join(prompt.split()[:2]), [])
                    same = any(prompt.startswith(e.prompt) and _matches(e, got)
                               and _explained(e, why) for e in near)
                    if DUMP and not same:
                        print("MISMATCH", prompt[:70], got, why[:60], [
                            (e.prompt, e.choices, e.right, e.explanation)
                            for e in near if prompt.startswith(e.prompt)][:2], file=sys.stderr)
                    faithful += same
        finally:
            col.close()
    return {"name": bank["name"], "repo": bank["repo"], "commit": bank["commit"][:10],
            "shape": bank["shape"], "source": len(expected),
            "read": outcome["counts"].get("read", 0),
            "converted": outcome["counts"].get("converted", 0), "arrived": arrived,
            "faithful": faithful, "reasons": reasons, "exit": run.returncode,
            "language": bank.get("language", ""), "longest_message": longest,
            "build_errors": build_errors}


def _export(clone: Path, bank: dict, into: Path) -> None:
    """``bank``'s path at its commit, from the clone at ``clone``, written under ``into``
    with the folder it is in."""
    git = clone / ".git" if (clone / ".git").is_dir() else clone
    if (clone / "repo").is_dir():  # the mirror's layout: owner+name/repo[/.git]
        git = clone / "repo" / ".git" if (clone / "repo" / ".git").is_dir() else clone / "repo"
    # A file is exported with its folder: the pictures and other files beside a bank are
    # what its questions show (a repository's root file: the whole repository).
    inside = "" if bank["path"] in (".", "./") else bank["path"]
    kind = subprocess.run(["git", "--git-dir", str(git), "cat-file", "-t",
                           f"{bank['commit']}:{inside}"], capture_output=True,
                          text=True, check=True).stdout.strip()
    folder = bank["path"] if kind == "tree" else str(Path(bank["path"]).parent)
    whole = subprocess.run(["git", "--git-dir", str(git), "archive", bank["commit"],
                            *([] if folder == "." else [folder])], capture_output=True)
    archive = whole.stdout
    if whole.returncode:  # a snapshot may lack a large file beside the bank: the bank alone
        archive = subprocess.run(["git", "--git-dir", str(git), "archive", bank["commit"],
                                  bank["path"]], capture_output=True, check=True).stdout
    into.mkdir(parents=True, exist_ok=True)  # only once there is something to put in it
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("manifest")
    parser.add_argument("--root", required=True, help="where the banks are exported")
    parser.add_argument("--mirror", help="where clones are, to export a missing bank from")
    parser.add_argument("--only", nargs="*", help="measure only the banks of these names")
    parser.add_argument("--json", help="also write each bank's row to this file, as JSON")
    args = parser.parse_args()
    banks = [bank for bank in json.loads(Path(args.manifest).read_text(encoding="utf-8"))
             if not args.only or bank["name"] in args.only]
    for bank in banks:
        into = Path(args.root) / bank["repo"].replace("/", "+")
        bank["local"] = str(into / bank["path"])
        if args.mirror and not Path(bank["local"]).exists():
            _export(Path(args.mirror) / bank["repo"].replace("/", "+"), bank, into)
    print("| bank | repository @ commit | shape | MCQs in source | converted | refused (why) | "
          "in Anki | faithful | import exit | build errors |")
    print("|---|---|---|---:|---:|---|---:|---:|---:|---:|")
    totals = [0, 0, 0]
    rows = []
    for bank in banks:
        with tempfile.TemporaryDirectory() as tmp:
            row = measure(bank, Path(tmp))
        rows.append(row)
        if args.json:
            Path(args.json).write_text(json.dumps(rows, indent=1, ensure_ascii=False),
                                       encoding="utf-8")
        refused = ", ".join(f"{k} ×{v}" for k, v in sorted(row["reasons"].items())) or "—"
        print(f"| {row['name']} | {row['repo']} @ {row['commit']} | {row['shape']} | "
              f"{row['source']} | {row['converted']} | {refused} | {row['arrived']} | "
              f"{row['faithful']} | {row['exit']} | {row['build_errors']} |", flush=True)
        totals[0] += row["source"]
        totals[1] += row["converted"]
        totals[2] += row["faithful"]
    print(f"| **total** | | | {totals[0]} | {totals[1]} | | | {totals[2]} "
          f"({totals[2] / max(totals[0], 1):.1%}) | | |")


if __name__ == "__main__":
    main()
