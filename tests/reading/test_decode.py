"""Tests for nca_anki.reading.decode: bytes in, text plus positioned warnings out, never raising."""

from __future__ import annotations


import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import nca_anki.reading.decode as decode
from nca_anki.reading.decode import decode_source
from nca_anki.diagnostics import Severity

from conftest import REPO

PATH = "src/q.txt"

NOT_UTF8 = ("file is not valid UTF-8 (first bad byte on this line); read it as {enc}. "
            "Save the file as UTF-8 to silence this warning")
FFFD = ("text contains U+FFFD (a character lost in an earlier encoding conversion); "
        "it cannot be repaired, fix the source file")
CONTROLS = "control characters removed; fix the source file"
UTF16_NO_BOM = ("file is UTF-16 ({order}-endian, without a byte-order mark); read it as such. "
                "Save it as UTF-8 to silence this warning")
SEED = (REPO / "source"
        / "nca-ai-deep-learning-frameworks-4.txt")


def shown(decoded) -> list[str]:
    return [str(d) for d in decoded.diagnostics]


# --- encodings ----------------------------------------------------------------------------

def test_plain_utf8_is_decoded_unchanged_without_diagnostics():
    decoded = decode_source("Title — Questions and Answers\nQuestion 1: é?\n".encode(), PATH)
    assert decoded.text == "Title — Questions and Answers\nQuestion 1: é?\n"
    assert decoded.encoding == "utf-8"
    assert decoded.diagnostics == ()


def test_utf8_bom_is_removed():
    decoded = decode_source(b"\xef\xbb\xbfTitle\nline", PATH)
    assert decoded.text == "Title\nline"
    assert not decoded.text.startswith("\ufeff")
    assert decoded.encoding == "utf-8"
    assert decoded.diagnostics == ()


def test_crlf_and_lone_cr_become_lf():
    decoded = decode_source(b"one\r\ntwo\rthree\nfour\r\n\r\nsix\r", PATH)
    assert decoded.text == "one\ntwo\nthree\nfour\n\nsix\n"
    assert decoded.diagnostics == ()


def test_cp1252_bytes_are_decoded_with_a_warning_at_the_first_bad_line():
    data = b"Title\nfine line\n" + "café — x".encode("cp1252") + b"\nlast \x93q\x94"
    decoded = decode_source(data, PATH)
    assert decoded.text == "Title\nfine line\ncafé — x\nlast “q”"
    assert decoded.encoding == "cp1252"
    assert shown(decoded) == [f"{PATH}:3: warning[W101]: " + NOT_UTF8.format(enc="cp1252")]


@pytest.mark.parametrize("newline", [b"\r\n", b"\r"])
def test_cp1252_line_number_counts_crlf_and_lone_cr_lines(newline):
    decoded = decode_source(newline.join([b"a", b"b", b"c\xe9"]), PATH)
    assert decoded.text == "a\nb\ncé"
    assert [d.line for d in decoded.diagnostics] == [3]


def test_cp1252_after_a_bom_is_still_decoded():
    decoded = decode_source(b"\xef\xbb\xbfna\xefve", PATH)
    assert decoded.text == "naïve"
    assert decoded.encoding == "cp1252"
    assert [d.line for d in decoded.diagnostics] == [1]


def test_bytes_undefined_in_cp1252_fall_back_to_latin1_without_raising():
    decoded = decode_source(b"ok\nline2\nbad \x81 x", PATH)
    assert decoded.encoding == "latin-1"
    # U+0081 is a C1 control character: dropped, and reported on the same line.
    assert decoded.text == "ok\nline2\nbad  x"
    assert shown(decoded) == [
        f"{PATH}:3: warning[W101]: " + NOT_UTF8.format(enc="latin-1"),
        f"{PATH}:3: warning[W104]: " + CONTROLS,
    ]


@pytest.mark.parametrize("codec, order", [("utf-16-le", "little"), ("utf-16-be", "big")])
def test_utf16_without_bom_is_detected_by_its_nul_bytes_and_decoded_with_a_warning(codec, order):
    text = SEED.read_text(encoding="utf-8") + "\nCafé — naïve “quotes” 日本語\n"
    decoded = decode_source(text.encode(codec), PATH)
    assert decoded.text == text
    assert decoded.encoding == codec
    assert shown(decoded) == [f"{PATH}:1: warning[W101]: " + UTF16_NO_BOM.format(order=order)]


@pytest.mark.parametrize("codec, order", [("utf-16-le", "little"), ("utf-16-be", "big")])
def test_short_utf16_without_bom_with_crlf_is_decoded(codec, order):
    decoded = decode_source("T 1 — Questions and Answers\r\nQ?\r\n".encode(codec), PATH)
    assert decoded.text == "T 1 — Questions and Answers\nQ?\n"
    assert shown(decoded) == [f"{PATH}:1: warning[W101]: " + UTF16_NO_BOM.format(order=order)]


def test_utf16_without_bom_and_a_stray_last_byte_reports_the_lost_character():
    decoded = decode_source("Title\nline".encode("utf-16-le") + b"x", PATH)
    assert decoded.text == "Title\nline\ufffd"
    assert decoded.encoding == "utf-16-le"
    assert shown(decoded) == [f"{PATH}:1: warning[W101]: " + UTF16_NO_BOM.format(order="little"),
                              f"{PATH}:2: warning[W103]: " + FFFD]


@pytest.mark.parametrize("data, line", [(b"a\x00b", 1), (b"ok\na\x00b\x00", 2),
                                        (b"abc\x00\x00\x00\x00\x00\x00", 1)])
def test_a_few_nul_bytes_in_8_bit_text_are_not_taken_for_utf16(data, line):
    decoded = decode_source(data, PATH)
    assert decoded.encoding == "utf-8"
    assert decoded.text == data.replace(b"\x00", b"").decode()
    assert shown(decoded) == [f"{PATH}:{line}: warning[W104]: " + CONTROLS]


# --- a UTF-8 file with a few damaged bytes ----------------------------------------------
# A file in UTF-8 but for a few bytes (a word pasted from a Windows editor, a character an
# earlier conversion cut short) is UTF-8: each damaged place is read as what it most likely
# was and named at its line; the rest of the file is not read in a one-byte encoding.

UTF8_TEXT = "Café “menu” — naïve\nSecond line, plain\nThird: Zoë and Ångström\n"


def test_one_windows_byte_in_a_utf8_file_is_read_as_that_character():
    data = UTF8_TEXT.encode() + b"Last: \x93quoted\x94 words\n"
    decoded = decode_source(data, PATH)
    assert decoded.encoding == "utf-8"
    assert decoded.text == UTF8_TEXT + "Last: “quoted” words\n"
    (said,) = decoded.diagnostics
    assert (said.code, said.line) == ("W101", 4)
    assert said.message == ("not valid UTF-8: 0x93 read as Windows-1252 '“', 0x94 as '”'; "
                            "type them again and save the file as UTF-8")
    assert "save the file as UTF-8" in said.message


def test_two_damaged_lines_are_each_named_once_at_their_own_line():
    data = b"Pen\xe9lope\n" + UTF8_TEXT.encode() + b"60\xa2 a ticket\n"
    decoded = decode_source(data, PATH)
    assert decoded.text == "Penélope\n" + UTF8_TEXT + "60¢ a ticket\n"
    assert [(d.code, d.line) for d in decoded.diagnostics] == [("W101", 1), ("W101", 5)]


def test_a_character_cut_short_becomes_one_replacement_character():
    # The last byte of ” (E2 80 9D) and of ύ (CF 8D) is one Windows-1252 lacks; an earlier
    # conversion wrote "?" for it: which character it was cannot be known.
    data = UTF8_TEXT.encode() + b"\xe2\x80\x9cOne\xe2\x80? and \xcf\x86\xcf?\xcf\x83\n"
    decoded = decode_source(data, PATH)
    assert decoded.text == UTF8_TEXT + "“One\ufffd and φ\ufffdσ\n"
    (said,) = decoded.diagnostics  # one message for the line, not W103 besides
    assert (said.code, said.line) == ("W101", 4)
    assert said.message == ("not valid UTF-8: 0xE2 0x80 then '?' as U+FFFD (a character cut "
                            "short), 0xCF then '?' as U+FFFD (a character cut short); type "
                            "them again and save the file as UTF-8")


def test_a_capital_letter_before_a_question_mark_is_still_a_windows_letter():
    data = UTF8_TEXT.encode() + b"QU\xc9? Stra\xdfe?\n"
    assert decode_source(data, PATH).text == UTF8_TEXT + "QUÉ? Straße?\n"


def test_many_damaged_bytes_among_more_utf8_characters_keep_the_file_utf8():
    lines = [f"Line {k}: café, naïve, “{k}”".encode() for k in range(40)]
    lines += [f"Bad {k}: caf".encode() + b"\xe9 \x96 x" for k in range(30)]
    decoded = decode_source(b"\n".join(lines), PATH)
    assert decoded.encoding == "utf-8"
    assert decoded.text.split("\n")[0] == "Line 0: café, naïve, “0”"
    assert decoded.text.split("\n")[-1] == "Bad 29: café – x"
    assert [d.line for d in decoded.diagnostics] == list(range(41, 71))
    assert all(len(d.message) <= 200 for d in decoded.diagnostics)


def test_a_byte_windows_1252_lacks_becomes_a_replacement_character():
    decoded = decode_source(UTF8_TEXT.encode() + b"odd \x81 byte", PATH)
    assert decoded.text == UTF8_TEXT + "odd \ufffd byte"
    assert [d.code for d in decoded.diagnostics] == ["W101"]


def test_a_windows_1252_file_with_one_accidental_utf8_pair_is_still_windows_1252():
    # "É»" in Windows-1252 happens to be a valid UTF-8 pair; the file's many lone accents
    # say what it is.
    text = "«CAFÉ» à la carte\nnaïve café\nél está aquí “sí”\n"
    decoded = decode_source(text.encode("cp1252"), PATH)
    assert decoded.encoding == "cp1252"
    assert decoded.text == text


def test_a_latin1_file_is_read_as_latin1():
    text = "Señor Müller\nçà et là\n"
    data = text.encode("latin-1") + b"\x81"
    decoded = decode_source(data, PATH)
    assert decoded.encoding == "latin-1"
    assert decoded.text == text


def test_a_file_mostly_of_bad_bytes_is_read_in_a_one_byte_encoding():
    data = "ok é\n".encode() + bytes(range(0xa0, 0x100)) * 3
    decoded = decode_source(data, PATH)
    assert decoded.encoding == "cp1252"
    assert [d.code for d in decoded.diagnostics][:1] == ["W101"]


# --- repairs inside the text --------------------------------------------------------------

def test_mojibake_is_repaired_with_a_warning_at_its_line():
    decoded = decode_source("Title\nA â€” B\nok".encode(), PATH)
    assert decoded.text == "Title\nA — B\nok"
    assert decoded.encoding == "utf-8"
    assert shown(decoded) == [
        f"{PATH}:2: warning[W102]: repaired encoding damage: 'A â€” B' read as 'A — B'; "
        "fix the source file"
    ]


def test_mojibake_repair_message_shortens_long_lines():
    line = "x" * 70 + " â€” y"
    decoded = decode_source(line.encode(), PATH)
    assert decoded.text == "x" * 70 + " — y"
    (diag,) = decoded.diagnostics
    assert diag.message.startswith("repaired encoding damage: '" + "x" * 59 + "…' read as '")


@pytest.mark.parametrize("line", [
    "N× larger",
    "β1 = 0.9",
    "naïve café",
    "“quoted” and ‘single’ … ﬁne ＡＢ",
    "Straße 日本語 → ≤ 0.5 µs °C ±1 ½ σ²",
    "SÃO PAULO",
    "non\u00a0breaking",
])
def test_legitimate_non_ascii_text_is_not_changed(line):
    text = f"Title\n{line}\n"
    decoded = decode_source(text.encode(), PATH)
    assert decoded.text == text
    assert decoded.diagnostics == ()


def test_replacement_character_is_kept_and_reported():
    decoded = decode_source("ok\nlost \ufffd here".encode(), PATH)
    assert decoded.text == "ok\nlost \ufffd here"
    assert shown(decoded) == [f"{PATH}:2: warning[W103]: " + FFFD]


def test_nul_and_control_characters_are_removed_with_a_warning():
    decoded = decode_source(b"ok\na\x00b\x07c\td\x1b\nend", PATH)
    assert decoded.text == "ok\nabc\td\nend"  # the tab is kept
    assert shown(decoded) == [f"{PATH}:2: warning[W104]: " + CONTROLS]


def test_all_diagnostics_are_warnings():
    decoded = decode_source(b"\x81\x00 \xef\xbf\xbd", PATH)
    assert decoded.diagnostics
    assert {d.severity for d in decoded.diagnostics} == {Severity.WARNING}


# --- properties ---------------------------------------------------------------------------

_PIECES = st.sampled_from([
    b"\r", b"\n", b"\r\n", b"\xef\xbb\xbf", b"\x81", b"\x8d", b"\x00", b"\x85", b"\x1b",
    b"\xe9", b"\x97", b"\xc3", b"\xe2\x80", "—".encode(), "â€”".encode(), "Ã©".encode(),
    "\ufffd".encode(), "β".encode(), b"Question 1: ", b"- a (Correct answer)", b" ", b"x",
])
_BYTES = st.one_of(st.binary(max_size=300), st.lists(_PIECES, max_size=40).map(b"".join))


# Every encoding decode_source may report; a byte-order mark alone is an empty UTF-16 file.
ENCODINGS = ("utf-8", "utf-16", "utf-16-le", "utf-16-be", "cp1252", "latin-1")


@settings(max_examples=300, deadline=None)
@given(_BYTES)
@example(b"\xfe\xff")
@example(b"\xff\xfe")
@example(b"\xff\xfe\x00")
@example(b"\xef\xbb\xbf\xff\xfe")
@example(b"\x00x\x00\r\x00\n")
@example(b"\r\x00\xe9\x00")
def test_decode_never_raises_and_never_leaves_cr_or_stray_controls(data):
    decoded = decode_source(data, PATH)
    assert "\r" not in decoded.text
    assert all(ch in "\t\n" or ord(ch) >= 0x20 and not 0x7F <= ord(ch) <= 0x9F
               for ch in decoded.text)
    assert decoded.encoding in ENCODINGS
    n_lines = decoded.text.count("\n") + 1
    assert all(1 <= d.line <= n_lines for d in decoded.diagnostics)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(codec="ascii", exclude_categories=("Cc",)),
                                  st.just("\n")), max_size=200))
def test_printable_ascii_with_lf_is_returned_unchanged(text):
    decoded = decode_source(text.encode(), PATH)
    assert decoded.text == text
    assert decoded.diagnostics == ()


# --- which lines go to ftfy ---------------------------------------------------------------

def _safe_characters() -> list[str]:
    """Every character the quick check lets by when it stands alone (decode.py)."""
    return [chr(c) for c in range(0x80, 0x3000)
            if not decode._NEEDS_FTFY_RE.search(f"a{chr(c)}b")]


# ftfy's neighbours that matter: letters, digits, spaces, punctuation, the line's ends.
_NEIGHBOURS = (("a", "b"), ("a", " "), (" ", " "), ("", ""), ("", " "), ("Z", "9"),
               (".", ","), ("(", ")"), ("'", "\t"), ("-", "\""))


def test_ftfy_leaves_every_lone_character_the_quick_check_lets_by_as_it_is():
    ftfy, config = decode._ftfy()
    safe = _safe_characters()
    assert len(safe) > 1000 and {"—", "“", "’", "…", "×", "β", "é", "≤", "→"} <= set(safe)
    changed = [f"{a}{c}{b}" for c in safe for a, b in _NEIGHBOURS
               if ftfy.fix_text(f"{a}{c}{b}", config) != f"{a}{c}{b}"]
    assert changed == []
    # The neighbours find what ftfy does change alone, so the check above can fail.
    assert ftfy.fix_text("aÃ ", config) != "aÃ " and ftfy.fix_text("x\x93y", config) != "x\x93y"
    assert decode._NEEDS_FTFY_RE.search("aÃ ") and decode._NEEDS_FTFY_RE.search("x\x93y")


_LONE = st.sampled_from(sorted({"—", "–", "“", "”", "‘", "’", "…", "×", "β", "η", "é",
                                "ü", "≤", "≥", "→", "µ", "°", "±", "€", "£", "™", "©",
                                "\u00a0", "²", "½", "Σ", "∑", "•", "│", "■"}))
_ASCII_RUN = st.text(alphabet=st.characters(codec="ascii", exclude_categories=("Cc",)),
                     min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_ASCII_RUN, _LONE), max_size=8), _ASCII_RUN)
def test_lines_of_lone_safe_characters_read_as_ftfy_would_read_them(pieces, tail):
    line = "".join(a + c for a, c in pieces) + tail
    assert not decode._NEEDS_FTFY_RE.search(line)
    ftfy, config = decode._ftfy()
    assert ftfy.fix_text(line, config) == line
    assert decode_source(line.encode(), PATH).text == line


@pytest.mark.parametrize("line, fixed", [
    ("A â€” B", "A — B"),        # a run of mojibake
    ("\x93quoted\x94", "“quoted”"),  # C1 controls: cp1252 read as Latin-1
    ("Ã  la carte", "à la carte"),    # the lost no-break space
    ("naÃ¯ve", "naïve"),
])
def test_what_ftfy_repairs_still_reaches_it(line, fixed):
    assert decode._NEEDS_FTFY_RE.search(line)
    assert decode_source(line.encode(), PATH).text == fixed
