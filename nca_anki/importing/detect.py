"""Which format an input is in: by its extension first, then by its content when the
extension says nothing (``.txt``, none) or is not one a bank uses. ``--from`` overrides.
What each format owns and how its content is recognised is the table of readers
(readers.py); this asks it.

Also which files of a folder given as an input may be banks: every file, at any depth,
whose extension is a reader's or ``.txt`` (told by content). Hidden folders,
``node_modules`` and the like are skipped; a file that holds no questions (a README) is
skipped with a warning (run.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePath

from nca_anki.importing.readers import BY_CONTENT, READERS, Reader, extensions
from nca_anki.importing.recognise import Content

SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", "dist", "build",
                             "site-packages"})

# Each format's name as messages give it, from the table (readers.py).
NAMES = {reader.name: reader.title for reader in READERS}


@dataclass(frozen=True)
class Guess:
    """A format the content speaks for, how strongly, and what in it says so."""

    form: str
    weight: int
    evidence: str  # as a message says it: "3 lines 'ANSWER: <letter>'"


def by_name(path: str, readers: Iterable[Reader] = READERS) -> str | None:
    """The format ``path``'s extension names, if it names one."""
    suffix = PurePath(path).suffix.casefold()
    return next((reader.name for reader in readers if suffix in reader.extensions), None)


def detect(path: str, text: str, readers: Iterable[Reader] = READERS) -> str | None:
    """The format of ``text`` (read from ``path``), or None if it is none this reads."""
    table = tuple(readers)
    if named := by_name(path, table):
        return named
    found = guesses(text, table)
    return found[0].form if found else None


def guesses(text: str, readers: Iterable[Reader] = READERS) -> list[Guess]:
    """Every format ``text``'s content speaks for, the strongest first; on equal weight,
    the reader of lower precedence first. The whole text is weighed (recognise.py)."""
    content = Content(text)
    found = []
    for reader in readers:
        evidence = reader.recognise(content) if reader.recognise else None
        if evidence is not None and evidence.weight > 0:
            found.append((-evidence.weight, reader.precedence,
                          Guess(reader.name, evidence.weight, evidence.said)))
    return [guess for *_, guess in sorted(found, key=lambda one: one[:2])]


def bank_files(names: list[str], readers: Iterable[Reader] = READERS) -> list[str]:
    """Of a folder's files (relative POSIX paths, sorted), those that may be banks."""
    table = tuple(readers)
    owned = (*extensions(table), *BY_CONTENT)
    settings = {name for reader in table for name in reader.never_banks}
    return [n for n in names
            if PurePath(n).suffix.casefold() in owned
            and not any(part.startswith(".") or part in SKIPPED_FOLDERS
                        for part in PurePath(n).parts[:-1])
            and not PurePath(n).name.startswith(".")
            and PurePath(n).name.casefold() not in settings]
