"""A bank in UTF-8 but for a few damaged bytes (issue 46, round 5): a word pasted from a
Windows editor (“ ” é as single Windows-1252 bytes), a character an earlier conversion cut
short and ended with "?". The file is UTF-8: every other character arrives as written, each
damaged place is read as what it most likely was and named once at its line. A file that
really is in a one-byte encoding is still read as one. Every bank here is written for the
test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import written_questions

# Greek, arrows and curly quotes in UTF-8 (whose bytes a detector, not finding UTF-8, reads
# as a Baltic or Cyrillic code page), and on two lines a damaged place.
_TRIVIA = "\n".join([
    "#Q The letter σ (sigma) stands for what in statistics?",
    "^ The standard deviation",
    "A The mean",
    "B The standard deviation",
    "",
    "#Q Which arrow “→” points right?",
    "^ →",
    "A ←",
    "B →",
    "",
    "#Q Which word means @OPEN@nature@CLOSE@ in Greek, φ@CUT@σις?",
    "^ Physis",
    "A Physis",
    "B Logos",
    "",
    "#Q Who sang in Caf@E@ Mozart?",
    "^ Ren@E@e",
    "A Ren@E@e",
    "B Zoë",
    "",
]).encode("utf-8")
_DAMAGED = (_TRIVIA.replace(b"@OPEN@", b"\x93").replace(b"@CLOSE@", b"\x94")
            .replace(b"@CUT@", b"\xcf?").replace(b"@E@", b"\xe9"))
_EXPECTED = [
    ("The letter σ (sigma) stands for what in statistics?",
     ["The mean", "*The standard deviation"]),
    ("Which arrow “→” points right?", ["←", "*→"]),
    ("Which word means “nature” in Greek, φ\ufffdσις?", ["*Physis", "Logos"]),
    ("Who sang in Café Mozart?", ["*Renée", "Zoë"]),
]


def _import(cli, tmp_path: Path, name: str, data: bytes, *more: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_bytes(data)
    done = cli("import", str(bank), "--out", str(tmp_path / "out"), *more)
    assert "Traceback" not in done.err, done.err
    return bank, done


def test_a_utf8_bank_with_a_few_damaged_bytes_keeps_every_other_character(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "greek", _DAMAGED, "--json")
    assert done.status == 0, done.out
    assert written_questions(tmp_path / "out", explained=False) == _EXPECTED
    said = json.loads(done.out)["diagnostics"]
    # One warning at each damaged line, none for the file as a whole, and no other: the
    # lost character is said once, in W101 (not in W103 as well).
    assert [(d["code"], d["path"], d["line"]) for d in said] == [
        ("W101", bank.as_posix(), line) for line in (11, 16, 17, 18)]
    assert said[0]["message"] == (
        "not valid UTF-8: 0x93 read as Windows-1252 '“', 0x94 as '”' and 1 more; type them "
        "again and save the file as UTF-8")
    assert "0xE9 read as Windows-1252 'é'" in said[1]["message"]


@pytest.mark.parametrize("bad", [b"\x96", b"\x96" * 2, b"\xe2\x80?"],
                         ids=["one", "two", "cut"])
def test_a_spreadsheet_in_utf8_with_damaged_bytes_is_read_as_utf8(tmp_path, cli, bad):
    rows = ["question,a,b,answer", "Which letter is “β”?,beta,alpha,a",
            "Which is µ?,mu,nu,a", "Which road is 10@ 20 km?,the long one,the short one,b"]
    data = "\n".join(rows).encode("utf-8").replace(b"@", bad) + b"\n"
    _, done = _import(cli, tmp_path, "letters.csv", data)
    assert done.status == 0, done.err
    questions = written_questions(tmp_path / "out", explained=False)
    assert [q[0] for q in questions[:2]] == ["Which letter is “β”?", "Which is µ?"]
    assert questions[2][0] in ("Which road is 10– 20 km?", "Which road is 10–– 20 km?",
                               "Which road is 10\ufffd 20 km?")
    assert done.err.count("W101") == 1 and ":4: warning[W101]: not valid UTF-8" in done.err


def test_a_windows_1252_bank_is_still_read_as_windows_1252(tmp_path, cli):
    text = "\n".join(["#Q Which café sits “by the river”?", "^ Le Pré", "A Le Pré",
                      "B Chez Léon", "", "#Q Où est la Seine ?", "^ À Paris", "A À Paris",
                      "B À Nîmes", ""])
    _, done = _import(cli, tmp_path, "cafes", text.encode("cp1252"))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out", explained=False) == [
        ("Which café sits “by the river”?", ["*Le Pré", "Chez Léon"]),
        ("Où est la Seine ?", ["*À Paris", "À Nîmes"])]
    assert done.err.count("W101") == 1 and "cp1252" in done.err


def test_a_bank_mostly_of_bytes_utf8_cannot_read_is_not_read_as_utf8(tmp_path, cli):
    # One UTF-8 character among many Latin-1 letters: the file is Latin-1, and the one
    # pair of bytes is read so too (then repaired as the mojibake it looks like).
    text = "#Q Qual é a língua de São Tomé?\n^ Português\nA Português\nB Inglês\n"
    data = text.encode("latin-1") + "#Q Which is σ?\n^ sigma\nA sigma\nB rho\n".encode()
    _, done = _import(cli, tmp_path, "linguas", data)
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out", explained=False)[0] == (
        "Qual é a língua de São Tomé?", ["*Português", "Inglês"])
    assert "not valid UTF-8:" not in done.err


@pytest.mark.anki
def test_a_bank_with_damaged_bytes_arrives_in_anki_as_written(tmp_path, cli):
    from conftest import as_read, built_and_imported

    _, done = _import(cli, tmp_path, "greek", _DAMAGED)
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path, source="out")
    cards = sorted((prompt, sorted(choices)) for each in decks.values()
                   for prompt, choices, _ in map(as_read, each))
    assert cards == sorted((prompt, sorted(choices)) for prompt, choices in _EXPECTED)
