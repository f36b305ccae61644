"""Diagnostics: how problems print, sort and quote source text."""

from nca_anki.diagnostics import clip, error, has_errors, sort_diagnostics, warning


def test_prints_as_path_line_severity_message():
    assert str(error("source/a.txt", 12, "bad")) == "source/a.txt:12: error: bad"
    assert str(warning("source/a.txt", 3, "odd")) == "source/a.txt:3: warning: odd"


def test_line_zero_means_the_whole_file():
    assert str(error("source", 0, "folder not found")) == "source: error: folder not found"


def test_sorted_by_path_then_line_errors_first_and_deduplicated():
    found = [warning("b.txt", 1, "w"), error("a.txt", 10, "e"), warning("a.txt", 2, "w"),
             error("a.txt", 2, "e"), error("a.txt", 10, "e")]
    assert [str(d) for d in sort_diagnostics(found)] == [
        "a.txt:2: error: e", "a.txt:2: warning: w", "a.txt:10: error: e", "b.txt:1: warning: w"]


def test_has_errors_ignores_warnings():
    assert not has_errors([warning("a", 1, "w")])
    assert has_errors([warning("a", 1, "w"), error("a", 2, "e")])


def test_clip_strips_and_marks_what_it_cuts():
    assert clip("  short  ") == "short"
    assert clip("x" * 81) == "x" * 79 + "…"
    assert clip("x" * 80) == "x" * 80
    assert clip("abcdef", 4) == "abc…"
