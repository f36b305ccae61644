"""The table of readers (nca_anki/importing/readers.py) is the one place a format is
declared (issue 46, design point 3): detection, ``--from``, ``--map``, ``import -h``, the
messages that list formats and docs/importing.md's table of formats all follow it. A
format added to (or taken from) the table changes each of them without any other edit.
"""

from __future__ import annotations

import argparse
import inspect
import re
import subprocess
import sys
from dataclasses import replace

import pytest

from conftest import REPO
from nca_anki.arguments import import_parser
from nca_anki.importing import detect
from nca_anki.importing.readers import READERS, Reader, named, names
from nca_anki.importing.recognise import Content, Evidence


def _recognise_quill(content: Content) -> Evidence | None:
    """A made-up format: every line "%% quill" counts for it."""
    n = content.text.count("%% quill\n")
    return Evidence(10_000 * n, f"{n} quill marks") if n else None


QUILL = Reader(name="quill", title="Quill", extensions=(".quill", ".qll"),
               recognise=_recognise_quill, precedence=99,
               function="nca_anki.importing.aiken:read", takes_map=False,
               reads="a made-up format of quill marks")
WITH_QUILL = (*READERS, QUILL)
QUILL_TEXT = "%% quill\nWhat is ink?\nA. a liquid\nB. a stone\nANSWER: A\n%% quill\n"


def _choices(parser: argparse.ArgumentParser, option: str) -> tuple[str, ...]:
    action = next(a for a in parser._actions if option in a.option_strings)
    return tuple(action.choices or ())


# --- the table drives detection and the options -------------------------------------------

def test_from_takes_exactly_the_names_of_the_table() -> None:
    assert _choices(import_parser("build_decks.py"), "--from") == names() == tuple(
        reader.name for reader in READERS)
    assert len(set(names())) == len(READERS)


def test_a_new_entry_is_told_by_its_extensions_and_its_content() -> None:
    assert detect.detect("bank.quill", "anything", WITH_QUILL) == "quill"
    assert detect.detect("bank.QLL", "anything", WITH_QUILL) == "quill"
    assert detect.detect("bank.txt", QUILL_TEXT, WITH_QUILL) == "quill"
    found = detect.guesses(QUILL_TEXT, WITH_QUILL)
    assert (found[0].form, found[0].evidence) == ("quill", "2 quill marks")
    assert detect.bank_files(["a.quill", "b.qll", "c.doc", "d.txt"], WITH_QUILL) == [
        "a.quill", "b.qll", "d.txt"]
    # the table as it is knows no quill
    assert detect.detect("bank.quill", "anything") is None
    assert "quill" not in [g.form for g in detect.guesses(QUILL_TEXT)]
    assert detect.bank_files(["a.quill", "d.txt"]) == ["d.txt"]
    # a file of its format that is never a bank, as package.json is JSON's
    never = (*READERS, replace(QUILL, never_banks=("settings.quill",)))
    assert detect.bank_files(["a/Settings.quill", "b.quill", "package.json"], never) == [
        "b.quill"]


def test_a_new_entry_is_offered_by_from_and_listed_by_help() -> None:
    parser = import_parser("build_decks.py", WITH_QUILL)
    assert parser.parse_args(["x", "--out", "o", "--from", "quill"]).format == "quill"
    assert _choices(parser, "--from")[-1] == "quill"
    shown = parser.format_help()
    assert re.search(r"^  quill +\(\.quill \.qll\) a made-up format of quill marks$", shown,
                     re.M)
    with pytest.raises(SystemExit):
        import_parser("build_decks.py").parse_args(["x", "--out", "o", "--from", "quill"])


def test_an_entry_taken_away_is_no_longer_told_or_offered() -> None:
    without = tuple(r for r in READERS if r.name != "gift")
    gift = "::Ink:: What is ink? {=a liquid ~a stone}\n"
    assert detect.detect("q.gift", gift) == "gift"
    assert detect.detect("q.gift", gift, without) is None
    assert "gift" not in [g.form for g in detect.guesses(gift, without)]
    assert "gift" not in _choices(import_parser("build_decks.py", without), "--from")


def test_on_equal_evidence_the_lower_precedence_goes_first_whatever_the_order() -> None:
    def same(content: Content) -> Evidence:
        return Evidence(7, "the same")

    first = replace(QUILL, name="first", recognise=same, precedence=1)
    second = replace(QUILL, name="second", recognise=same, precedence=2)
    assert [g.form for g in detect.guesses("x", (second, first))] == ["first", "second"]
    assert [g.form for g in detect.guesses("x", (first, second))] == ["first", "second"]
    assert len({reader.precedence for reader in READERS}) == len(READERS)


def test_map_applies_to_the_structured_banks_the_table_names() -> None:
    shown = " ".join(import_parser("build_decks.py").format_help().split())
    mapped = [r.name for r in READERS if r.takes_map]
    assert f"in a bank read as {', '.join(mapped[:-1])} or {mapped[-1]}, read KEY" in shown
    unmapped = [r.name for r in READERS if not r.takes_map]
    assert unmapped and not any(f" {name}," in shown.split("--map KEY=ROLE in")[1][:120]
                                for name in unmapped)


# --- each entry's reader ---------------------------------------------------------------

@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.name)
def test_each_entry_names_a_reader_that_takes_what_it_is_given(reader: Reader) -> None:
    module, _, function = reader.function.partition(":")
    read = getattr(__import__(module, fromlist=[function]), function)
    parameters = list(inspect.signature(read).parameters)
    assert parameters[:2] == ["text", "path"]
    assert ("overrides" in parameters) == reader.takes_map
    assert all(ext == ext.casefold() and ext.startswith(".") for ext in reader.extensions)


def test_an_entry_reads_with_its_own_function() -> None:
    reading = named("aiken").read("What is ink?\nA. a liquid\nB. a stone\nANSWER: A\n",
                                  "ink.txt", {"x": "prompt"})
    assert [item.prompt for section in reading.sections for item in section.items] == [
        "What is ink?"]
    assert named("quill", WITH_QUILL).read(QUILL_TEXT.replace("%% quill\n", ""), "q.quill",
                                           {}).sections


def test_showing_the_formats_loads_no_reader() -> None:
    """``import -h`` and ``--from``'s choices come from the table alone: the readers'
    modules load only when a file is read with them."""
    modules = sorted(r.function.partition(":")[0] for r in READERS)
    probe = ("import sys; from nca_anki.arguments import import_parser; "
             "import_parser('x').format_help(); "
             f"print(sorted(m for m in {modules!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=REPO, check=True)
    assert done.stdout.strip() == "[]"


# --- what the user reads ---------------------------------------------------------------

def test_help_lists_every_format_with_its_extensions(cli) -> None:
    done = cli("import", "-h")
    assert done.status == 0
    listed = done.out.split("formats (", 1)[1].split("\nexit status:", 1)[0]
    for reader in READERS:
        line = re.search(rf"^  {re.escape(reader.name)} +\(([^)]*)\)", listed, re.M)
        assert line is not None, reader.name
        assert tuple(line[1].split()) == (reader.extensions or ("by", "content"))
    assert max(len(line) for line in listed.splitlines()) <= 80


def test_a_folder_without_banks_names_every_extension_a_reader_owns(cli, tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.doc").write_text("nothing", encoding="utf-8")
    done = cli("import", str(tmp_path / "empty"), "--out", str(tmp_path / "out"))
    assert done.status == 1
    said = re.search(r"holds no file a bank is kept in \(([^)]*)\)", done.err)
    assert said is not None
    assert said[1].split() == [*(e for r in READERS for e in r.extensions), ".txt"]


# --- docs/importing.md's table of formats ----------------------------------------------

HEADER = "| format | `--from` | extensions | what in the content counts for it | what it reads |"


def _cells(row: str) -> list[str]:
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip())[1:-1]]


def disagreements(doc: str, readers: tuple[Reader, ...] = READERS) -> list[str]:
    """Where docs/importing.md's table of formats (and the order of precedence under it)
    says otherwise than ``readers``; none when they agree."""
    lines = doc.split("\n")
    if HEADER not in lines:
        return ["no table of formats"]
    rows = [_cells(line) for line in lines[lines.index(HEADER) + 2:]]
    rows = rows[:next((i for i, r in enumerate(rows) if not r), len(rows))]
    documented = {cells[1].strip("`"): cells for cells in rows if len(cells) == 5}
    wrong = [f"the docs name {name}, no reader" for name in documented if name not in names(
        readers)]
    wrong += [f"{name} is missing from the docs" for name in names(readers)
              if name not in documented]
    if [n for n in documented if n in names(readers)] != [n for n in names(readers)
                                                           if n in documented]:
        wrong.append("the docs list the formats in another order")
    for reader in readers:
        cells = documented.get(reader.name)
        if cells is None:
            continue
        if cells[0] != reader.title:
            wrong.append(f"{reader.name}: the docs call it {cells[0]}, not {reader.title}")
        if tuple(cells[2].replace("`", "").split()) != reader.extensions:
            wrong.append(f"{reader.name}: the docs give it {cells[2]}")
        if not cells[3] or reader.recognise is None and "name only" not in cells[3]:
            wrong.append(f"{reader.name}: the docs say nothing of how it is told")
        if cells[4].replace("`", "") != reader.reads:
            wrong.append(f"{reader.name}: the docs say it reads {cells[4]}")
    order = ", ".join(r.title for r in sorted(readers, key=lambda r: r.precedence))
    if f"tried in this order: {order}." not in " ".join(doc.split()):
        wrong.append(f"the order of precedence is not {order}")
    return wrong


def test_the_docs_table_of_formats_agrees_with_the_table_of_readers() -> None:
    assert disagreements((REPO / "docs" / "importing.md").read_text(encoding="utf-8")) == []


def test_the_docs_check_finds_a_format_missing_renamed_or_made_up() -> None:
    doc = (REPO / "docs" / "importing.md").read_text(encoding="utf-8")
    assert disagreements(doc, WITH_QUILL) == [
        "quill is missing from the docs",
        "the order of precedence is not Moodle XML, JSON, TypeScript/JavaScript, Aiken, "
        "GIFT, Markdown, YAML, CSV, TSV, OpenTriviaQA, Quill"]
    assert disagreements(doc, tuple(r for r in READERS if r.name != "yaml")) == [
        "the docs name yaml, no reader",
        "the order of precedence is not Moodle XML, JSON, TypeScript/JavaScript, Aiken, "
        "GIFT, Markdown, CSV, TSV, OpenTriviaQA"]
    renamed = tuple(replace(r, extensions=(".yaml",)) if r.name == "yaml" else r
                    for r in READERS)
    assert disagreements(doc, renamed) == ["yaml: the docs give it `.yaml` `.yml`"]
    assert disagreements(doc.replace("| Aiken | `aiken` |", "| Aiken | `aikn` |")) == [
        "the docs name aikn, no reader", "aiken is missing from the docs"]


def test_the_readme_names_every_format_the_import_reads() -> None:
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    titles = ", ".join(reader.title for reader in READERS)
    assert f"Bringing in a bank you already have ({titles}):" in readme
