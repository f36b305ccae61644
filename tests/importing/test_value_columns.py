"""Structured banks the reader did not find (issue 46, design point 2): a spreadsheet whose
choice columns are named in another language, with a typo, or not for their places at
all, told by their values (a run of adjacent short texts beside a column of letters that
name them); and a JavaScript or TypeScript bank whose array is the receiver or the
argument of a call (``[…].map(f)``, ``shuffle([…]).slice(0, 5)``, ``[…].concat([…])``),
with choices written as a list and an index in some questions and as an object by letter
in others. Every bank here is written for the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import as_read, built_and_imported, written_questions
from growth import least_cpu
from nca_anki.importing import spreadsheet, typescript


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _run(cli, tmp_path: Path, *banks: Path):
    return cli("import", *map(str, banks), "--out", str(tmp_path / "out"))


def _read(reading) -> list[tuple[str, list[str], str]]:
    return [(i.prompt, [("*" if c.correct else "") + c.text for c in i.choices],
             i.explanation) for s in reading.sections for i in s.items]


# --- spreadsheets: choice columns told by their values -------------------------------------------

# Spanish, metadata columns first, the second choice's column misspelt, the answer a letter,
# two justification columns after it (a short reference and the long text).
_SPANISH = """\
Num,Convocatoria,Bloque,Enunciado_Pregunta,Opcion_A,Opcoin_B,Opcion_C,Opcion_D,Solucion_Correcta,Ref_Justificacion,Texto_Justificacion,Enlace
1,Prueba 2019,Geografía,¿Qué río pasa por Zaragoza?,El Tajo,El Ebro,El Duero,El Miño,B,Atlas 4,"El Ebro cruza Zaragoza de oeste a este, camino del Mediterráneo.",https://example.org/a
2,Prueba 2020,Geografía,La isla más grande de Baleares es:,Ibiza,Menorca,Mallorca,Formentera,C,Atlas 9,"Mallorca es con diferencia la mayor de las islas Baleares.",https://example.org/b
3,Prueba 2020,Historia,¿En qué año se aprobó la Constitución vigente?,1975,1978,1982,1986,B,Texto 1,"Se aprobó en referéndum el 6 de diciembre de 1978.",https://example.org/c
4,Prueba 2021,Historia,"Capital del reino visigodo de Toledo, ¿qué ciudad era?",Mérida,Sevilla,Toledo,León,C,Texto 2,"Toledo fue la sede regia de los visigodos desde el siglo VI.",https://example.org/d
"""


def test_a_spanish_header_with_a_misspelt_choice_column_is_read_by_its_values(tmp_path, cli):
    done = _run(cli, tmp_path, _write(tmp_path, "oposicion.csv", _SPANISH))
    assert done.status == 0, done.err
    assert "choices 'Opcion_A' to 'Opcion_D'" in done.err
    assert "answer 'Solucion_Correcta'" in done.err
    assert "explanation 'Texto_Justificacion'" in done.err
    assert sorted(written_questions(tmp_path / "out")) == sorted([
        ("¿Qué río pasa por Zaragoza?", ["El Tajo", "*El Ebro", "El Duero", "El Miño"],
         "El Ebro cruza Zaragoza de oeste a este, camino del Mediterráneo."),
        ("La isla más grande de Baleares es:", ["Ibiza", "Menorca", "*Mallorca", "Formentera"],
         "Mallorca es con diferencia la mayor de las islas Baleares."),
        ("¿En qué año se aprobó la Constitución vigente?", ["1975", "*1978", "1982", "1986"],
         "Se aprobó en referéndum el 6 de diciembre de 1978."),
        ("Capital del reino visigodo de Toledo, ¿qué ciudad era?",
         ["Mérida", "Sevilla", "*Toledo", "León"],
         "Toledo fue la sede regia de los visigodos desde el siglo VI."),
    ])


def test_german_tsv_choices_numbered_with_an_index_from_one(tmp_path, cli):
    bank = _write(tmp_path, "physik.tsv", (
        "Nr\tFrage\tAntwort_1\tAntwort_2\tAntwort_3\tRichtig\tErläuterung\n"
        "1\tWelche Einheit hat die Kraft?\tJoule\tNewton\tWatt\t2\t"
        "Ein Newton beschleunigt ein Kilogramm um einen Meter pro Sekundenquadrat.\n"
        "2\tWas misst ein Amperemeter?\tStrom\tSpannung\tWiderstand\t1\t"
        "Es wird in Reihe geschaltet und misst die Stromstärke.\n"
        "3\tWelche Größe hat die Einheit Pascal?\tEnergie\tLeistung\tDruck\t3\t"
        "Ein Pascal ist ein Newton pro Quadratmeter.\n"))
    done = _run(cli, tmp_path, bank)
    assert done.status == 0, done.err
    assert "choices 'Antwort_1', 'Antwort_2', 'Antwort_3'" in done.err
    assert [c for _, c, _ in sorted(written_questions(tmp_path / "out"))] == [
        ["*Strom", "Spannung", "Widerstand"], ["Joule", "*Newton", "Watt"],
        ["Energie", "Leistung", "*Druck"]]


def test_choice_columns_named_for_nothing_are_told_by_the_letters_beside_them(tmp_path, cli):
    """Portuguese, separated by ';', the choice columns named by ordinal words: the run of
    short texts before the column of letters, up to the question that asks; the column of
    sentences after the answer its explanation, though its name says nothing."""
    bank = _write(tmp_path, "simulado.csv", (
        "codigo;materia;pergunta;primeira;segunda;terceira;quarta;gabarito;porque;fonte\n"
        "q1;Química;Qual é o símbolo do ferro?;Fe;Fr;F;Ir;A;"
        "Vem do latim ferrum, por isso Fe.;Livro 2, p. 7\n"
        "q2;Química;Qual gás as plantas liberam na fotossíntese?;Hidrogênio;Oxigênio;Metano;"
        "Hélio;B;A fotossíntese libera oxigênio para a atmosfera.;Livro 2, p. 7\n"
        "q3;Física;Qual é a unidade de potência?;Volt;Ohm;Watt;Tesla;C;"
        "Um watt é um joule por segundo.;Livro 2, p. 7\n"
        "q4;Física;Qual cor tem o maior comprimento de onda?;Azul;Verde;Violeta;Vermelho;D;"
        "O vermelho fica no extremo do espectro visível.;Livro 2, p. 7\n"))
    done = _run(cli, tmp_path, bank)
    assert done.status == 0, done.err
    assert "choices 'primeira' to 'quarta'" in done.err
    assert "explanation 'porque'" in done.err
    assert sorted(written_questions(tmp_path / "out"))[0] == (
        "Qual cor tem o maior comprimento de onda?", ["Azul", "Verde", "Violeta", "*Vermelho"],
        "O vermelho fica no extremo do espectro visível.")


def test_chinese_and_french_headers_with_marks_written_onto_the_word(tmp_path):
    chinese = spreadsheet.read(
        "编号,题干内容,选项A,选项B,选项C,正确答案,解析说明\n"
        "1,水的化学式是什么？,H2O,CO2,NaCl,A,水由两个氢原子和一个氧原子组成。\n"
        "2,地球绕什么转？,月亮,太阳,火星,B,地球绕太阳公转一周约一年。\n", "化学.csv")
    assert _read(chinese) == [
        ("水的化学式是什么？", ["*H2O", "CO2", "NaCl"], "水由两个氢原子和一个氧原子组成。"),
        ("地球绕什么转？", ["月亮", "*太阳", "火星"], "地球绕太阳公转一周约一年。")]
    french = spreadsheet.read(
        "Identifiant|Énoncé|RéponseA|RéponseB|RéponseC|Bonne\n"
        "7|Quel est le plus long fleuve de France ?|La Seine|La Loire|Le Rhône|B\n"
        "8|Combien de côtés a un hexagone ?|Cinq|Six|Huit|B\n"
        "9|Quelle planète est la plus proche du Soleil ?|Mercure|Vénus|Mars|A\n", "geo.csv")
    assert [c for _, c, _ in _read(french)] == [
        ["La Seine", "*La Loire", "Le Rhône"], ["Cinq", "*Six", "Huit"],
        ["*Mercure", "Vénus", "Mars"]]


def test_choice_columns_with_a_remark_after_their_number_are_all_read(tmp_path):
    """A quiz tool's template: a remark after each column's number ("(optional)", "- up
    to 60 characters"), the answer by number from 1 (as the columns are numbered), two
    numbers for two right choices, the optional columns empty in some rows."""
    remarks = spreadsheet.read(
        "No.,Question text,Answer 1,Answer 2,Answer 3 (optional),Answer 4 (optional),"
        "Seconds,Right answer(s) (numbers only)\n"
        "1,Welche Farbe hat Chlorophyll?,Grün,Rot,Blau,Gelb,20,1\n"
        "2,Wie viele Kontinente gibt es?,Fünf,Sieben,,,20,2\n"
        "3,Welche Zahlen sind gerade?,Drei,Vier,Sechs,,30,\"2, 3\"\n", "quiz.csv")
    assert _read(remarks) == [
        ("Welche Farbe hat Chlorophyll?", ["*Grün", "Rot", "Blau", "Gelb"], ""),
        ("Wie viele Kontinente gibt es?", ["Fünf", "*Sieben"], ""),
        ("Welche Zahlen sind gerade?", ["Drei", "*Vier", "*Sechs"], "")]
    dashed = spreadsheet.read(
        "Question - up to 100 characters,Answer 1 - up to 60 characters,"
        "Answer 2 - up to 60 characters,Answer 3 - up to 60 characters,Time,"
        "Correct answer(s) - one or more\n"
        "Which gas do plants take in?,Oxygen,Carbon dioxide,Helium,20,2\n"
        "Which metal is liquid at room temperature?,Iron,Gold,Mercury,20,3\n", "kq.csv")
    assert [c for _, c, _ in _read(dashed)] == [
        ["Oxygen", "*Carbon dioxide", "Helium"], ["Iron", "Gold", "*Mercury"]]


def test_numbered_columns_that_no_answer_names_are_no_choices(tmp_path, cli):
    """An address book: Address_1 and Address_2 are a run of texts, but no column names
    one of them, so it is no bank (and says so) rather than questions made up."""
    bank = _write(tmp_path, "contacts.csv", (
        "Name,Address_1,Address_2,City\n"
        "Ana Ruiz,Calle Mayor 3,2º B,Madrid\n"
        "Luis Gil,Rua Nova 8,Casa 2,Vigo\n"
        "Eva Sanz,Via Roma 1,Scala C,Roma\n"))
    done = _run(cli, tmp_path, bank)
    assert done.status == 1
    assert "names no question and choice columns" in done.err


def test_a_table_beside_a_bank_never_joins_it(tmp_path, cli):
    """A list of records whose letter column could name adjacent texts is read as a bank
    only where no list of questions is there: beside one, it is left alone."""
    bank = _write(tmp_path, "kurs.json", json.dumps({
        "questions": [
            {"question": f"Was ergibt {n} mal {n}?", "options": [str(n * n), str(n + n)],
             "answer": 0} for n in (3, 4, 5)],
        "results": [{"student": s, "course": "Mathe", "teacher": "Kern", "grade": g}
                    for s, g in (("Ida", "A"), ("Jan", "B"), ("Lea", "C"), ("Tom", "B"))]}))
    done = _run(cli, tmp_path, bank)
    assert done.status == 0, done.err
    assert "read 3 question objects: prompt 'question'; choices 'options'; answer 'answer'" \
        in done.err
    assert len(written_questions(tmp_path / "out")) == 3


def test_sentences_after_the_answer_named_for_a_hint_are_no_explanation(tmp_path):
    reading = spreadsheet.read(
        "frage;a;b;c;richtig;Hinweis;Quelle\n"
        "Welcher Fluss fließt durch Wien?;Donau;Rhein;Elbe;A;Denk an den Walzer von Strauss;"
        "Atlas der Welt, Seite 12 und 13\n"
        "Welcher Berg ist der höchste der Alpen?;Eiger;Mont Blanc;Matterhorn;B;"
        "Er liegt an der Grenze zu Italien;Atlas der Welt, Seite 40 und 41\n", "erdkunde.csv")
    assert [e for _, _, e in _read(reading)] == ["", ""]


def test_the_value_led_columns_are_linear_in_the_rows():
    def bank(n: int) -> str:
        return "Num;Tema;Texto_Pregunta;Opcion_A;Opcoin_B;Opcion_C;Resp_Correcta;Nota\n" + \
            "".join(f"{k};T{k % 7};¿Cuál es el número {k}?;{k};{k + 1};{k + 2};"
                    f"{'ABC'[k % 3]};Es el {k} porque sí y nada más.\n" for k in range(n))

    assert sum(len(s.items) for s in spreadsheet.read(bank(10), "b.csv").sections) == 10
    short = least_cpu(lambda: spreadsheet.read(bank(1_000), "b.csv"))
    long = least_cpu(lambda: spreadsheet.read(bank(4_000), "b.csv"))
    assert long < 8 * max(short, 0.02), (short, long)


# --- JavaScript and TypeScript: the data is the receiver of a call -------------------------------

_MAPPED = """\
import type { Soal } from './types';

function ubah(q: any): Soal {
  return { id: q.id, question: q.teks, options: q.pilihan, correctAnswer: q.kunci };
}

export const soal: Soal[] = [
  {
    id: 1,
    question: "Gunung tertinggi di Pulau Jawa adalah?",
    options: ["Merapi", "Semeru", "Bromo", "Slamet"],
    correctAnswer: 1,
    explanation: "Semeru menjulang sekitar 3.676 meter."
  },
  {
    id: 2,
    question: "Ibu kota Provinsi Bali adalah?",
    options: { a: "Singaraja", b: "Denpasar", c: "Tabanan", d: "Gianyar" },
    correctAnswer: "b",
    explanation: "Denpasar menjadi ibu kota sejak 1958."
  },
  {
    id: 3,
    question: "Danau terbesar di Indonesia adalah?",
    options: ["Toba", "Singkarak", "Poso", "Sentani"],
    correctAnswer: 0,
    explanation: "Danau Toba terbentuk dari letusan gunung api purba."
  },
  {
    id: 4,
    question: "Selat yang memisahkan Jawa dan Sumatra adalah?",
    options: { a: "Selat Bali", b: "Selat Makassar", c: "Selat Sunda", d: "Selat Malaka" },
    correctAnswer: "c",
    explanation: "Selat Sunda terletak di antara kedua pulau itu."
  }
].map(ubah);
"""


def test_an_array_mapped_through_a_function_is_read_with_both_choice_shapes(tmp_path, cli):
    done = _run(cli, tmp_path, _write(tmp_path, "soal.ts", _MAPPED))
    assert done.status == 0, done.err
    assert sorted(written_questions(tmp_path / "out")) == sorted([
        ("Gunung tertinggi di Pulau Jawa adalah?", ["Merapi", "*Semeru", "Bromo", "Slamet"],
         "Semeru menjulang sekitar 3.676 meter."),
        ("Ibu kota Provinsi Bali adalah?", ["Singaraja", "*Denpasar", "Tabanan", "Gianyar"],
         "Denpasar menjadi ibu kota sejak 1958."),
        ("Danau terbesar di Indonesia adalah?", ["*Toba", "Singkarak", "Poso", "Sentani"],
         "Danau Toba terbentuk dari letusan gunung api purba."),
        ("Selat yang memisahkan Jawa dan Sumatra adalah?",
         ["Selat Bali", "Selat Makassar", "*Selat Sunda", "Selat Malaka"],
         "Selat Sunda terletak di antara kedua pulau itu."),
    ])


@pytest.mark.parametrize("wrapped", [
    "shuffle([{0}]).slice(0, 10)",
    "[{0}].filter((q) => q.active !== false).sort(() => Math.random() - 0.5)",
    "await Promise.resolve([{0}])",
    "([{0}] as const).map((q, i) => ({{ ...q, n: i }}))",
    "([{0}] satisfies Quiz[]).slice()",
])
def test_a_literal_under_any_chain_of_calls_is_found(wrapped):
    questions = ", ".join(json.dumps({"q": f"Which prime follows {p}?", "choices": [
        str(n), str(n + 1), str(n + 2)], "answer": 0}) for p, n in ((2, 3), (3, 5), (7, 11)))
    source = f"const quiz = {wrapped.format(questions)};\nexport default quiz;\n"
    reading = typescript.read(source, "primes.ts")
    assert [c for _, c, _ in _read(reading)] == [
        ["*3", "4", "5"], ["*5", "6", "7"], ["*11", "12", "13"]], reading.problems


def test_arrays_joined_by_concat_are_one_bank_with_each_question_at_its_line():
    source = (
        "module.exports = [\n"
        "  { text: 'Ποια είναι η πρωτεύουσα της Κρήτης;', opts: ['Χανιά', 'Ηράκλειο'], correct: 1 },\n"
        "  { text: 'Πόσα νησιά έχουν τα Δωδεκάνησα;', opts: ['Δώδεκα', 'Πάνω από δώδεκα'], correct: 1 },\n"
        "].concat([\n"
        "  { text: 'Ποιο βουνό είναι το ψηλότερο;', opts: ['Όλυμπος', 'Ταΰγετος'], correct: 0 },\n"
        "  { text: 'Ποια θάλασσα βρέχει την Αθήνα;', opts: ['Ιόνιο', 'Αιγαίο'] },\n"
        "]);\n")
    reading = typescript.read(source, "ellada.js")
    assert [c for _, c, _ in _read(reading)] == [
        ["Χανιά", "*Ηράκλειο"], ["Δώδεκα", "*Πάνω από δώδεκα"], ["*Όλυμπος", "Ταΰγετος"]]
    refused = [d for d in reading.problems if d.is_error]
    assert [(d.line, d.code) for d in refused] == [(6, "E703")], refused


def test_a_chain_of_many_calls_is_read_in_time_linear_in_its_length():
    def bank(n: int) -> str:
        return "export const q = [" + ",".join(
            f'{{q: "Which is {k}?", o: ["{k}", "x{k}"], a: 0}}' for k in range(n)) + "]" + \
            ".map(f)" * 60 + ";\n"

    assert sum(len(s.items) for s in typescript.read(bank(10), "b.ts").sections) == 10
    short = least_cpu(lambda: typescript.read(bank(1_000), "b.ts"))
    long = least_cpu(lambda: typescript.read(bank(4_000), "b.ts"))
    assert long < 8 * max(short, 0.02), (short, long)


# --- end to end ---------------------------------------------------------------------------------

@pytest.mark.anki
def test_a_spreadsheet_told_by_its_values_arrives_in_anki_as_written(tmp_path, cli):
    done = _run(cli, tmp_path, _write(tmp_path, "oposicion.csv", _SPANISH))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path, source="out")
    cards = {prompt: (deck, sorted(choices), why) for deck, each in decks.items()
             for prompt, choices, why in map(as_read, each)}
    assert cards["¿Qué río pasa por Zaragoza?"] == (
        "NCA::Geografía", ["*El Ebro", "El Duero", "El Miño", "El Tajo"],
        "El Ebro cruza Zaragoza de oeste a este, camino del Mediterráneo.")
    assert cards["Capital del reino visigodo de Toledo, ¿qué ciudad era?"] == (
        "NCA::Historia", ["*Toledo", "León", "Mérida", "Sevilla"],
        "Toledo fue la sede regia de los visigodos desde el siglo VI.")
    assert len(cards) == 4


def test_a_cell_holding_excel_s_error_is_said_at_its_row(tmp_path, cli):
    bank = _write(tmp_path, "hoja.csv", (
        "Pregunta,Opcion_A,Opcion_B,Opcion_C,Correcta\n"
        "¿Qué fórmula suma A1 y B1?,#NAME?,=A1*B1,Ninguna,A\n"
        "¿Qué tecla guarda el libro?,Ctrl+G,Ctrl+P,Ctrl+Z,A\n"))
    done = _run(cli, tmp_path, bank)
    assert done.status == 0, done.err
    assert f"{bank}:2: warning[W720]: choice A '#NAME?': Excel's error for a formula" in \
        done.err
    assert len(written_questions(tmp_path / "out")) == 2


_PRIMES = ", ".join(json.dumps({"q": f"Which prime follows {p}?", "choices": [
    str(n), str(n + 1), str(n + 2)], "answer": 0}) for p, n in ((2, 3), (3, 5), (7, 11)))


@pytest.mark.parametrize("source", [
    "export function getQuestions() {{\n  const seen = new Set();\n  return [{0}];\n}}\n",
    "export const bank = () => [{0}];\n",
    "const load = async function () {{ return shuffle([{0}]); }};\n",
    'new Vue({{ el: "#app", data() {{ return {{ questions: [{0}], picked: null }}; }},\n'
    "  methods: {{ pick(i) {{ this.picked = i; }} }} }});\n",
    'export default {{ title: "Primes", questions: [{0}].map(withIds) }};\n',
])
def test_a_literal_a_function_returns_or_a_nested_call_holds_is_found(source):
    reading = typescript.read(source.format(_PRIMES), "primes.js")
    assert [c for _, c, _ in _read(reading)] == [
        ["*3", "4", "5"], ["*5", "6", "7"], ["*11", "12", "13"]], reading.problems


def test_choices_shuffled_by_a_call_inside_a_question_are_its_choices():
    reading = typescript.read(
        "export const quiz = [\n"
        "  { q: 'Welcher Planet ist der größte?', o: shuffle(['Jupiter', 'Mars', 'Venus']),\n"
        "    answer: 'Jupiter' },\n"
        "  { q: 'Welcher Planet hat Ringe?', o: ['Merkur', 'Saturn'].sort(), answer: 'Saturn' },\n"
        "];\n", "planeten.ts")
    assert [c for _, c, _ in _read(reading)] == [
        ["*Jupiter", "Mars", "Venus"], ["Merkur", "*Saturn"]], reading.problems


def test_a_function_that_only_builds_its_result_is_no_bank():
    """A helper whose objects hold the parameter's fields, not data, is not read (and
    names no question): only the literal array beside it is."""
    reading = typescript.read(
        "function adapt(q) {\n  if (q.soal) {\n    return { question: q.soal, options: "
        "q.pilihan, answer: q.kunci };\n  }\n  return q;\n}\n"
        f"export const soal = [{_PRIMES}].map(adapt);\n", "soal.js")
    assert len(_read(reading)) == 3
    assert not [d for d in reading.problems if d.is_error], reading.problems
