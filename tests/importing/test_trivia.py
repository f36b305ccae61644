"""OpenTriviaQA's plain text (issue 46, round 5): '#Q' prompt, '^' the right answer's
text, 'A …' choices, in files without an extension. Read by content; every question left
out is named at its line with its reason; the time is linear. Every bank here is written
for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import written_questions
from growth import least_cpu
from nca_anki.importing import trivia
from nca_anki.importing.detect import detect

BANK = """
#Q Which planet is known as the red one?
^ Mars
A Venus
B Mars
C Jupiter

#Q A riddle over lines:
A lake has no water,
a road has no car.
What is it?
^ A map
A A map
B A dream

#Q Is *this* a_b or _u_ or <b>x</b>?
# not a heading
^ No
A Yes
B No
"""


def _import(cli, tmp_path: Path, name: str, text: str | bytes):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    bank.write_bytes(text)
    done = cli("import", str(bank), "--out", str(tmp_path / "source"))
    assert "Traceback" not in done.err, done.err
    return bank, done


@pytest.mark.parametrize("ending", ["\n", "\r\n"], ids=["LF", "CRLF"])
def test_a_file_without_extension_is_read_as_trivia(tmp_path, cli, ending):
    """Told by content; the prompt runs to the '^' line (a prompt line that starts like a
    choice, "A lake …", is the prompt's); plain text shows as typed."""
    assert detect("animals", BANK) == "trivia"
    bank, done = _import(cli, tmp_path, "riddles", BANK.replace("\n", ending))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "source", explained=False) == [
        ("Which planet is known as the red one?", ["Venus", "*Mars", "Jupiter"]),
        ("A riddle over lines:\nA lake has no water,\na road has no car.\nWhat is it?",
         ["*A map", "A dream"]),
        ("Is \\*this\\* a_b or \\_u\\_ or <b>x</b>?\n\\# not a heading", ["Yes", "*No"])]


def test_questions_that_make_no_card_are_named_at_their_line(tmp_path, cli):
    text = ("#Q Which is a fruit?\n^ Pear\nA Apple\nB Plum\n\n"  # 1: '^' matches no choice
            "#Q Which is blue?\n^ Sky\nA Sky\n\n"  # 6: one choice
            "#Q Which is cold?\nA Ice\nB Fire\n\n"  # 10: no '^' line
            "#Q Which is loud?\n^ Drum\nA Drum\nthen a remark\nB Flute\n\n"  # 14
            "#Q Which is hot?\n^ Fire\nA Fire\nB \nC Ice\n\n"  # 20: "B " without text
            "#Q Which is sweet?\n^ Honey\nA Salt\nB  Honey \n")  # 26: spaces evened out
    bank, done = _import(cli, tmp_path, "odd", text)
    assert done.status == 1, done.err
    assert f"{bank}:2: error[E703]: the right answer 'Pear' ('^') is the text of none of " \
           "its choices" in done.err, done.err
    assert f"{bank}:6: error[E702]: 1 choice ('A <text>' lines after the '^' line)" \
           in done.err, done.err
    assert f"{bank}:10: error[E703]: no '^ <right answer>' line" in done.err, done.err
    assert f"{bank}:17: error[E702]: a line among the choices that is no choice" \
           in done.err, done.err
    assert f"{bank}:23: error[E702]: the choice 'B' has no text" in done.err, done.err
    assert written_questions(tmp_path / "source", explained=False) == [
        ("Which is sweet?", ["Salt", "*Honey"])]


def test_text_before_the_first_question_is_said_once():
    reading = trivia.read("a header\nmore of it\n\n#Q Which?\n^ B\nA a\nB B\n", "x")
    assert [d.code for d in reading.problems] == ["W701"]
    assert reading.problems[0].line == 1
    assert len(reading.sections[0].items) == 1


def _bank(n: int) -> str:
    return "".join(f"#Q Question number {k} of the bank?\n^ right {k}\nA wrong {k}\n"
                   f"B right {k}\nC other {k}\n\n" for k in range(n))


def test_reading_is_linear():
    """Ten times the questions take about ten times the time, not a hundred; so does a
    prompt that never reaches its '^' line (recognising it included)."""
    small, big = _bank(2_000), _bank(20_000)
    ratio = least_cpu(lambda: (trivia.read(big, "x"), detect("x", big))) / \
        least_cpu(lambda: (trivia.read(small, "x"), detect("x", small)))
    assert ratio < 25, ratio
    lines_small, lines_big = "#Q x\n" + "A line\n" * 20_000, "#Q x\n" + "A line\n" * 200_000
    ratio = least_cpu(lambda: trivia.read(lines_big, "x")) / \
        least_cpu(lambda: trivia.read(lines_small, "x"))
    assert ratio < 25, ratio
