"""Turn a source file's bytes into text, never raising and never producing mojibake.

UTF-8 (with or without BOM) is expected. UTF-16 is recognised by its byte-order mark or,
without one, by its NUL bytes (in mostly-ASCII text every other byte is NUL), and read with a
warning. Anything else is decoded as Windows-1252 (the usual culprit: a Windows editor), or
Latin-1 as a last resort, with a warning. Line endings become ``\\n``. Encoding damage
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


# Control characters (Unicode category Cc) other than tab and newline, and lone surrogates.
_STRAY_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def decode_source(data: bytes, path: str) -> DecodedText:
    """Decode ``data`` read from ``path`` (used only in messages)."""
    text, encoding, diagnostics = _decode_bytes(data, path)
    text = text.replace("\r\n", "\n").replace("\r", "\n")

    lines = text.split("\n")
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
        if "\ufffd" in line:
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

