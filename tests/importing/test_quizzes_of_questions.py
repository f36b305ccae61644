"""A bank that is a list of quizzes, each an object holding its own list of questions
(``[{title, img, questions: [{question, answer_1 … answer_4, right: 2}]}]``): the
questions are the records, each quiz's title their topic; the quizzes are no questions
whose choices are the questions (issue 46). Every bank here is written for the test."""

from __future__ import annotations

import json

import pytest

from conftest import written_questions


_QUIZZES = [
    {"title": "Rivers", "img": "rivers.png", "questions": [
        {"question": "Which river runs through Cairo?", "answer_1": "Danube",
         "answer_2": "Nile", "answer_3": "Volga", "answer_4": "Rhine", "right": 2},
        {"question": "Which river runs through Vienna?", "answer_1": "Danube",
         "answer_2": "Thames", "answer_3": "Seine", "answer_4": "Po", "right": 1}]},
    {"title": "Mountains", "img": "peaks.png", "questions": [
        {"question": "Which is the highest mountain?", "answer_1": "K2",
         "answer_2": "Mont Blanc", "answer_3": "Everest", "answer_4": "Elbrus", "right": 3},
        {"question": "In which range is the Matterhorn?", "answer_1": "Andes",
         "answer_2": "Rockies", "answer_3": "Urals", "answer_4": "Alps", "right": 4}]},
]
_EXPECTED = [
    ("Which river runs through Cairo?", ["Danube", "*Nile", "Volga", "Rhine"]),
    ("Which river runs through Vienna?", ["*Danube", "Thames", "Seine", "Po"]),
    ("Which is the highest mountain?", ["K2", "Mont Blanc", "*Everest", "Elbrus"]),
    ("In which range is the Matterhorn?", ["Andes", "Rockies", "Urals", "*Alps"])]


def _renamed(names: dict[str, str]) -> list[dict[str, object]]:
    def one(obj: dict[str, object]) -> dict[str, object]:
        return {names.get(k, k): [one(q) for q in v] if isinstance(v, list) else v  # type: ignore[arg-type]
                for k, v in obj.items()}
    return [one(quiz) for quiz in _QUIZZES]


@pytest.mark.parametrize(("suffix", "names", "write"), [
    ("json", {}, lambda data: json.dumps(data)),
    ("json", {"title": "titulo", "questions": "perguntas", "question": "pergunta",
              "right": "certa"}, lambda data: json.dumps(data, ensure_ascii=False)),
    ("yaml", {"title": "Titel", "questions": "fragen", "question": "frage",
              "right": "richtig"}, lambda data: json.dumps(data)),
    ("ts", {"title": "titulo", "questions": "preguntas", "question": "pregunta",
            "right": "correcta"},
     lambda data: "export const quizzes = " + json.dumps(data, indent=2) + ";\n"),
])
def test_the_questions_inside_each_quiz_are_the_records(tmp_path, cli, suffix, names, write):
    bank = tmp_path / f"quizzes.{suffix}"
    bank.write_text(write(_renamed(names)), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    said = done.out + done.err
    assert done.status == 0, said
    assert sorted(written_questions(tmp_path / "out", explained=False)) == sorted(_EXPECTED)
    assert "rivers.png" not in said and "'img'" not in said, said


@pytest.mark.anki
def test_quizzes_of_questions_arrive_in_anki_each_under_its_title(tmp_path, cli):
    from conftest import as_read, built_and_imported

    bank = tmp_path / "quizzes.json"
    bank.write_text(json.dumps(_QUIZZES), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path, source="out")
    cards = {prompt: (deck, sorted(choices)) for deck, each in decks.items()
             for prompt, choices, _ in map(as_read, each)}
    assert cards == {q: ("NCA::Rivers" if "river" in q else "NCA::Mountains", sorted(c))
                     for q, c in _EXPECTED}


# Quizzes that hold lists of their own beside their questions (scores, tags, authors):
# such a list of texts looks like choices, so each quiz looked like one question and the
# import wrote the quizzes, exit 0, instead of their questions. An object holding a list
# of questions groups them, whatever else it holds; its title may be any key ending in
# "name" or "title".
_LEAGUES = [
    {"league_name": "Planets", "best_scores": ["9", "8", "7"],
     "players": ["Ana", "Ben", "Carla"], "items": [
         {"ask": "Which planet is the largest?", "option1": "Mars", "option2": "Jupiter",
          "option3": "Venus", "good": "2"},
         {"ask": "Which planet is nearest the Sun?", "option1": "Mercury",
          "option2": "Earth", "option3": "Saturn", "good": 1},
         {"ask": "Which planet has the most famous rings?", "option1": "Uranus",
          "option2": "Neptune", "option3": "Saturn", "good": 3}]},
    {"league_name": "Metals", "best_scores": ["5", "4"], "players": ["Dan", "Eve"],
     "items": [
         {"ask": "Which metal is liquid at room temperature?", "option1": "Iron",
          "option2": "Mercury", "option3": "Tin", "good": "2"},
         {"ask": "Which metal is the best conductor?", "option1": "Lead",
          "option2": "Zinc", "option3": "Silver", "good": 3}]},
    {"league_name": "Moons", "best_scores": ["6", "2"], "players": ["Fay", "Gus"],
     "items": [{"ask": "Which planet does Titan orbit?", "option1": "Saturn",
                "option2": "Jupiter", "option3": "Mars", "good": "1"}]},
]
_LEAGUE_CARDS = {
    "Which planet is the largest?": ["Mars", "*Jupiter", "Venus"],
    "Which planet is nearest the Sun?": ["*Mercury", "Earth", "Saturn"],
    "Which planet has the most famous rings?": ["Uranus", "Neptune", "*Saturn"],
    "Which metal is liquid at room temperature?": ["Iron", "*Mercury", "Tin"],
    "Which metal is the best conductor?": ["Lead", "Zinc", "*Silver"],
    "Which planet does Titan orbit?": ["*Saturn", "Jupiter", "Mars"]}


@pytest.mark.parametrize(("suffix", "keys", "write"), [
    ("json", ("option1", "option2", "option3"), lambda data: json.dumps(data)),
    ("js", ("answer_1", "answer_2", "answer_3"),
     lambda data: "let leagues = " + json.dumps(data, indent=1) + ";\n"),
    ("yaml", ("choice_a", "choice_b", "choice_c"), lambda data: json.dumps(data)),
])
def test_quizzes_with_lists_of_their_own_are_no_questions(tmp_path, cli, suffix, keys, write):
    renamed = [{**quiz, "items": [{keys[int(k[-1]) - 1] if k.startswith("option") else k: v
                                   for k, v in q.items()} for q in quiz["items"]]}
               for quiz in _LEAGUES]
    bank = tmp_path / f"leagues.{suffix}"
    bank.write_text(write(renamed), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    said = done.out + done.err
    assert done.status == 0, said
    cards = dict(written_questions(tmp_path / "out", explained=False))
    assert cards == _LEAGUE_CARDS, said
    assert sorted(p.name for p in (tmp_path / "out").glob("*.txt")) == [
        "metals-1.txt", "moons-1.txt", "planets-1.txt"], said


def test_a_quiz_keyed_by_number_inside_a_group_is_read_too(tmp_path, cli):
    groups = {"groups": [{"group_title": quiz["league_name"], "players": quiz["players"],
                          "items": {str(n): q for n, q in enumerate(quiz["items"], 1)}}
                         for quiz in _LEAGUES]}
    bank = tmp_path / "groups.json"
    bank.write_text(json.dumps(groups), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    said = done.out + done.err
    assert done.status == 0, said
    cards = dict(written_questions(tmp_path / "out", explained=False))
    assert cards == _LEAGUE_CARDS, said
