"""Role inference over the records of structured banks (issue 46, items 4, 6, 7): choice
objects with a text and a label, answer keys hidden among empty bookkeeping keys,
explanation keys by other names, placeholders and booleans as choices, answers written
in words, and ``--map`` reaching keys inside the choice objects. Every bank here is
written for the test; none is copied from a real bank."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import built_and_imported, as_read, written_questions
from nca_anki.importing.choice_values import letters_in, loose, restates, without_link

from growth import least_cpu

_CHOICE_RE = re.compile(r'<li\b[^>]*><span class="nca-label">([A-J])</span> '
                        r'<span class="nca-text">(.*?)</span></li>', re.DOTALL)


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _run(cli, tmp_path: Path, *args: str):
    return cli("import", *args, "--out", str(tmp_path / "out"))


def test_a_choice_objects_letter_is_its_label_and_its_other_string_its_text(tmp_path, cli):
    bank = _write(tmp_path, "boot.js", """export default [
  { prompt: "Where does the bootloader usually sit on disk?",
    options: [{ label: "/srv/kernel", value: "A" }, { label: "/boot", value: "B" },
              { label: "/var/spool", value: "C" }],
    answer: ["B"] },
  { prompt: "Which two hold logs?",
    options: [{ label: "/var/log", value: "A" }, { label: "/etc", value: "B" },
              { label: "/run/log/journal", value: "C" }],
    answer: ["A", "C"] },
];
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert "choices 'options', each one's label 'value', text 'label'" in done.err
    assert written_questions(tmp_path / "out") == [
        ("Where does the bootloader usually sit on disk?",
         ["/srv/kernel", "*/boot", "/var/spool"], ""),
        ("Which two hold logs?", ["*/var/log", "/etc", "*/run/log/journal"], "")]


def test_an_index_label_and_an_answer_key_among_empty_bookkeeping_keys(tmp_path, cli):
    """{value: "0", label: text} choices; the answer under an unhinted name
    ("_GoodChoiceIdx"), beside keys that are null or "" in every record and one for the
    learner's own answer."""
    rows = [{"Points": 1, "_Opts": [{"value": str(k), "label": t} for k, t in
                                     enumerate(texts)],
             "_Heading": prompt, "_RightAnswerIdx": None, "_UserAnswerIdx": "",
             "_RightAnswerIdxD": right, "Memo": None}
            for prompt, texts, right in (
                ("Which device joins two networks?", ["hub", "router", "repeater"], "1"),
                ("Which layer does a switch work at?", ["data link", "physical"], "0"),
                ("Which cable is fastest?", ["coax", "twisted pair", "fibre"], "2"))]
    bank = _write(tmp_path, "net.json", json.dumps(rows, ensure_ascii=False, indent=1))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    said = next(line for line in done.err.splitlines() if "W704" in line)
    assert "answer '_RightAnswerIdxD';" in said
    assert "each one's label 'value', text 'label'" in said
    assert len(said.partition("W704]: ")[2]) <= 200  # the empty keys, the example: left out
    assert written_questions(tmp_path / "out") == [
        ("Which device joins two networks?", ["hub", "*router", "repeater"], ""),
        ("Which layer does a switch work at?", ["*data link", "physical"], ""),
        ("Which cable is fastest?", ["coax", "twisted pair", "*fibre"], "")]


def test_one_key_choice_objects_by_letter(tmp_path, cli):
    bank = _write(tmp_path, "caps.json", json.dumps([
        {"question": "Which is Italy's capital?", "options": [{"A": "Milan"}, {"B": "Rome"}],
         "answer": "B"},
        {"question": "Which is Spain's capital?", "options": [{"A": "Madrid"}, {"B": "Seville"},
                                                              {"C": "Bilbao"}],
         "answer": "A"}]))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [
        ["Milan", "*Rome"], ["*Madrid", "Seville", "Bilbao"]]


def test_map_reaches_keys_inside_the_choice_objects(tmp_path, cli):
    """Both strings could be the text; --map options.caption=choice-text says which, and
    options.tag=choice-label which is the label the answer names."""
    bank = _write(tmp_path, "pets.json", json.dumps([
        {"question": "Which animal purrs?", "answer": "y",
         "options": [{"tag": "x", "caption": "dog"}, {"tag": "y", "caption": "cat"}]},
        {"question": "Which animal barks?", "answer": "x",
         "options": [{"tag": "x", "caption": "dog"}, {"tag": "y", "caption": "cow"}]}]))
    done = _run(cli, tmp_path, str(bank), "--map", "options.caption=choice-text",
                "--map", "options.tag=choice-label")
    assert done.status == 0, done.err
    assert "each one's label 'tag', text 'caption'" in done.err
    assert written_questions(tmp_path / "out") == [
        ("Which animal purrs?", ["dog", "*cat"], ""),
        ("Which animal barks?", ["*dog", "cow"], "")]


def test_map_reaches_a_key_inside_a_nested_object_of_the_question(tmp_path, cli):
    bank = _write(tmp_path, "nested.json", json.dumps([
        {"question": "Which metal is liquid at room temperature?", "options": ["iron", "mercury"],
         "answer": 1, "meta": {"source": "ch. 2", "why": "Mercury melts at -39 °C."}},
        {"question": "Which metal is lightest?", "options": ["lithium", "lead"],
         "answer": 0, "meta": {"source": "ch. 3", "why": "Lithium floats on water."}}]))
    done = _run(cli, tmp_path, str(bank), "--map", "meta.why=explanation")
    assert done.status == 0, done.err
    assert "explanation 'meta.why'" in done.err
    assert [q[2] for q in written_questions(tmp_path / "out")] == [
        "Mercury melts at -39 °C.", "Lithium floats on water."]


def test_choice_objects_with_an_id_a_text_and_a_flag(tmp_path, cli):
    bank = _write(tmp_path, "flags.yaml", """
- id: q1
  text: Which are primary colours of light?
  options:
    - {id: a, text: Red, isCorrect: true}
    - {id: b, text: Brown}
    - {id: c, text: Blue, isCorrect: true}
- id: q2
  text: Which is a noble gas?
  options:
    - {id: a, text: Neon, isCorrect: true}
    - {id: b, text: Nitrogen}
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out") == [
        ("Which are primary colours of light?", ["*Red", "Brown", "*Blue"], ""),
        ("Which is a noble gas?", ["*Neon", "Nitrogen"], "")]


@pytest.mark.parametrize("key", ["comments", "Note", "rationale", "justification",
                                 "explicacion", "explicação", "解析", "пояснение"])
def test_an_explanation_under_other_names_and_languages(tmp_path, cli, key):
    bank = _write(tmp_path, "bank.json", json.dumps([
        {"question": "Which sort is stable?", "options": ["heap sort", "merge sort"],
         "answer": 1, key: "Merge sort keeps equal keys in their order."},
        {"question": "Which sort is in place?", "options": ["heap sort", "merge sort"],
         "answer": 0, key: "Heap sort needs no extra array."}], ensure_ascii=False))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert f"explanation {key!r}" in done.err
    assert [q[2] for q in written_questions(tmp_path / "out")] == [
        "Merge sort keeps equal keys in their order.", "Heap sort needs no extra array."]


def test_a_comment_that_only_restates_the_answer_is_no_explanation(tmp_path, cli):
    bank = _write(tmp_path, "bank.json", json.dumps([
        {"question": "Which gas do plants take in?", "options": ["oxygen", "carbon dioxide"],
         "answer": "B", "comment": "Right answer: carbon dioxide"},
        {"question": "Which gas do plants give off?", "options": ["oxygen", "argon"],
         "answer": "A", "comment": "A"},
        {"question": "Which organ pumps blood?", "options": ["liver", "heart"],
         "answer": "B", "comment": "The answer is: B\n\nIt beats about once a second."}]))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[2] for q in written_questions(tmp_path / "out")] == [
        "", "", "The answer is: B\n\nIt beats about once a second."]


def test_placeholder_cells_are_no_choices_and_true_false_rows_read(tmp_path, cli):
    bank = _write(tmp_path, "quiz.tsv", "\t".join(
        ["Topic", "Question", "Choice A", "Choice B", "Choice C", "Choice D", "Choice E",
         "Answer"]) + "\n" + "\n".join("\t".join(row) for row in (
            ["Crypto", "Which is a hash?", "SHA-256", "AES", "RSA", "ECDH", "N/A", "A"],
            ["Crypto", "Which is symmetric?", "RSA", "AES", "-", "—", "", "B"],
            ["Crypto", "A salt makes rainbow tables useless.", "TRUE", "FALSE", "N/A",
             "N/A", "N/A", "A"],
            ["Crypto", "Which is no cipher?", "AES", "n/a", "ChaCha20", "N/A", "N/A",
             "B"])) + "\n")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out") == [
        ("Which is a hash?", ["*SHA-256", "AES", "RSA", "ECDH"], ""),
        ("Which is symmetric?", ["RSA", "*AES"], ""),
        ("A salt makes rainbow tables useless.", ["*TRUE", "FALSE"], ""),
        # the answer names the placeholder: it is the author's choice, kept as written
        ("Which is no cipher?", ["AES", "*n/a", "ChaCha20"], "")]


def test_a_dash_in_a_list_is_a_choice_and_a_trailing_na_is_none(tmp_path, cli):
    bank = _write(tmp_path, "ops.json", json.dumps([
        {"question": "Which operator adds?", "options": ["*", "+", "-"], "answer": 1},
        {"question": "Which operator subtracts?", "options": ["-", "/", "N/A"],
         "answer": 0}]))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [["*", "*+", "-"], ["*-", "/"]]


def test_numbered_choice_ids_with_an_index_from_0_are_no_labels(tmp_path, cli):
    bank = _write(tmp_path, "ids.json", json.dumps([
        {"question": "Which is prime?", "answerIndex": 0,
         "options": [{"id": 1, "text": "7"}, {"id": 2, "text": "8"}, {"id": 3, "text": "9"}]},
        {"question": "Which is even?", "answerIndex": 2,
         "options": [{"id": 1, "text": "3"}, {"id": 2, "text": "5"}, {"id": 3, "text": "6"}]}]))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [["*7", "8", "9"], ["3", "5", "*6"]]


def test_yaml_booleans_as_choices_are_true_and_false(tmp_path, cli):
    bank = _write(tmp_path, "tf.yaml", """
- question: Water boils at 100 °C at sea level.
  A: true
  B: false
  answer: A
- question: Which word means yes?
  options: {A: yes, B: nein}
  answer: A
- question: Pick the planet.
  options: [Mars, Sirius]
  answer: A
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out") == [
        ("Water boils at 100 °C at sea level.", ["*True", "False"], ""),
        ("Which word means yes?", ["*yes", "nein"], ""),
        ("Pick the planet.", ["*Mars", "Sirius"], "")]


@pytest.mark.parametrize("answer, right", [
    ("A and C", {0, 2}), ("A & C", {0, 2}), ("A, C", {0, 2}), ("AC", {0, 2}),
    ("(A) and (C)", {0, 2}), ("A y C", {0, 2}), ("A и C", {0, 2}), ("a; c", {0, 2}),
    ("B https://example.org/ref", {1}), ("B - the others are nouns", {1}),
    ("C. Because it runs.", {2}), ("D (page 12)", {3}), ("B;", {1}),
    ("A, C; not sure about C", {0, 2})])
def test_answers_written_in_words(tmp_path, cli, answer, right):
    bank = _write(tmp_path, "bank.json", json.dumps([
        {"question": "Which are verbs?", "choices": ["run", "table", "jump", "blue"],
         "answer": answer}]))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    (_, choices, _), = written_questions(tmp_path / "out")
    assert {k for k, c in enumerate(choices) if c.startswith("*")} == right


def test_an_answer_text_spaced_or_quoted_otherwise_names_its_choice(tmp_path, cli):
    bank = _write(tmp_path, "bank.json", json.dumps([
        {"question": "Which traits help a founder?", "correctAnswer": "patience,\n   grit",
         "options": [{"label": "a", "text": "'luck, money'"},
                     {"label": "b", "text": "'patience, grit.'"}]},
        {"question": "Which is a vowel?", "correctAnswer": "“e”",
         "options": [{"label": "a", "text": "e"}, {"label": "b", "text": "k"}]}]))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [
        ["'luck, money'", "*'patience, grit.'"], ["*e", "k"]]


def test_an_answer_text_with_a_link_and_a_boolean_answer(tmp_path, cli):
    bank = _write(tmp_path, "bank.yaml", """
- question: Which city is Portugal's capital?
  options: [Porto, Lisbon]
  answer: Lisbon - https://example.org/portugal
- question: Light is faster than sound.
  options: [true, false]
  answer: true
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [["Porto", "*Lisbon"],
                                                            ["*True", "False"]]


def test_a_trivia_true_false_question_with_one_wrong_answer(tmp_path, cli):
    bank = _write(tmp_path, "trivia.json", json.dumps({"results": [
        {"category": "Nature", "question": "Spiders have eight legs.",
         "correct_answer": "True", "incorrect_answers": ["False"]},
        {"category": "Nature", "question": "Which is a reptile?", "correct_answer": "gecko",
         "incorrect_answers": ["frog", "newt"]},
        {"category": "Nature", "question": "Which is no answer?", "correct_answer": "x",
         "incorrect_answers": []}]}))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert "[2].incorrect_answers: only one choice: the right answer, with no wrong ones" \
        in done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [
        ["*True", "False"], ["*gecko", "frog", "newt"]]


def test_a_trivia_bank_of_true_false_questions_only(tmp_path, cli):
    bank = _write(tmp_path, "tf.json", json.dumps({"results": [
        {"question": "Owls can see in the dark.", "correct_answer": "True",
         "incorrect_answers": ["False"]},
        {"question": "Bats are birds.", "correct_answer": "False",
         "incorrect_answers": ["True"]}]}))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [["*True", "False"],
                                                            ["*False", "True"]]


def test_a_letter_beyond_j_is_read_and_the_refusal_says_why(tmp_path, cli):
    texts = [f"port {n}" for n in range(20, 32)]  # twelve choices: A … L
    bank = _write(tmp_path, "bank.json", json.dumps([
        {"question": "Which port is SMTP's?", "options": texts, "answer": "K"},
        {"question": "Which port is SSH's?", "options": ["22", "23"], "answer": "A"}]))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert "12 choices; at most 10" in done.err and "names none" not in done.err
    assert written_questions(tmp_path / "out") == [("Which port is SSH's?", ["*22", "23"], "")]


def test_words_that_are_no_letters_are_not_read_as_letters():
    assert letters_in("I do not know", 12) is None
    assert letters_in("A lot", 4) is None
    assert letters_in("BD", 3) is None  # D is beyond three choices
    assert letters_in("B", 4) == [1]


def test_reading_answers_in_words_is_linear():
    def run(n: int) -> None:
        letters_in("A, " * n + "B and " * n + "(C)", 26)
        letters_in("A" + " " * n + "x", 26)
        without_link("word " * n + "(" * n + "www")
        restates("Answer: " + ": " * n + "B", ["x " * n], ["B"])
        loose("'" * n + " a " * n + "." * n)
    assert least_cpu(lambda: run(4000)) < 8 * least_cpu(lambda: run(1000)) + 0.01


@pytest.mark.anki
def test_label_and_text_choice_objects_arrive_in_anki(tmp_path, cli):
    """Index labels ({value: "2", label: text}) and an answer key named in no list: the
    learner sees each choice's text, with the right one marked."""
    bank = _write(tmp_path, "rivers.json", json.dumps({"quiz": [
        {"title": "Which river flows through Cairo?", "goodKey": "2", "myPick": None,
         "choices": [{"value": "1", "label": "Danube"}, {"value": "2", "label": "Nile"},
                     {"value": "3", "label": "Amazon"}]},
        {"title": "Which river is longest in Europe?", "goodKey": "3", "myPick": None,
         "choices": [{"value": "1", "label": "Rhine"}, {"value": "2", "label": "Seine"},
                     {"value": "3", "label": "Volga"}]}]}))
    done = cli("import", str(bank), "--map", "goodKey=answer", "--out",
               str(tmp_path / "source"))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path)
    cards = [card for deck in decks.values() for card in deck]
    seen = {prompt: (sorted(c.lstrip("*") for c in choices),
                     sorted(c[1:] for c in choices if c.startswith("*")))
            for prompt, choices, _ in map(as_read, cards)}
    assert seen == {
        "Which river flows through Cairo?": (["Amazon", "Danube", "Nile"], ["Nile"]),
        "Which river is longest in Europe?": (["Rhine", "Seine", "Volga"], ["Volga"])}


def test_a_program_value_typed_as_a_choice_in_a_list_is_a_choice(tmp_path, cli):
    # "null" and "undefined" in a list are what a quiz on code asks about; in a row's
    # cells they are what an export writes for a value it lacks.
    bank = _write(tmp_path, "js.json", json.dumps([
        {"q": "What does typeof 42 give?",
         "answers": [{"text": "number", "ok": True}, {"text": "null", "ok": False},
                     {"text": "undefined", "ok": False}]},
        {"q": "Which word names no value at all?",
         "answers": [{"text": "zero", "ok": False}, {"text": "null", "ok": True}]}]))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [
        ["*number", "null", "undefined"], ["zero", "*null"]]
    sheet = _write(tmp_path, "sheet.csv", "question,a,b,c,answer\n"
                   "Which planet is red?,Mars,Venus,null,A\n")
    done = cli("import", str(sheet), "--out", str(tmp_path / "out2"))
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "out2")] == [["*Mars", "Venus"]]
