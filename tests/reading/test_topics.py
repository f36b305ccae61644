"""Tests for nca_anki.reading.topics: cleaned topic names, safe slugs, grouping files into topics."""

from __future__ import annotations

import re
from dataclasses import replace
from types import MappingProxyType

import pytest
from hypothesis import given, strategies as st

from nca_anki.reading.config import Config
from nca_anki.diagnostics import error, warning
from nca_anki.reading.parse import parse
from nca_anki.records import Choice, ParsedFile, Question, Topic
from nca_anki.reading.topics import repeats_across_parts, clean_topic_name, group_topics, slugify

CONFIG_PATH = "source/nca-anki.toml"
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def question(number: int, prompt: str, path: str) -> Question:
    return Question(number=number, prompt=prompt,
                    choices=(Choice("Yes", True, 3), Choice("No", False, 4)),
                    explanation="Because.", path=path, line=2)


def pfile(path: str, name: str, part: int, *prompts: str) -> ParsedFile:
    title = f"{name} {part}"
    # Each file its own question: one repeated across parts is an error.
    questions = tuple(question(i, p, path) for i, p in enumerate(prompts or (f"Q of {path}?",),
                                                                 start=1))
    return ParsedFile(path=path, title=title, name=name, part=part, questions=questions)


def config(parent: str = "NCA", **names: str) -> Config:
    return Config(parent_deck=parent, deck_names=MappingProxyType(dict(names)))


# --- clean_topic_name ---------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    ("Neural Network Neural Network Applications and Frameworks",
     "Neural Network Applications and Frameworks"),
    ("Deep Deep Learning", "Deep Learning"),
    ("GPU GPU GPU Computing", "GPU Computing"),
    ("NCA Generative AI", "Generative AI"),
    ("nca   Generative   AI", "Generative AI"),
    ("NCA", "NCA"),
    ("NCA ", "NCA"),
    ("Networks and Network Design", "Networks and Network Design"),
    ("AI::ML", "AI:ML"),
    ("  Data   Science  ", "Data Science"),
])
def test_clean_topic_name(raw: str, expected: str) -> None:
    assert clean_topic_name(raw, "NCA") == expected


def test_clean_topic_name_strips_only_the_leaf_of_a_nested_parent() -> None:
    assert clean_topic_name("NCA Generative AI", "NVIDIA::NCA") == "Generative AI"
    assert clean_topic_name("NVIDIA Generative AI", "NVIDIA::NCA") == "NVIDIA Generative AI"


def test_clean_topic_name_does_not_strip_a_prefix_of_a_word() -> None:
    assert clean_topic_name("NCAA Basketball", "NCA") == "NCAA Basketball"


def test_clean_topic_name_strips_parent_with_separator() -> None:
    assert clean_topic_name("NCA - Generative AI", "NCA") == "Generative AI"


# --- slugify ------------------------------------------------------------------------------

@pytest.mark.parametrize("title, expected", [
    ("Generative AI and LLMs", "generative-ai-and-llms"),
    ("AI/ML Operations", "ai-ml-operations"),
    ("../../etc/passwd", "etc-passwd"),
    ("Networking: InfiniBand", "networking-infiniband"),
    ("Ünïcödé Tëst", "unicode-test"),
    ("C:\\Windows\\System32", "c-windows-system32"),
    ("   --Hello--World--   ", "hello-world"),
    ("", "topic"),
    ("../", "topic"),
    ("日本語", "topic-77710aed"),
    ("C# Основы", "c-2777b7db"),
    ("////", "topic"),
])
def test_slugify(title: str, expected: str) -> None:
    assert slugify(title) == expected


def test_slugify_limits_length_without_trailing_hyphen() -> None:
    slug = slugify("word " * 40)
    assert len(slug) <= 80
    assert SLUG_RE.match(slug)
    assert slug == "-".join(["word"] * 16)


@given(st.text(max_size=200))
def test_slugify_is_always_a_safe_non_empty_file_name(title: str) -> None:
    slug = slugify(title)
    assert SLUG_RE.match(slug), slug
    assert 0 < len(slug) <= 80


# --- group_topics ---------------------------------------------------------------------------

def test_parts_of_one_topic_merge_in_part_order() -> None:
    part2 = pfile("b/dl-2.txt", "Deep Learning", 2, "Second part?")
    part1 = pfile("z/dl-1.txt", "Deep Learning", 1, "First part?")
    topics, problems = group_topics((part2, part1), config(), CONFIG_PATH)
    assert problems == ()
    assert topics == (Topic(name="Deep Learning", deck_name="NCA::Deep Learning",
                            slug="deep-learning", files=(part1, part2)),)
    topic = topics[0]
    assert topic.paths == ("z/dl-1.txt", "b/dl-2.txt")
    assert [(part, q.prompt) for part, q in topic.questions] == [
        (1, "First part?"), (2, "Second part?")]


def test_parts_with_differently_written_names_merge() -> None:
    a = pfile("a.txt", "NCA Neural Network Neural Network Basics", 1)
    b = pfile("b.txt", "Neural  Network Basics", 2)
    topics, problems = group_topics((a, b), config(), CONFIG_PATH)
    assert [(t.name, t.paths) for t in topics] == [("Neural Network Basics", ("a.txt", "b.txt"))]
    assert problems == (warning("W131", "a.txt", 1, "title repeats 'Neural Network'; the deck is named "
                                            "'Neural Network Basics'"),)


def test_topics_are_sorted_by_name_and_use_parent_deck() -> None:
    files = (pfile("x.txt", "Zeta", 1), pfile("y.txt", "Alpha", 1))
    topics, problems = group_topics(files, config("NVIDIA::NCA"), CONFIG_PATH)
    assert problems == ()
    assert [(t.name, t.deck_name, t.slug) for t in topics] == [
        ("Alpha", "NVIDIA::NCA::Alpha", "alpha"), ("Zeta", "NVIDIA::NCA::Zeta", "zeta")]


def test_files_without_title_are_skipped() -> None:
    untitled = ParsedFile(path="broken.txt", title="", name="", part=1, questions=())
    topics, problems = group_topics((untitled, pfile("a.txt", "A", 1)), config(), CONFIG_PATH)
    assert [t.paths for t in topics] == [("a.txt",)]
    assert problems == ()


def test_duplicate_part_is_an_error_at_the_later_file() -> None:
    first = pfile("dl-a.txt", "Deep Learning", 1)
    second = pfile("dl-b.txt", "Deep Learning", 1)
    topics, problems = group_topics((second, first), config(), CONFIG_PATH)
    assert problems == (error("E131", "dl-b.txt", 1, "part 1 of topic 'Deep Learning' is also in "
                                             "dl-a.txt; give each part its own number"),)
    assert len(topics) == 1


def test_duplicate_part_via_parse() -> None:
    text = ("Deep Learning {part} — Questions and Answers\n"
            "Question 1: What is a tensor?\n"
            "- A matrix generalisation (Correct answer)\n"
            "- A GPU\n"
            "Correct answer: A matrix generalisation\n"
            "Explained.\n")
    one = parse(text.format(part=2), "src/one.txt").file
    two = parse(text.format(part=2), "src/two.txt").file
    _, problems = group_topics((one, two), config(), CONFIG_PATH)
    assert [str(p) for p in problems] == [
        "src/two.txt:1: error[E131]: part 2 of topic 'Deep Learning' is also in src/one.txt; "
        "give each part its own number"]
    # A file copied whole repeats every question of the other (the build asks this of
    # the topics it builds).
    assert [str(p) for p in repeats_across_parts((one, two))] == [
        "src/one.txt:2: error[E130]: Question 1 is repeated word for word by Question 1 of "
        "src/two.txt (line 2); delete one",
        "src/two.txt:2: error[E130]: Question 1 repeats Question 1 of src/one.txt (line 2) word "
        "for word; delete one"]


def test_topics_with_the_same_slug_are_an_error_for_both() -> None:
    a = pfile("a.txt", "AI/ML", 1)
    b = pfile("b.txt", "AI ML", 1)
    b2 = pfile("b2.txt", "AI ML", 2)
    topics, problems = group_topics((a, b, b2), config(), CONFIG_PATH)
    assert [t.slug for t in topics] == ["ai-ml", "ai-ml"]
    message = ("topics 'AI ML' and 'AI/ML' would both be written to ai-ml.apkg; rename one "
               "or set a deck name in nca-anki.toml [deck_names]")
    assert sorted(problems) == [error("E132", "a.txt", 1, message), error("E132", "b.txt", 1, message),
                                error("E132", "b2.txt", 1, message)]


def test_deck_name_override_sets_deck_name_and_slug() -> None:
    files = (pfile("g.txt", "Generative AI", 1),)
    topics, problems = group_topics(files, config(**{"Generative AI": "GenAI & LLMs"}),
                                    CONFIG_PATH)
    assert problems == ()
    assert [(t.name, t.deck_name, t.slug) for t in topics] == [
        ("Generative AI", "NCA::GenAI & LLMs", "genai-llms")]


def test_deck_name_override_can_resolve_a_slug_clash() -> None:
    files = (pfile("a.txt", "AI/ML", 1), pfile("b.txt", "AI ML", 1))
    topics, problems = group_topics(files, config(**{"AI/ML": "AI and ML"}), CONFIG_PATH)
    assert problems == ()
    assert sorted(t.slug for t in topics) == ["ai-and-ml", "ai-ml"]


def test_override_for_unknown_topic_is_a_warning() -> None:
    files = (pfile("a.txt", "Beta", 1), pfile("b.txt", "Alpha", 1))
    topics, problems = group_topics(files, config(Gamma="G"), CONFIG_PATH)
    assert len(topics) == 2
    assert problems == (warning("W201", CONFIG_PATH, 0, "[deck_names] names topic 'Gamma', which no "
                                                "source file has; topics: Alpha, Beta"),)


def test_shuffle_setting_for_unknown_topic_is_a_warning() -> None:
    files = (pfile("a.txt", "Alpha", 1),)
    settings = Config(shuffle=MappingProxyType({"Alpah": False}))
    _, problems = group_topics(files, settings, CONFIG_PATH)
    assert problems == (warning("W201", CONFIG_PATH, 0, "[shuffle] names topic 'Alpah', which no "
                                                "source file has; topics: Alpha"),)


def test_bad_override_is_an_error_on_every_file_of_the_topic() -> None:
    files = (pfile("a1.txt", "Alpha", 1), pfile("a2.txt", "Alpha", 2))
    topics, problems = group_topics(files, config(Alpha="X::"), CONFIG_PATH)
    assert topics == ()
    message = ("deck name 'X::' has an empty part between '::' separators; set one in "
               "nca-anki.toml [deck_names]")
    assert problems == (error("E132", "a1.txt", 1, message), error("E132", "a2.txt", 1, message))


def test_repeated_phrase_title_is_a_warning() -> None:
    files = (pfile("nn.txt", "Neural Network Neural Network Applications and Frameworks", 1),)
    topics, problems = group_topics(files, config(), CONFIG_PATH)
    assert [t.deck_name for t in topics] == ["NCA::Neural Network Applications and Frameworks"]
    assert problems == (warning("W131",
        "nn.txt", 1, "title repeats 'Neural Network'; the deck is named "
                     "'Neural Network Applications and Frameworks'"),)


def test_a_topic_name_a_typo_away_from_another_is_a_warning_at_its_title() -> None:
    files = (pfile("opt-1.txt", "Training and Optimization", 1),
             pfile("opt-2.txt", "Training and Optimization", 2),
             replace(pfile("opt-3.txt", "Training and Optimisation", 3), title_line=3))
    topics, problems = group_topics(files, config(), CONFIG_PATH)
    assert len(topics) == 2
    assert problems == (warning("W130", "opt-3.txt", 3, (
        "topic 'Training and Optimisation' looks like 'Training and Optimization' (parts 1, 2) "
        "with a typo: parts of one topic must share a title, or they become separate decks; "
        "if this file is part 3 of 'Training and Optimization', copy that title")),)


@pytest.mark.parametrize("stray", ["Deep Learnig Frameworks", "DeepLearning Frameworks",
                                   "Deep Learning Framworks"])
def test_misspelt_or_misspaced_names_are_flagged(stray: str) -> None:
    files = (pfile("a-1.txt", "Deep Learning Frameworks", 1),
             pfile("a-2.txt", "Deep Learning Frameworks", 2), pfile("a-3.txt", stray, 3))
    _, problems = group_topics(files, config(), CONFIG_PATH)
    assert [(p.path, p.line) for p in problems] == [("a-3.txt", 1)]


def test_a_stray_part_word_makes_a_near_name() -> None:
    files = (pfile("a-1.txt", "Deep Learning Basics", 1),
             pfile("a-3.txt", "Deep Learning Basics Part", 3))
    _, problems = group_topics(files, config(), CONFIG_PATH)
    assert [(p.path, p.line) for p in problems] == [("a-3.txt", 1)]
    assert "looks like 'Deep Learning Basics' (parts 1)" in problems[0].message


def test_different_topics_with_similar_short_names_are_not_flagged() -> None:
    files = (pfile("a.txt", "CUDA 101", 1), pfile("b.txt", "CUDA 102", 1),
             pfile("c.txt", "Large Language Models", 1), pfile("d.txt", "Vision Models", 1),
             # a whole short word replaced, not misspelt: "go" and "c" are two edits apart
             pfile("e.txt", "Go Programming", 1), pfile("f.txt", "C++ Programming", 1),
             pfile("g.txt", "Rust Programming", 1), pfile("h.txt", "R Programming", 1),
             pfile("i.txt", "Data Parallelism", 1), pfile("j.txt", "Model Parallelism", 1))
    _, problems = group_topics(files, config(), CONFIG_PATH)
    assert problems == ()


def test_slugify_keeps_topics_of_other_scripts_apart() -> None:
    # Two Cyrillic (or Greek, or Chinese) topics were both "topic": one deck file, and
    # an import wrote the second topic's questions over the first's.
    names = ["Сети", "Базы данных", "Γεωμετρία", "代数", "Сети и базы"]
    slugs = {slugify(n) for n in names}
    assert len(slugs) == len(names)
    assert slugify("СЕТИ") == slugify("Сети")  # case aside, as for Latin names
