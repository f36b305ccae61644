"""A title's '— Questions and Answers' mistyped is still the suffix: the topic keeps its
name (and its deck) with a warning saying how to write it; a title whose end is not read
that way, moving a file's published questions to a new deck, is an error until the author
confirms it (issue 45, 7)."""

from __future__ import annotations


import pytest

from growth import least_cpu
from nca_anki.reading.config import Config
from nca_anki.reading.parse import parse
from nca_anki.reading.topics import group_topics, moved_by_title
from nca_anki.records import Lock, LockEntry

QUESTION = ("Question 1: What is it?", "- alpha (Correct answer)", "- beta",
            "Correct answer: alpha", "Because.")
SETTINGS = "source/nca-anki.toml"

NEAR = ["Foo Bar 2 - Questions & Answers", "Foo Bar 2 — questions & answers ",
        "Foo Bar 2 -- Questions + Answers", "Foo Bar 2 — Q&A", "Foo Bar 2 Q & A",
        "Foo Bar 2 — Q and A", "Foo Bar 2 — Questions and Answer",
        "Foo Bar 2 — Question and Answers", "Foo Bar 2 —  Questions  and  Answers",
        "Foo Bar 2 — QUESTIONS & ANSWERS", "Foo Bar 2 — Questons and Answers",
        "Foo Bar 2 — Questions and Answres.", "Foo Bar 2: Questions & Answers",
        "Foo Bar 2 - Questions n Answers", "Foo Bar 2 - Questions &amp; Answers"]


@pytest.mark.parametrize("title", NEAR)
def test_a_mistyped_suffix_is_read_as_the_suffix_with_a_warning(title: str) -> None:
    result = parse("\n".join((title, *QUESTION)), "q.txt")
    assert (result.file.name, result.file.part) == ("Foo Bar", 2)
    [said] = result.diagnostics
    assert (said.code, said.line) == ("W110", 1)
    assert "read as '— Questions and Answers' (the deck keeps its name)" in said.message


@pytest.mark.parametrize("title", ["Foo Bar 2 — Quiz and Answers", "Foo Bar 2 — Tips and Tricks",
                                   "Foo Bar 2 — Questions", "Foo Bar 2 — Frameworks and Tools"])
def test_other_endings_are_not_taken_for_the_suffix(title: str) -> None:
    result = parse("\n".join((title, *QUESTION)), "q.txt")
    assert result.file.title == title
    assert "taken as the title" in result.diagnostics[0].message


@pytest.mark.parametrize("title", NEAR[:4])
def test_a_footer_with_the_same_mistyped_suffix_is_no_card_text(title: str) -> None:
    result = parse("\n".join((title, *QUESTION, "", title, "What is it?")), "q.txt")
    assert result.file.questions[0].explanation == "Because."




@pytest.mark.parametrize("suffix", ["— Questions and Answers", "- Questions & Answers",
                                    "— Qs"])
def test_a_title_line_is_read_in_time_linear_in_its_length(suffix: str) -> None:
    """Growth, not speed: a search for the suffix from every space of a long run of them
    took time that grew with the square of the line (10,000 spaces: a second)."""
    def read(spaces: int) -> None:
        text = "\n".join((f"Foo {' ' * spaces}2 {suffix}", *QUESTION,
                          f"Foo {' ' * spaces}2 {suffix}"))
        parse(text, "q.txt")

    short, long = least_cpu(lambda: read(50_000)), least_cpu(lambda: read(200_000))
    assert long < 8 * max(short, 0.05), (short, long)


def _entry(topic: str, part: int, file: str) -> LockEntry:
    return LockEntry(guid=f"g-{file}", topic=topic, part=part, content_hash="h", mod=1,
                     prompt="p", choices=(), answer=0, explanation="", file=file)


def _moved(title: str, published: str, part: int = 2, config: Config | None = None):
    result = parse("\n".join((title, *QUESTION)), "source/foo-2.txt")
    config = config or Config()
    topics, _ = group_topics((result.file,), config, SETTINGS)
    lock = Lock(entries=(_entry(published, part, "foo-2.txt"),))
    return moved_by_title(topics, lock, config, SETTINGS, {"source/foo-2.txt": "foo-2.txt"})


@pytest.mark.parametrize("title", NEAR)
def test_a_mistyped_suffix_keeps_the_published_deck(title: str) -> None:
    assert _moved(title, "Foo Bar") == []


@pytest.mark.parametrize("title", ["Foo Bar 2 — Qs and As", "Foo Bar 2 — Questions and Answers v2",
                                   "Foo Bar 2 (Questions and Answers)"])
def test_a_title_read_whole_that_moves_published_questions_is_an_error(title: str) -> None:
    [problem] = _moved(title, "Foo Bar")
    assert (problem.code, problem.path, problem.line) == ("E123", "source/foo-2.txt", 1)
    assert "Write the title as 'Foo Bar 2 — Questions and Answers'" in problem.message \
        or "write the title as 'Foo Bar 2 — Questions and Answers'" in problem.message
    assert f'[renamed] "Foo Bar" = "{title}"' in problem.message


def test_a_title_published_whole_now_read_with_its_suffix_is_an_error() -> None:
    [problem] = _moved("Foo Bar 2 - Questions & Answers", "Foo Bar 2 - Questions & Answers",
                       part=1)
    assert problem.code == "E123"
    assert '[renamed] "Foo Bar 2 - Questions & Answers" = "Foo Bar"' in problem.message


def test_a_confirmed_move_builds() -> None:
    from types import MappingProxyType
    config = Config(renamed=MappingProxyType({"Foo Bar": "Foo Bar 2 — Qs and As"}))
    assert _moved("Foo Bar 2 — Qs and As", "Foo Bar", config=config) == []


@pytest.mark.parametrize("title", ["Baz Qux 2 — Questions and Answers",
                                   "Foo Bar Advanced 2 — Questions and Answers",
                                   "Foo Bar 23 — Qs"])
def test_a_rename_in_other_words_is_left_to_the_rename_rules(title: str) -> None:
    assert _moved(title, "Foo Bar") == []
