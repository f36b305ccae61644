"""Tests for nca_anki.reading.config: the optional nca-anki.toml settings file."""

from __future__ import annotations

from pathlib import Path

import pytest

from nca_anki.reading.config import (CONFIG_NAME, DEFAULT_PARENT_DECK, Config, deck_name_problem,
                                     load_config)
from nca_anki.diagnostics import Diagnostic, Severity, error

SHOWN = "source/nca-anki.toml"


def load(tmp_path: Path, text: str | bytes):
    path = tmp_path / CONFIG_NAME
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return load_config(tmp_path, SHOWN)


def test_missing_file_gives_defaults_and_no_diagnostics(tmp_path: Path) -> None:
    config, problems = load_config(tmp_path, SHOWN)
    assert problems == ()
    assert config == Config()
    assert config.parent_deck == "NCA" == DEFAULT_PARENT_DECK
    assert dict(config.deck_names) == {}


def test_a_folder_named_like_the_settings_file_is_refused_not_skipped(tmp_path: Path) -> None:
    """Skipped, the settings it was meant to hold (deck names) would silently not apply."""
    (tmp_path / CONFIG_NAME).mkdir()
    config, (problem,) = load_config(tmp_path, SHOWN)
    assert config == Config()
    assert (problem.code, problem.path) == ("E201", SHOWN)
    assert "not a regular file" in problem.message


def test_empty_file_gives_defaults(tmp_path: Path) -> None:
    config, problems = load(tmp_path, "")
    assert (config.parent_deck, dict(config.deck_names), problems) == ("NCA", {}, ())


def test_parent_deck_and_deck_names_are_read(tmp_path: Path) -> None:
    config, problems = load(tmp_path, (
        'parent_deck = "NVIDIA::NCA"\n'
        "\n"
        "[deck_names]\n"
        '"AI & Deep Learning Frameworks" = "AI and Deep Learning Frameworks"\n'
        '"Generative AI" = "GenAI   Basics"\n'
    ))
    assert problems == ()
    assert config.parent_deck == "NVIDIA::NCA"
    # Runs of whitespace in a deck name become one space.
    assert dict(config.deck_names) == {
        "AI & Deep Learning Frameworks": "AI and Deep Learning Frameworks",
        "Generative AI": "GenAI Basics",
    }


def test_config_is_immutable(tmp_path: Path) -> None:
    config, _ = load(tmp_path, '[deck_names]\n"A" = "B"\n')
    with pytest.raises(TypeError):
        config.deck_names["C"] = "D"  # type: ignore[index]


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    config, problems = load(tmp_path, '\ufeffparent_deck = "Études"\n'.encode("utf-8"))
    assert (config.parent_deck, problems) == ("Études", ())


def test_not_utf8_is_an_error(tmp_path: Path) -> None:
    config, problems = load(tmp_path, b'parent_deck = "\xe9t\xe9"\n')
    assert config == Config()
    assert problems == (error("E201", SHOWN, 0, "settings file is not UTF-8 text"),)


def test_invalid_toml_is_an_error_naming_the_line(tmp_path: Path) -> None:
    config, problems = load(tmp_path, 'parent_deck = "X"\nfoo = \n')
    assert config == Config()
    assert len(problems) == 1
    problem = problems[0]
    assert (problem.path, problem.severity) == (SHOWN, Severity.ERROR)
    assert problem.message == "invalid TOML: Invalid value (at line 2, column 7)"


def test_invalid_toml_diagnostic_carries_the_line(tmp_path: Path) -> None:
    _, problems = load(tmp_path, 'parent_deck = "X"\nfoo = \n')
    assert [p.line for p in problems] == [2]
    assert str(problems[0]).startswith(f"{SHOWN}:2: error[E201]: invalid TOML")


def test_unknown_key_is_an_error_naming_it(tmp_path: Path) -> None:
    config, problems = load(tmp_path, 'parent_deck = "X"\n\ncolour = "blue"\n')
    assert problems == (error("E202", SHOWN, 3, "unknown setting 'colour'; known settings: "
                                        "parent_deck, language, report_url, deck_names, shuffle, "
                                        "show_answer_on_pick, acknowledged, renamed"),)
    assert config.parent_deck == "X"  # the known settings still apply


def test_every_unknown_key_is_reported_sorted(tmp_path: Path) -> None:
    _, problems = load(tmp_path, 'zeta = 1\nalpha = 2\n')
    assert [(p.line, p.message.split(";")[0]) for p in problems] == [
        (2, "unknown setting 'alpha'"), (1, "unknown setting 'zeta'")]


def test_unknown_key_line_is_the_key_own_line(tmp_path: Path) -> None:
    _, problems = load(tmp_path, 'parent_deck = "X"\nparent = "Y"\n')
    assert [(p.line, p.message.split(";")[0]) for p in problems] == [
        (2, "unknown setting 'parent'")]


def test_deck_name_error_line_is_the_key_own_line(tmp_path: Path) -> None:
    _, problems = load(tmp_path, (
        'parent_deck = "NCA"\n[deck_names]\n"Generative AI" = "GenAI"\n"AI" = ""\n'))
    assert problems == (error("E203", SHOWN, 4, "deck name for 'AI' is empty"),)


@pytest.mark.parametrize("value, why", [
    ("3", "must be a string"),
    ('""', "is empty"),
    ('"   "', "is empty"),
    ('"NCA::"', "has an empty part between '::' separators"),
    ('"A::::B"', "has an empty part between '::' separators"),
    ('"A\\u0007B"', "contains a control or damaged character"),
    ('"A\\uFFFDB"', "contains a control or damaged character"),
])
def test_bad_parent_deck_is_an_error_and_falls_back_to_default(
        tmp_path: Path, value: str, why: str) -> None:
    config, problems = load(tmp_path, f"# settings\nparent_deck = {value}\n")
    assert problems == (error("E203", SHOWN, 2, f"parent_deck {why}"),)
    assert config.parent_deck == "NCA"


@pytest.mark.parametrize("value, why", [
    ("42", "must be a string"),
    ('["a", "b"]', "must be a string"),
    ('""', "is empty"),
    ('" \\t "', "is empty"),
    ('"Deep::"', "has an empty part between '::' separators"),
])
def test_bad_deck_name_is_an_error_and_is_dropped(tmp_path: Path, value: str, why: str) -> None:
    config, problems = load(tmp_path, (
        "[deck_names]\n"
        '"Good Topic" = "Fine"\n'
        f'"Bad Topic" = {value}\n'
    ))
    assert problems == (error("E203", SHOWN, 3, f"deck name for 'Bad Topic' {why}"),)
    assert dict(config.deck_names) == {"Good Topic": "Fine"}


def test_deck_names_not_a_table_is_an_error(tmp_path: Path) -> None:
    config, problems = load(tmp_path, 'parent_deck = "X"\ndeck_names = "oops"\n')
    assert problems == (error("E203", SHOWN, 2, 'deck_names must be a table of "topic" = "deck name"'),)
    assert (config.parent_deck, dict(config.deck_names)) == ("X", {})


def test_all_problems_are_collected_in_one_pass(tmp_path: Path) -> None:
    _, problems = load(tmp_path, (
        "parent_deck = 7\n"
        "extra = true\n"
        "[deck_names]\n"
        '"T" = ""\n'
    ))
    assert sorted(problems) == [
        error("E203", SHOWN, 1, "parent_deck must be a string"),
        error("E202", SHOWN, 2, "unknown setting 'extra'; known settings: parent_deck, language, "
                        "report_url, deck_names, shuffle, show_answer_on_pick, acknowledged, "
                        "renamed"),
        error("E203", SHOWN, 4, "deck name for 'T' is empty"),
    ]
    assert all(isinstance(p, Diagnostic) for p in problems)


@pytest.mark.parametrize("name, expected", [
    ("NCA", None),
    ("NCA::Deep Learning", None),
    ("", "is empty"),
    ("::", "has an empty part between '::' separators"),
    ("A:: ::B", "has an empty part between '::' separators"),
    ("A\nB", "contains a control or damaged character"),
    ("A\ufffdB", "contains a control or damaged character"),
])
def test_deck_name_problem(name: str, expected: str | None) -> None:
    assert deck_name_problem(name) == expected


def test_shuffle_table_turns_shuffling_off_per_topic(tmp_path: Path) -> None:
    config, problems = load(tmp_path, '[shuffle]\n"Deep Learning" = false\n"Other" = true\n')
    assert problems == ()
    assert config.shuffles("Deep Learning") is False
    assert config.shuffles("Other") is True
    assert config.shuffles("Anything else") is True  # shuffling is on by default


def test_shuffle_values_must_be_true_or_false(tmp_path: Path) -> None:
    config, problems = load(tmp_path, '[shuffle]\n"Deep Learning" = "no"\n')
    assert problems == (error("E203", SHOWN, 2, "shuffle for 'Deep Learning' must be true or false, "
                                        "not 'no'"),)
    assert config.shuffles("Deep Learning") is True
    _, problems = load(tmp_path, 'shuffle = false\n')
    assert problems == (error("E203", SHOWN, 1, 'shuffle must be a table of "topic" = true or false'),)


def test_show_answer_on_pick_is_off_unless_turned_on_for_every_deck_or_a_topic(
        tmp_path: Path) -> None:
    assert not Config().shows_answer_on_pick("Any")
    config, problems = load(tmp_path, "show_answer_on_pick = true\n")
    assert problems == () and config.shows_answer_on_pick("Any")
    config, problems = load(tmp_path, '[show_answer_on_pick]\n"Fast Drills" = true\n')
    assert problems == ()
    assert config.shows_answer_on_pick("Fast Drills") and not config.shows_answer_on_pick("Other")


@pytest.mark.parametrize("text, line, message", [
    ('show_answer_on_pick = "yes"\n', 1, "show_answer_on_pick must be true or false, or a table "
                                         'of "topic" = true or false'),
    ('[show_answer_on_pick]\n"Drills" = 1\n', 2, "show_answer_on_pick for 'Drills' must be "
                                                  "true or false, not 1"),
])
def test_show_answer_on_pick_values_are_checked(tmp_path: Path, text: str, line: int,
                                                message: str) -> None:
    config, problems = load(tmp_path, text)
    assert problems == (error("E203", SHOWN, line, message),)
    assert not config.shows_answer_on_pick("Drills")
