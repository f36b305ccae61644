"""GIFT and Moodle XML as damaged and hostile files come (issue 45, items 3, 4 and 17a):
each question is read right or is an error at its own line; a damaged one never swallows
the next; an answer's credit means what it means in Moodle; every line a message names is
the element's true line; a hostile document is refused at its line, never a traceback or
exit 3. Every bank here is written for the test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import as_read, built_and_imported, written_questions


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _imported(cli, tmp_path: Path, name: str, text: str):
    bank = _write(tmp_path, name, text)
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status in (0, 1), done.err  # never 3, a bug of ours
    assert "Traceback" not in done.err and "internal error" not in done.err, done.err
    return bank, done


def _said(done, bank: Path) -> list[str]:
    """Each diagnostic as "line: code", by line."""
    found = [(int(m[1]), m[2]) for m in re.finditer(
        rf"^{re.escape(str(bank))}:(\d+): (?:error|warning)\[(\w+)\]", done.err, re.M)]
    return [f"{line}: {code}" for line, code in sorted(found)]


# --- item 3: GIFT whose structure is damaged ---------------------------------------------------

GIFT_DAMAGE = [
    # (what, the bank, the diagnostics "line: code", the questions still converted)
    ("an unclosed brace, then a titled question after a blank line",
     "::Q6:: First one? {\n=a\n~b\n\n::Q7:: Next one? {\n=c\n~d\n}\n",
     ["1: E707"], [("Next one?", ["*c", "d"])]),
    ("an unclosed brace, then a titled question with no blank line",
     "::Q6:: First one? {\n=a\n~b\n::Q7:: Next one? {=c ~d}\n\n::Q8:: Third? {=e ~f}\n",
     ["1: E707"], [("Next one?", ["*c", "d"]), ("Third?", ["*e", "f"])]),
    ("an unclosed brace, then an untitled question of two lines",
     "First one? {\n=a\n~b\nWhich is\nthe next one? {\n=c\n~d\n}\n",
     ["1: E707"], [("Which is\nthe next one?", ["*c", "d"])]),
    ("an unclosed brace on the third line of its question, at the end of the file",
     "::Q1:: Fine? {=y ~n}\n\n::Q2::\nWhich one\n{\n=c\n~d\n",
     ["5: E707"], [("Fine?", ["*y", "n"])]),
    ("a category line inside unclosed answers",
     "::Q1:: A? {\n=a\n~b\n$CATEGORY: $course$/Two\n::Q2:: B? {=c ~d}\n",
     ["1: E707"], [("B?", ["*c", "d"])]),
    ("a next question's title inside answers, its own '{' missing",
     "::Q6:: First? {\n=a\n~b\n::Q7:: Next one?\n=c\n~d\n}\n\n::Q8:: Third? {=e ~f}\n",
     ["1: E707", "7: E707"], [("Third?", ["*e", "f"])]),
    ("a '}' in the question's text, not escaped",
     "::Q1:: Which is bigger, a} or b? {=a ~b}\n\n::Q2:: B? {=c ~d}\n",
     ["1: E707"], [("B?", ["*c", "d"])]),
    ("a '}' that closes answers never opened, then a question without a blank line",
     "::Q1:: A?\n=a\n~b\n}\nB? {=c ~d}\n",
     ["4: E707"], [("B?", ["*c", "d"])]),
    ("a '{' inside answers on their own line",
     "::Q1:: A? {=a ~b {c}\n\n::Q2:: B? {=c ~d}\n",
     ["1: E707"], [("B?", ["*c", "d"])]),
    ("a '}' after the answers have closed",
     "::Q1:: A? {=a ~b}}\n::Q2:: B? {=c ~d}\n",
     ["1: E707"], [("B?", ["*c", "d"])]),
    ("two questions on one line",
     "::Q1:: A? {=a ~b} ::Q2:: B? {=c ~d}\n::Q3:: C? {=e ~f}\n",
     ["1: E707"], [("C?", ["*e", "f"])]),
    ("a title whose '::' never closes",
     "::Q1 What? {=a ~b}\n\n::Q2:: B? {=c ~d}\n",
     ["1: E707"], [("B?", ["*c", "d"])]),
    ("a title whose '::' closes inside the answers (std::vector)",
     "::Q1 Which? {=std::vector ~std::list}\n\n::Q2:: B? {=c ~d}\n",
     ["1: E707"], [("B?", ["*c", "d"])]),
    ("no blank lines between whole questions",
     "A? {=a ~b}\nB? {=c ~d}\n::C:: C? {=e ~f}\n",
     [], [("A?", ["*a", "b"]), ("B?", ["*c", "d"]), ("C?", ["*e", "f"])]),
    ("empty braces in the text, then answers: two sets",
     "::Q1:: Which set is {}? {=a ~b}\n\n::Q2:: B? {=c ~d}\n",
     ["1: E702"], [("B?", ["*c", "d"])]),
    ("'::' inside answers and a title",
     "::Q\\:1:: Which C++ type grows? {=std::vector ~std::array}\n",
     [], [("Which C++ type grows?", ["*std::vector", "std::array"])]),
    ("escaped braces, marks and hashes",
     "::E:: What is \\{x\\} \\= y? {=\\=a \\~ b ~c \\# d ~\\{e\\}}\n",
     [], [("What is {x} = y?", ["*=a ~ b", "c # d", "{e}"])]),
]


@pytest.mark.parametrize("text, says, converted", [c[1:] for c in GIFT_DAMAGE],
                         ids=[c[0] for c in GIFT_DAMAGE])
def test_damaged_gift_is_an_error_at_its_line_and_the_rest_is_read(tmp_path, cli, text, says,
                                                                   converted):
    bank, done = _imported(cli, tmp_path, "bank.gift", text)
    assert _said(done, bank) == says, done.err
    assert done.status == (1 if any(s.endswith(("E702", "E703", "E707")) for s in says)
                           else 0)
    assert written_questions(tmp_path / "out", explained=False) == converted


def test_the_unclosed_brace_says_where_and_what_to_do(tmp_path, cli):
    bank, done = _imported(cli, tmp_path, "bank.gift", GIFT_DAMAGE[0][1])
    assert (f"{bank}:1: error[E707]: the answers' '{{' never closes before the next question "
            "begins at line 5; the question was not converted (close its answers with '}')"
            ) in done.err
    assert done.err.splitlines()[-1].startswith(
        "read 2 questions in 1 file: 1 converted, 1 refused")


# --- item 4: credit, in GIFT and in Moodle XML ------------------------------------------------

GIFT_CREDIT = [
    ("partial credit beside '=': counted wrong, said at its line",
     "::W:: Which? {\n=a\n~%50%b\n~%-25%c\n~d\n}\n", ["3: W702"], ["*a", "b", "c", "d"]),
    ("'=%100%' is full credit", "::W:: Which? {=%100%a ~b}\n", [], ["*a", "b"]),
    ("halves without '=': both right", "::W:: Which? {~%50%a ~%50%b ~%-100%c}\n", [],
     ["*a", "*b", "c"]),
    ("thirds as Moodle writes them", "::W:: Which? {~%33.33333%a ~%33.33333%b "
     "~%33.33333%c ~%-100%d}\n", [], ["*a", "*b", "*c", "d"]),
    ("'%100.0%' and a decimal comma", "::W:: Which? {~%100.0%a ~%0,0%b}\n", [], ["*a", "b"]),
    ("weights that do not add up to 100", "::W:: Which? {~%50%a ~%25%b ~c}\n", ["1: W702"],
     ["*a", "*b", "c"]),
    ("two '=' answers: the card asks for both", "::W:: Which? {=a =b ~c}\n", ["1: W702"],
     ["*a", "*b", "c"]),
]


@pytest.mark.parametrize("text, says, choices", [c[1:] for c in GIFT_CREDIT],
                         ids=[c[0] for c in GIFT_CREDIT])
def test_gift_weights_mean_what_moodle_grades(tmp_path, cli, text, says, choices):
    bank, done = _imported(cli, tmp_path, "bank.gift", text)
    assert done.status == 0, done.err
    assert _said(done, bank) == says, done.err
    assert written_questions(tmp_path / "out", explained=False) == [("Which?", choices)]


def test_gift_partial_credit_warning_names_the_answer(tmp_path, cli):
    bank, done = _imported(cli, tmp_path, "bank.gift", GIFT_CREDIT[0][1])
    assert (f"{bank}:3: warning[W702]: the answer 'b' gives 50% (partial credit) in a "
            "question with one right answer: the card counts it wrong; only an answer of 100% "
            "is right") in done.err


@pytest.mark.parametrize("weight", ["%fifty%", "%150%", "%-101%", "%%", "%5 0%", "%nan%",
                                    "%1e999%", "%٥٠%"])
def test_a_gift_weight_that_is_no_percentage_is_an_error_at_its_line(tmp_path, cli, weight):
    bank, done = _imported(cli, tmp_path, "bank.gift", "::W:: Which? {\n=a\n~" + weight +
                           "b\n}\n\n::V:: Next? {=c ~d}\n")
    assert done.status == 1
    assert f"{bank}:3: error[E703]: the weight {weight!r} of an answer is no number from " \
        "-100 to 100" in done.err
    assert written_questions(tmp_path / "out", explained=False) == [("Next?", ["*c", "d"])]


def _moodle(*questions: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + "".join(questions) +
            "</quiz>\n")


def _multichoice(single: str | None, *fractions: str, prompt: str = "Which?") -> str:
    answers = "".join(f'    <answer fraction="{f}"><text>{chr(97 + k)}</text></answer>\n'
                      for k, f in enumerate(fractions))
    single_line = f"    <single>{single}</single>\n" if single is not None else ""
    return (f'  <question type="multichoice">\n    <questiontext format="html"><text>{prompt}'
            f"</text></questiontext>\n{single_line}{answers}  </question>\n")


MOODLE_CREDIT = [
    ("partial credit in a single-answer question: wrong, said at its line",
     ("true", "100", "50", "0"), ["7: W702"], ["*a", "b", "c"]),
    ("single is Moodle's default", (None, "100", "50", "0"), ["6: W702"], ["*a", "b", "c"]),
    ("100.0 and a negative penalty", ("true", "100.0", "-33.33333", "0"), [], ["*a", "b", "c"]),
    ("several answers: the positive ones", ("false", "50", "50", "-100"), [],
     ["*a", "*b", "c"]),
    ("several answers in thirds", ("false", "33.33333", "33.33333", "33.33334", "-100"), [],
     ["*a", "*b", "*c", "d"]),
    ("several answers that do not add up", ("false", "50", "25", "0"), ["3: W702"],
     ["*a", "*b", "c"]),
    ("'0' as single means several, as in Moodle", ("0", "50", "50", "0"), [],
     ["*a", "*b", "c"]),
    ("two of full credit in a single-answer question", ("true", "100", "100", "0"),
     ["3: W702"], ["*a", "*b", "c"]),
]


@pytest.mark.parametrize("question, says, choices", [c[1:] for c in MOODLE_CREDIT],
                         ids=[c[0] for c in MOODLE_CREDIT])
def test_moodle_fractions_mean_what_moodle_grades(tmp_path, cli, question, says, choices):
    bank, done = _imported(cli, tmp_path, "bank.xml", _moodle(_multichoice(*question)))
    assert done.status == 0, done.err
    assert _said(done, bank) == says, done.err
    assert written_questions(tmp_path / "out", explained=False) == [("Which?", choices)]


def test_a_single_answer_question_with_only_partial_credit_is_refused(tmp_path, cli):
    bank, done = _imported(cli, tmp_path, "bank.xml", _moodle(
        _multichoice("true", "50", "50", "0"), _multichoice("true", "100", "0", prompt="Next?")))
    assert done.status == 1
    assert f"{bank}:3: error[E703]: no answer has the fraction 100; not converted" in done.err
    assert written_questions(tmp_path / "out", explained=False) == [("Next?", ["*a", "b"])]


@pytest.mark.parametrize("fraction", ["abc", "", "nan", "inf", "1e999", "150", "-100.5",
                                      "50%", "1_0", "٥٠", "1" * 5000])
def test_a_malformed_fraction_is_an_error_at_its_answer(tmp_path, cli, fraction):
    bank, done = _imported(cli, tmp_path, "bank.xml", _moodle(
        _multichoice("true", "100", fraction), _multichoice("true", "100", "0", prompt="Next?")))
    assert done.status == 1
    assert f"{bank}:7: error[E703]: an answer's fraction " in done.err
    assert "is no number from -100 to 100" in done.err
    assert len(done.err) < 2_000  # the value is quoted short
    assert written_questions(tmp_path / "out", explained=False) == [("Next?", ["*a", "b"])]


# --- item 17a: every line a Moodle XML message names is the element's own ---------------------

_TAIL = """  <question type="matching">
    <questiontext><text>Match them.</text></questiontext>
  </question>
  <question type="multichoice">
    <questiontext><text>Which?</text></questiontext>
    <answer fraction="100"><text>a</text></answer>
    <answer fraction="half"><text>b</text></answer>
  </question>
</quiz>
"""

LINE_DOCUMENTS = {
    "a comment": '<quiz>\n  <!-- <question type="essay">\n  old -->\n',
    "a processing instruction": '<?xml version="1.0"?>\n<?tool <question type="x">\n  ?>\n'
                                '<quiz>\n',
    "a CDATA section": '<quiz>\n  <question type="description"><questiontext><text><![CDATA[\n'
                       '<question type="essay">\n<question\n]]></text></questiontext>\n'
                       '  </question>\n',
    "a DOCTYPE": '<?xml version="1.0"?>\n<!DOCTYPE quiz [\n  <!ELEMENT quiz ANY>\n'
                 '  <!-- <question type="x"> -->\n]>\n<quiz>\n',
    "all of them": '<?xml version="1.0"?>\n<!DOCTYPE quiz [\n<!-- <question -->\n]>\n'
                   '<?pi <question?>\n<quiz><!--\n<question\n--><question type="category">'
                   '<category><text><![CDATA[<question\n]]>Top</text></category></question>\n',
}


@pytest.mark.parametrize("head", LINE_DOCUMENTS.values(), ids=LINE_DOCUMENTS.keys())
def test_moodle_messages_name_the_element_s_own_line(tmp_path, cli, head):
    text = head + _TAIL
    matching = text.count("\n", 0, text.index('<question type="matching">')) + 1
    half = text.count("\n", 0, text.index('fraction="half"')) + 1
    bank, done = _imported(cli, tmp_path, "bank.xml", text)
    assert done.status == 1
    errors = [s for s in _said(done, bank) if s.endswith(("E702", "E703"))]
    assert errors == [f"{matching}: E702", f"{half}: E703"], done.err


# --- hostile Moodle XML: refused at its line --------------------------------------------------

_BOMB = ('<?xml version="1.0"?>\n<!DOCTYPE quiz [\n<!ENTITY a "aaaaaaaaaa">\n' +
         "".join(f'<!ENTITY {chr(98 + k)} "{("&" + chr(97 + k) + ";") * 10}">\n'
                 for k in range(8)) + "]>\n<quiz>&i;</quiz>\n")

HOSTILE = [
    ("a billion laughs", _BOMB, "3: E701", "it declares an entity ('a')"),
    ("an external entity", '<?xml version="1.0"?>\n<!DOCTYPE quiz [\n<!ENTITY x SYSTEM '
     '"file:///etc/passwd">\n]>\n<quiz>&x;</quiz>\n', "3: E701", "it declares an entity ('x')"),
    ("a parameter entity", '<!DOCTYPE quiz [\n<!ENTITY % p SYSTEM "http://example.invalid/p">'
     '\n%p;\n]>\n<quiz/>\n', "2: E701", "it declares an entity ('p')"),
    ("an entity of an external DTD", '<!DOCTYPE quiz SYSTEM "http://example.invalid/q.dtd">\n'
     '<quiz>\n<question type="multichoice"><questiontext><text>&secret;</text></questiontext>'
     '</question>\n</quiz>\n', "3: E701", "the entity &secret; is defined outside the file"),
    ("elements nested 100,000 deep", "<quiz>\n" + "<b>" * 100_000 + "</b>" * 100_000 +
     "</quiz>\n", "2: E701", "elements nested more than 64 deep"),
    ("a type of a million letters", '<quiz>\n<question type="' + "m" * 1_000_000 +
     '"><questiontext><text>Q</text></questiontext></question>\n</quiz>\n', "2: E702",
     "a mmmmmmmmm"),
    ("an embedded file's name of a million letters", '<quiz>\n<question type="multichoice">'
     '<questiontext><text>Q</text><file name="' + "n" * 1_000_000 + '" encoding="base64">'
     "AAAA</file></questiontext></question>\n</quiz>\n", "2: E704", "its embedded file 'nnn"),
    ("a root of a million letters", "<" + "r" * 1_000_000 + "/>", "1: E701",
     "not a Moodle XML bank"),
    ("not XML at all", "<quiz>\n<question type='multichoice'>\n", "3: E701",
     "not valid XML: no element found"),
]


@pytest.mark.parametrize("text, where, says", [c[1:] for c in HOSTILE],
                         ids=[c[0] for c in HOSTILE])
def test_a_hostile_moodle_document_is_refused_at_its_line(tmp_path, cli, text, where, says):
    bank, done = _imported(cli, tmp_path, "bank.xml", text)
    assert done.status == 1
    assert _said(done, bank) == [where], done.err
    assert says in done.err
    assert len(done.err) < 2_000  # nothing of the document is quoted at length


# --- end to end: into a real collection -------------------------------------------------------

def _cards(tmp_path: Path) -> dict[str, list[str]]:
    """Build tmp_path/out, import its decks into a new collection: each card's prompt and
    its choices as shown, sorted, "*" before each the card counts right."""
    _, decks = built_and_imported(tmp_path, source="out")
    return {prompt: sorted(choices) for cards in decks.values()
            for prompt, choices, _ in map(as_read, cards)}


@pytest.mark.anki
def test_gift_damage_and_weights_arrive_in_anki_as_meant(tmp_path, cli):
    bank, done = _imported(cli, tmp_path, "bank.gift", (
        "::Q6:: Which one is first? {\n=alpha\n~beta\n\n"
        "::Q7:: Which one comes next? {\n=gamma\n~delta\n~%50%epsilon\n}\n\n"
        "::Q8:: Which two are greek? {\n~%50%zeta\n~%50%eta\n~%-100%latin\n}\n"))
    assert done.status == 1
    assert _said(done, bank) == ["1: E707", "8: W702"]
    assert _cards(tmp_path) == {
        "Which one comes next?": ["*gamma", "delta", "epsilon"],
        "Which two are greek?": ["*eta", "*zeta", "latin"]}


@pytest.mark.anki
def test_moodle_partial_credit_arrives_in_anki_as_one_right_answer(tmp_path, cli):
    bank, done = _imported(cli, tmp_path, "bank.xml", _moodle(
        _multichoice("true", "100", "50", "0", prompt="Which is fully right?"),
        _multichoice("false", "50", "50", "-100", prompt="Which two are right?")))
    assert done.status == 0, done.err
    assert _said(done, bank) == ["7: W702"]
    assert _cards(tmp_path) == {"Which is fully right?": ["*a", "b", "c"],
                                "Which two are right?": ["*a", "*b", "c"]}


def test_a_folder_file_whose_only_question_is_damaged_says_so(tmp_path, cli):
    """Found a file in a folder, one damaged question is not "a file without questions"
    (W706, skipped): it is the error at its line, and the summary counts it."""
    folder = tmp_path / "bank"
    _write(folder, "broken.gift", "::B1:: Which? {\n=yes\n~no\n")
    _write(folder, "fine.gift", "::F1:: Which? {=yes ~no}\n")
    done = cli("import", str(folder), "--out", str(tmp_path / "out"))
    assert done.status == 1
    assert "broken.gift:1: error[E707]: the answers' '{' never closes by the end of the " \
        "file" in done.err
    assert "W706" not in done.err
    assert done.err.splitlines()[-1].startswith(
        "read 2 questions in 2 files: 1 converted, 1 refused (question damaged ×1)")


@pytest.mark.parametrize("name, text", [
    ("bank.gift", "::Many:: Which? {=a " + "~b " * 150 + "}\n\n::V:: Next? {=c ~d}\n"),
    ("bank.xml", _moodle(_multichoice("true", "100", *["0"] * 150, prompt="Many?"),
                         _multichoice("true", "100", "0", prompt="Next?"))),
], ids=["GIFT", "Moodle XML"])
def test_more_answers_than_a_card_holds_are_refused_before_they_are_read(tmp_path, cli, name,
                                                                         text):
    bank, done = _imported(cli, tmp_path, name, text)
    assert done.status == 1
    line = 1 if name.endswith(".gift") else 3
    assert f"{bank}:{line}: error[E704]: has 151 answers; at most 10 are supported" in done.err
    assert [q[0] for q in written_questions(tmp_path / "out", explained=False)] == ["Next?"]
