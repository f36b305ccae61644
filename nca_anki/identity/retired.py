"""What marks a note of ours as retired, and the times a retired note gets.

A question removed from the source stays in its deck as a retired note: the same GUID, a
newer ``mod``, the tag ``nca::retired`` and a notice at the start of its prompt
(publishing/versions.py writes the notice; ``strip_notice`` takes it off). Identity
works out the times (assign.py), recovery reads the marks back from published decks
(recover.py), and publishing writes them; all three ask here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

RETIRED_TAG = "nca::retired"
OURS = "nca::"  # the prefix of every tag of ours; never part of a note's content hash

# The notice's markup as publishing/versions.py writes it (``with_notice``).
_NOTICE_RE = re.compile(r'^<span class="nca-retired">[^<]*</span> ')


def content_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """``tags`` without ours (which follow from ``mod`` and retirement)."""
    return tuple(t for t in tags if not t.startswith(OURS))


def strip_notice(prompt_html: str) -> str:
    """A prompt without the notice a retired note's prompt starts with."""
    return _NOTICE_RE.sub("", prompt_html, count=1)


def retired_mod(mod: int, removed: int) -> int:
    """The ``mod`` of a retired note: newer than the note learners have, so re-importing
    delivers the retirement."""
    return max(mod + 1, removed)


def revived_mod(mod: int, removed: int, now: int) -> int:
    """The ``mod`` of a retired question that is back in the source: newer than the
    retired note, so re-importing takes the notice off."""
    return max(retired_mod(mod, removed) + 1, now)
