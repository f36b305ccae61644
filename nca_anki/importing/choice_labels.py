"""The labels authors write into every choice of a question ("A. Paris", "b) 4",
"(C) …", "1. …", "A、…", "（B）…"), which a card shows itself: one rule for every reader
(Markdown, Moodle XML, GIFT, the structured banks).

A question's choices are labelled when every one starts with its own label, in order from
``a``, ``A`` or ``1``, and written alike (the same brackets and the same mark after the
label; ``.``, ``．`` and ``、`` are one mark, as ``)`` and ``）`` are). Choices that only
look lettered (``A. Lincoln`` beside ``Grant``, ``B. …`` first, one label missing) are
not: their texts are kept whole.

After a Latin mark (``.``, ``)``, ``:``, ``]``, ``-``) the text must follow a space
("A.Lincoln" is no label); after a CJK one (``、``, ``．``, ``）``, ``：``) it may follow at
once, as CJK text is written ("B、7天"). Either way on the label's own line: a label alone
on its line over the choice's code ("A:" then a code block) is that choice's only line of
text, and stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from nca_anki.importing.bank import Choice, Item, Section

# "a. ", "A) ", "(a) ", "a- ", "a.- ", "[B] ", "**C.** ", "1. " (or "1\\. ", as Markdown
# escapes it), "A、", "B．", "（C）", "D："; the "\\" of "[B\\]" is Markdown's escape.
LABEL_RE = re.compile(
    r"^(?P<em>\*\*|__)?(?P<open>\\?[(\[（])?(?P<label>[A-Za-z]|\d{1,2})"
    r"(?:(?P<close>\\?[.):\]]-?|\s?[-–—])(?(em)(?P=em))[^\S\n]+(?=\S)"
    r"|(?P<cjk>[、．）：])(?(em)(?P=em))[^\S\n]*(?=\S))")

# Marks written alike: a CJK mark is its Latin one.
_ALIKE = str.maketrans({"、": ".", "．": ".", "）": ")", "：": ":", "（": "(", "\\": None})


def starts(texts: Sequence[str]) -> list[int] | None:
    """Where each of ``texts`` starts after its label, if every one starts with its own,
    in order from a, A or 1 and written alike; else None."""
    if len(texts) < 2:
        return None
    found, styles = [], set()
    for k, text in enumerate(texts):
        match = LABEL_RE.match(text)
        if match is None:
            return None
        label = match["label"]
        first = "1" if label.isdigit() else "A" if label.isupper() else "a"
        if (int(label) if first == "1" else ord(label) - ord(first) + 1) != k + 1:
            return None
        close = (match["close"] or match["cjk"]).strip().translate(_ALIKE)
        styles.add((first, match["em"], (match["open"] or "").translate(_ALIKE), close))
        found.append(match.end())
    return found if len(styles) == 1 else None


@dataclass(frozen=True)
class LeftOut:
    """Sections with the labels of their choices left out: how many questions had them,
    and the first of those with its first label as written (for the reader's one
    message)."""
    sections: tuple[Section, ...]
    count: int = 0
    first: Item | None = None
    label: str = ""


def left_out(sections: Sequence[Section],
             kept: Callable[[Item, list[int]], bool] = lambda item, starts: False) -> LeftOut:
    """``sections`` with the label written into every choice of a question left out
    (``starts``), except where ``kept`` says the labels are the choices' content."""
    count, first, label, out = 0, None, "", []
    for section in sections:
        items = []
        for item in section.items:
            at = starts([choice.text for choice in item.choices])
            if at is not None and not kept(item, at):
                count += 1
                if first is None:
                    first, label = item, item.choices[0].text[:at[0]].strip()
                item = replace(item, choices=tuple(
                    Choice(c.text[k:], c.correct) for c, k in zip(item.choices, at)))
            items.append(item)
        out.append(replace(section, items=tuple(items)))
    return LeftOut(tuple(out), count, first, label)
