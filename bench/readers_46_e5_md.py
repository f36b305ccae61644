"""Independent readers for the banks of ``banks_46_e5_md.json`` (issue 46, round five:
questions as a list's items, choices numbered and answered by number).

Each reader is ``(path, text) -> list[Expected]`` and shares nothing with ``nca_anki``.
A bank of a shape already read for the held-out set reuses that reader: the same shape,
read the same way, on another author's page.
"""

from __future__ import annotations

from pathlib import Path

from readers_46_heldout import numbered_details
from real_banks import Expected


def coding_exercise(path: Path, text: str) -> list[Expected]:
    """``#### N. prompt``, its code, choices ``- 1: text``, then ``<details>`` holding
    ``##### Answer: N`` and the explanation (as numbered_details reads them). A question
    with two lists of choices and an answer for each is no one multiple-choice question:
    numbered_details takes only those with one list."""
    return numbered_details(path, text)
