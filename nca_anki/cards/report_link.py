"""The "Report a problem" link on the back of every card (``report_url`` in the settings).

A plain link works on every client, AnkiMobile included, and sends nothing unless it is
tapped. Its address is the author's ``report_url`` with each placeholder replaced by a
value, percent-encoded (records.REPORT_PLACEHOLDERS):

- ``{fingerprint}`` and ``{deck}`` when the card is rendered: they change only with the
  question's content or deck, so they are part of what the note's change time follows;
- ``{guid}``, ``{version}`` (the date of the deck version that last changed the question:
  its ``nca::updated::`` tag), ``{file}`` (its path in the source folder) and ``{line}``
  when the deck is written (``fill``). A question that moves down a file when another is
  inserted above it is not a changed question: learners' notes are not updated for it,
  and a learner's link keeps the line it was published with (the fingerprint and GUID
  still find it: ``build_decks.py locate``);
- ``{pick}`` and ``{verdict}`` by the card's script on the back, from the learner's pick
  (the picked choices' texts, " | " between them) and "right", "wrong" or "none"; empty
  where no script runs. The script reads the address with those two placeholders from
  the link's ``data-nca-report`` attribute.

Setting ``report_url`` therefore changes every note once (the changelog says why);
nothing else about it ever changes a note again.
"""

from __future__ import annotations

import re
from html import escape
from urllib.parse import quote

from nca_anki.records import REPORT_DEFERRED, REPORT_LIVE

_PLACEHOLDER_RE = re.compile(r"\{([a-z]+)\}")
# What starts the link in the Source field: the deck name before it is escaped, so its
# text can never hold this.
START = '<a class="nca-report"'


def _filled(template: str, values: dict[str, str]) -> str:
    return _PLACEHOLDER_RE.sub(
        lambda m: quote(values[m[1]], safe="") if m[1] in values else m[0], template)


def report_link(template: str, *, fingerprint: str, deck: str, label: str) -> str:
    """The link's HTML, with the placeholders known when rendering filled in."""
    values = {"fingerprint": fingerprint, "deck": deck}
    data = _filled(template, values)
    href = _filled(template, {**values, **dict.fromkeys(REPORT_LIVE, "")})
    return (f'{START} href="{escape(href)}" data-nca-report="{escape(data)}">'
            f"{escape(label)}</a>")


def fill(field: str, *, guid: str, version: str, file: str, line: int) -> str:
    """``field`` (a note's Source field) with the link's remaining placeholders but the
    script's filled in; unchanged if it has no link."""
    at = field.find(START)
    if at < 0:
        return field
    values = {"guid": guid, "version": version, "file": file, "line": str(line)}
    assert set(values) == set(REPORT_DEFERRED)
    return field[:at] + _PLACEHOLDER_RE.sub(
        lambda m: escape(quote(values[m[1]], safe="")) if m[1] in values else m[0],
        field[at:])


def fill_fields(fields: tuple[str, ...], *, guid: str, version: str, file: str, line: int
                ) -> tuple[str, ...]:
    """A note's ``fields`` with its report link (in the last, the Source field) filled
    as ``fill`` fills it: what the decks and the preview both show."""
    *rest, source = fields
    return (*rest, fill(source, guid=guid, version=version, file=file, line=line))


def without_link(field: str) -> str:
    """``field`` (a Source field) without its report link: what the changelog compares
    to tell a note that only gained or changed its link from one whose question changed."""
    at = field.find(START)
    return field if at < 0 else field[:at].removesuffix(" · ")
