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


YAML_BANK = """# a hand-written bank
title: Geografía
questions:
  - question: "¿Cuál es el río más largo de Europa?"
    options: [Volga, Danubio, Rin]
    answer: 0
    explanation: >
      El Volga mide unos 3.500 km.
  - question: Which are in Asia?
    options:
      - Mekong
      - Loire
      - Ganges
    answer: [0, 2]
  - question: 'Which flag is "yes" in YAML 1.1?'
    options: [yes, no]
    answer: 0
"""


@pytest.mark.anki
def test_a_yaml_bank_read_from_its_events_arrives_in_anki(tmp_path, cli):
    """The YAML reader builds values from the parser's events (no node tree): flow and
    block lists, folded text, quotes and YAML 1.1's yes/no arrive as written."""
    from conftest import built_and_imported

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "geo.yaml").write_text(YAML_BANK, encoding="utf-8")
    done = cli("import", str(tmp_path / "in" / "geo.yaml"), "--out", str(tmp_path / "source"))
    assert done.status == 0, done.err
    _, cards = built_and_imported(tmp_path)
    [deck] = cards.values()
    said = {c.fields["Prompt"]: c for c in deck}
    volga = next(c for p, c in said.items() if "Europa" in p)
    assert "Volga" in volga.fields["Choices"] and "3.500 km" in volga.fields["Explanation"]
    asia = next(c for p, c in said.items() if "Asia" in p)
    assert all(river in asia.fields["Choices"] for river in ("Mekong", "Ganges", "Loire"))
    flag = next(c for p, c in said.items() if "flag" in p)
    assert "yes" in flag.fields["Choices"] and "True" not in flag.fields["Choices"]
