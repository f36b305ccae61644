"""Structured banks whose prompt is written in more than one key (a scenario, the lines
under it, then the question), and text values wrapped over lines, spaced or quoted in the
source (issue 46, second round). Every bank here is written for the test; none is copied
from a real bank."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import built_and_imported, written_questions

from anki_client import html_to_text
from growth import least_cpu


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _words(text: str) -> str:
    return " ".join(re.sub(r"&bull;|[\\]", " ", text).split())


# --- a prompt in several keys -------------------------------------------------------------

def test_a_scenario_key_and_a_question_key_make_one_prompt(tmp_path, cli):
    """The scenario is read before the question, also when the keys are sorted so that it
    comes after; a question whose own key is empty is its scenario alone."""
    bank = _write(tmp_path, "ops.json", json.dumps([
        {"answer": "B", "choices": ["Restart it", "Roll back", "Scale out"],
         "question": "What do you do first?",
         "scenario": "A deploy at noon doubled the error rate."},
        {"answer": "A", "choices": ["Rotate the key", "Ignore it", "Email it"],
         "question": "What now?", "scenario": "A token leaked into a public log."},
        {"answer": "C", "choices": ["Nothing", "A reboot", "A read replica"],
         "question": "", "scenario": "Which one takes read load off a primary database?"},
    ]))
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    said = [line for line in done.err.splitlines() if "W704" in line]
    assert len(said) == 1 and "prompt 'scenario'+'question'" in said[0]
    assert written_questions(tmp_path / "out", explained=False) == [
        ("A deploy at noon doubled the error rate.\n\nWhat do you do first?",
         ["Restart it", "*Roll back", "Scale out"]),
        ("A token leaked into a public log.\n\nWhat now?",
         ["*Rotate the key", "Ignore it", "Email it"]),
        ("Which one takes read load off a primary database?",
         ["Nothing", "A reboot", "*A read replica"])]


def test_a_context_in_another_language_and_the_lines_written_under_it(tmp_path, cli):
    """Spanish keys in YAML: ``contexto``, then a list of lines shown under it, then the
    question; the list, shaped like choices but never the question's choices, is part of
    the prompt."""
    bank = _write(tmp_path, "redes.yaml", """\
- contexto: "Una oficina tiene estos equipos:"
  datos:
    - "un router con NAT"
    - "dos switches sin VLAN"
  pregunta: "¿Qué falta para separar el tráfico de invitados?"
  opciones: ["Un firewall", "VLANs", "Más cable"]
  respuesta: "VLANs"
- contexto: "Un servidor responde lento."
  datos: []
  pregunta: "¿Qué se mira primero?"
  opciones: ["La carga", "El color", "La marca"]
  respuesta: "La carga"
""")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert "prompt 'contexto'+'datos'+'pregunta'" in done.err
    [first, second] = written_questions(tmp_path / "out", explained=False)
    assert _words(first[0]) == ("Una oficina tiene estos equipos: un router con NAT dos "
                                "switches sin VLAN ¿Qué falta para separar el tráfico de "
                                "invitados?")
    assert first[1] == ["Un firewall", "*VLANs", "Más cable"]
    assert second == ("Un servidor responde lento.\n\n¿Qué se mira primero?",
                      ["*La carga", "El color", "La marca"])


def test_a_spreadsheets_scenario_column_opens_each_prompt(tmp_path, cli):
    bank = _write(tmp_path, "netz.csv", "Ausgangslage,Frage,A,B,Lösung\n"
                  '"Ein Switch hat 24 Ports.","Wie viele Geräte passen direkt?",24,48,A\n'
                  '"Ein Router fällt aus.","Was fehlt dann?",Internet,Strom,A\n')
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert [q[0] for q in written_questions(tmp_path / "out", explained=False)] == [
        "Ein Switch hat 24 Ports.\n\nWie viele Geräte passen direkt?",
        "Ein Router fällt aus.\n\nWas fehlt dann?"]


def test_a_context_written_after_the_answer_stays_the_explanation(tmp_path, cli):
    """"context" may be the background told once answered: written after the question and
    its answer it is the explanation, as before; written before the question, the prompt."""
    after = _write(tmp_path, "after.json", json.dumps([
        {"q": "Which directory holds host configuration?", "options": ["/etc", "/tmp"],
         "answer": 0, "context": "/etc keeps the configuration of the host."},
        {"q": "Which directory is wiped at boot?", "options": ["/etc", "/tmp"],
         "answer": 1, "context": "/tmp is often a tmpfs."}]))
    done = cli("import", str(after), "--out", str(tmp_path / "a"))
    assert "prompt 'q';" in done.err and "explanation 'context'" in done.err
    before = _write(tmp_path, "before.json", json.dumps([
        {"contexte": "Un serveur web reçoit 10 000 requêtes par seconde.",
         "question": "Que mettre devant ?", "options": ["Un cache", "Un fax"], "answer": 0},
        {"contexte": "Une base est lente.", "question": "Que regarder ?",
         "options": ["Les index", "La couleur"], "answer": 0}]))
    done = cli("import", str(before), "--out", str(tmp_path / "b"))
    assert "prompt 'contexte'+'question'" in done.err, done.err


def test_a_case_code_or_a_title_beside_a_scenario_is_no_part_of_the_prompt(tmp_path, cli):
    bank = _write(tmp_path, "cases.json", json.dumps([
        {"case": "B7", "background": "A queue grows faster than it drains.", "title": "Queues",
         "question": "What helps first?", "options": ["More consumers", "A bigger font"],
         "answer": 0},
        {"case": "C2", "background": "Disk fills up every night at two.", "title": "Disks",
         "question": "What do you look at?", "options": ["The cron jobs", "The wallpaper"],
         "answer": 0}]))
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert "prompt 'background'+'question'" in done.err, done.err
    assert [q[0] for q in written_questions(tmp_path / "out", explained=False)] == [
        "A queue grows faster than it drains.\n\nWhat helps first?",
        "Disk fills up every night at two.\n\nWhat do you look at?"]


def test_a_list_of_the_right_choices_beside_the_choices_is_the_answer(tmp_path, cli):
    """A second list shaped like choices that never holds a question's choices is no
    choices key: here it is the answer (several right choices by their texts)."""
    bank = _write(tmp_path, "primes.json", json.dumps([
        {"question": "Which are primes?", "choices": ["4", "5", "6", "7"],
         "answers": ["5", "7"]},
        {"question": "Which are even?", "choices": ["2", "3", "8", "9"],
         "answers": ["2", "8"]}]))
    done = cli("import", str(bank), "--out", str(tmp_path / "en"))
    assert done.status == 0, done.err
    assert "answer 'answers'" in done.err
    bank = _write(tmp_path, "primos.json", json.dumps([
        {"pregunta": "¿Cuáles son primos?", "alternativas": ["4", "5", "6", "7"],
         "opciones": ["5", "7"]},
        {"pregunta": "¿Cuáles son pares?", "alternativas": ["2", "3", "8", "9"],
         "opciones": ["2", "8"]}]))
    done = cli("import", str(bank), "--out", str(tmp_path / "out"), "--map",
               "opciones=answer")
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "out", explained=False)] == [
        ["4", "*5", "6", "*7"], ["*2", "3", "*8", "9"]]


def test_the_author_names_the_prompt_keys_in_order_with_map_twice(tmp_path, cli):
    """Keys no name tells: ``--map KEY=prompt`` given twice joins them, in the order given."""
    bank = _write(tmp_path, "chem.json", json.dumps({"items": [
        {"ask": "Which gas is it?", "lead": "It is colourless and relights a glowing splint.",
         "picks": ["Oxygen", "Nitrogen", "Argon"], "good": 0},
        {"ask": "Which metal is it?", "lead": "It is liquid at room temperature.",
         "picks": ["Iron", "Mercury", "Tin"], "good": 1}]}))
    done = cli("import", str(bank), "--map", "lead=prompt", "--map", "ask=prompt",
               "--map", "good=answer0", "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert "prompt 'lead'+'ask'" in done.err
    assert [q[0] for q in written_questions(tmp_path / "out", explained=False)] == [
        "It is colourless and relights a glowing splint.\n\nWhich gas is it?",
        "It is liquid at room temperature.\n\nWhich metal is it?"]


def test_no_text_in_any_prompt_key_is_said_at_the_question(tmp_path, cli):
    bank = _write(tmp_path, "empty.json", json.dumps([
        {"background": "Kafka keeps messages on disk.", "question": "For how long?",
         "options": ["Forever", "Until retention ends"], "answer": 1},
        {"background": "", "question": "", "options": ["x", "y"], "answer": 0}]))
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert "[1]: no question text under any of 'background', 'question'" in done.err, done.err


# --- text values wrapped, spaced or quoted in the source ----------------------------------

def test_a_choice_wrapped_over_lines_is_one_line_and_its_answer_still_names_it(tmp_path, cli):
    """Choice texts carrying the source's line wrapping and indentation, wrapping quotes
    and spaces; the answer written as the text, wrapped otherwise: no question refused."""
    bank = _write(tmp_path, "quiz.js", """export const quiz = {
  q1: { question: "¿Qué describe a un buen líder?",
        options: [{ text: "'escucha, decide,\\n          delega.'" },
                  { text: "  grita  " }, { text: "'nunca\\n   delega'" }],
        correctAnswer: "'escucha, decide,\\n delega.'" },
  q2: { question: "Qual é a capital de Portugal?",
        options: [{ text: "Lisboa\\r\\n   (desde 1255)" }, { text: " Porto" },
                  { text: "Braga " }],
        correctAnswer: "Lisboa (desde 1255)" },
};
""")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out", explained=False) == [
        ("¿Qué describe a un buen líder?",
         ["*'escucha, decide, delega.'", "grita", "'nunca delega'"]),
        ("Qual é a capital de Portugal?", ["*Lisboa (desde 1255)", "Porto", "Braga"])]


def test_prompt_lines_written_like_choices_stay_the_prompt(tmp_path, cli):
    """A prompt's own list ("- item", "• item", "b) item") is no choice of the question."""
    bank = _write(tmp_path, "logs.json", json.dumps([
        {"question": "Given this setup:\n\t- log level is info\n\t- one category\n"
                     "Which file gets the line?", "options": ["app.log", "root.log"],
         "answer": "root.log"},
        {"question": "Steps so far:\n• a backup ran\n• b) a restore ran",
         "options": ["Verify", "Delete"], "answer": "Verify"},
        {"question": "Plain:\n```\n- name: kept as code\n```",
         "options": ["yes", "no"], "answer": "yes"}]))
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    found = written_questions(tmp_path / "out", explained=False)
    assert [_words(p) for p, _ in found[:2]] == [
        "Given this setup: - log level is info - one category Which file gets the line?",
        "Steps so far: a backup ran b) a restore ran"]
    assert [c for _, c in found] == [["app.log", "*root.log"], ["*Verify", "Delete"],
                                     ["*yes", "no"]]
    assert "```\n- name: kept as code\n```" in found[2][0]


def test_a_repeat_is_named_by_its_line_in_the_same_input(tmp_path, cli):
    bank = _write(tmp_path, "twice.json", json.dumps([
        {"question": "Which port does SSH use?", "options": ["22", "80"], "answer": "22"},
        {"question": "Which port does SSH use?", "options": ["80", "22"], "answer": "22"}],
        indent=1))
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    line = next(line for line in done.err.splitlines() if "repeats" in line)
    assert line.startswith(f"{bank}:") and "repeats the question at line 2 ([0]) word for word" \
        in line, line
    assert line.count(str(bank)) == 1


def test_prompt_parts_stay_linear():
    from nca_anki.importing.json_bank import read

    def bank(n: int) -> str:
        return json.dumps([{"scenario": f"Case {k}:\n- a line\n• another <code>&lt;b&gt;</code>",
                            "lines": [f"row {k}", "row"], "question": f"Question {k}?<br>",
                            "options": [f"a{k}\n  wrapped", f"b{k}"], "answer": 0}
                           for k in range(n)])
    small, large = bank(2_000), bank(8_000)
    assert least_cpu(lambda: read(large, "b.json")) < 8 * least_cpu(
        lambda: read(small, "b.json")) + 0.01


@pytest.mark.anki
def test_a_scenario_and_its_question_arrive_as_one_prompt_in_anki(tmp_path, cli):
    """The learner sees the scenario, the lines under it and the question on one card."""
    _write(tmp_path, "cases.json", json.dumps({"cases": [
        {"situation": "A cache sits in front of a slow API.",
         "facts": ["Hit rate is 20%", "Keys expire after 1 s"],
         "question": "What raises the hit rate most?",
         "answers": [{"option": "A longer expiry", "correct": True},
                     {"option": "A faster API", "correct": False},
                     {"option": "More logging", "correct": False}]},
        {"situation": "Two services call each other in a loop.",
         "facts": [], "question": "What breaks the loop?",
         "answers": [{"option": "A timeout", "correct": False},
                     {"option": "Removing one call", "correct": True}]}]}))
    done = cli("import", str(tmp_path / "cases.json"), "--out", str(tmp_path / "source"))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path)
    prompts = sorted(" ".join(html_to_text(card.fields["Prompt"]).split())
                     for deck in decks.values() for card in deck)
    assert prompts == [
        "A cache sits in front of a slow API. Hit rate is 20% Keys expire after 1 s What "
        "raises the hit rate most?",
        "Two services call each other in a loop. What breaks the loop?"]


# --- texts the quiz's page renders as HTML ------------------------------------------------

def test_a_bank_written_for_a_page_that_renders_html_is_read_as_that_page(tmp_path, cli):
    """Tags and escapes ("&lt;") in the texts: the card shows what the page shows (code as
    code, a break as a break), decided once for the bank and said in W704."""
    bank = _write(tmp_path, "web.json", json.dumps([
        {"question": "Which element sets a page's title in <code>head</code>?",
         "options": ["<code>&lt;title&gt;</code>", "<code>&lt;h1&gt;</code>",
                     "<b>none</b>"], "answer": 0},
        {"question": "Output of:<br><pre>print(1 &lt; 2)</pre>",
         "options": ["<code>True</code>", "<code>False</code>"], "answer": 0,
         "explanation": "<p>1 is less than 2.</p>"}]))
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert "HTML texts" in done.err
    found = written_questions(tmp_path / "out", explained=False)
    assert found[0] == ("Which element sets a page's title in `head`?",
                        ["*`<title>`", "`<h1>`", "**none**"])
    assert "<br>" not in found[1][0] and "print(1 < 2)" in found[1][0]


def test_a_bank_that_asks_about_tags_keeps_them_as_written(tmp_path, cli):
    """Tags without any escape: a bank about HTML, for a page that shows text."""
    bank = _write(tmp_path, "tags.json", json.dumps([
        {"frage": "Welches Element macht Text fett?", "optionen": ["<b>", "<p>", "<br>"],
         "antwort": "<b>"},
        {"frage": "Was schließt <code> ab?", "optionen": ["</code>", "</p>"],
         "antwort": "</code>"}]))
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert "HTML" not in done.err
    assert [q[1] for q in written_questions(tmp_path / "out", explained=False)] == [
        ["*<b>", "<p>", "<br>"], ["*</code>", "</p>"]]
