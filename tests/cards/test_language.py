"""The card's own words in each language (nca_anki/language.py) and the ``language``
setting: every table complete, the settings file checked, the note type unchanged but for
its templates, English decks as they were."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nca_anki.cards.render import Renderer
from nca_anki.language import (DEFAULT_LANGUAGE, LANGUAGES, direction, preview_words_in,
                               words_in)
from nca_anki.reading.config import load_config

REPO = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_table_has_the_english_keys_and_placeholders(language):
    english, table = words_in("en"), words_in(language)
    assert set(table) == set(english)
    for key, text in table.items():
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english[key])), key
        assert text.strip() == text or key.startswith("list_"), key
        assert "{{" not in text and "}}" not in text  # never an Anki field marker
        if key.startswith("mark_"):
            assert "\u00a0" in text, key  # the sign stays with its first word


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_preview_table_has_the_english_keys_and_placeholders(language):
    english, table = preview_words_in("en"), preview_words_in(language)
    assert set(table) == set(english)
    for key, text in table.items():
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english[key])), key


def test_directions_and_the_default():
    assert DEFAULT_LANGUAGE == "en" and direction("en") == "ltr" and direction("ar") == "rtl"
    assert {direction(code) for code in LANGUAGES} == {"ltr", "rtl"}


@pytest.mark.parametrize(("written", "line"), [('language = "xx"', 2), ('language = ["de"]', 2),
                                               ("language = 3", 2)])
def test_a_language_the_card_does_not_speak_is_an_error_at_its_line(tmp_path, written, line):
    (tmp_path / "nca-anki.toml").write_text(f'parent_deck = "NCA"\n{written}\n',
                                            encoding="utf-8")
    config, problems = load_config(tmp_path, "source/nca-anki.toml")
    assert config.language == "en"
    [problem] = problems
    assert (problem.code, problem.path, problem.line) == ("E203", "source/nca-anki.toml", line)
    assert "de (Deutsch)" in problem.message and "ar (العربية)" in problem.message


def test_the_setting_is_read(tmp_path):
    (tmp_path / "nca-anki.toml").write_text('language = "ar"\n', encoding="utf-8")
    config, problems = load_config(tmp_path, "nca-anki.toml")
    assert problems == () and config.language == "ar"


def test_the_note_type_keeps_its_id_and_fields_in_every_language():
    renderer = Renderer(REPO / "templates", "templates")
    english, _ = renderer.note_type()
    assert english is not None
    for code in LANGUAGES:
        note_type, problems = renderer.note_type(code)
        assert problems == () and note_type is not None
        assert (note_type.id, note_type.name, note_type.fields, note_type.template_name) == \
            (english.id, english.name, english.fields, english.template_name)
        assert f'lang="{code}" dir="{direction(code)}"' in note_type.front
        assert f'lang="{code}" dir="{direction(code)}"' in note_type.back
        assert words_in(code)["answer_static"] in note_type.back
        assert "{{" not in note_type.css  # the static "✓ correct", escaped for CSS
        if code != "en":
            assert note_type.front != english.front and note_type.css != english.css


def test_english_is_the_card_as_it_was():
    """The English table holds the words the card said before languages existed (the
    committed decks and tests/cards/test_card.py read them), so an English deck's fields
    keep their bytes."""
    words = words_in("en")
    assert words["choose_count"].format(n=3) == "Choose 3 answers."
    assert words["source"].format(deck="GPU", part=2) == "GPU — part 2"
    assert words["verdict_wrong_one"].format(chosen="A", answers="B") == \
        "✗ You chose A; the answer is B."


def test_a_change_of_language_keeps_every_guid(tmp_path):
    """The same bank built in English and in Arabic: the same notes (GUIDs) for the same
    questions. (The notes' content hashes differ: the Source field says "part" in the
    card's language, so a change of language updates every note once, as it should.)"""
    from conftest import copy_project
    from nca_anki.build import BuildOptions, build
    from nca_anki.identity.lockfile import load_lock

    built = {}
    for language in ("en", "ar"):
        root = copy_project(tmp_path / language)
        if language != "en":
            (root / "source" / "nca-anki.toml").write_text(f'language = "{language}"\n',
                                                           encoding="utf-8")
        report = build(BuildOptions(root / "source", REPO / "templates", root / "dist",
                                    now=1_800_000_000))
        assert report.ok, [str(d) for d in report.diagnostics]
        lock, _ = load_lock((root / "source" / "nca-anki.lock").read_text(encoding="utf-8"),
                            "nca-anki.lock")
        assert lock is not None
        built[language] = {(e.guid, e.prompt_id) for e in lock.entries}
    assert built["en"] == built["ar"] and len(built["en"]) == 19
