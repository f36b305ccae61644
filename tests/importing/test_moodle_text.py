"""Moodle banks arrive whole (issue 46, round 4): the letters an author typed into every
answer are left out and said once, math reaches the card as MathJax, and a question's text
reads on the card as Moodle shows it in a browser (entities escaped twice, Markdown's
punctuation). Every bank here is written for the test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import built_and_imported, written_questions
from growth import least_cpu


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "source"))
    assert done.status in (0, 1), done.err
    assert "Traceback" not in done.err, done.err
    return bank, done


def _xml(*questions: str) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + "".join(questions) + "</quiz>\n"


def _multichoice(prompt: str, *answers: tuple[str, int], feedback: str = "",
                 cdata: bool = True) -> str:
    wrap = (lambda t: f"<![CDATA[{t}]]>") if cdata else (lambda t: t)
    shown = "".join(f'<answer fraction="{f}" format="html"><text>{wrap(t)}</text></answer>\n'
                    for t, f in answers)
    general = (f'<generalfeedback format="html"><text>{wrap(feedback)}</text>'
               "</generalfeedback>\n" if feedback else "")
    return ('<question type="multichoice">\n<name><text>q</text></name>\n'
            f'<questiontext format="html"><text>{wrap(prompt)}</text></questiontext>\n'
            f"{general}{shown}</question>\n")


# --- 1. letters typed into every answer ----------------------------------------------------------

LABELLED = [
    # (how the letters are written, the answers as typed)
    ("a. b. c.", ["a. Oslo", "b. Bergen", "c. Tromsø"]),
    ("A) B) C)", ["A) Oslo", "B) Bergen", "C) Tromsø"]),
    ("(a) (b) (c)", ["<p>(a) Oslo</p>", "<p>(b) Bergen</p>", "<p>(c) Tromsø</p>"]),
    ("a- b- c-", ["a- Oslo", "b- Bergen", "c- Tromsø"]),
    ("a.- b.- c.-", ["a.- Oslo", "b.- Bergen", "c.- Tromsø"]),
    ("1) 2) 3)", ["1) Oslo", "2) Bergen", "3) Tromsø"]),
    ("bold A. B. C.", ["<b>A.</b> Oslo", "<b>B.</b> Bergen", "<b>C.</b> Tromsø"]),
]


@pytest.mark.parametrize("answers", [c[1] for c in LABELLED], ids=[c[0] for c in LABELLED])
def test_letters_typed_into_every_moodle_answer_are_left_out_and_said_once(tmp_path, cli,
                                                                            answers):
    """Moodle numbers the answers itself, and so does the card: "a. Oslo" under Moodle's
    own "a." is noise. Two such questions in one file: one W716, naming how many."""
    question = _multichoice("Which city is the capital of Norway?",
                            *zip(answers, (100, 0, 0)))
    bank, done = _import(cli, tmp_path, "towns.xml", _xml(question, question.replace(
        "capital of Norway", "capital, again")))
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "source")] == [
        ["*Oslo", "Bergen", "Tromsø"]] * 2
    assert done.err.count("[W716]") == 1, done.err
    assert f"{bank}:3: warning[W716]: every answer of 2 questions starts with its own " \
           "letter" in done.err, done.err


@pytest.mark.parametrize("answers", [
    ["a. Oslo", "c. Bergen", "b. Tromsø"],  # not in order
    ["a. Oslo", "Bergen", "c. Tromsø"],  # not every answer
    ["a. Oslo", "b) Bergen", "c. Tromsø"],  # not written alike
    ["A. Lincoln", "Grant"],  # a name, not a label
], ids=["out of order", "one without", "mixed styles", "an initial"])
def test_answers_that_only_seem_lettered_keep_their_text(tmp_path, cli, answers):
    """Only letters in order on every answer, written alike, are labels."""
    rights = (100,) + (0,) * (len(answers) - 1)
    _, done = _import(cli, tmp_path, "towns.xml", _xml(_multichoice(
        "Which one?", *zip(answers, rights))))
    assert "[W716]" not in done.err, done.err
    [(_, choices, _)] = written_questions(tmp_path / "source")
    assert [c.lstrip("*") for c in choices] == answers


def test_letters_that_name_parts_of_a_reading_passage_are_kept(tmp_path, cli):
    """A passage (a description, or a question's own text) headed "A. Ada Lovelace",
    "B. Alan Turing": answers "A. Ada Lovelace" name those parts, and the letter is
    content, not Moodle's numbering. Answers lettered without such a passage lose
    their letters as before."""
    passage = ("<h4>A. Ada Lovelace</h4><p>She wrote the first program.</p>"
               "<h4>B. Alan Turing</h4><p>He described a universal machine.</p>")
    bank, done = _import(cli, tmp_path, "reading.gift", f"::Passage::[html]{passage}\n\n"
                         "::R1:: Who wrote a program first? {\n=A. Ada Lovelace\n"
                         "~B. Alan Turing\n}\n\n::R2:: Which is a prime? {\n~a) 4\n=b) 7\n}\n")
    assert [q[1] for q in written_questions(tmp_path / "source")] == [
        ["*A. Ada Lovelace", "B. Alan Turing"], ["4", "*7"]]
    assert f"{bank}:8: warning[W716]: every answer of 1 question " in done.err, done.err
    xml = _xml(_multichoice(f"{passage}<p>Who described the machine?</p>",
                            ("A. Ada Lovelace", 0), ("B. Alan Turing", 100)))
    _, done = _import(cli, tmp_path / "xml", "reading.xml", xml)
    assert [q[1] for q in written_questions(tmp_path / "xml" / "source")] == [
        ["A. Ada Lovelace", "*B. Alan Turing"]]
    assert "[W716]" not in done.err, done.err


def test_letters_typed_into_gift_answers_are_left_out(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "towns.gift", "::T1:: Capital of Norway? {\n"
                         "=A) Oslo\n~B) Bergen\n~C) Tromsø\n}\n")
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "source") == [("Capital of Norway?",
                                                ["*Oslo", "Bergen", "Tromsø"], "")]
    assert f"{bank}:1: warning[W716]" in done.err, done.err


# --- 2. math -----------------------------------------------------------------------------------

def test_dollar_math_becomes_mathjax_and_math_is_kept_as_written(tmp_path, cli):
    """$$…$$ (Moodle's TeX filter) in running text is inline math, alone in its paragraph
    display math; inside math, backslashes, underscores, "*" and "&" arrive as written."""
    _, done = _import(cli, tmp_path, "m.xml", _xml(_multichoice(
        "<p>Let $$x_{1} = \\frac{a_i}{b_j}$$ and \\(y_1 = 2*a*b\\).</p>"
        "<p>$$\\sum_{k=1}^{n} k_k$$</p>",
        ("$$\\sqrt{a_i}$$", 100), ("\\[ \\begin{array}{ll}a &amp; b \\\\ c &amp; d"
                                        "\\end{array} \\]", 0),
        feedback="Since $$a_i &lt; b_i$$ holds.")))
    assert done.status == 0, done.err
    [(prompt, choices, explanation)] = written_questions(tmp_path / "source")
    assert prompt == ("Let \\(x_{1} = \\frac{a_i}{b_j}\\) and \\(y_1 = 2*a*b\\).\n\n"
                      "\\[\\sum_{k=1}^{n} k_k\\]")
    assert choices == ["*\\(\\sqrt{a_i}\\)",
                       "\\[ \\begin{array}{ll}a & b \\\\ c & d\\end{array} \\]"]
    assert explanation == "Since \\(a_i < b_i\\) holds."


def test_dollar_math_in_gift_becomes_mathjax(tmp_path, cli):
    """An answer is one line on the card: its math is inline even when it is all the
    answer holds."""
    _, done = _import(cli, tmp_path, "m.gift", "Which is $$\\frac\\{1\\}\\{2\\}$$ of 4? {\n"
                      "=$$2$$\n~$$x_1$$ apples\n}\n")
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "source") == [
        ("Which is \\(\\frac{1}{2}\\) of 4?", ["*\\(2\\)", "\\(x_1\\) apples"], "")]


@pytest.mark.anki
def test_math_labels_and_entities_arrive_on_real_cards(tmp_path, cli):
    """Import, build and import into a real collection: the card's HTML holds the math as
    MathJax reads it, the letters typed into the answers are gone, and an entity written
    twice shows as the browser showed it."""
    _, done = _import(cli, tmp_path, "algebra.xml", _xml(_multichoice(
        "<p>If $$x_{n+1} = \\frac{x_n}{2}$$ and x_0 = 8, what is \\(x_{2}\\)?</p>",
        ("a. \\(2\\)", 100), ("b. \\(4\\)", 0), ("c. $$x_0 \\cdot 2$$", 0),
        feedback="Halve twice: 8 &amp;gt; 4 &amp;gt; 2.")))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path)
    [card] = [c for cards in decks.values() for c in cards]
    prompt, choices = card.fields["Prompt"], card.fields["Choices"]
    assert "\\(x_{n+1} = \\frac{x_n}{2}\\)" in prompt and "\\(x_{2}\\)" in prompt, prompt
    assert "x_0 = 8" in prompt and "<em>" not in prompt, prompt
    texts = re.findall(r'<span class="nca-text">(.*?)</span>', choices)
    assert sorted(texts) == ["\\(2\\)", "\\(4\\)", "\\(x_0 \\cdot 2\\)"], choices
    assert "8 &amp;gt; 4 &amp;gt; 2" in card.fields["Explanation"], card.fields["Explanation"]


# --- 3. what the browser shows -----------------------------------------------------------------

def test_text_reads_as_the_browser_shows_the_html(tmp_path, cli):
    """An entity escaped once in the XML is read by the browser (x &gt; 0 shows "x > 0");
    escaped twice inside CDATA the browser shows the entity itself ("&lt;b&gt;");
    Markdown's punctuation shows as typed, never as emphasis, a link or code."""
    _, done = _import(cli, tmp_path, "t.xml", _xml(
        _multichoice("When is x &amp;gt; 0 &amp;amp;&amp;amp; y&amp;#39;s _flag_ set?",
                     ("always", 100), ("never", 0), cdata=False),
        _multichoice("<p>Which tag is &amp;lt;b&amp;gt;, written&amp;nbsp;so?</p>",
                     ("<p>*bold* and [a](b)</p>", 100), ("`code` in C:\\temp", 0))))
    assert done.status == 0, done.err
    first, second = written_questions(tmp_path / "source")
    assert first[0] == "When is x > 0 && y's \\_flag\\_ set?"
    assert second[0] == "Which tag is \\&lt;b\\&gt;, written\\&nbsp;so?"
    assert second[1] == ["*\\*bold\\* and [a\\](b)", "\\`code\\` in C:\\\\temp"]


def test_a_line_starting_with_a_markdown_mark_stays_a_line_of_text(tmp_path, cli):
    """A paragraph of Moodle's HTML that starts "- ", "+ ", "# " or "> " is text in the
    browser; in Markdown it would be a list, a heading or a quote (and "- " a choice of
    the question file). Its mark is escaped; a "-" inside a line is left alone."""
    _, done = _import(cli, tmp_path, "lines.xml", _xml(_multichoice(
        "<p>Given:</p><p>- rows = 3<br>+ cols = 4</p><p># cells &gt; 10</p>"
        "<p>&gt; read this</p><p>rows - cols?</p>", ("- 7", 100), ("# 12", 0),
        feedback="<p>- sum, not product</p>")))
    assert done.status == 0, done.err
    [(prompt, choices, explanation)] = written_questions(tmp_path / "source")
    assert prompt == ("Given:\n\n\\- rows = 3\n\\+ cols = 4\n\n\\# cells > 10\n\n"
                      "\\> read this\n\nrows - cols?")
    assert choices == ["*\\- 7", "\\# 12"]
    assert explanation == "\\- sum, not product"


def test_small_headings_are_their_text_not_tags(tmp_path, cli):
    """<h5> and <h6> are headings a browser shows like <h4>'s: their text, on a line of
    its own, never the tags written out (bank.html_to_markdown)."""
    _, done = _import(cli, tmp_path, "h.xml", _xml(_multichoice(
        "<h5>Part A</h5><p>Which?</p><h6>small print</h6>", ("one", 100), ("two", 0))))
    assert done.status == 0, done.err
    [(prompt, _, _)] = written_questions(tmp_path / "source")
    assert prompt == "Part A\n\nWhich?\n\nsmall print"


def test_plain_text_shows_its_entities_as_typed(tmp_path, cli):
    """Moodle shows text of format plain_text as typed: "&lt;" stays "&lt;"."""
    question = _multichoice("Which one writes &amp;lt; in plain text?", ("this", 100),
                            ("that", 0), cdata=False).replace('format="html"><text>Which',
                                                               'format="plain_text"><text>Which')
    _, done = _import(cli, tmp_path, "plain.xml", _xml(question))
    assert done.status == 0, done.err
    [(prompt, _, _)] = written_questions(tmp_path / "source")
    assert prompt == "Which one writes \\&lt; in plain text?"


@pytest.mark.anki
def test_punctuation_and_entities_show_on_the_card_as_typed(tmp_path, cli):
    _, done = _import(cli, tmp_path, "t.xml", _xml(_multichoice(
        "<p>Is &amp;lt;i&amp;gt; _this_ [x](y) *so*?</p><p>- a line</p><p># not a heading</p>",
        ("yes", 100), ("no", 0))))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path)
    [card] = [c for cards in decks.values() for c in cards]
    prompt = card.fields["Prompt"]
    assert "&amp;lt;i&amp;gt; _this_ [x](y) *so*?" in prompt, prompt
    assert "<p>- a line</p>" in prompt and "<p># not a heading</p>" in prompt, prompt


# --- linear time -------------------------------------------------------------------------------

GROWING = {
    "unclosed openers": "\\( $$ \\[ a_b ",
    "closed math": "$$x_1$$ \\(y\\) <b>z</b> ",
    "punctuation": "*_`]\\ &amp;lt; ~~ ",
}


@pytest.mark.parametrize("shape", GROWING)
def test_moodle_text_is_read_in_time_linear_in_its_size(shape):
    """Four times the text, about four times the CPU time: an opener never closed looks
    its closer up once."""
    from nca_anki.importing import moodle_text

    unit = GROWING[shape]
    short = least_cpu(lambda: moodle_text.moodle_html(unit * 2_500))
    long = least_cpu(lambda: moodle_text.moodle_html(unit * 10_000))
    assert long < 8 * max(short, 0.02), (shape, short, long)
