"""Explanations a bank writes under a key spelled otherwise from question to question
(``Note`` in one, ``answerNote`` or ``answernote`` in others), and the remark an author
writes after an answer's letters (``"D; asked otherwise in the exam"``): both are the
words the bank's readers see after the answer, and they were dropped without a word.
Every bank here is written for the test."""

from __future__ import annotations

import json

import pytest

from conftest import written_questions


def _bank(explained: dict[int, dict[str, str]]) -> list[dict[str, object]]:
    records = []
    for n, (ask, right) in enumerate([("Which gas do plants take in?", "B"),
                                      ("Which organ pumps blood?", "A"),
                                      ("Which planet is red?", "C"),
                                      ("Which metal rusts?", "A")]):
        records.append({"number": n + 1, "question": ask,
                        "options": {"A": f"first {n}", "B": f"second {n}", "C": f"third {n}"},
                        "answer": right, **explained.get(n, {})})
    return records


@pytest.mark.parametrize("suffix", ["json", "yaml", "js"])
def test_an_explanation_under_keys_spelled_otherwise_is_read_under_each(tmp_path, cli,
                                                                         suffix):
    records = _bank({0: {"Note": "Leaves take in carbon dioxide."},
                     1: {"answerNote": "The heart is a muscle."},
                     2: {"answernote": "Iron oxide colours the surface."}})
    text = json.dumps(records)
    bank = tmp_path / f"notes.{suffix}"
    bank.write_text(f"export const quiz = {text};\n" if suffix == "js" else text,
                    encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    explained = {p: e for p, _, e in written_questions(tmp_path / "out")}
    assert explained == {"Which gas do plants take in?": "Leaves take in carbon dioxide.",
                         "Which organ pumps blood?": "The heart is a muscle.",
                         "Which planet is red?": "Iron oxide colours the surface.",
                         "Which metal rusts?": ""}


def test_two_note_keys_in_one_question_are_two_parts_not_one_spelled_twice(tmp_path, cli):
    records = _bank({0: {"explanation": "Leaves take in carbon dioxide.",
                         "teacher_note": "Asked in week 2."},
                     1: {"explanation": "The heart is a muscle."}})
    bank = tmp_path / "notes.json"
    bank.write_text(json.dumps(records), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    explained = {p: e for p, _, e in written_questions(tmp_path / "out")}
    assert explained["Which gas do plants take in?"] == "Leaves take in carbon dioxide."
    assert explained["Which planet is red?"] == ""


def test_a_remark_after_the_answer_letters_is_the_explanation(tmp_path, cli):
    records = _bank({1: {"Note": "The heart is a muscle."}})
    records[0]["answer"] = "B; the exam asked it about algae"
    records[1]["answer"] = "A; the note is read before this remark"
    records[2]["answer"] = "C - https://example.org/planets"  # a link only: no words
    records[3]["answer"] = "A, C; both rust, C more slowly"
    records[3]["options"] = {"A": "Iron", "B": "Gold", "C": "Steel"}
    bank = tmp_path / "remarks.json"
    bank.write_text(json.dumps(records), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    found = {p: (c, e) for p, c, e in written_questions(tmp_path / "out")}
    assert found["Which gas do plants take in?"] == (
        ["first 0", "*second 0", "third 0"], "the exam asked it about algae")
    assert found["Which organ pumps blood?"][1] == "The heart is a muscle."
    assert found["Which planet is red?"] == (["first 2", "second 2", "*third 2"], "")
    assert found["Which metal rusts?"] == (["*Iron", "Gold", "*Steel"],
                                           "both rust, C more slowly")


def test_more_letters_after_a_semicolon_are_the_answer_not_a_remark(tmp_path, cli):
    records = _bank({})
    records[3]["answer"] = "A; B and C"
    bank = tmp_path / "letters.json"
    bank.write_text(json.dumps(records), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    found = {p: (c, e) for p, c, e in written_questions(tmp_path / "out")}
    assert found["Which metal rusts?"] == (["*first 3", "*second 3", "*third 3"], "")
