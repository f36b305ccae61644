"""Turn a source file's bytes into text, never raising and never producing mojibake.

UTF-8 (with or without BOM) is expected. UTF-16 is recognised by its byte-order mark or,
without one, by its NUL bytes (in mostly-ASCII text every other byte is NUL), and read with a
warning. A file that is UTF-8 but for a few damaged bytes is UTF-8: each damaged place is
read as what it most likely was and named at its line (``_mended``). Anything else is
decoded as Windows-1252 (the usual culprit: a Windows editor), or Latin-1 as a last resort,
with a warning. Line endings become ``\\n``. Encoding damage
inside the text (mojibake, replacement characters, stray control characters) is reported
with its line; it is repaired only where the repair is unambiguous.
"""

from __future__ import annotations

import codecs
import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from nca_anki.diagnostics import Diagnostic, clip, warning


@functools.cache
def _ftfy() -> tuple[Any, Any]:
    """ftfy and its settings, loaded on the first line that ftfy might change (importing
    it costs a tenth of a second that most builds need not pay: see _NEEDS_FTFY_RE)."""
    import ftfy

    return ftfy, _ftfy_config(ftfy)


def _ftfy_config(ftfy: Any) -> Any:
    # Only undo mis-decoded UTF-8 (e.g. "â€”" for "—"); every other ftfy "fix" would
    # change what the author wrote (quotes, ligatures, widths) and is not ours to make.
    return ftfy.TextFixerConfig(
        unescape_html=False,
        remove_terminal_escapes=False,
        fix_encoding=True,
        restore_byte_a0=False,
        replace_lossy_sequences=False,
        decode_inconsistent_utf8=True,
        fix_c1_controls=False,
        fix_latin_ligatures=False,
        fix_character_width=False,
        uncurl_quotes=False,
        fix_line_breaks=False,
        fix_surrogates=False,
        remove_control_chars=False,
        normalization=None,
        explain=False,
    )


# Which lines ftfy could change, known without loading it. Mojibake (UTF-8 read in a
# one-byte encoding) turns each non-ASCII character into a run of two to four non-ASCII
# ones, one per byte of its UTF-8 form, so a line whose non-ASCII characters all stand
# alone between ASCII ones holds none. That leaves ftfy's other reading of a lone
# character: measured, with every kind of ASCII neighbour (letters, digits, space, tab,
# each punctuation mark, none), it changes "Â " and "Ã " (an "à" whose no-break space was
# lost) and the C1 controls U+0080-U+009F, and none of the characters below: Latin-1's
# other letters and signs, Greek, general punctuation (dashes, quotes, ellipsis),
# super- and subscripts, currency, letterlike symbols, arrows, mathematical operators,
# box drawing, geometric shapes (tests/reading/test_decode.py checks each against ftfy). A line
# with any other non-ASCII character, or two side by side, goes to ftfy as before.
_ALONE_AND_SAFE = ("\u00a0-\u00c1\u00c4-\u00ff\u0370-\u03ff\u2010-\u205e\u2070-\u20bf"
                   "\u2100-\u214f\u2190-\u22ff\u2500-\u257f\u25a0-\u25ff")
_NEEDS_FTFY_RE = re.compile(f"[^\\x00-\\x7f{_ALONE_AND_SAFE}]|[^\\x00-\\x7f]{{2}}")


@dataclass(frozen=True)
class DecodedText:
    text: str
    encoding: str
    diagnostics: tuple[Diagnostic, ...]


def _line_of_byte(data: bytes, offset: int) -> int:
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def _utf16_without_bom(data: bytes) -> str | None:
    """"utf-16-le" or "utf-16-be" when ``data`` has UTF-16's NUL pattern, else None.

    Mostly-ASCII text in UTF-16 has a NUL as the high byte of nearly every character and
    almost never as the low byte; text in any 8-bit encoding has no NULs at all.
    """
    pairs = len(data) // 2
    if pairs < 2:
        return None
    even = data[0 : 2 * pairs : 2].count(0)
    odd = data[1 : 2 * pairs : 2].count(0)
    for high, low, encoding in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if high >= 0.6 * pairs and low <= 0.05 * pairs:
            return encoding
    return None


def _decode_bytes(data: bytes, path: str) -> tuple[str, str, list[Diagnostic]]:
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # Windows Notepad's "Unicode": unambiguous thanks to its byte-order mark.
        text = data.decode("utf-16", errors="replace")
        return text, "utf-16", [warning("W101", path, 1, "file is UTF-16; read it as such. Save it "
                                        "as UTF-8 to silence this warning")]
    utf16 = _utf16_without_bom(data)
    if utf16:
        # Checked before UTF-8, which would accept the NULs as characters.
        order = "little" if utf16.endswith("le") else "big"
        text = data.decode(utf16, errors="replace")
        return text, utf16, [warning("W101", path, 1, f"file is UTF-16 ({order}-endian, without a "
                                     "byte-order mark); read it as such. Save it as UTF-8 to "
                                     "silence this warning")]
    try:
        return data.decode("utf-8"), "utf-8", []
    except UnicodeDecodeError as exc:
        line = _line_of_byte(data, exc.start)
    if _mostly_utf8(data):
        # Each byte UTF-8 cannot read is kept as a lone surrogate, mended line by line.
        return data.decode("utf-8", "surrogateescape"), "utf-8", []
    for encoding in ("cp1252", "latin-1"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        return text, encoding, [
            warning("W101",
                path,
                line,
                f"file is not valid UTF-8 (first bad byte on this line); read it as "
                f"{encoding}. Save the file as UTF-8 to silence this warning",
            )
        ]
    raise AssertionError("latin-1 decodes every byte string")  # pragma: no cover


def is_utf8(data: bytes) -> bool:
    """Whether ``data`` is UTF-8, or UTF-8 but for a few damaged bytes: what
    ``decode_source`` reads as UTF-8 (the importer asks before it looks for another
    encoding)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return _mostly_utf8(data)
    return True


_BEYOND_C1_RE = re.compile("[^\x00-\x9f]")


def _mostly_utf8(data: bytes) -> bool:
    """Whether ``data``, not valid UTF-8, is UTF-8 but for a few damaged bytes: at least as
    many of its characters beyond ASCII are valid UTF-8 (two to four bytes each; C1
    controls aside, which are what Windows-1252's "Â" before a mark reads as) as there are
    places UTF-8 cannot read. Text in a one-byte encoding almost never holds a valid
    sequence (an accented capital directly before a sign, "É»"), and has a lone byte for
    every accent."""
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd") - data.count("\ufffd".encode())
    good = len(text) - len(_BEYOND_C1_RE.sub("", text)) - bad
    return good >= bad


# The bytes Windows-1252 does not define: an earlier conversion that met one as the last
# byte of a UTF-8 character (”: E2 80 9D, ύ: CF 8D) wrote "?" for it.
_UNDEFINED_IN_CP1252 = b"\x81\x8d\x8f\x90\x9d"
# A byte UTF-8 could not read, kept by surrogateescape as U+DC80-U+DCFF: a character's
# first byte with the next ones there are, and a "?" after them; or any other lone byte.
_DAMAGE_RE = re.compile("(?P<cut>[\udcc2-\udcf4][\udc80-\udcbf]*)(?P<lost>\\?)?"
                        "|[\udc80-\udcff]")
_ESCAPED_RE = re.compile("[\udc80-\udcff]")


def _hex(raw: bytes) -> str:
    return " ".join(f"0x{b:02X}" for b in raw)


def _cut_short(raw: bytes, before: str) -> bool:
    """Whether ``raw`` (a character's first bytes), with the "?" after it, is a UTF-8
    character whose last byte an earlier conversion turned into "?": ``raw`` and one of
    the bytes Windows-1252 lacks make a character. Not a Windows-1252 letter alone at a
    word's end ("QUÉ?", "Straße?")."""
    if len(raw) == 1 and before.isascii() and before.isalpha():
        return False
    for last in _UNDEFINED_IN_CP1252:
        try:
            (raw + bytes([last])).decode("utf-8")
        except UnicodeDecodeError:
            continue
        return True
    return False


def _stands_for(match: re.Match[str], line: str) -> tuple[str, str]:
    """What one damaged place in ``line`` most likely was, and how a message says so: a
    character cut short is U+FFFD (which one it was cannot be known); a lone byte is the
    Windows-1252 character it is (a word pasted from a Windows editor), or U+FFFD where
    Windows-1252 has none."""
    raw = (match["cut"] or match[0]).encode("utf-8", "surrogateescape")
    lost = match["lost"] or ""
    if lost and _cut_short(raw, line[match.start() - 1: match.start()]):
        return "\ufffd", f"{_hex(raw)} then '?' as U+FFFD (a character cut short)"
    if len(raw) > 1:
        return "\ufffd" + lost, f"{_hex(raw)} as U+FFFD (a character cut short)"
    try:
        read = raw.decode("cp1252")
    except UnicodeDecodeError:
        return "\ufffd" + lost, f"{_hex(raw)} as U+FFFD"
    return read + lost, f"{_hex(raw)} as {read!r}"


def _mended(line: str) -> tuple[str, str]:
    """``line`` (of a file that is UTF-8 but for a few bytes) with each damaged place read
    as what it most likely was (``_stands_for``), and a message that says what was read
    (at most two places, with how many more)."""
    said: list[str] = []

    def one(match: re.Match[str]) -> str:
        read, how = _stands_for(match, line)
        said.append(how)
        return read

    mended = _DAMAGE_RE.sub(one, line)
    windows = next((k for k, how in enumerate(said) if "U+FFFD" not in how), None)
    if windows is not None:  # the first byte read as a Windows-1252 character says so
        said[windows] = said[windows].replace(" as ", " read as Windows-1252 ", 1)
    shown = ", ".join(said[:2]) + (f" and {len(said) - 2} more" if len(said) > 2 else "")
    them = "it" if len(said) == 1 else "them"
    return mended, (f"not valid UTF-8: {shown}; type {them} again and save the file as "
                    "UTF-8")


def _mend_lines(lines: list[str], path: str) -> tuple[list[Diagnostic], set[int]]:
    """Mends each line of ``lines`` that holds damaged bytes (``_mended``), with one
    warning at its line; and the numbers of the lines mended."""
    said, numbers = [], set()
    for number, line in enumerate(lines, start=1):
        if _ESCAPED_RE.search(line):
            lines[number - 1], message = _mended(line)
            said.append(warning("W101", path, number, message))
            numbers.add(number)
    return said, numbers


# Control characters (Unicode category Cc) other than tab and newline, and lone surrogates.
_STRAY_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def decode_source(data: bytes, path: str) -> DecodedText:
    """Decode ``data`` read from ``path`` (used only in messages)."""
    text, encoding, diagnostics = _decode_bytes(data, path)
    text = text.replace("\r\n", "\n").replace("\r", "\n")

    lines = text.split("\n")
    mended: set[int] = set()
    if encoding == "utf-8" and _ESCAPED_RE.search(text):
        said, mended = _mend_lines(lines, path)
        diagnostics += said
    # An ASCII line needs no repair and holds no U+FFFD; only a control character, which
    # the whole text would show, could still be in it.
    controls = _STRAY_CONTROL_RE.search(text) is not None
    for number, line in enumerate(lines, start=1):
        if not controls and line.isascii():
            continue
        if line.isascii() or not _NEEDS_FTFY_RE.search(line):
            fixed = line
        else:
            ftfy, config = _ftfy()
            fixed = ftfy.fix_text(line, config)
        if fixed != line:
            diagnostics.append(
                warning("W102", path, number, f"repaired encoding damage: {clip(line, 60)!r} "
                        f"read as {clip(fixed, 60)!r}; fix the source file")
            )
            lines[number - 1] = line = fixed
        if "\ufffd" in line and number not in mended:
            diagnostics.append(
                warning("W103",
                        path, number, "text contains U+FFFD (a character lost in an earlier "
                        "encoding conversion); it cannot be repaired, fix the source file")
            )
        if _STRAY_CONTROL_RE.search(line):
            diagnostics.append(
                warning("W104", path, number, "control characters removed; fix the source file")
            )
            lines[number - 1] = _STRAY_CONTROL_RE.sub("", line)
    # One spelling of each accented letter (NFC) before anything is compared or hashed: a
    # file re-saved by an editor in decomposed form (NFD, as macOS file dialogs and some
    # tools write) is the same text, and must keep every question's identity.
    result = "\n".join(lines)
    if not result.isascii() and not unicodedata.is_normalized("NFC", result):
        result = unicodedata.normalize("NFC", result)
    return DecodedText(result, encoding, tuple(diagnostics))

