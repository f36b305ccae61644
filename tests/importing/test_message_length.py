"""No import message longer than a line or two, and none naming a place the author did not
give (issue 46, 10): odd and hostile banks of every format the import reads (long keys,
long values, pictures carried as base64, fifty choices, deep nesting, the same question in
two files of deep folders) go through the command with relative paths, and every message,
in the report and in ``--json``, is at most ``LIMIT`` characters after its place and names
no path but the ones given. Every bank here is invented for the test."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from nca_anki.importing.messages import LIMIT

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "import"
LONG = "x" * 3_000
KEY = "k" * 24  # a key's name no cut shortens (messages.QUOTED_KEPT)
PNG = "data:image/png;base64," + "iVBORw0KGgo" * 2_000


def _record(n: int, **extra: object) -> dict[str, object]:
    return {"question": f"Which value does item {n} hold?", "options": [f"v{n}a", f"v{n}b"],
            "answer": 0, **extra}


def _structured() -> dict[str, object]:
    """Banks as objects, written as JSON, YAML and JavaScript."""
    roles = {f"{KEY}{k}": v for k, v in enumerate(("prompt", "choices", "answer", "why",
                                                     "topic"))}
    return {
        "long-keys": {LONG: [_record(1), _record(2, answer="Z" * 5_000)]},
        "many-keys": [_record(n, **{f"bookkeeping {LONG[:80]} {k}": k for k in range(30)})
                      for n in range(3)],
        "role-keys": [{f"{KEY}0": f"Which is number {n}?",
                       f"{KEY}1": [{f"{KEY}a": "A", f"{KEY}b": f"one {n}", f"{KEY}c": True},
                                   {f"{KEY}a": "B", f"{KEY}b": f"two {n}", f"{KEY}c": False}],
                       f"{KEY}2": "A", f"{KEY}explanation": "Because.",
                       f"{KEY}category": "Numbers", f"{KEY}9": None, **{
                           f"{KEY}{k}x": "" for k in range(12)}} for n in range(3)],
        "roles-named": [dict(zip(roles, (f"Which is {n}?", ["a", "b"], 1, "Because.", "T")))
                        for n in range(3)],
        "fifty": [_record(1, options=[f"choice {k} {LONG[:50]}" for k in range(50)],
                          answer=49), _record(2)],
        "long-values": [_record(1, question=LONG, options=[LONG, LONG + "y"]),
                        _record(2, question=f"![chart]({PNG}) Which?"),
                        _record(3, explanation=f"<img src=\"{PNG}\">")],
        "deep": [_record(1), {"question": "Deep?", "options": ["a", "b"],
                              "answer": json.loads("[" * 100 + "]" * 100)}],
    }


def _script(value: object) -> str:
    return "// a quiz\nexport const quiz = " + json.dumps(value, indent=1) + ";\n"


def _banks(root: Path) -> None:
    import yaml

    for name, value in _structured().items():
        _put(root / "json" / f"{name}.json", json.dumps(value))
        _put(root / "yaml" / f"{name}.yaml", yaml.safe_dump(value, allow_unicode=True))
        _put(root / "ts" / f"{name}.ts", _script(value))
    _put(root / "json" / "nested.json", "[" * 200 + "]" * 200)
    _put(root / "ts" / "calls.js", "var q = [];\n" + "".join(
        f"q[{n}] = {{question: compute({LONG[:300]}), options: [`${{a}}{LONG[:300]}`, 'b'], "
        "answer: 0};\n" for n in range(3)))
    head = ["Question", *(f"Choice {k} {LONG[:40]}" for k in range(50)), "Answer"]
    row = ["Which?", *(f"c{k}" for k in range(50)), "AX"]
    _put(root / "sheet" / "wide.csv", ",".join(head) + "\n" + ",".join(row) + "\n"
         + ",".join(["Other?", "a", "b", *[""] * 48, "B"]) + ",extra,cells\n")
    _put(root / "sheet" / "wide.tsv", "\t".join(head) + "\n" + "\t".join(row) + "\n")
    # Cells full of commas, separated by ';': the opening says why ';' (in brackets), and
    # headers of a key's length leave the decisions little room.
    named = ["Question asked of the learner", "Option A", "Option B", "Option C",
             "Correct answer letter", "Explanation of the answer", "Category of the question"]
    _put(root / "sheet" / "commas.csv", ";".join(named) + "\n" + "".join(
        f"Which, of these, is {n}?;one, {n};two, {n};three, {n};B;Because, {n}, it is;"
        f"Area, {n % 3}\n" for n in range(40)))
    answers = " ".join(f"~{LONG[:60]}{k}" for k in range(50))
    _put(root / "gift" / "fifty.gift", f"::{LONG}:: Which? {{={LONG[:70]} {answers}}}\n\n"
         f"::open:: Never closed {{={LONG}\n\n::t2:: {LONG}? {{T}}\n")
    moodle = "".join(
        f'<answer fraction="{LONG[:90] if k == 0 else 0}"><text>{LONG[:90]}{k}</text>'
        "</answer>" for k in range(50))
    _put(root / "xml" / "moodle.xml", '<?xml version="1.0"?>\n<quiz><question '
         f'type="multichoice"><questiontext><text>Which?</text></questiontext>{moodle}'
         f'</question><question type="{LONG[:200]}"><questiontext><text>{LONG}</text>'
         "</questiontext></question></quiz>\n")
    tag = "item" + "x" * 200
    _put(root / "xml" / "records.xml", "<bank>" + "".join(
        f'<{tag} {"p" * 200}="Which {n}?"><o>a{n}</o><o>b{n}</o></{tag}>'
        for n in range(3)) + "</bank>\n")
    _put(root / "aiken" / "long.txt", f"{LONG}?\n" + "".join(
        f"{chr(65 + k)}. {LONG[:100]} {k}\n" for k in range(4)) + "ANSWER: B\n\nWide?\n"
         + "".join(f"{chr(65 + k)}. {LONG[:100]} {k}\n" for k in range(26)) + "ANSWER: Z\n\n"
         f"{LONG}?\nA. {LONG}\nB. {LONG}\nANSWER: {LONG[:100]}\n")
    checks = "".join(f"- [{'x' if k == 3 else ' '}] {LONG[:100]} {k}\n" for k in range(50))
    _put(root / "markdown" / "fifty.md", f"# {LONG}\n\n#### Q1. {LONG}?\n\n{checks}\n"
         f"#### Q2. Which picture?\n\n- [x] ![p]({PNG})\n- [ ] none\n")
    lettered = "".join(f"{chr(65 + k)}. {LONG[:80]} {k}\n" for k in range(12))
    _put(root / "markdown" / "lettered.md", f"# Quiz\n\n1. {LONG}?\n\n{lettered}\n"
         f"**Answer: {LONG}**\n\n2. Other?\n\nA. a\nB. b\n\nAnswer: Q\n")
    twice = "#### Q1. Which ocean is largest?\n\n- [x] Pacific\n- [ ] Atlantic\n"
    deep = root / "markdown" / ("a-folder-with-a-long-name-" * 3) / ("another-long-one-" * 3)
    _put(deep / "one" / "quiz.md", "# Oceans\n\n" + twice)
    _put(deep / "two" / "quiz.md", "# Oceans\n\n" + twice)
    for fixture in FIXTURES.iterdir():
        if fixture.is_file():
            _put(root / "fixtures" / fixture.name, fixture.read_text(encoding="utf-8"))


def _put(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


FOLDERS = ["json", "yaml", "ts", "sheet", "gift", "xml", "aiken", "markdown", "fixtures"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_message_fits_a_line_or_two_and_names_only_given_places(tmp_path, cli,
                                                                      monkeypatch, folder):
    _banks(tmp_path / "in")
    monkeypatch.chdir(tmp_path)
    given = f"in/{folder}"
    said = json.loads(cli("import", given, "--out", "out-json", "--json").out)["diagnostics"]
    assert said
    assert [d["message"] for d in said if len(d["message"]) > LIMIT] == []
    assert [d for d in said if os.path.isabs(d["path"]) or not d["path"].startswith(given)
            or str(tmp_path) in d["message"]] == []
    done = cli("import", given, "--out", "out-text")
    assert [line for line in done.err.splitlines()
            if len(re.sub(r"^.*?: (error|warning)\[\w+\]: ", "", line)) > LIMIT
            or str(tmp_path) in line] == []
