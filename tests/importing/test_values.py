"""Structured banks whose key names say little (issue 46, design point 2): the answer key
told by its values (an index or a letter of the choices in every question), the prompt by
its text asking, a second kind of record in the same list (texts with a list of their
truths), XML that is one question a file with its texts in several languages and its
right choices marked by an attribute, and a question's picture named by a key. Every bank
here is written for the test."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import built_and_imported, written_questions
from growth import least_cpu
from images import png
from nca_anki.importing import json_bank, moodle_xml


def _write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _run(cli, tmp_path: Path, *banks: Path):
    return cli("import", *map(str, banks), "--out", str(tmp_path / "out"))


# --- the answer and the prompt told by their values ---------------------------------------------

def test_a_short_key_that_indexes_the_choices_in_every_question_is_the_answer(tmp_path, cli):
    bank = _write(tmp_path, "rivers.json", json.dumps([
        {"t": "Which river flows through Cairo?", "o": ["Nile", "Congo", "Niger"], "k": 0},
        {"t": "Which river is the longest in Europe?", "o": ["Danube", "Volga"], "k": 1},
        {"t": "Which river reaches the sea at Lisbon?", "o": ["Douro", "Tagus", "Minho"],
         "k": 1, "n": "Lisbon sits on its estuary."},
    ], indent=1))
    done = _run(cli, tmp_path, bank)
    assert done.status == 0, done.err
    assert "answer 'k', counted from 0" in done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [
        ["*Nile", "Congo", "Niger"], ["Danube", "*Volga"], ["Douro", "*Tagus", "Minho"]]


def test_a_letter_key_is_the_answer_and_a_counter_never_is(tmp_path, cli):
    bank = _write(tmp_path, "metals.yaml", """
- n: 1
  s: "Which metal is liquid at room temperature?"
  c: [Iron, Mercury, Tin]
  r: b
- n: 2
  s: "Which metal has the symbol Au?"
  c: [Gold, Silver]
  r: A
- n: 3
  s: "Which metal rusts?"
  c: [Iron, Platinum, Gold]
  r: a
""")
    done = _run(cli, tmp_path, bank)
    assert done.status == 0, done.err
    assert "answer 'r'" in done.err and "'n' as the correct" not in done.err
    assert [q[1] for q in written_questions(tmp_path / "out")] == [
        ["Iron", "*Mercury", "Tin"], ["*Gold", "Silver"], ["*Iron", "Platinum", "Gold"]]


def test_the_text_that_asks_is_the_prompt_over_a_title_that_does_not(tmp_path, cli):
    bank = _write(tmp_path, "net.json", json.dumps([
        {"title": "Ports", "body": "Which port does SSH listen on by default?",
         "choices": ["22", "80"], "answer": "22"},
        {"title": "Ports", "body": "Which port does DNS answer on?",
         "choices": ["53", "25"], "answer": "53"},
    ]))
    done = _run(cli, tmp_path, bank)
    assert done.status == 0, done.err
    assert [q[0] for q in written_questions(tmp_path / "out")] == [
        "Which port does SSH listen on by default?", "Which port does DNS answer on?"]


# --- a second kind of record: texts with their truths --------------------------------------------

def test_texts_with_a_list_of_their_truths_are_a_question_of_their_own_kind(tmp_path, cli):
    bank = _write(tmp_path, "planets.js", """export const BANK = [
  {kind: "pick", ask: "Which planet is the largest?", opts: ["Mars", "Jupiter"], sol: 1},
  {kind: "truth", ask: "Which of these are true of Venus?",
   claims: ["It spins backwards.", "It has two moons.", "It is hotter than Mercury."],
   sol: [true, false, true]},
  {kind: "pick", ask: "Which planet has rings you can see?", opts: ["Saturn", "Venus"],
   sol: 0},
  {kind: "truth", ask: "Which of these are true of Mars?",
   claims: ["It has two moons.", "It is a gas giant."], sol: [true, false, true]},
];
""")
    done = _run(cli, tmp_path, bank)
    assert done.status == 1
    assert "'claims' with a list of truths as the choices of 1; left out 'kind';" in done.err
    assert [q[:2] for q in written_questions(tmp_path / "out")] == [
        ("Which planet is the largest?", ["Mars", "*Jupiter"]),
        ("Which of these are true of Venus?",
         ["*It spins backwards.", "It has two moons.", "*It is hotter than Mercury."]),
        ("Which planet has rings you can see?", ["*Saturn", "Venus"])]
    # three truths for two texts: not read as that kind, said at its own line
    assert re.search(rf"{re.escape(str(bank))}:8: error\[E702\]: BANK\[3\]: its 3 truths under "
                     r"'sol' pair with no list of 3 texts \('claims' holds 2\)", done.err), \
        done.err


# --- XML: one question a file, texts in several languages, an attribute marks the right ---------

def _xml_question(ident: str, stem: dict[str, str], options: list[tuple[str, dict[str, str]]],
                  lang: str = "xml:lang") -> str:
    def texts(by_lang: dict[str, str]) -> str:
        return "".join(f'\n      <text {lang}="{k}">{v}</text>' for k, v in by_lang.items())

    return (f'<?xml version="1.0"?>\n<singleChoice xmlns="urn:example:exam" id="{ident}">\n'
            f"  <meta><tag>geo</tag><tag>easy</tag></meta>\n  <prompt>{texts(stem)}\n  </prompt>\n"
            "  <answers>\n" + "".join(f"    <answer {mark}>{texts(t)}\n    </answer>\n"
                                      for mark, t in options)
            + "  </answers>\n</singleChoice>\n")


def test_an_xml_file_that_is_one_question_is_read_with_its_marked_choices(tmp_path, cli):
    first = _write(tmp_path, "q1.xml", _xml_question("g1", {
        "fr": "Quelle est la capitale du Canada ?", "en": "What is the capital of Canada?",
        "es": "¿Cuál es la capital de Canadá?"}, [
        ('right="right" key="A"', {"fr": "Ottawa", "en": "Ottawa", "es": "Ottawa"}),
        ('wrong="wrong" key="B"', {"fr": "Toronto", "en": "Toronto", "es": "Toronto"}),
        ('wrong="wrong" key="C"', {"fr": "Montréal", "en": "Montreal", "es": "Montreal"})]))
    second = _write(tmp_path, "q2.xml", _xml_question("g2", {
        "fr": "Quels fleuves traversent Paris ?", "en": "Which rivers cross Paris?",
        "es": "¿Qué ríos cruzan París?"}, [
        ('is-correct="true"', {"fr": "la Seine", "en": "the Seine", "es": "el Sena"}),
        ('is-correct="false"', {"fr": "le Rhône", "en": "the Rhone", "es": "el Ródano"}),
        ('is-correct="true"', {"fr": "la Bièvre", "en": "the Bièvre", "es": "el Bièvre"})]))
    done = _run(cli, tmp_path, first, second)
    assert done.status == 0, done.err
    assert "texts in 'en' of 3 languages" in done.err
    assert [q[:2] for q in written_questions(tmp_path / "out")] == [
        ("What is the capital of Canada?", ["*Ottawa", "Toronto", "Montreal"]),
        ("Which rivers cross Paris?", ["*the Seine", "the Rhone", "*the Bièvre"])]


def test_without_english_the_first_language_is_read_throughout(tmp_path, cli):
    bank = _write(tmp_path, "q.xml", _xml_question("d1", {
        "de": "Welcher Fluss fließt durch Wien?", "it": "Quale fiume attraversa Vienna?"}, [
        ('correct="correct"', {"de": "die Donau", "it": "il Danubio"}),
        ('distractor="distractor"', {"de": "der Rhein", "it": "il Reno"})]))
    done = _run(cli, tmp_path, bank)
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out") == [
        ("Welcher Fluss fließt durch Wien?", ["*die Donau", "der Rhein"], "")]


# --- a picture named by a key ---------------------------------------------------------------------

def _app(tmp_path: Path, questions: list[dict[str, object]]) -> Path:
    """A quiz app's folders: its bank in src/, its pictures served from public/ as /img/."""
    _write(tmp_path, "app/public/img/valve.png", png(6, 4, tag=b"valve"))
    _write(tmp_path, "app/public/img/pump.png", png(4, 6, tag=b"pump"))
    return _write(tmp_path, "app/src/bank.json", json.dumps({"questions": questions},
                                                            indent=1))


_SAME = {"prompt": "What does the part in the picture do?",
         "opts": ["It seals", "It pumps"]}


def test_a_picture_key_is_found_in_the_apps_web_root_and_shown_above_the_prompt(tmp_path, cli):
    bank = _app(tmp_path, [
        {**_SAME, "right": "It seals", "photo": "/img/valve.png"},
        {**_SAME, "right": "It pumps", "photo": "img/pump.png"},
        {"prompt": "Which fluid do hydraulics use?", "opts": ["Oil", "Air"], "right": "Oil"},
        {**_SAME, "right": "It pumps", "photo": "/img/gone.png"},
    ])
    done = _run(cli, tmp_path, bank)
    assert done.status == 1
    assert "picture 'photo'" in done.err
    line = next(x for x in done.err.splitlines() if "error[E704]" in x)
    assert line.startswith(f"{bank}:29: error[E704]: questions[3]: its picture "
                           "'/img/gone.png' is not there (looked in the bank's folder"), line
    assert len(line) < 300, line
    out = tmp_path / "out"
    assert written_questions(out) == [
        ("![](images/valve.png)\n\nWhat does the part in the picture do?",
         ["*It seals", "It pumps"], ""),
        ("![](images/pump.png)\n\nWhat does the part in the picture do?",
         ["It seals", "*It pumps"], ""),
        ("Which fluid do hydraulics use?", ["*Oil", "Air"], "")]
    assert (out / "images/valve.png").read_bytes() == png(6, 4, tag=b"valve")


def test_a_yaml_bank_s_picture_beside_it_keeps_its_name_with_spaces(tmp_path, cli):
    _write(tmp_path, "quiz/pics/gauge (old).png", png(3, 3, tag=b"gauge"))
    bank = _write(tmp_path, "quiz/gauges.yaml", """
- pregunta: "¿Qué mide este instrumento?"
  opciones: [presión, caudal]
  correcta: presión
  figura: "pics/gauge (old).png"
- pregunta: "¿Qué unidad es de presión?"
  opciones: [bar, lumen]
  correcta: bar
""")
    done = _run(cli, tmp_path, bank)
    assert done.status == 0, done.err
    assert "picture 'figura'" in done.err
    out = tmp_path / "out"
    [(prompt, _, _), _] = written_questions(out)
    assert prompt.startswith("![](images/gauge%20%28old%29.png)\n\n¿Qué mide"), prompt
    assert (out / "images/gauge (old).png").read_bytes() == png(3, 3, tag=b"gauge")


def test_the_same_words_with_another_right_answer_are_said_to_be_no_repeat(tmp_path, cli):
    bank = _write(tmp_path, "b.json", json.dumps([
        {**_SAME, "right": "It seals"}, {**_SAME, "right": "It pumps"},
        {**_SAME, "right": "It seals"}], indent=0))
    done = _run(cli, tmp_path, bank)
    assert done.status == 1
    assert [q[1] for q in written_questions(tmp_path / "out")] == [["*It seals", "It pumps"]]
    assert f"{bank}:10: error[E704]: [1] has the words and choices of the question at " \
        "line 2 ([0]) but another right answer" in done.err
    assert f"{bank}:18: error[E704]: [2] repeats the question at line 2 ([0]) word for word" \
        in done.err


@pytest.mark.anki
def test_a_picture_key_s_picture_arrives_in_anki_s_media_and_on_the_card(tmp_path, cli):
    bank = _app(tmp_path, [{**_SAME, "right": "It seals", "photo": "/img/valve.png"},
                           {**_SAME, "right": "It pumps", "photo": "/img/pump.png"}])
    done = cli("import", str(bank), "--out", str(tmp_path / "src"))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path, source="src")
    [cards] = decks.values()
    media = {p.name: p.read_bytes() for p in (tmp_path / "anki" / "collection.media").iterdir()}
    shown = {}
    for card in cards:
        found = re.search(r'<img src="([^"]+)"', card.fields["Prompt"])
        assert found, card.fields["Prompt"]
        assert card.fields["Prompt"].index("<img") < card.fields["Prompt"].index("What does")
        shown[card.fields["Answer"]] = media[found[1]]
    assert sorted(shown.values()) == sorted([png(6, 4, tag=b"valve"), png(4, 6, tag=b"pump")])


# --- linear in the input --------------------------------------------------------------------------

def _xml_bank(n: int) -> str:
    return "<bank>\n" + "".join(
        f'<q id="{k}"><stem><text xml:lang="de">Welche {k}?</text><text xml:lang="en">Which '
        f'{k}?</text></stem><opts><o correct="correct"><text xml:lang="de">ja</text>'
        '<text xml:lang="en">yes</text></o><o><text xml:lang="de">nein</text>'
        '<text xml:lang="en">no</text></o></opts></q>\n' for k in range(n)) + "</bank>\n"


def _short_keys(n: int) -> str:
    return json.dumps([{"t": f"Which is {k}?", "o": [f"{k}", "x", "y"], "a": k % 3,
                        "img": "/img/valve.png"} if k % 2 else
                       {"t": f"Which are {k}?", "s": [f"{k}", "z"], "a": [True, False]}
                       for k in range(n)])


def test_values_languages_and_pictures_are_read_in_linear_time(tmp_path):
    bank = _app(tmp_path, [])
    for what, call in (("XML in two languages, wrapped",
                        lambda n: moodle_xml.read(_xml_bank(n), "b.xml")),
                       ("short keys, truths and pictures",
                        lambda n: json_bank.read(_short_keys(n), str(bank)))):
        short = least_cpu(lambda call=call: call(1_000))
        long = least_cpu(lambda call=call: call(4_000))
        assert long < 8 * max(short, 0.02), (what, short, long)
