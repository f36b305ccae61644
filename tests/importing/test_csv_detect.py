"""``build_decks.py import`` of spreadsheets as Excel and people write them (issue 45, 6)
and of files whose format is told by their content (issue 45, 16): nothing is cut, nothing
swallowed, nothing of one row costs another, and a file that looks like one format at its
first character but is another is read as what it is.

Spreadsheets: a row ends only at a newline (a U+2028 in a cell is the cell's text); a
quote that is never closed, or closes lines later, is an error where it opens and the
rows after it are read; a cell over 1 MiB costs its row only; the separator (``,`` ``;``
tab ``|``, or Excel's ``sep=`` line) is told from the file and said.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nca_anki.importing import spreadsheet
from nca_anki.reading.parse import parse

def _write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


def _questions(out: Path) -> list[tuple[str, list[str], str]]:
    """Every question the import wrote, as the build's own parser reads it back: (prompt,
    choices with "*" before each correct one, explanation)."""
    found = []
    for path in sorted(out.glob("*.txt")):
        result = parse(path.read_text(encoding="utf-8"), path.name)
        assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
        found += [(q.prompt, [("*" if c.correct else "") + c.text for c in q.choices],
                   q.explanation) for q in result.file.questions]
    return found


def _import(cli, tmp_path: Path, *inputs: Path | str):
    return cli("import", *(str(i) for i in inputs), "--out", str(tmp_path / "out"))


# --- item 6: spreadsheets ------------------------------------------------------------------

# Every character str.splitlines() breaks a line at, other than "\n" and "\r".
LINE_BREAKS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


@pytest.mark.parametrize("char", LINE_BREAKS, ids=[f"U+{ord(c):04X}" for c in LINE_BREAKS])
def test_a_row_ends_only_at_a_newline(char):
    """An unquoted cell holding a character ``str.splitlines`` breaks at cut its row in
    two: the prompt lost its end and the next "row" was the rest."""
    reading = spreadsheet.read(f"Question,A,B,Answer\nWhich line{char}is it?,a,b,A\n"
                               "Which next?,c,d,B\n", "bank.csv")
    assert not [d for d in reading.problems if d.is_error], reading.problems
    items = [i for s in reading.sections for i in s.items]
    assert [(i.prompt, i.line) for i in items] == [
        (f"Which line{char}is it?", 2), ("Which next?", 3)]


@pytest.mark.parametrize("char", ["\u2028", "\u2029"])
def test_a_unicode_line_separator_in_a_cell_arrives_whole(tmp_path, cli, char):
    sheet = _write(tmp_path, "bank.csv", f"Question,A,B,Answer\nFirst{char}second?,a,b,A\n"
                   "Third?,c,d,B\n")
    done = _import(cli, tmp_path, sheet)
    assert done.status == 0, done.err
    assert [q[0] for q in _questions(tmp_path / "out")] == [f"First{char}second?", "Third?"]


# An unclosed quote, in the ways it meets a reader: (the file, the line where the quote
# opens, what the message says of its end, the prompts that must still arrive).
UNCLOSED = {
    "never closed": (
        'Question,A,B,Answer\nWhich first?,a,b,A\n"Which quote?,a,b,A\nWhich next?,c,d,B\n'
        "Which last?,e,f,A\n", 3, "is never closed", ["Which first?", "Which next?",
                                                     "Which last?"]),
    "closed lines later, text after it": (
        'Question,A,B,Answer\n"Which quote?,a,b,A\nWhich next?,c,d,B\n"Quoted" one?,e,f,A\n'
        "Which last?,g,h,B\n", 2, "closes only on line 4, with text right after it",
        ["Which next?", '"Quoted" one?', "Which last?"]),
    "closed lines later at a cell's end": (
        'Question,A,B,Answer\nWhich first?,"a,b,A\nWhich next?,c,d,B\nWhich 12" screen?,'
        'e,f,A\nWhich last?,g,h,B\n', 2, "closes only on line 4",
        ["Which next?", 'Which 12" screen?', "Which last?"]),
    "after a cell that rightly spans lines": (
        'Question,A,B,Answer\n"Which two\nlines?",a,"b\n"oops,A\nWhich next?,c,d,B\n', 4,
        "is never closed", ["Which next?"]),
}


@pytest.mark.parametrize("case", UNCLOSED)
def test_a_quote_never_closed_is_an_error_where_it_opens_and_the_rows_after_it_are_read(
        tmp_path, cli, case):
    """Before, the quote took every row after it into one cell, and the file was refused
    as having "no question and choice columns" (or its rows went missing silently)."""
    text, line, says, prompts = UNCLOSED[case]
    sheet = _write(tmp_path, "bank.csv", text)
    done = _import(cli, tmp_path, sheet)
    assert done.status == 1, done.err
    assert f'{sheet}:{line}: error[E708]: a quote (") opens a cell here' in done.err
    assert says in done.err.split(f"{sheet}:{line}: error[E708]")[1].split("\n")[0]
    assert "close the quote" in done.err
    assert sorted(q[0] for q in _questions(tmp_path / "out")) == sorted(prompts)
    assert "refused (spreadsheet row unreadable" in done.err.splitlines()[-1]


def test_a_quote_that_is_text_stays_text_and_quoted_cells_are_read_as_csv_says(tmp_path, cli):
    sheet = _write(tmp_path, "bank.csv", (
        'Question,A,B,Answer\n"5" or 6?,a,b,A\nWhich "word" here?,c,d,B\n'
        '"Which, with a comma?", "spaced, quoted",e,A\n'
        '"Which ""doubled"" quote\nover two lines?",e,f,B\n'))
    done = _import(cli, tmp_path, sheet)
    assert done.status == 0, done.err
    assert _questions(tmp_path / "out") == [
        ('"5" or 6?', ["*a", "b"], ""), ('Which "word" here?', ["c", "*d"], ""),
        ("Which, with a comma?", ["*spaced, quoted", "e"], ""),
        ('Which "doubled" quote\nover two lines?', ["e", "*f"], "")]


def test_a_cell_over_a_mebibyte_costs_its_row_only(tmp_path, cli):
    """Before, csv's field limit ended the reading: nothing in the file was converted."""
    big = "x" * (3 << 19)  # 1.5 MiB
    sheet = _write(tmp_path, "bank.csv", f"Question,A,B,Answer\nWhich first?,a,b,A\n"
                   f"Which big?,{big},b,A\nWhich last?,c,d,B\n")
    done = _import(cli, tmp_path, sheet)
    assert done.status == 1
    assert f"{sheet}:3: error[E708]: a cell of 1.5 MiB (column 'A'): no question's text is " \
        "that long (1 MiB at most); the row was not converted" in done.err
    assert [q[0] for q in _questions(tmp_path / "out")] == ["Which first?", "Which last?"]
    assert done.err.splitlines()[-1].startswith(
        "read 3 questions in 1 file: 2 converted, 1 refused (spreadsheet row unreadable ×1)")


def test_a_row_with_more_cells_than_the_header_is_refused_never_read_shifted(tmp_path, cli):
    """"Which, if any?" unquoted is two cells: every cell after it would be read as the
    column before, the answer taken from a choice's cell."""
    sheet = _write(tmp_path, "bank.csv", "Question,A,B,Answer\nWhich, if any?,a,b,A\n"
                   "Which next?,c,d,B,,\n")
    done = _import(cli, tmp_path, sheet)
    assert done.status == 1
    assert f"{sheet}:2: error[E708]: the row has 5 cells where the header names 4 columns " \
        "(cells separated by ','), so which cell is which column cannot be told: a cell " \
        'that holds the separator must be in quotes ("Yes, both")' in done.err
    assert [q[0] for q in _questions(tmp_path / "out")] == ["Which next?"]  # empty: fine


# (the file's name, its text, the separator as said, the prompts and choices read)
SEPARATED = {
    "semicolons, as Excel writes in Europe": (
        "bank.csv", "Frage;A;B;Answer\nWie viel ist 2,5 + 2,5?;5;5,5;A\n"
        "Welche, wenn überhaupt?;ja, beide;nein;A\n", "';' (it splits the header and 2 of "
        "the 2 rows after it into 4 cells each)",
        [("Wie viel ist 2,5 + 2,5?", ["*5", "5,5"]),
         ("Welche, wenn überhaupt?", ["*ja, beide", "nein"])]),
    "Excel's sep= line": (
        "bank.csv", "sep=;\nQuestion;A;B;Answer\nWhich, if any?;yes, both;no;A\n",
        "';' (the file's first line, 'sep=;', says so)",
        [("Which, if any?", ["*yes, both", "no"])]),
    "pipes": (
        "bank.csv", "Question|A|B|Answer\nWhich, if any?|a, b|c|A\nWhich next?|d|e|B\n",
        "'|' (it splits", [("Which, if any?", ["*a, b", "c"]), ("Which next?", ["d", "*e"])]),
    "tabs in a .csv": (
        "bank.csv", "Question\tA\tB\tAnswer\nWhich, if any?\ta, b\tc\tA\n",
        "a tab (it splits", [("Which, if any?", ["*a, b", "c"])]),
}


@pytest.mark.parametrize("case", SEPARATED)
def test_the_separator_is_told_from_the_file_and_said(tmp_path, cli, case):
    """A semicolon file was refused: "the header names no question and choice columns"."""
    name, text, said, expected = SEPARATED[case]
    sheet = _write(tmp_path, name, text)
    done = _import(cli, tmp_path, sheet)
    assert done.status == 0, done.err
    assert f"rows, cells separated by {said}" in done.err
    assert [(p, c) for p, c, _ in _questions(tmp_path / "out")] == expected


def test_a_header_that_no_separator_splits_says_so(tmp_path, cli):
    sheet = _write(tmp_path, "bank.csv", "Question Answer\nWhich? yes\n")
    done = _import(cli, tmp_path, sheet)
    assert done.status == 1
    assert f"{sheet}:1: error[E701]: the header row ('Question Answer') has no separator " \
        "between column names (',', ';', a tab, '|')" in done.err


def test_bom_crlf_and_utf16_as_excel_saves_them(tmp_path, cli):
    """Excel's "CSV UTF-8" (a BOM, CRLF, a quoted cell with a line break) and its "Unicode
    Text" (UTF-16 with a BOM, tabs, CRLF, saved as .txt: told by its content)."""
    utf8 = _write(tmp_path, "in/excel.csv", "\ufeffQuestion,A,B,Answer\r\n"
                  '"Which\r\ntwo lines?",a,b,A\r\nWhich next?,c,d,B\r\n'.encode("utf-8-sig"))
    utf16 = _write(tmp_path, "in/unicode.txt", (
        'Question\tA\tB\tAnswer\r\n"Which\r\ntab one?"\te\tf\tB\r\nWhich, if any?\tg\th\tA\r\n'
    ).encode("utf-16"))
    done = _import(cli, tmp_path, utf8, utf16)
    assert done.status == 0, done.err
    assert _questions(tmp_path / "out") == [
        ("Which\ntwo lines?", ["*a", "b"], ""), ("Which next?", ["c", "*d"], ""),
        ("Which\ntab one?", ["e", "*f"], ""), ("Which, if any?", ["*g", "h"], "")]
