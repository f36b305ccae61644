"""The settings name topics as a reader sees them: a key of nca-anki.toml typed in another
Unicode form (NFD, as macOS writes), with an invisible character or another space, names
the same topic as the title; a key that names none is a warning at its own line."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from nca_anki.diagnostics import warning
from nca_anki.reading.acknowledged import acknowledge
from nca_anki.reading.config import CONFIG_NAME, load_config
from nca_anki.reading.topics import group_topics, renamed
from nca_anki.records import Choice, Lock, LockEntry, ParsedFile, Question

SHOWN = "source/nca-anki.toml"
TOPIC = "Réseaux de neurones"  # NFC, as every title is once decoded
NFD = unicodedata.normalize("NFD", TOPIC)


def _file(path: str, name: str, part: int = 1) -> ParsedFile:
    question = Question(number=1, prompt=f"Q of {path}?",
                        choices=(Choice("Yes", True, 3), Choice("No", False, 4)),
                        explanation="Because.", path=path, line=2)
    return ParsedFile(path=path, title=f"{name} {part}", name=name, part=part,
                      questions=(question,))


def _settings(tmp_path: Path, text: str):
    (tmp_path / CONFIG_NAME).write_text(text, encoding="utf-8")
    config, problems = load_config(tmp_path, SHOWN)
    assert problems == ()
    return config


def test_a_deck_name_keyed_in_nfd_applies_to_the_nfc_title(tmp_path: Path) -> None:
    assert NFD != TOPIC
    config = _settings(tmp_path, f'[deck_names]\n"{NFD}" = "Neural networks"\n')
    (topic,), problems = group_topics((_file("a.txt", TOPIC),), config, SHOWN)
    assert topic.deck_name == "NCA::Neural networks"
    assert problems == ()


def test_keys_with_invisible_characters_or_other_spaces_name_the_topic(tmp_path: Path) -> None:
    config = _settings(tmp_path, "\n".join((
        "[deck_names]", '"Deep\u00a0Learning\u200b" = "DL"',
        "[shuffle]", '"Deep  Learning" = false',
        "[show_answer_on_pick]", '"\ufeffDeep Learning" = true', "")))
    (topic,), problems = group_topics((_file("a.txt", "Deep Learning"),), config, SHOWN)
    assert topic.deck_name == "NCA::DL"
    assert not config.shuffles("Deep Learning")
    assert config.shows_answer_on_pick("Deep Learning")
    assert problems == ()


def test_the_title_in_nfd_matches_a_key_in_nfc(tmp_path: Path) -> None:
    config = _settings(tmp_path, f'[shuffle]\n"{TOPIC}" = false\n')
    assert not config.shuffles(NFD)


def test_a_deck_name_value_is_kept_in_one_unicode_form(tmp_path: Path) -> None:
    config = _settings(tmp_path, f'parent_deck = "{NFD}"\n[deck_names]\n"A" = "{NFD}"\n')
    assert config.parent_deck == TOPIC
    assert config.deck_name("A") == TOPIC


def test_one_topic_keyed_twice_in_two_forms_is_an_error_at_the_second(tmp_path: Path) -> None:
    (tmp_path / CONFIG_NAME).write_text(
        f'[deck_names]\n"{TOPIC}" = "One"\n"{NFD}" = "Two"\n', encoding="utf-8")
    config, problems = load_config(tmp_path, SHOWN)
    assert [(p.code, p.line) for p in problems] == [("E203", 3)]
    assert "also at line 2" in problems[0].message
    assert config.deck_name(TOPIC) == "One"


def test_each_key_that_names_no_topic_is_a_warning_at_its_line(tmp_path: Path) -> None:
    config = _settings(tmp_path, "\n".join((
        'parent_deck = "NCA"',
        "[deck_names]",
        '"Alpha" = "A"',
        '"Gamma" = "G"',
        "",
        "[shuffle]",
        '"Gamma" = false',
        "[show_answer_on_pick]",
        '"alpha" = true',
        '"Beta" = true', "")))
    _, problems = group_topics((_file("a.txt", "Alpha"), _file("b.txt", "Beta")), config,
                               SHOWN)
    assert sorted((p.code, p.line) for p in problems) == [("W201", 4), ("W201", 7), ("W201", 9)]
    [case] = [p for p in problems if p.line == 9]
    assert case == warning("W201", SHOWN, 9, "[show_answer_on_pick] names topic 'alpha', which "
                           "no source file has; did you mean 'Alpha'? Write the topic's name "
                           "as the build prints it")


def test_a_rename_confirmed_in_nfd_is_confirmed(tmp_path: Path) -> None:
    old, new = "Deep Learning Techniques", "Deep Learning Technique"
    entry = LockEntry(guid="g", topic=old, part=1, content_hash="h", mod=1, prompt="p",
                      choices=(), answer=0, explanation="")
    topics, _ = group_topics((_file("a.txt", new),), _settings(tmp_path, ""), SHOWN)
    assert [p.code for p in renamed(topics, Lock(entries=(entry,)),
                                   _settings(tmp_path, ""), SHOWN)] == ["E133"]
    confirmed = _settings(tmp_path, f'[renamed]\n"{old}" = "{new}\u200b"\n')
    assert renamed(topics, Lock(entries=(entry,)), confirmed, SHOWN) == []


def test_an_acknowledged_file_named_in_nfd_matches_the_file(tmp_path: Path) -> None:
    name = "réseaux-1.txt"
    config = _settings(tmp_path, "\n".join((
        "[[acknowledged]]", 'code = "W142"',
        f'file = "{unicodedata.normalize("NFD", name)}"', "")))
    shown = f"source/{name}"
    problems = [warning("W142", shown, 1, "answers cluster")]
    kept, removed = acknowledge(problems, config.acknowledged, SHOWN, complete=True,
                                files={shown: name})
    assert (kept, removed) == ([], 1)
