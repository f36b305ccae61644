"""Each reader's time is linear in the bank (issue 46): four times the questions take
about four times the CPU, never sixteen. bench/import_speed.py measures the whole command
at 10,000 and 100,000 questions; these rows hold the readers to it at sizes a test can
afford. Every bank here is generated for the test."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from growth import least_cpu
from nca_anki.importing import aiken, gift, json_bank, moodle_xml, spreadsheet, typescript
from nca_anki.importing import yaml_bank


def _rows(n: int) -> list[dict[str, object]]:
    return [{"id": k, "question": f"Which value does item {k} hold — naïve {k}?",
             "options": [f"v{k} {c}" for c in "abcd"], "answer": k % 4,
             "explanation": f"Item {k} holds `v{k}`."} for k in range(n)]


def _yaml_block(n: int) -> str:
    return "questions:\n" + "".join(
        f"  - id: {r['id']}\n    question: \"{r['question']}\"\n    options:\n"
        + "".join(f"      - {o}\n" for o in r["options"])  # type: ignore[attr-defined]
        + f"    answer: {r['answer']}\n    explanation: \"{r['explanation']}\"\n"
        for r in _rows(n))


READS: list[tuple[str, Callable[[int], object]]] = [
    ("json", lambda n: json_bank.read(json.dumps(_rows(n), indent=1), "b.json")),
    ("yaml, block", lambda n: yaml_bank.read(_yaml_block(n), "b.yaml")),
    ("yaml, flow", lambda n: yaml_bank.read(json.dumps(_rows(n)), "b.yaml")),
    ("typescript", lambda n: typescript.read(
        "export const q = " + json.dumps(_rows(n)) + ";\n", "b.ts")),
    ("csv", lambda n: spreadsheet.read("question,a,b,c,d,answer\n" + "".join(
        f"Which {k}?,a{k},b{k},c{k},d{k},{'ABCD'[k % 4]}\n" for k in range(n)), "b.csv")),
    ("gift", lambda n: gift.read("".join(
        f"::Q{k}:: Which {k}? {{=a{k} ~b{k} ~c{k}}}\n\n" for k in range(n)), "b.gift")),
    ("moodle xml", lambda n: moodle_xml.read("<quiz>" + "".join(
        f'<question type="multichoice"><questiontext><text>Which {k}?</text></questiontext>'
        f'<answer fraction="100"><text>a{k}</text></answer><answer fraction="0"><text>b{k}'
        "</text></answer></question>" for k in range(n)) + "</quiz>", "b.xml")),
    ("aiken", lambda n: aiken.read("".join(
        f"Which {k}?\nA. a{k}\nB. b{k}\nANSWER: A\n\n" for k in range(n)), "b.txt")),
]


@pytest.mark.parametrize("what, read", READS, ids=[what for what, _ in READS])
def test_each_reader_is_linear_in_the_bank(what, read):
    assert sum(len(s.items) for s in read(10).sections) == 10, what
    short = least_cpu(lambda: read(1_000))
    long = least_cpu(lambda: read(4_000))
    assert long < 8 * max(short, 0.02), (what, short, long)
