"""Questions written by position, as hand-written quiz apps keep them (issue 46): a
constructor's or a function's arguments (``new Question("Which…?", ["a", "b"], 1)``,
``addQuestion("Which…?", "a", "b", "c", "B")``), arrays (``["Which…?", "a", "b", 2]``),
one variable per question, in files saved as Windows-1252. The places' parts are decided
once per bank and said in W704. Every bank here is written for the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import written_questions



def _import(cli, tmp_path: Path, name: str, text: str | bytes, *more: str):
    bank = tmp_path / name
    if isinstance(text, str):
        bank.write_text(text, encoding="utf-8")
    else:
        bank.write_bytes(text)
    done = cli("import", str(bank), "--out", str(tmp_path / "out"), *more)
    return done, done.out + done.err


_RIVERS = [("Which river runs through Cairo?", ["Danube", "*Nile", "Volga"], ""),
           ("Which metal is liquid at room temperature?", ["Iron", "Tin", "*Mercury"], "")]


def test_constructor_arguments_prompt_list_and_index(tmp_path, cli):
    done, said = _import(cli, tmp_path, "quiz.js", """var all = [
  new Question("Which river runs through Cairo?", ["Danube", "Nile", "Volga"], 1),
  new Question("Which metal is liquid at room temperature?", ["Iron", "Tin", "Mercury"], 2),
  new Question("Which planet has rings?", ["Saturn", "Mars", "Venus"], 0)
];
""")
    assert done.status == 0, said
    assert written_questions(tmp_path / "out")[:2] == _RIVERS
    w704 = [line for line in said.splitlines() if "W704" in line]
    assert len(w704) == 1 and "new Question(…)" in w704[0] and "prompt '[0]'; choices '[1]';" \
        " answer '[2]', counted from 0" in w704[0], said


def test_a_function_called_once_a_question_with_a_letter_last(tmp_path, cli):
    done, said = _import(cli, tmp_path, "app.js", """addQuestion("Which river runs through Cairo?", "Danube", "Nile", "Volga", "B");
addQuestion("Which metal is liquid at room temperature?", "Iron", "Tin", "Mercury", "C");
""")
    assert done.status == 0, said
    assert written_questions(tmp_path / "out") == _RIVERS
    assert "from each call of 'addQuestion()': prompt '[0]'; choices '[1]…[3]'; answer '[4]'" \
        in said
    assert "App" in said  # the topic is the file's, not the function's name


def test_arrays_of_different_lengths_answer_last_counted_from_one(tmp_path, cli):
    done, said = _import(cli, tmp_path, "quiz.json", json.dumps([
        ["Which river runs through Cairo?", "Danube", "Nile", "Volga", 2],
        ["Which metal is liquid at room temperature?", "Iron", "Tin", "Lead", "Mercury", 4],
        ["Which planet has rings?", "Mars", "Saturn", 2]]))
    assert done.status == 0, said
    assert written_questions(tmp_path / "out") == [
        ("Which river runs through Cairo?", ["Danube", "*Nile", "Volga"], ""),
        ("Which metal is liquid at room temperature?", ["Iron", "Tin", "Lead", "*Mercury"], ""),
        ("Which planet has rings?", ["Mars", "*Saturn"], "")]
    assert "choices '[1]…[-2]'; answer '[-1]', counted from 1" in said


def test_arrays_with_a_text_answer_and_an_explanation_after_it(tmp_path, cli):
    done, said = _import(cli, tmp_path, "quiz.ts", """export const quiz = [
  ["Which river runs through Cairo?", "Danube", "Nile", "Volga", "Nile", "It flows north."],
  ["Which metal is liquid at room temperature?", "Iron", "Tin", "Mercury", "Mercury",
   "It melts below zero."],
];
""")
    assert done.status == 0, said
    assert written_questions(tmp_path / "out") == [
        ("Which river runs through Cairo?", ["Danube", "*Nile", "Volga"], "It flows north."),
        ("Which metal is liquid at room temperature?", ["Iron", "Tin", "*Mercury"],
         "It melts below zero.")]
    assert "explanation '[5]'" in said


def test_one_variable_a_question(tmp_path, cli):
    done, said = _import(cli, tmp_path, "vars.js", """
var q1 = new Question("Which river runs through Cairo?", ["Danube", "Nile", "Volga"], "Nile");
var q2 = new Question("Which metal is liquid at room temperature?", ["Iron", "Tin", "Mercury"],
                      "Mercury");
""")
    assert done.status == 0, said
    assert written_questions(tmp_path / "out") == _RIVERS


def test_map_says_another_place_is_the_answer(tmp_path, cli):
    # both [4] and [5] name a choice; the author says the second is the answer
    done, said = _import(cli, tmp_path, "quiz.js", """const q = [
  ["Which river runs through Cairo?", "Danube", "Nile", "Volga", 0, 1],
  ["Which metal is liquid at room temperature?", "Iron", "Tin", "Mercury", 1, 2],
];
""", "--map", "[5]=answer0")
    assert done.status == 0, said
    assert written_questions(tmp_path / "out") == _RIVERS


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1"])
def test_a_western_file_not_in_utf8_keeps_its_accents(tmp_path, cli, encoding):
    text = """addQuestion("¿Qué río pasa por El Cairo?", "Danubio", "Nilo", "Volga", "B");
addQuestion("Où coule la Seine ?", "À Paris", "À Lyon", "À Genève", "A");
addQuestion("Qual é a capital do Brasil?", "Brasília", "São Paulo", "Salvador", "A");
"""
    done, said = _import(cli, tmp_path, "quiz.js", text.encode(encoding))
    assert done.status == 0, said
    assert [q[:2] for q in written_questions(tmp_path / "out")] == [
        ("¿Qué río pasa por El Cairo?", ["Danubio", "*Nilo", "Volga"]),
        ("Où coule la Seine ?", ["*À Paris", "À Lyon", "À Genève"]),
        ("Qual é a capital do Brasil?", ["*Brasília", "São Paulo", "Salvador"])]
    assert "cp1252" in said  # said once, how it was read


def test_calls_that_are_no_questions_stay_code(tmp_path, cli):
    done, said = _import(cli, tmp_path, "app.js", """console.log("a", "b", "c");
console.log("d", "e", "f");
""")
    assert "holds no questions" in said or "no array or object of questions" in said


def test_a_short_western_file_is_not_taken_for_central_european(tmp_path, cli):
    # A detector reads these bytes as cp1250 ("São" becomes "Săo"); they are cp1252
    text = """var q = [];
q[0] = {pergunta: "Qual é a capital do Brasil?", opcoes: ["Brasília", "São Paulo"], certa: 0};
q[1] = {pergunta: "Onde fica a Torre Eiffel?", opcoes: ["Lisboa", "Paris"], certa: 1};
"""
    done, said = _import(cli, tmp_path, "quiz.js", text.encode("cp1252"))
    assert done.status == 0, said
    assert [q[1] for q in written_questions(tmp_path / "out")] == [["*Brasília", "São Paulo"],
                                                            ["Lisboa", "*Paris"]]


def test_the_names_a_declared_constructor_gives_its_arguments(tmp_path, cli):
    # the class says the second argument is the right answer and the rest the wrong ones
    done, said = _import(cli, tmp_path, "app.js", """class Item {
  constructor(stem, right, other1, other2) { this.stem = stem; }
}
const all = [];
all.push(new Item("Which river runs through Cairo?", "Nile", "Danube", "Volga"));
all.push(new Item("Which metal is liquid at room temperature?", "Mercury", "Iron", "Tin"));
""")
    assert done.status == 0, said
    assert [q[1] for q in written_questions(tmp_path / "out")] == [["*Nile", "Danube", "Volga"],
                                                            ["*Mercury", "Iron", "Tin"]]
    assert "prompt 'stem'; the right choice 'right' and the wrong ones 'other1…2'" in said


def test_one_broken_record_is_refused_at_its_line_the_rest_read(tmp_path, cli):
    done, said = _import(cli, tmp_path, "quiz.js", """const q = [
  ["Which river runs through Cairo?", "Danube", "Nile", "Volga", 2],
  ["Which metal is liquid at room temperature?", "Iron", "Tin", "Mercury", 3],
  ["Which planet has rings you can see?", "Saturn", "Mars", "Venus", 7],
  ["Which gas do plants take in?", "Oxygen", "Carbon dioxide", "Neon", 2],
  "a note left in the list",
];
""")
    assert done.status == 1, said
    assert [q[0] for q in written_questions(tmp_path / "out")] == [
        "Which river runs through Cairo?", "Which metal is liquid at room temperature?",
        "Which gas do plants take in?"]
    assert "quiz.js:4: error[E703]" in said and "quiz.js:6: error[E702]" in said, said


def test_a_call_with_a_variable_among_literal_ones_is_named_at_its_line(tmp_path, cli):
    done, said = _import(cli, tmp_path, "app.js", """const nile = "Nile";
addQuestion("Which river runs through Cairo?", "Danube", nile, "Volga", "B");
addQuestion("Which metal is liquid at room temperature?", "Iron", "Tin", "Mercury", "C");
addQuestion("Which planet has rings you can see?", "Saturn", "Mars", "Venus", "A");
""")
    assert done.status == 1, said
    assert [q[0] for q in written_questions(tmp_path / "out")] == [
        "Which metal is liquid at room temperature?", "Which planet has rings you can see?"]
    assert "app.js:2: error[E704]: addQuestion()[0]: holds code" in said, said
