"""Text as a learner sees it: the one key for every comparison of identity that a learner
would make by eye (two choices the same, an answer line naming a choice, a question
repeated, a setting naming a topic).

Two texts are the same to a learner when they differ only in:

- **invisible characters**: Unicode's default-ignorable code points (zero-width space and
  joiners U+200B-U+200D, word joiner U+2060, byte-order mark U+FEFF, soft hyphen U+00AD,
  variation selectors, the bidi marks and embeddings U+200E/U+200F, U+202A-U+202E,
  U+2066-U+2069, and the rest of the list in Unicode's DerivedCoreProperties);
- **Unicode's two spellings** of one letter (NFC, composed, and NFD, decomposed);
- **whitespace**: any run of it (tabs, no-break, thin and ideographic spaces) is one
  space, and none at either end;
- **HTML character references**: the card shows ``R&amp;D`` and ``&alpha;`` as ``R&D``
  and ``α`` (CommonMark decodes them; cards/markup.py), so they are read so here.

They are not the same when they differ in **case** (``declare -a`` and ``declare -A`` are
two commands; a learner reads ``IP`` and ``ip`` as two things), or in **Markdown
markup** (``**alpha**`` shows bold, a difference the learner sees; and what markup renders
to is the card stage's decision, where ``__init__`` and ``4*8*2`` stay literal, so the
reading stage cannot say that two texts render alike without rendering them, and a false
"same" would stop a valid deck).

An invisible character inside a text is not warned about by itself: most have a use a
reader never sees but does benefit from (a zero-width joiner in an emoji or an Indic word,
a non-joiner in Persian, a soft hyphen in a long German word, a bidi mark in Arabic, a
zero-width space between Thai words). The build speaks of one where it changes what a
comparison decides (two choices listed as one, E118, names it); at the start of a
structural line it is W105 (lines.py, `unhide`).
"""

from __future__ import annotations

import html
import re
import unicodedata

# Unicode 15.1 DerivedCoreProperties.txt, Default_Ignorable_Code_Point.
IGNORABLE = ("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
             "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
             "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff")
_IGNORABLE_RE = re.compile(f"[{IGNORABLE}]")
# A character reference as CommonMark reads one: always with its semicolon.
_REFERENCE_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def seen(text: str) -> str:
    """``text`` of a question as a learner sees it on the card (module docstring): equal
    keys, the same text."""
    if "&" in text:
        text = _REFERENCE_RE.sub(lambda m: html.unescape(m.group()), text)
    return seen_name(text)


def seen_name(text: str) -> str:
    """A name shown as written, never as markup (a topic, a deck, a key of the settings),
    as a reader sees it: as ``seen``, but ``&amp;`` stays the five characters it is, as
    Anki's deck list shows it."""
    if text.isascii():
        return " ".join(text.split())
    text = _IGNORABLE_RE.sub("", text)
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return " ".join(text.split())


def invisibles(text: str) -> str:
    """The invisible characters in ``text``, each once, in order ("" for none)."""
    if text.isascii():
        return ""
    return "".join(dict.fromkeys(_IGNORABLE_RE.findall(text)))


def named(chars: str) -> str:
    """Characters as a message names them: ``U+200B (ZERO WIDTH SPACE)``."""
    return ", ".join(f"U+{ord(c):04X} ({unicodedata.name(c, 'unnamed')})" for c in chars)
