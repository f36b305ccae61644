"""What an import says, and where (issue 46, 10): every place in a message is a place in
the input the author gave, never a line of the question file the import wrote; and no
message is longer than a line or two, whatever the bank quotes into it: quoted text is cut
with an ellipsis and lists of quoted names are capped, in one place every import message
passes through (importing/messages.py), the message's own words kept whole."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from growth import least_cpu
from nca_anki.importing.bank import Choice, Item, Reading, Section
from nca_anki.importing.convert import convert
from nca_anki.importing.messages import LIMIT, QUOTED, readable_message


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def _diagnostics(cli, *args: str) -> list[dict]:
    done = cli("import", *args, "--json")
    return json.loads(done.out)["diagnostics"]


# --- places ------------------------------------------------------------------------------------

def _gift(count: int, last: str) -> str:
    """``count`` good questions, each on a line of its own, then ``last``."""
    return "".join(f"::q{k}:: Which number is {k}? {{={k} ~{k + 1} ~{k + 2}}}\n"
                   for k in range(1, count + 1)) + last + "\n"


def test_a_choice_written_twice_is_placed_in_the_input_not_in_the_written_file(tmp_path, cli):
    """Before: "(also at line 357)" for a 61-line input, the line of the question file.
    (A choice right in one place and wrong in another is refused before it is written.)"""
    bank = _write(tmp_path, "bank.gift", _gift(60, "::dup:: Which city is a capital? "
                                                   "{~Lyon =Paris ~Paris ~Nice}"))
    [said] = _diagnostics(cli, str(bank), "--out", str(tmp_path / "out"))
    assert (said["code"], said["line"]) == ("E703", 61)
    assert "lists the choice 'Paris' twice, once as right and once as wrong" in \
        said["message"], said
    assert not re.search(r"\bline \d", said["message"]), said


def _items(count: int, path: str = "bank.json") -> list[Item]:
    return [Item(prompt=f"Which number is {k}?", choices=(Choice(str(k), True),
                                                          Choice(str(k + 1), False)),
                 path=path, line=10 * k, where=f"[{k - 1}]") for k in range(1, count + 1)]


def test_what_the_parser_says_of_a_written_question_is_said_of_the_input_question():
    """Whatever the question file's parser names (a line, a question by its number), the
    message names the input's question and which of its parts it is."""
    # the mark written into a choice's text: the question file reads "apple" twice
    bad = Item(prompt="Pick the fruit", choices=(Choice("apple", True), Choice("pear", False),
                                                 Choice("apple (Correct answer)", False)),
               explanation="An apple is a fruit.", path="bank.json", line=999, where="[40]")
    items = _items(40) + [bad]
    reading = Reading((Section(title="Fruit", items=tuple(items), path="bank.json"),))
    [problem] = convert([reading]).problems
    assert (problem.path, problem.line) == ("bank.json", 999)
    assert problem.message.startswith("[40] cannot be written as a question file: "
                                      "choice C: the question lists the choice 'apple' twice "
                                      "(also at choice A)"), problem.message


def test_a_place_in_another_written_question_is_that_question_s_place_in_the_input():
    from nca_anki.importing import convert as conversion

    items = _items(3)
    _, _, layout = conversion._render("T", 1, items)
    second = next(n for n, (k, role) in enumerate(layout, start=1) if k == 1)
    said = conversion._in_input(f"Question 3 repeats Question 2 (line {second}); see line "
                                f"{second + 1} and 'line 4 of the text'", 2, layout, items)
    assert said == ("the question repeats the question at line 20 ([1]); see the "
                    "question at line 20 ([1]) and 'line 4 of the text'"), said


# --- lengths -----------------------------------------------------------------------------------

def test_a_long_quote_is_cut_inside_its_quotes_and_the_message_s_words_kept():
    words = "a word " * 30
    said = readable_message(f"the choice {words!r} is written twice; delete one")
    assert said.startswith("the choice 'a word a word") and said.endswith(
        "…' is written twice; delete one"), said
    assert len(said) < len("the choice '' is written twice; delete one") + QUOTED + 1


def test_the_words_of_a_message_are_not_taken_for_quotes():
    own = ("each choice's 'value' as its text; the author's words, don't cut them: " * 4)
    assert readable_message(own) == own


def test_a_cut_never_leaves_half_an_escape():
    said = readable_message("text " + repr("x" * 58 + "\n" + "y" * 40) + " was not converted")
    assert "\\…" not in said and "'xxxx" in said and said.endswith("…' was not converted")


def test_a_long_list_of_quoted_names_is_capped():
    keys = ", ".join(repr(f"key{k}") for k in range(17))
    assert readable_message(f"read 3 objects; left out {keys}; if that is wrong, say so") == \
        "read 3 objects; left out 'key0', 'key1', 'key2' and 14 more; if that is wrong, say so"
    five = "'A', 'B', 'C', 'D', 'E'"
    assert readable_message(f"{five} as the choices") == f"{five} as the choices"


@pytest.mark.parametrize("unit", ["'a ", " 'a", "\"' ", "'\\", ", 'x'", "x' 'y", "k"])
def test_making_a_message_readable_is_linear(unit):
    short = least_cpu(lambda: readable_message(unit * 20_000))
    long = least_cpu(lambda: readable_message(unit * 80_000))
    assert long < 8 * max(short, 0.05), (unit, short, long)


BIG = "x" * 20_000


def _hostile(folder: Path) -> list[Path]:
    """Banks that put long text where messages quote it: a web address, a picture's data,
    a question type, choices, header cells, an answer, a broken quote, a YAML tag."""
    xml = ('<?xml version="1.0"?>\n<quiz>\n<question type="multichoice"><questiontext '
           'format="html"><text><![CDATA[<p>Which? <img src="{}"></p>]]></text>'
           '</questiontext><answer fraction="100"><text>one</text></answer><answer '
           'fraction="0"><text>two</text></answer></question>\n'
           '<question type="{}"><questiontext><text>Other?</text></questiontext></question>'
           '\n</quiz>\n')
    return [
        _write(folder, "web.xml", xml.format(f"https://example.org/{BIG}.png", BIG)),
        _write(folder, "data.xml", xml.format(f"data:image/png;base64,{BIG}!", "essay")),
        _write(folder, "web.md", f"# Quiz\n\n#### Q1. Which? ![x](https://e.org/{BIG})\n"
                                 "- [x] one\n- [ ] two\n"),
        _write(folder, "away.md", f"# Quiz\n\n#### Q1. Which? ![x](pictures/{BIG}.png)\n"
                                  "- [x] one\n- [ ] two\n"),
        _write(folder, "twice.gift", f"::t:: Which? {{={BIG} ~{BIG} ~short}}\n"),
        _write(folder, "header.tsv", "Question\t" + "\t".join(f"Column {k} {BIG[:3000]}"
                                                               for k in range(6)) + "\nQ?\ta\n"),
        _write(folder, "quote.csv", f'question,a,b,answer\n"{BIG},x,y,A\nWhich?,a,b,A\n'),
        _write(folder, "tag.yaml", f"- question: !!python/object:{BIG} x\n  options: [a, b]\n"),
        _write(folder, "answer.json", json.dumps([{"question": "Which?", "options": ["a", "b"],
                                                   "answer": "Z" * 20_000}])),
        _write(folder, "misread.txt", "[" + BIG + "\n"),
    ]


def test_no_message_of_a_hostile_bank_is_longer_than_a_line_or_two(tmp_path, cli):
    """Before: messages of 20,000 characters and more (the picture's data, the address,
    the choices, the header's cells)."""
    for bank in _hostile(tmp_path / "in"):
        said = _diagnostics(cli, str(bank), "--out", str(tmp_path / "out" / bank.stem))
        assert said, bank
        for d in said:
            assert len(d["message"]) <= LIMIT, (bank.name, d)
            assert "x" * QUOTED not in d["message"], (bank.name, d)


def test_input_text_named_without_quotes_loses_its_middle():
    """A JSON path through a key of 5,000 letters is no word of the message."""
    path = "k" * 5_000 + "[0].answer"
    said = readable_message(f"{path}: the answer names none of the 2 choices; not converted")
    run = f"{path}:"
    assert said == f"{run[:40]}…{run[-40:]} the answer names none of the 2 choices; not " \
        "converted"


def test_a_json_path_through_a_long_key_is_cut_in_the_message(tmp_path, cli):
    bank = _write(tmp_path, "bank.json", json.dumps({"k" * 5_000: [
        {"question": "Which?", "options": ["a", "b"], "answer": "Z"},
        {"question": "Other?", "options": ["a", "b"], "answer": 0}]}))
    said = _diagnostics(cli, str(bank), "--out", str(tmp_path / "out"))
    assert [d["code"] for d in said] == ["E703", "W704"]
    assert len(said[0]["message"]) <= LIMIT and said[0]["message"].startswith("k" * 40 + "…")
