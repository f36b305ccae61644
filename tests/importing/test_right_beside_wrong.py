"""Banks that write the right answer in one key and the wrong ones in a list beside it
(``{question, correct_answer: "x", incorrect_answers: ["y", "z"]}``, in any language or
with names that say nothing), decided once per bank and said in W704; ``--map`` and the
settings file say it with the role ``wrong-choices`` (issue 46). Every bank here is
written for the test."""

from __future__ import annotations

import json

import pytest

from conftest import written_questions



def _bank(right: str, wrong: str, prompt: str = "question") -> list[dict[str, object]]:
    return [{prompt: "Which river runs through Cairo?", right: "Nile",
             wrong: ["Danube", "Volga", "Amazon"]},
            {prompt: "Which metal is liquid at room temperature?", right: "Mercury",
             wrong: ["Iron", "Tin"]}]


_EXPECTED = [("Which river runs through Cairo?", ["*Nile", "Danube", "Volga", "Amazon"]),
             ("Which metal is liquid at room temperature?", ["*Mercury", "Iron", "Tin"])]


@pytest.mark.parametrize(("prompt", "right", "wrong"), [
    ("pregunta", "correcta", "incorrectas"),     # Spanish
    ("pergunta", "certa", "erradas"),            # Portuguese
    ("domanda", "giusta", "sbagliate"),          # Italian
    ("frage", "richtig", "falsche"),             # German
    ("вопрос", "правильный", "неправильные"),    # Russian
    ("q", "right", "wrong"),
    ("question", "answer", "distractors"),
    ("prompt", "answer", "options_wrong"),
])
def test_the_right_one_in_a_key_and_the_wrong_ones_in_a_list(tmp_path, cli, prompt, right,
                                                               wrong):
    bank = tmp_path / "rivers.json"
    bank.write_text(json.dumps(_bank(right, wrong, prompt), ensure_ascii=False),
                    encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert written_questions(tmp_path / "out", explained=False) == _EXPECTED
    said = [line for line in (done.out + done.err).splitlines() if "W704" in line]
    assert len(said) == 1, done.err
    assert f"the right choice '{right}' and the wrong ones '{wrong}'" in said[0]


def test_names_that_say_nothing_the_values_decide(tmp_path, cli):
    # "opts" never holds the text under "x" in any question: it lists the wrong ones
    bank = tmp_path / "quiz.yaml"
    bank.write_text("""- q: Which river runs through Cairo?
  x: Nile
  opts: [Danube, Volga, Amazon]
- q: Which metal is liquid at room temperature?
  x: Mercury
  opts: [Iron, Tin]
""", encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert written_questions(tmp_path / "out", explained=False) == _EXPECTED
    assert "the right choice 'x' and the wrong ones 'opts' (no answer is among them)" \
        in (done.out + done.err)


def test_an_answer_among_the_choices_keeps_them_all_choices(tmp_path, cli):
    bank = tmp_path / "quiz.json"
    bank.write_text(json.dumps([
        {"question": "Which river runs through Cairo?", "answer": "Nile",
         "options": ["Danube", "Nile", "Volga"]},
        {"question": "Which metal is liquid at room temperature?", "answer": "Mercury",
         "options": ["Iron", "Tin", "Mercury"]}]), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert written_questions(tmp_path / "out", explained=False) == [
        ("Which river runs through Cairo?", ["Danube", "*Nile", "Volga"]),
        ("Which metal is liquid at room temperature?", ["Iron", "Tin", "*Mercury"])]
    assert "wrong ones" not in (done.out + done.err)


def test_map_and_settings_say_which_list_holds_the_wrong_ones(tmp_path, cli):
    rows = [{"ask": "Which river runs through Cairo?", "good": "Nile",
             "pool": ["Danube", "Volga", "Amazon"]},
            {"ask": "Which metal is liquid at room temperature?", "good": "Mercury",
             "pool": ["Iron", "Tin", "Mercury?"]}]  # one looks like the answer: no guess
    bank = tmp_path / "b" / "pool.json"
    bank.parent.mkdir()
    bank.write_text(json.dumps(rows), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out1"), "--map",
               "pool=wrong-choices", "--map", "good=answer")
    assert done.status == 0, done.out + done.err
    assert written_questions(tmp_path / "out1", explained=False)[1] == (
        "Which metal is liquid at room temperature?", ["*Mercury", "Iron", "Tin", "Mercury?"])
    (bank.parent / "nca-import.toml").write_text(
        '[map]\npool = "wrong-choices"\ngood = "answer"\n', encoding="utf-8")
    again = cli("import", str(bank.parent), "--out", str(tmp_path / "out2"))
    assert again.status == 0, again.out + again.err
    assert written_questions(tmp_path / "out2", explained=False) == written_questions(tmp_path / "out1", explained=False)


def test_write_settings_names_the_wrong_choices_role(tmp_path, cli):
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "trivia.json").write_text(json.dumps(_bank("correcta", "incorrectas")),
                                        encoding="utf-8")
    done = cli("import", str(folder), "--out", str(tmp_path / "out"), "--write-settings")
    assert done.status == 0, done.out + done.err
    written = (folder / "nca-import.toml").read_text(encoding="utf-8")
    assert '"incorrectas" = "wrong-choices"' in written or \
        'incorrectas = "wrong-choices"' in written, written


def test_the_wrong_ones_one_a_numbered_key_numbers_too(tmp_path, cli):
    bank = tmp_path / "historia.js"
    bank.write_text("""export const bank = {"Historia": [
  {"Pregunta": "¿En qué año terminó la Segunda Guerra Mundial?", "Incorrecta1": 1939,
   "Incorrecta2": 1918, "Incorrecta3": 1950, "Correcta": 1945},
  {"Pregunta": "¿Quién pintó el Guernica?", "Incorrecta1": "Dalí", "Incorrecta2": "Miró",
   "Incorrecta3": "Goya", "Correcta": "Picasso"}]};
""", encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert written_questions(tmp_path / "out", explained=False) == [
        ("¿En qué año terminó la Segunda Guerra Mundial?", ["*1945", "1939", "1918", "1950"]),
        ("¿Quién pintó el Guernica?", ["*Picasso", "Dalí", "Miró", "Goya"])]
    assert "the right choice 'Correcta' and the wrong ones 'Incorrecta1…3'" in done.err


def test_a_numbered_run_beside_an_answer_it_never_holds(tmp_path, cli):
    bank = tmp_path / "quiz.json"
    bank.write_text(json.dumps([
        {"question": "Which river runs through Cairo?", "answer": "Nile", "alt1": "Danube",
         "alt2": "Volga"},
        {"question": "Which metal is liquid at room temperature?", "answer": "Mercury",
         "alt1": "Iron", "alt2": "Tin"}]), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert [q[1] for q in written_questions(tmp_path / "out", explained=False)] == [["*Nile", "Danube", "Volga"],
                                                            ["*Mercury", "Iron", "Tin"]]
    assert "the wrong ones 'alt1…2' (no answer is among them)" in done.err


def test_texts_in_several_languages_are_read_in_one(tmp_path, cli):
    def text(en: str, es: str) -> dict[str, object]:
        return {"en": en, "es": es, "times": 0}

    bank = tmp_path / "bilingual.json"
    bank.write_text(json.dumps([
        {"category": text("Geography", "Geografía"),
         "question": text("Which river runs through Cairo?", "¿Qué río pasa por El Cairo?"),
         "correct": text("Nile", "Nilo"),
         "incorrects": [text("Danube", "Danubio"), text("Volga", "Volga")]},
        {"category": text("Science", "Ciencia"),
         "question": text("Which metal is liquid at room temperature?",
                          "¿Qué metal es líquido a temperatura ambiente?"),
         "correct": text("Mercury", "Mercurio"),
         "incorrects": [text("Iron", "Hierro"), text("Tin", "Estaño")]}],
        ensure_ascii=False), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert sorted(q[:2] for q in written_questions(tmp_path / "out", explained=False)) == [
        ("Which metal is liquid at room temperature?", ["*Mercury", "Iron", "Tin"]),
        ("Which river runs through Cairo?", ["*Nile", "Danube", "Volga"])]
    assert "question objects, texts in 'en' of 2 languages: prompt" in done.err


def test_answers_written_as_one_text_split_at_semicolons(tmp_path, cli):
    bank = tmp_path / "vault.json"
    bank.write_text(json.dumps([
        {"question": "Which rivers flow into the Black Sea?", "correct_answer": "Danube;Dnieper",
         "incorrect_answers": "Nile;Volga", "image": ""},
        {"question": "Which metal is liquid at room temperature?", "correct_answer": "Mercury",
         "incorrect_answers": "Iron; Tin; Lead", "image": ""},
        {"question": "Which planet has rings you can see?", "correct_answer": "Saturn",
         "incorrect_answers": "Mars;Venus", "image": ""}]), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert [q[1] for q in written_questions(tmp_path / "out", explained=False)] == [
        ["*Danube", "*Dnieper", "Nile", "Volga"], ["*Mercury", "Iron", "Tin", "Lead"],
        ["*Saturn", "Mars", "Venus"]]
    assert "question objects, lists written as one text split at ';': prompt" in done.err


def test_one_text_with_a_semicolon_is_no_list(tmp_path, cli):
    # a choice that holds a ";" in a bank whose lists are lists stays one choice
    bank = tmp_path / "code.json"
    bank.write_text(json.dumps([
        {"question": "Which ends a statement in C?", "options": ["a;", "a:", "a."],
         "answer": "a;"},
        {"question": "Which loop runs at least once?", "options": ["for (;;)", "do … while",
                                                                   "while"],
         "answer": "do … while"}]), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert [q[1] for q in written_questions(tmp_path / "out", explained=False)] == [
        ["*a;", "a:", "a."], ["for (;;)", "*do … while", "while"]]


def test_an_answer_given_as_a_choices_text_under_a_name_that_says_nothing(tmp_path, cli):
    bank = tmp_path / "anime.js"
    bank.write_text("""const data = {"manga": [
  {"q": "Who wrote the story of the straw-hat pirates?", "options": ["Akira Toriyama",
   "Eiichiro Oda", "Tite Kubo"], "a": "eiichiro oda"},
  {"q": "Who drew the alchemist brothers?", "options": ["Hiromu Arakawa", "Naoki Urasawa"],
   "a": "hiromu arakawa"}]};
module.exports = { name: "quiz", run() { return data; } };
""", encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert [q[1] for q in written_questions(tmp_path / "out", explained=False)] == [
        ["Akira Toriyama", "*Eiichiro Oda", "Tite Kubo"], ["*Hiromu Arakawa", "Naoki Urasawa"]]
    assert "answer 'a'" in done.err


def test_a_right_answer_with_no_wrong_ones_is_refused_for_that(tmp_path, cli):
    bank = tmp_path / "one.json"
    rows = _bank("correct_answer", "incorrect_answers")
    rows[1]["incorrect_answers"] = []
    bank.write_text(json.dumps(rows), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 1
    assert "[1].incorrect_answers: only one choice: the right answer, with no wrong ones" \
        in done.err
    assert written_questions(tmp_path / "out", explained=False) == _EXPECTED[:1]


@pytest.mark.parametrize(("header", "sep"), [
    ("pregunta;correcta;incorrecta1;incorrecta2;incorrecta3", ";"),
    ("Question,Answer,Wrong 1,Wrong 2,Wrong 3", ","),
])
def test_a_spreadsheet_with_the_right_answer_and_a_column_per_wrong_one(tmp_path, cli, header,
                                                                        sep):
    bank = tmp_path / "rivers.csv"
    rows = [["Which river runs through Cairo?", "Nile", "Danube", "Volga", "Amazon"],
            ["Which metal is liquid at room temperature?", "Mercury", "Iron", "Tin", "N/A"]]
    bank.write_text("\n".join([header, *(sep.join(r) for r in rows)]) + "\n", encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert written_questions(tmp_path / "out", explained=False) == _EXPECTED
    assert "the wrong ones '" in done.err


def test_yaml_goes_through_the_same_reading_as_json(tmp_path, cli):
    # numbered "false-N" keys beside "correct", and a bank of rows by position: both
    # read in YAML as in JSON
    (tmp_path / "keys.yaml").write_text("""- question: Which river runs through Cairo?
  correct: Nile
  false-1: Danube
  false-2: Volga
- question: Which metal is liquid at room temperature?
  correct: Mercury
  false-1: Iron
  false-2: Tin
""", encoding="utf-8")
    (tmp_path / "rows.yaml").write_text("""quiz:
  - [Which river runs through Cairo?, Danube, Nile, Volga, 2]
  - [Which metal is liquid at room temperature?, Iron, Tin, Mercury, 3]
""", encoding="utf-8")
    done = cli("import", str(tmp_path / "keys.yaml"), str(tmp_path / "rows.yaml"),
               "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert sorted(q[1] for q in written_questions(tmp_path / "out", explained=False)) == sorted([
        ["*Nile", "Danube", "Volga"], ["*Mercury", "Iron", "Tin"],
        ["Danube", "*Nile", "Volga"], ["Iron", "Tin", "*Mercury"]])
    assert "the wrong ones 'false-1…2'" in done.err
    assert "rows.yaml:2: warning[W704]" in done.err and "choices '[1]…[3]'" in done.err
