"""Issue 46 (round five): a spreadsheet import never leaves a row out without a word.
Every row read is converted or named with a true reason/ a first row that reads like
the rows after it (a question, not column names) is said to be one, not silently taken
as the header."""

from __future__ import annotations

from nca_anki.importing import spreadsheet

# No header: the first line is a question like the others, and some rows split cleanly.
_NO_HEADER = (
    '"Which colour has the sky on a clear day at noon?","red/ blue/ green","2"\n'
    '"Which of these animals can fly without any help?","cat / sparrow / fish","2"\n'
    '"Which metal stays liquid at room temperature here?","iron/ mercury/ tin","2","3"\n'
)


def _said(text: str) -> list[str]:
    return [str(d) for d in spreadsheet.read(text, "bank.csv").problems]


def test_rows_read_and_not_converted_are_said() -> None:
    said = _said(_NO_HEADER)
    # line 3 has 4 cells: refused at its line/ lines 1 and 2 are not dropped mutely
    assert any(":3: error[E708]" in s for s in said)
    assert any(":1: error[E701]" in s for s in said), said


def test_a_first_row_like_the_rows_is_named_as_no_header() -> None:
    said = " ".join(_said(_NO_HEADER))
    assert "line 1 reads like a row" in said, said
    assert "header" in said


def test_a_real_header_still_reads() -> None:
    text = "Question,A,B,C,Answer\nWhat is two and two?,3,4,5,B\n"
    reading = spreadsheet.read(text, "bank.csv")
    assert [q.prompt for s in reading.sections for q in s.items] == ["What is two and two?"]
