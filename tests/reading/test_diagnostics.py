"""Diagnostics: how problems print, sort and quote source text; their stable codes."""

import re

import pytest

from nca_anki.codes import CODES
from nca_anki.diagnostics import clip, error, has_errors, sort_diagnostics, warning

from conftest import REPO

ROOT = REPO


def test_prints_as_path_line_severity_code_message():
    assert str(error("E120", "source/a.txt", 12, "bad")) == "source/a.txt:12: error[E120]: bad"
    assert str(warning("W120", "source/a.txt", 3, "odd")) == "source/a.txt:3: warning[W120]: odd"


def test_line_zero_means_the_whole_file():
    assert str(error("E104", "source", 0, "folder not found")) == \
        "source: error[E104]: folder not found"


def test_sorted_by_path_then_line_errors_first_and_deduplicated():
    found = [warning("W120", "b.txt", 1, "w"), error("E120", "a.txt", 10, "e"),
             warning("W120", "a.txt", 2, "w"), error("E120", "a.txt", 2, "e"),
             error("E120", "a.txt", 10, "e")]
    assert [str(d) for d in sort_diagnostics(found)] == [
        "a.txt:2: error[E120]: e", "a.txt:2: warning[W120]: w", "a.txt:10: error[E120]: e",
        "b.txt:1: warning[W120]: w"]


def test_has_errors_ignores_warnings():
    assert not has_errors([warning("W120", "a", 1, "w")])
    assert has_errors([warning("W120", "a", 1, "w"), error("E120", "a", 2, "e")])


@pytest.mark.parametrize("make, code", [(error, "W120"), (warning, "E120"), (error, "E999")])
def test_a_code_must_exist_and_match_the_severity(make, code):
    with pytest.raises(AssertionError):
        make(code, "a.txt", 1, "m")


def test_clip_strips_and_marks_what_it_cuts():
    assert clip("  short  ") == "short"
    assert clip("x" * 81) == "x" * 79 + "…"
    assert clip("x" * 80) == "x" * 80
    assert clip("abcdef", 4) == "abc…"


def test_the_docs_list_every_code_with_its_meaning():
    """docs/diagnostics.md is what authors read: the same codes, titles and meanings as
    nca_anki/codes.py, in the same order."""
    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([EW]\d{3}) \| ([^|]+) \| ([^|]+) \|$", text, re.M)
    assert [(c, t.strip(), m.strip()) for c, t, m in rows] == \
        [(c.code, c.title, c.meaning) for c in CODES.values()]


def test_every_code_is_used_by_the_package():
    """A code in the list that nothing reports is a stale entry, or a check that was lost."""
    source = "\n".join(p.read_text(encoding="utf-8")
                       for p in (ROOT / "nca_anki").rglob("*.py") if p.name != "codes.py")
    unused = [code for code in CODES if f'"{code}"' not in source]
    assert unused == []


def test_codes_in_the_package_are_all_defined():
    source = "\n".join(p.read_text(encoding="utf-8")
                       for p in (ROOT / "nca_anki").rglob("*.py") if p.name != "codes.py")
    used = set(re.findall(r'"([EW]\d{3})"', source))
    assert used - set(CODES) == set()
