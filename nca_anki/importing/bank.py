"""What every importer reads a bank into: plain records, each question with its place in
the input, whatever the format (importing/markdown.py, json_bank.py, typescript.py,
aiken.py, gift.py).
convert.py writes them out as question files."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from nca_anki.diagnostics import Diagnostic


@dataclass(frozen=True)
class Choice:
    text: str  # Markdown, as this project's question files take it
    correct: bool


@dataclass(frozen=True, kw_only=True)
class Item:
    """One multiple-choice question read from the input."""

    prompt: str
    choices: tuple[Choice, ...]
    explanation: str = ""
    path: str  # the input file, as given
    line: int  # where the question starts in it (1-based)
    where: str = ""  # more of its place, where lines say too little (a JSON path)

    @property
    def place(self) -> str:
        return f"{self.where} " if self.where else ""


@dataclass(frozen=True, kw_only=True)
class Section:
    """Questions the input groups under one title: one part of a topic."""

    title: str
    items: tuple[Item, ...]
    path: str


@dataclass(frozen=True)
class Reading:
    """What one input file gave: its sections, and what could not be read or converted."""

    sections: tuple[Section, ...]
    problems: tuple[Diagnostic, ...] = field(default=())


def title_from_name(path: str) -> str:
    """A topic title from a file name without one inside: "gpu-basics_2.md" ->
    "Gpu Basics 2"."""
    words = re.split(r"[-_\s.]+", PurePath(path).stem)
    return " ".join(w[:1].upper() + w[1:] for w in words if w) or "Imported"


def one_line(text: str) -> str:
    return " ".join(text.split())
