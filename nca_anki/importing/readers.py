"""The readers, one entry each: what ``--from`` calls it, what messages call it, the file
extensions it owns, how its content is recognised, the function that reads it, whether
``--map`` applies, and one line on what it reads. Everything that names or tells formats
reads this table and nothing else: detection (detect.py), the import (run.py), ``--from``,
``--map`` and ``import -h`` (arguments.py), the messages that list formats, and
docs/importing.md's table of formats (a test keeps it in step).

A reader's module is imported only when a file is read with it (``Reader.read``), so the
table costs nothing to the commands that only show it.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nca_anki.importing import recognise
from nca_anki.importing.recognise import Content, Evidence

if TYPE_CHECKING:
    from nca_anki.importing.bank import Reading


BY_CONTENT = (".txt",)  # an extension that says nothing: the content tells the format


@dataclass(frozen=True, kw_only=True)
class Reader:
    """One format the import reads."""

    name: str  # as --from names it: "moodle-xml"
    title: str  # as messages name it: "Moodle XML"
    extensions: tuple[str, ...]  # casefolded, with the dot; a file's name says the format
    recognise: Callable[[Content], Evidence | None] | None  # None: told by name only
    precedence: int  # on equal evidence, the reader of the lower number is tried first
    function: str  # "module:function": (text, path[, overrides]) -> Reading
    takes_map: bool  # --map KEY=ROLE applies (the structured banks)
    reads: str  # one line on what it reads, for import -h and the docs
    # Files of its format that a folder holds and that are never banks (a project's
    # settings), by their casefolded name: not read when the folder is searched.
    never_banks: tuple[str, ...] = ()

    def read(self, text: str, path: str, overrides: Mapping[str, str]) -> Reading:
        """``text`` (read from ``path``, as shown in messages) read as this format."""
        module, _, name = self.function.partition(":")
        function = getattr(importlib.import_module(module), name)
        result: Reading = function(text, path, overrides) if self.takes_map else \
            function(text, path)
        return result


READERS: tuple[Reader, ...] = (
    Reader(name="markdown", title="Markdown", extensions=(".md", ".markdown"),
           recognise=recognise.markdown, precedence=5,
           function="nca_anki.importing.markdown:read", takes_map=False,
           reads="checkbox choices (- [x]) under a heading, or lettered choices (A. …) "
                 "and an answer line (Answer: B)"),
    Reader(name="json", title="JSON", extensions=(".json",),
           recognise=recognise.json, precedence=1,
           function="nca_anki.importing.json_bank:read", takes_map=True,
           reads="question objects, wherever they are, read by their shape",
           never_banks=("package.json", "package-lock.json", "tsconfig.json",
                        "composer.json")),
    Reader(name="typescript", title="TypeScript/JavaScript",
           extensions=(".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"),
           recognise=recognise.typescript, precedence=2,
           function="nca_anki.importing.typescript:read", takes_map=True,
           reads="question objects written as literals (never run), read as JSON's are"),
    Reader(name="yaml", title="YAML", extensions=(".yaml", ".yml"),
           recognise=recognise.yaml, precedence=6,
           function="nca_anki.importing.yaml_bank:read", takes_map=True,
           reads="question records, read as JSON's objects are"),
    Reader(name="csv", title="CSV", extensions=(".csv",),
           recognise=recognise.csv, precedence=7,
           function="nca_anki.importing.spreadsheet:read", takes_map=True,
           reads="a spreadsheet with a header row, one question a row; the separator "
                 "told from the file"),
    Reader(name="tsv", title="TSV", extensions=(".tsv",),
           recognise=recognise.tsv, precedence=8,
           function="nca_anki.importing.spreadsheet:read_tsv", takes_map=True,
           reads="a spreadsheet with a header row and tabs between cells"),
    Reader(name="aiken", title="Aiken", extensions=(".aiken",),
           recognise=recognise.aiken, precedence=3,
           function="nca_anki.importing.aiken:read", takes_map=False,
           reads="Moodle's Aiken: A. choices and an ANSWER: line"),
    Reader(name="gift", title="GIFT", extensions=(".gift",),
           recognise=recognise.gift, precedence=4,
           function="nca_anki.importing.gift:read", takes_map=False,
           reads="Moodle's GIFT: answers in braces ({=right ~wrong})"),
    Reader(name="moodle-xml", title="Moodle XML", extensions=(".xml",),
           recognise=recognise.moodle_xml, precedence=0,
           function="nca_anki.importing.moodle_xml:read", takes_map=True,
           reads="Moodle's XML export; other XML by its repeated records"),
    Reader(name="trivia", title="OpenTriviaQA", extensions=(),
           recognise=recognise.trivia, precedence=9,
           function="nca_anki.importing.trivia:read", takes_map=False,
           reads="OpenTriviaQA's text: a '#Q' prompt, a '^' line with the right answer's "
                 "text, then 'A …' choices"),
)


def names(readers: Iterable[Reader] = READERS) -> tuple[str, ...]:
    """The names ``--from`` takes, in the table's order."""
    return tuple(reader.name for reader in readers)


def named(name: str, readers: Iterable[Reader] = READERS) -> Reader:
    """The reader ``--from`` calls ``name`` (one of ``names()``)."""
    return next(reader for reader in readers if reader.name == name)


def extensions(readers: Iterable[Reader] = READERS) -> tuple[str, ...]:
    """Every extension a reader owns, in the table's order."""
    return tuple(ext for reader in readers for ext in reader.extensions)


def formats_help(readers: Iterable[Reader] = READERS, width: int = 79) -> str:
    """The formats as ``import -h`` lists them: each name, its extensions, what it reads."""
    table = tuple(readers)
    column = max(len(reader.name) for reader in table) + 4
    lines = [f"formats (by a file's extension; {' '.join(BY_CONTENT)} or none: by its "
             "content; or --from FORMAT):"]
    for reader in table:
        owned = " ".join(reader.extensions) or "by content"
        lines += textwrap.wrap(f"({owned}) {reader.reads}", width,
                               initial_indent=f"  {reader.name:<{column - 2}}",
                               subsequent_indent=" " * column, break_on_hyphens=False)
    return "\n".join(lines)
