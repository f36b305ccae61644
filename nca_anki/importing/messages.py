"""Every message of an import, readable: the one place each passes through before it is
shown or put in ``--json`` (run.import_banks).

A message quotes the input ("the choice 'N/A'", "the image 'data:image/png;base64,…'")
in its own words. A bank's text can be any length, so what a message quotes is cut here,
whoever made it: each quoted text to ``QUOTED`` characters with an ellipsis, and a list of
more than ``LISTED`` quoted texts to its first ``LIST_HEAD`` and how many more. The
message's own words are never cut; a run of ``RUN`` characters without a space is none,
and loses its middle. If it is still longer than ``LIMIT``, its quotes are cut
further, as little as makes it fit, to no fewer than ``QUOTED_TIGHT`` characters and
sparing those of ``QUOTED_KEPT`` or fewer (a key's name, a short choice); then its runs
without a space to ``RUN_TIGHT`` characters at each end, and last those short quotes too,
to ``QUOTED_LEAST``, if that makes it fit. What is long in its own words is its maker's to
say shorter
(tests/importing/test_message_length.py holds every reader to it).

``LIMIT`` is 200 characters: two lines of a terminal 100 columns wide, the
message after the ``path:line: error[E704]: `` that places it; what a person reads at a
glance and a CI log shows unwrapped. A message that says what it must (what was read as
what, and how to say otherwise) fits in it when its quotes are short.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from nca_anki.diagnostics import Diagnostic

LIMIT = 200
QUOTED = 60
QUOTED_TIGHT = 16
QUOTED_KEPT = 24  # a quote this short is cut last: too little to gain, a key's name to lose
QUOTED_LEAST = 10
LISTED = 5
LIST_HEAD = 3
# A run of this many characters without a space is no word of a message: input text it
# names unquoted (a JSON path through a key of 5,000 letters). Its middle is cut, its start
# and end (a path's last key, a file's name and line) kept.
RUN = 160
RUN_KEPT = 40
RUN_TIGHT = 16

# A quoted text, as messages quote: '…' or "…" (Python's repr, which escapes the quote it
# uses, or quotes written around the text), opened at the start, after a space or an
# opening bracket, and closed by its quote before the end, a space or punctuation. An
# apostrophe inside a word ("the choice's") opens nothing. Each attempt stops at the next
# quote character, so finding them all is linear in the message.
_Q = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
_END = r"""(?=$|[\s,;:.)\]}!?…])"""
_QUOTED_RE = re.compile(rf"(?<![^\s(\[{{]){_Q}{_END}", re.S)
# A list of quoted texts: "'a', 'b', 'c'", "'a', 'b' and 'c'".
_LIST_RE = re.compile(rf"(?<![^\s(\[{{]){_Q}(?:(?:, |,? and ){_Q}){{{LISTED},}}", re.S)
_ITEM_RE = re.compile(_Q, re.S)
# An escape that a cut would leave half written: "\", "\x4", "\u20".
_PARTIAL_ESCAPE_RE = re.compile(
    r"\\(?:x[0-9a-fA-F]?|u[0-9a-fA-F]{0,3}|U[0-9a-fA-F]{0,7}|N\{[^}]*)?$")


def readable(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` with each message made readable (module docstring)."""
    return [d if len(d.message) <= QUOTED else replace(d, message=readable_message(d.message))
            for d in diagnostics]


def readable_message(message: str) -> str:
    """``message`` with its quotes cut and its lists of quotes capped (module docstring)."""
    shorter = _LIST_RE.sub(_capped, _QUOTED_RE.sub(lambda m: _cut(m[0], QUOTED), message))
    shorter = _runs_cut(shorter, RUN_KEPT)
    if len(shorter) <= LIMIT:
        return shorter
    cap = QUOTED - 4  # the longest quotes that let it fit
    while len(tighter := _quotes_cut(shorter, cap)) > LIMIT and cap > QUOTED_TIGHT:
        cap -= 4
    if len(tighter) > LIMIT:
        tighter = _runs_cut(tighter, RUN_TIGHT, len(tighter) - LIMIT)
    if len(tighter) > LIMIT and len(least := _quotes_cut(
            tighter, QUOTED_LEAST, kept=QUOTED_LEAST)) <= LIMIT:
        return least
    return tighter


def _quotes_cut(message: str, cap: int, kept: int = QUOTED_KEPT) -> str:
    return _QUOTED_RE.sub(lambda m: _cut(m[0], max(cap, QUOTED_LEAST), kept), message)


def _runs_cut(message: str, end: int, over: int | None = None) -> str:
    """Each run of ``RUN`` characters or more without a space cut to its first and last
    ``end``; with ``over``, only as many runs as it takes to save that many characters."""
    def cut(run: re.Match[str]) -> str:
        nonlocal over
        if over is not None and over <= 0:
            return run[0]
        said = f"{run[0][:end]}…{run[0][-end:]}"
        if over is not None:
            over -= len(run[0]) - len(said)
        return said
    return re.sub(rf"\S{{{min(RUN, 2 * end + 1)},}}", cut, message)


def quoted_spans(message: str) -> list[tuple[int, int]]:
    """Where ``message`` quotes text (start, end), as readable_message finds it."""
    return [m.span() for m in _QUOTED_RE.finditer(message)]


def _cut(quoted: str, limit: int, kept: int = QUOTED_KEPT) -> str:
    """A quoted text (its quotes included) cut to ``limit`` characters inside its quotes,
    at a space if one is near, with an ellipsis; one of ``kept`` characters or fewer is
    left whole."""
    mark, inner = quoted[0], quoted[1:-1]
    if len(inner) <= max(limit, kept):
        return quoted
    cut = inner[:limit - 1]
    space = cut.rfind(" ")
    if space >= limit * 2 // 3:
        cut = cut[:space]
    cut = _PARTIAL_ESCAPE_RE.sub("", cut).rstrip()
    return f"{mark}{cut}…{mark}"


def _capped(found: re.Match[str]) -> str:
    items = _ITEM_RE.findall(found[0])
    return f"{', '.join(items[:LIST_HEAD])} and {len(items) - LIST_HEAD} more"
