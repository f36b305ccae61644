"""Tests for nca_anki.cards.references: which words refer to a choice by letter or position.

The corpus (tests/fixtures/choice_references.tsv) holds forms real banks use and text that
only looks like them; this measures precision and recall on it and names every miss.
"""

from __future__ import annotations


from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from nca_anki.cards import references
from nca_anki.cards.references import choice_reference


CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "choice_references.tsv"


def corpus() -> list[tuple[bool, int, str]]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, count, text = line.split("\t")
            assert kind in ("ref", "not"), line
            rows.append((kind == "ref", int(count), text.replace("\\n", "\n")))
    return rows


def measure() -> tuple[float, float, list[str]]:
    """Precision and recall of choice_reference on the corpus, and each row it gets wrong."""
    hits = false_alarms = misses = 0
    wrong = []
    for expected, count, text in corpus():
        found = bool(choice_reference(text, count))
        hits += found and expected
        false_alarms += found and not expected
        misses += expected and not found
        if found != expected:
            wrong.append(f"{'missed' if expected else 'false alarm'} ({count} choices): "
                         f"{text!r} -> {choice_reference(text, count)!r}")
    precision = hits / (hits + false_alarms) if hits + false_alarms else 1.0
    recall = hits / (hits + misses) if hits + misses else 1.0
    return precision, recall, wrong


def test_corpus_has_both_kinds_and_many_of_each() -> None:
    rows = corpus()
    assert sum(expected for expected, _, _ in rows) >= 40
    assert sum(not expected for expected, _, _ in rows) >= 40


def test_precision_and_recall_on_the_corpus() -> None:
    precision, recall, wrong = measure()
    assert not wrong, (f"precision {precision:.3f}, recall {recall:.3f}:\n" + "\n".join(wrong))


@pytest.mark.parametrize("text, count, words", [
    ("The correct answer is a) Overfitting", 4, "answer is a)"),
    ("Both A and C", 4, "A and C"),
    ("the last option", 4, "last option"),
])
def test_the_words_that_refer_are_named(text: str, count: int, words: str) -> None:
    assert choice_reference(text, count) == words


def test_a_letter_the_question_does_not_have_refers_to_nothing() -> None:
    assert choice_reference("Both C and D", 4)
    assert not choice_reference("Both C and D", 3)
    assert not choice_reference("option 5 is right", 4)
    assert choice_reference("option 4 is right", 4)


@settings(max_examples=1000, derandomize=True)
@given(st.lists(st.sampled_from(["A", "B", "C", "J", "a", "b", "(", ")", " ", ",", ".", ":",
                                 "and", "or", "only", "option", "answer", "is", "correct",
                                 "second", "last", "above", "both", "of", "the", "2", "+",
                                 "/", "`", "\n", "x", "nodes", "testing"]),
                max_size=14).map(" ".join), st.integers(2, 10))
@example("option A/B", 4)
@example("a) b", 4)
@example("both of the above", 4)
def test_the_quick_check_never_changes_the_verdict(text: str, count: int) -> None:
    """The one search that skips the full patterns must only skip text they would pass."""
    assert choice_reference(text, count) == references._reference(references.prose(text),
                                                                  count)


@settings(max_examples=500, derandomize=True)
@given(st.lists(st.sampled_from(["a", "B", " ", "`", "```", "~~~", "\\(", "\\)", "\\[", "\\]",
                                 "https://x.y", "://", "WWW.", "www.", "Www.z", "\n", "c"]),
                max_size=12).map("".join))
def test_the_quick_prose_test_never_changes_what_prose_removes(text: str) -> None:
    assert references.prose(text) == references._NOT_PROSE_RE.sub(" ", text)


def test_a_questions_texts_joined_are_ruled_out_only_if_each_is() -> None:
    """shuffle.py tests a question's texts joined by newlines at once."""
    rows = [text for _, _, text in corpus()]
    for at in range(len(rows) - 3):
        texts = rows[at:at + 4]
        if any(choice_reference(text, 4) for text in texts):
            assert references.might_refer("\n".join(texts))


if __name__ == "__main__":  # python tests/cards/test_references.py: the figures alone
    p, r, misses = measure()
    print(f"{len(corpus())} rows: precision {p:.3f}, recall {r:.3f}")
    print("\n".join(misses))
