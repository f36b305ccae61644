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

import re
from pathlib import Path

import pytest

from growth import least_cpu
from conftest import as_read, built_and_imported, written_questions
from nca_anki.importing import detect, spreadsheet

FORMATS = "markdown, json, typescript, yaml, csv, tsv, aiken, gift, moodle-xml, trivia"


def _write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


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
    assert [q[0] for q in written_questions(tmp_path / "out")] == [f"First{char}second?", "Third?"]


# An unclosed quote, in the ways it meets a reader: (the file, the line where the quote
# opens, what the message says of its end, the prompts that must still arrive).
UNCLOSED = {
    "never closed": (
        'Question,A,B,Answer\nWhich first?,a,b,A\n"Which quote?,a,b,A\nWhich next?,c,d,B\n'
        "Which last?,e,f,A\n", 3, "is never closed", ["Which first?", "Which next?",
                                                     "Which last?"]),
    "closed lines later, text after it": (
        'Question,A,B,Answer\n"Which quote?,a,b,A\nWhich next?,c,d,B\n"Quoted" one?,e,f,A\n'
        "Which last?,g,h,B\n", 2, "closes only on line 4, with text after it",
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
    assert f'{sheet}:{line}: error[E708]: a quote opens a cell here' in done.err
    assert says in done.err.split(f"{sheet}:{line}: error[E708]")[1].split("\n")[0]
    assert "close the quote" in done.err
    assert sorted(q[0] for q in written_questions(tmp_path / "out")) == sorted(prompts)
    assert "refused (spreadsheet row unreadable" in done.err.splitlines()[-1]


def test_a_quote_never_closed_in_the_header_is_said_there(tmp_path, cli):
    """The header's quote took the whole file into one cell: it was refused as a header
    with "no separator", though it has three."""
    sheet = _write(tmp_path, "bank.csv", '"Question,A,B,Answer\nWhich?,a,b,A\nOther?,c,d,B\n')
    done = _import(cli, tmp_path, sheet)
    assert done.status == 1
    assert f'{sheet}:1: error[E701]: the header row: a quote opens a cell here ' \
        "('\"Question,A,B,Answer') and is never closed" in done.err
    assert "nothing in the file was converted" in done.err and "E708" not in done.err


def test_a_quote_that_is_text_stays_text_and_quoted_cells_are_read_as_csv_says(tmp_path, cli):
    sheet = _write(tmp_path, "bank.csv", (
        'Question,A,B,Answer\n"5" or 6?,a,b,A\nWhich "word" here?,c,d,B\n'
        '"Which, with a comma?", "spaced, quoted",e,A\n'
        '"Which ""doubled"" quote\nover two lines?",e,f,B\n'))
    done = _import(cli, tmp_path, sheet)
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out") == [
        ('"5" or 6?', ["*a", "b"], ""), ('Which "word" here?', ["c", "*d"], ""),
        ("Which, with a comma?", ["*spaced, quoted", "e"], ""),
        # a cell's line break is a line the spreadsheet shows: a hard break ("\\")
        ('Which "doubled" quote\\\nover two lines?', ["e", "*f"], "")]


def test_a_cell_over_a_mebibyte_costs_its_row_only(tmp_path, cli):
    """Before, csv's field limit ended the reading: nothing in the file was converted."""
    big = "x" * (3 << 19)  # 1.5 MiB
    sheet = _write(tmp_path, "bank.csv", f"Question,A,B,Answer\nWhich first?,a,b,A\n"
                   f"Which big?,{big},b,A\nWhich last?,c,d,B\n")
    done = _import(cli, tmp_path, sheet)
    assert done.status == 1
    assert f"{sheet}:3: error[E708]: a cell of 1.5 MiB (column 'A'): no question's text is " \
        "that long (1 MiB at most); the row was not converted" in done.err
    assert [q[0] for q in written_questions(tmp_path / "out")] == ["Which first?", "Which last?"]
    assert done.err.splitlines()[-1].startswith(
        "read 3 questions in 1 file: 2 converted, 1 refused (spreadsheet row unreadable ×1)")


def test_a_row_with_more_cells_than_the_header_is_refused_never_read_shifted(tmp_path, cli):
    """"Which, if any?" unquoted is two cells: every cell after it would be read as the
    column before, the answer taken from a choice's cell."""
    sheet = _write(tmp_path, "bank.csv", "Question,A,B,Answer\nWhich, if any?,a,b,A\n"
                   "Which next?,c,d,B,,\n")
    done = _import(cli, tmp_path, sheet)
    assert done.status == 1
    assert f"{sheet}:2: error[E708]: the row has 5 cells, the header 4 columns (cells " \
        "separated by ','), so no cell's column is sure: a cell that holds the separator " \
        'must be in quotes ("Yes, both")' in done.err
    assert [q[0] for q in written_questions(tmp_path / "out")] == ["Which next?"]  # empty: fine


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
    "semicolons in a .txt": (
        "bank.txt", "Question;A;B;Answer\nWhich, if any?;a, b;c;A\nWhich next?;d;e;B\n",
        "';' (it splits", [("Which, if any?", ["*a, b", "c"]), ("Which next?", ["d", "*e"])]),
}


@pytest.mark.parametrize("case", SEPARATED)
def test_the_separator_is_told_from_the_file_and_said(tmp_path, cli, case):
    """A semicolon file was refused: "the header names no question and choice columns"."""
    name, text, said, expected = SEPARATED[case]
    sheet = _write(tmp_path, name, text)
    done = _import(cli, tmp_path, sheet)
    assert done.status == 0, done.err
    assert f"rows, cells separated by {said}" in done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "out")] == expected


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
    assert written_questions(tmp_path / "out") == [
        ("Which\\\ntwo lines?", ["*a", "b"], ""), ("Which next?", ["c", "*d"], ""),
        ("Which\\\ntab one?", ["e", "*f"], ""), ("Which, if any?", ["*g", "h"], "")]


# --- item 16: the format told by the content -------------------------------------------------

# Files that look like another format at a glance: (file name, text, the format they are in,
# the prompts that must arrive).
MISLEADING = {
    "JSON-looking Aiken": ("networking.txt", "[Networking]\nWhich layer routes packets?\n"
                           "A. Network\nB. Transport\nANSWER: A\n\nWhich port is HTTP's?\n"
                           "A. 80\nB. 22\nANSWER: A\n", "aiken",
                           ["[Networking\\]\nWhich layer routes packets?",
                            "Which port is HTTP's?"]),  # Aiken is plain: its "]" escaped
    "JSON-looking Aiken, numbered": ("n.txt", "[1] Which layer routes packets?\nA. Network\n"
                                     "B. Transport\nANSWER: A\n", "aiken",
                                     ["[1\\] Which layer routes packets?"]),
    "CSV-looking Aiken": ("c.txt", "Which of these, if any, is a layer?\nA. Network, third\n"
                          "B. Transport, fourth\nANSWER: A\n\nWhich, of these, is a port?\n"
                          "A. 80, HTTP\nB. 22, SSH\nANSWER: A\n", "aiken",
                          ["Which of these, if any, is a layer?", "Which, of these, is a port?"]),
    "GIFT-looking Markdown, in a fence": (
        "rust.txt", "# Rust\n\n#### Q1. What does this match?\n\n```rust\nmatch x {~0, 1} => "
        "{=y}\n```\n\n- [ ] Nothing\n- [x] Both values\n", "markdown",
        ["What does this match?\n\n```rust\nmatch x {~0, 1} => {=y}\n```"]),
    "GIFT-looking Markdown, in code spans": (
        "js.txt", "#### Which is an empty object: `{}` or `{=}`?\n\n- [x] `{}`\n- [ ] `{=}`\n\n"
        "#### Which pattern is `{~a}`?\n\n- [x] none\n- [ ] all\n", "markdown",
        ["Which is an empty object: `{}` or `{=}`?", "Which pattern is `{~a}`?"]),
    "YAML-looking Markdown": (
        "volta.txt", '---\nquestion: "Which GPU first had Tensor Cores?"\nexplanation: Volta.\n'
        "tags: gpu\nlevel: easy\nsource: nvidia\nauthor: me\n---\n\n- [ ] Pascal\n- [x] Volta\n",
        "markdown", ["Which GPU first had Tensor Cores?"]),
    "Markdown-looking YAML": (
        "net.txt", "# Networking\n# ==========\n- question: Which layer routes packets?\n"
        "  options:\n    - Network\n    - Transport\n  answer: 0\n\n# Ports\n"
        "- question: Which port is HTTP's?\n  options: ['80', '22']\n  answer: 0\n", "yaml",
        ["Which layer routes packets?", "Which port is HTTP's?"]),
    "Markdown that opens like JSON": (
        "toc.txt", "[[_TOC_]]\n\n## Networking\n\n#### Q1. Which layer routes packets?\n\n"
        "- [x] Network\n- [ ] Transport\n\n[[Back to top]]\n", "markdown",
        ["Which layer routes packets?"]),
    "GIFT with a comment that looks like YAML": (
        "g.txt", "// source: moodle\n// level: easy\n::Q1:: Which port is HTTP's? {=80 ~22}\n",
        "gift", ["Which port is HTTP's?"]),
    "YAML whose answers look like Markdown's 'Answer: A'": (
        "y.txt", "- question: Which layer routes packets?\n  choices: [Network, Transport]\n"
        "  answer: A\n- question: Which port is HTTP's?\n  choices: ['80', '22']\n"
        "  answer: A\n", "yaml", ["Which layer routes packets?", "Which port is HTTP's?"]),
    "GIFT whose feedback looks like Markdown headings": (
        "m.txt", "// Moodle export\n$CATEGORY: $course$/Networking\n\n::Q1:: Which layer "
        "routes packets? {\n  =Network\n  ~Transport\n  #### The network layer routes.\n}\n",
        "gift", ["Which layer routes packets?"]),
    "lettered Markdown, no checkboxes": (
        "l.txt", "### 1. Which layer routes packets?\nA. Network\nB. Transport\n\n"
        "**Answer: A**\n", "markdown", ["Which layer routes packets?"]),
    "CSV whose rows leave out their empty last cells": (
        "s.txt", "Question,A,B,C,Answer,Explanation\nWhich layer routes packets?,Network,"
        "Transport,,A\nWhich port is HTTP's?,80,22,443,A,Port 80.\n\"Which, if any?\","
        '"yes, both",no,,A\n', "csv",
        ["Which layer routes packets?", "Which port is HTTP's?", "Which, if any?"]),
    "TypeScript with a Markdown comment": (
        "q.txt", "// # Quiz\n// - [x] not a choice\nexport default [\n  { question: 'Which?', "
        "options: ['a', 'b'], answer: 0 },\n];\n", "typescript", ["Which?"]),
}


@pytest.mark.parametrize("case", MISLEADING)
def test_a_misleading_file_is_read_as_what_it_is(tmp_path, cli, case):
    name, text, form, prompts = MISLEADING[case]
    path = _write(tmp_path, name, text)
    done = _import(cli, tmp_path, path)
    assert done.status == 0, done.err
    assert [q[0] for q in written_questions(tmp_path / "out")] == prompts
    # Told from the content first, or read by the second guess: said either way.
    first = detect.guesses(text)[0].form
    assert first == form or f"read as {detect.NAMES[form]} (" in done.err


def test_a_wrong_first_guess_says_what_was_guessed_from_what_and_how_to_choose(tmp_path, cli):
    toc = _write(tmp_path, "toc.txt", MISLEADING["Markdown that opens like JSON"][1])
    done = _import(cli, tmp_path, toc)
    assert f"{toc}: warning[W709]: read as Markdown (2 checkbox choices ('- [ ]', '- [x]'), " \
        "2 headings): it looked like JSON first, which it is not (line 1: not valid JSON" \
        in done.err
    assert "; --from NAME says otherwise" in done.err


def test_a_failed_guess_names_the_format_its_evidence_and_the_way_out(tmp_path, cli):
    """Before: 'not valid JSON' and nothing else, for a file nobody said was JSON."""
    broken = _write(tmp_path, "bank.txt", '[{"question": "Which?", "options": ["a" "b"]}]\n')
    done = _import(cli, tmp_path, broken)
    assert done.status == 1
    assert f"{broken}: warning[W709]: read as JSON (it starts with '[' and ends with ']'), " \
        f"with errors; if it is another format, say which with --from NAME ({FORMATS})" \
        in done.err
    assert f"{broken}:1: error[E701]: not valid JSON" in done.err
    named = _write(tmp_path, "bank.json", broken.read_text())
    assert "W709" not in _import(cli, tmp_path, named).err  # its name said JSON


# --- linear time ------------------------------------------------------------------------------



HOSTILE = ["`", "```\n", " ", "answer" + " " * 9, "a:", "- ", "/*", '"', '"a\n', 'a"b\n',
           '"a"b,', '"a,\n"\n', 'x,"""\n', "a,b\n\"c,d\n", ";", "\t", "{=", "::", "\u2028"]


@pytest.mark.parametrize("unit", HOSTILE)
def test_detection_and_the_spreadsheet_reader_take_time_linear_in_the_text(unit):
    """Growth, not speed (docs/contributing.md): four times the text, about four times the
    CPU time; a fence of backticks tried at every length took sixteen."""
    def both(text: str) -> None:
        detect.guesses(text)
        spreadsheet.read("Question,A,B,Answer\n" + text, "bank.csv")

    short = least_cpu(lambda: both(unit * 5_000))
    long = least_cpu(lambda: both(unit * 20_000))
    assert long < 8 * max(short, 0.02), (unit, short, long)


# --- end to end: into a real collection -------------------------------------------------------

def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _arrived(root: Path) -> dict[str, list[tuple[str, list[str], str]]]:
    """Build root/out; import every deck into a new collection; each deck's cards as a
    learner reads them (prompt, sorted choices with "*" before each correct one,
    explanation), white space squeezed out."""
    _, decks = built_and_imported(root, source="out")
    return {deck: sorted((_squeezed(prompt), sorted(map(_squeezed, choices)), _squeezed(why))
                         for prompt, choices, why in map(as_read, cards))
            for deck, cards in decks.items()}


def _expected(*cards: tuple[str, list[str], str]) -> list[tuple[str, list[str], str]]:
    return sorted((_squeezed(p), sorted(_squeezed(c) for c in cs), _squeezed(e))
                  for p, cs, e in cards)


@pytest.mark.anki
def test_spreadsheets_and_misleading_files_arrive_in_anki_as_written(tmp_path, cli):
    """Excel's European CSV (a BOM, CRLF, its sep= line, semicolons, decimal commas, a cell
    over lines with doubled quotes, a U+2028 in a cell, a quote never closed, a cell over
    1 MiB), Excel's Unicode Text (UTF-16, tabs) and files whose first character misleads,
    imported without --from, built, and imported into a real collection."""
    europe = _write(tmp_path, "in/excel-europe.csv", "\r\n".join([
        "sep=;", "Question;A;B;C;Answer;Explanation",
        "Which value is 2,5 rounded down?;2;3;2,5;A;Decimal commas stay in their cell.",
        '"Which line\r\ncomes second?";first;"second ""quoted""";third;B;',
        "Which has a line separator\u2028in it?;yes;no;;A;",
        '"Which quote is never closed;a;b;;A;',
        "Which port does HTTPS use?;443;80;;A;Port 443.",
        "Which cell is too big?;" + "x" * (3 << 19) + ";b;;A;",
        "Which protocol is connectionless?;TCP;UDP;;B;", ""]).encode("utf-8-sig"))
    unicode_text = _write(tmp_path, "in/unicode-text.txt", "\r\n".join([
        "Question\tOption A\tOption B\tCorrect", "Which GPU first had Tensor Cores?\tPascal\t"
        "Volta\tB", '"Which two\r\nlines?"\tone\ttwo\tA', ""]).encode("utf-16"))
    aiken = _write(tmp_path, "in/networking.txt", MISLEADING["JSON-looking Aiken"][1])
    rust = _write(tmp_path, "in/rust.txt", MISLEADING["GIFT-looking Markdown, in a fence"][1])
    toc = _write(tmp_path, "in/toc.txt", MISLEADING["Markdown that opens like JSON"][1])
    done = _import(cli, tmp_path, europe, unicode_text, aiken, rust, toc)
    assert done.status == 1  # the two rows refused
    assert f"{europe}:7: error[E708]: a quote opens a cell here" in done.err
    assert f"{europe}:9: error[E708]: a cell of 1.5 MiB (column 'A')" in done.err
    assert "read 13 questions in 5 files: 11 converted, 2 refused (spreadsheet row " \
        "unreadable ×2)" in done.err
    decks = _arrived(tmp_path)
    assert decks == {
        "NCA::Excel Europe": _expected(
            ("Which value is 2,5 rounded down?", ["*2", "3", "2,5"],
             "Decimal commas stay in their cell."),
            ("Which line comes second?", ["first", '*second "quoted"', "third"], ""),
            ("Which has a line separator\u2028in it?", ["*yes", "no"], ""),
            ("Which port does HTTPS use?", ["*443", "80"], "Port 443."),
            ("Which protocol is connectionless?", ["TCP", "*UDP"], "")),
        "NCA::Unicode Text": _expected(
            ("Which GPU first had Tensor Cores?", ["Pascal", "*Volta"], ""),
            ("Which two lines?", ["*one", "two"], "")),
        "NCA::Networking": _expected(  # the Aiken file's name and toc.txt's heading
            ("[Networking] Which layer routes packets?", ["*Network", "Transport"], ""),
            ("Which port is HTTP's?", ["*80", "22"], ""),
            ("Which layer routes packets?", ["*Network", "Transport"], "[[Back to top]]")),
        "NCA::Rust": _expected(
            ("What does this match? match x {~0, 1} => {=y}", ["Nothing", "*Both values"],
             "")),
    }
