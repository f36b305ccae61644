"""Tests for nca_anki.cards.render: note type, note fields, Markdown, sanitising, template errors."""

from __future__ import annotations

import dataclasses
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from nca_anki.diagnostics import error
from nca_anki.reading.parse import parse
from nca_anki.records import (FIELDS, LABELS, Choice, Layout, MediaFile, Question, Topic)
from nca_anki.cards.render import Renderer
from nca_anki.cards.shuffle import as_written, plan

from conftest import REPO

TEMPLATES = REPO / "templates"
SHOWN = "templates"
TOPIC = Topic(name="Deep Learning", deck_name="NCA::Deep Learning", slug="deep-learning",
              files=())


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer(TEMPLATES, SHOWN)


def make_question(prompt: str = "Which GPU architecture introduced Tensor Cores?",
                  choices: tuple[str, ...] = ("Pascal", "Volta", "Turing"),
                  correct: int = 1, explanation: str = "Volta (2017).",
                  number: int = 4, line: int = 17, path: str = "source/dl-1.txt") -> Question:
    return Question(number=number, prompt=prompt,
                    choices=tuple(Choice(c, i == correct, line + 1 + i)
                                  for i, c in enumerate(choices)),
                    explanation=explanation, path=path, line=line)


def fields_of(renderer: Renderer, question: Question, part: int = 1,
              topic: Topic = TOPIC, layout: Layout | None = None) -> dict[str, str]:
    note, problems = renderer.note(topic, part, question, layout or as_written(question))
    assert problems == ()
    assert note is not None
    return dict(zip(FIELDS, note.fields))


class _Tags(HTMLParser):
    """Every start tag with its attributes, as a browser would see them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


def live_tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser.tags


# --- the note type --------------------------------------------------------------------------

def test_note_type_identity_and_fields(renderer: Renderer) -> None:
    note_type, problems = renderer.note_type()
    assert problems == ()
    assert note_type is not None
    # Literals, never the module's constants: learners' notes update in place only while
    # the note type keeps this id, these field names in this order and this template name
    # (docs/anki-import.md). A change to any of them must fail here first.
    assert note_type.fields == ("Prompt", "Choices", "Answer", "Explanation", "Source")
    assert (note_type.id, note_type.name, note_type.template_name) == (
        1607392319_001, "NCA Multiple Choice (nca-anki)", "Multiple choice")


def test_front_does_not_give_the_answer_away(renderer: Renderer) -> None:
    note_type, _ = renderer.note_type()
    assert "{{Prompt}}" in note_type.front
    assert "{{Choices}}" in note_type.front
    assert "{{Answer}}" not in note_type.front
    assert "{{Explanation}}" not in note_type.front


def test_back_shows_answer_and_explanation(renderer: Renderer) -> None:
    note_type, _ = renderer.note_type()
    for name in ("{{Prompt}}", "{{Choices}}", "{{Answer}}", "{{Explanation}}", "{{Source}}"):
        assert name in note_type.back, name


def test_css_marks_every_label_on_the_static_back(renderer: Renderer) -> None:
    note_type, _ = renderer.note_type()
    for index, label in enumerate(LABELS, start=1):
        assert (f'.nca-back:not(.nca-js) .nca-choices[data-answer*="{label}"] '
                f'.nca-choice-list > li:nth-child({index})') in note_type.css
    assert "{%" not in note_type.css and "{{" not in note_type.css


def test_card_script_is_inline_on_both_sides_and_holds_no_anki_field_markers(
        renderer: Renderer) -> None:
    note_type, _ = renderer.note_type()
    for side, html in (("front", note_type.front), ("back", note_type.back)):
        assert html.count("<script>") == 1 and f'NcaMcq.start("{side}", {{"answer_static": ' in html
        script = html[html.index("<script>"):html.index("</script>")]
        assert "{{" not in script and "src=" not in script  # nothing fetched, no field read
        # Anki desktop runs card scripts again on one page: a const/let would throw there.
        assert re.search(r"\b(const|let)\s", script) is None


def test_note_type_fingerprint_follows_content(renderer: Renderer) -> None:
    note_type, _ = renderer.note_type()
    again, _ = Renderer(TEMPLATES, SHOWN).note_type()
    assert again == note_type and again.fingerprint == note_type.fingerprint
    restyled = dataclasses.replace(note_type, css=note_type.css + "\n.x { color: red; }")
    assert restyled.fingerprint != note_type.fingerprint
    assert re.fullmatch(r"[0-9a-f]{16}", note_type.fingerprint)


# --- note fields ----------------------------------------------------------------------------

def choice_items(choices_html: str) -> list[tuple[str, str, bool]]:
    """(label, text, pinned) of each choice in a Choices field, in order."""
    return [(label, text, pinned == " data-nca-pinned=\"\"") for pinned, label, text in re.findall(
        r'<li( data-nca-pinned="")?><span class="nca-label">(.*?)</span> '
        r'<span class="nca-text">(.*?)</span></li>', choices_html)]


def test_choices_field_as_written_is_a_labelled_list(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(choices=("Pascal", "Volta", "Turing", "Ampere")))
    choices = fields["Choices"]
    assert re.match(r'<ol class="nca-choice-list" data-nca-shuffle="no">', choices)
    assert choices.endswith("</ol>")
    assert choice_items(choices) == [("A", "Pascal", False), ("B", "Volta", False),
                                     ("C", "Turing", False), ("D", "Ampere", False)]
    assert choices.count("<li") == 4


def test_choices_follow_the_layout_and_the_answer_letter_follows_them(
        renderer: Renderer) -> None:
    question = make_question(choices=("Pascal", "Volta", "Turing", "Ampere"), correct=1)
    layout = Layout(order=(3, 1, 0, 2), pinned=frozenset(), shuffle=True, slots=(1,))
    fields = fields_of(renderer, question, layout=layout)
    assert 'data-nca-shuffle="yes"' in fields["Choices"]
    assert [text for _, text, _ in choice_items(fields["Choices"])] == [
        "Ampere", "Volta", "Pascal", "Turing"]
    assert fields["Answer"] == "B"
    moved = Layout(order=(1, 0, 2, 3), pinned=frozenset(), shuffle=True, slots=(0,))
    assert fields_of(renderer, question, layout=moved)["Answer"] == "A"


def test_pinned_choices_are_marked_for_the_card_script(renderer: Renderer) -> None:
    question = make_question(choices=("Pascal", "Volta", "Turing", "All of the above"),
                             correct=1)
    (layout,) = plan((question,))
    items = choice_items(fields_of(renderer, question, layout=layout)["Choices"])
    assert items[3] == ("D", "All of the above", True)
    assert [pinned for _, _, pinned in items[:3]] == [False, False, False]


def test_answer_field_is_the_letter(renderer: Renderer) -> None:
    assert fields_of(renderer, make_question(correct=1))["Answer"] == "B"
    assert fields_of(renderer, make_question(correct=0))["Answer"] == "A"


def test_ten_choices_are_labelled_a_to_j(renderer: Renderer) -> None:
    texts = tuple(f"Choice {n}" for n in range(10))
    fields = fields_of(renderer, make_question(choices=texts, correct=9))
    assert fields["Answer"] == "J"
    assert [label for label, _, _ in choice_items(fields["Choices"])] == list("ABCDEFGHIJ")


def test_more_than_ten_choices_is_an_error_at_the_question(renderer: Renderer) -> None:
    question = make_question(choices=tuple(f"Choice {n}" for n in range(11)), number=7,
                             line=42, path="source/big-1.txt")
    note, problems = renderer.note(TOPIC, 1, question, as_written(question))
    assert note is None
    assert problems == (error("E117", "source/big-1.txt", 42,
                              "Question 7 has 11 choices; at most 10 are supported"),)


def test_source_field_and_tags(renderer: Renderer) -> None:
    note, _ = renderer.note(TOPIC, 2, make_question(), as_written(make_question()))
    assert note.fields[FIELDS.index("Source")] == "Deep Learning — part 2"
    assert note.tags == ("deep-learning::part-2",)
    assert note.part == 2
    assert note.question == make_question()


def test_source_field_escapes_the_deck_name(renderer: Renderer) -> None:
    topic = Topic(name="AI", deck_name="NCA::AI & <DL>", slug="ai-dl", files=())
    assert fields_of(renderer, make_question(), topic=topic)["Source"] == \
        "AI &amp; &lt;DL&gt; — part 1"


def test_note_from_parsed_text(renderer: Renderer) -> None:
    result = parse(
        "Deep Learning 1 — Questions and Answers\n"
        "Question 1: What does `cudaMalloc` return?\n"
        "- A host pointer\n"
        "- An error code (Correct answer)\n"
        "Correct answer: An error code\n"
        "It returns a **cudaError_t**.\n", "source/dl-1.txt")
    assert result.diagnostics == ()
    fields = fields_of(renderer, result.file.questions[0])
    assert fields == {
        "Prompt": "What does <code>cudaMalloc</code> return?",
        "Choices": fields["Choices"],
        "Answer": "B",
        "Explanation": "<p>It returns a <strong>cudaError_t</strong>.</p>",
        "Source": "Deep Learning — part 1",
    }
    assert [text for _, text, _ in choice_items(fields["Choices"])] == ["A host pointer", "An error code"]


# --- Markdown ---------------------------------------------------------------------------------

def test_inline_markdown_in_prompt(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(prompt="What does `nvcc` do, **exactly**?"))
    assert fields["Prompt"] == "What does <code>nvcc</code> do, <strong>exactly</strong>?"


def test_inline_markdown_in_choices(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(choices=("`cuBLAS`", "*cuDNN*", "plain")))
    assert [text for _, text, _ in choice_items(fields["Choices"])] == [
        "<code>cuBLAS</code>", "<em>cuDNN</em>", "plain"]


def test_explanation_list_and_paragraphs(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(
        explanation="Two reasons:\n\n- speed\n- memory\n\nSee the **docs**."))
    assert fields["Explanation"] == (
        "<p>Two reasons:</p>\n<ul>\n<li>speed</li>\n<li>memory</li>\n</ul>\n"
        "<p>See the <strong>docs</strong>.</p>")


def test_blank_line_makes_two_paragraphs(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(explanation="First.\n\nSecond."))
    assert fields["Explanation"] == "<p>First.</p>\n<p>Second.</p>"


def test_empty_explanation_is_empty(renderer: Renderer) -> None:
    assert fields_of(renderer, make_question(explanation=""))["Explanation"] == ""


def test_renderer_state_does_not_leak_between_notes(renderer: Renderer) -> None:
    fields_of(renderer, make_question(explanation="- a\n- b"))
    assert fields_of(renderer, make_question(explanation="Plain."))["Explanation"] == \
        "<p>Plain.</p>"


# --- technical text: MathJax, identifiers ------------------------------------------------------

def test_mathjax_delimiters_reach_the_card_verbatim(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(
        prompt=r"What is \(x^2\) at \(x=3\), and \[a_1 * b_1\] inline?",
        choices=(r"\(9\)", r"\[3*3*1\]"),
        explanation="The loss is\n\n\\[\nL = -\\sum_i y_i \\log p_i\n\\]\n\n"
                    "where *p* is the **predicted** probability."))
    assert fields["Prompt"] == r"What is \(x^2\) at \(x=3\), and \[a_1 * b_1\] inline?"
    assert [text for _, text, _ in choice_items(fields["Choices"])] == [r"\(9\)", r"\[3*3*1\]"]
    assert fields["Explanation"] == (
        "<p>The loss is</p>\n<p>\\[\nL = -\\sum_i y_i \\log p_i\n\\]</p>\n"
        "<p>where <em>p</em> is the <strong>predicted</strong> probability.</p>")


def test_math_is_html_escaped_and_never_markdown(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(
        prompt=r"Is \(a<b\) when \(a & b\) are \(x_1 *y* z_1\)?",
        explanation="- \\(a_1\\) and \\(b_1\\)\n- \\[x*y*z\\]"))
    assert fields["Prompt"] == r"Is \(a&lt;b\) when \(a &amp; b\) are \(x_1 *y* z_1\)?"
    assert fields["Explanation"] == \
        "<ul>\n<li>\\(a_1\\) and \\(b_1\\)</li>\n<li>\\[x*y*z\\]</li>\n</ul>"


def test_markup_inside_math_is_inert_text(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(
        prompt=r"\(<script>\)", choices=(r"\[<img src=x onerror=1>\]", "Safe"),
        explanation=r"See \[<img src=x onerror=1>\] and \(<script>alert(1)</script>\)."))
    assert fields["Prompt"] == r"\(&lt;script&gt;\)"
    assert [text for _, text, _ in choice_items(fields["Choices"])] == [
        r"\[&lt;img src=x onerror=1&gt;\]", "Safe"]
    assert fields["Explanation"] == (r"<p>See \[&lt;img src=x onerror=1&gt;\] and "
                                     r"\(&lt;script&gt;alert(1)&lt;/script&gt;\).</p>")
    for html in fields.values():
        assert {tag for tag, _ in live_tags(html)} <= {"p", "ol", "li", "span"}


def test_escaped_backslashes_and_code_are_not_math(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(
        prompt=r"Print \\(x\\) or `\(x\)`?", explanation=r"A lone \( is a parenthesis."))
    assert fields["Prompt"] == r"Print \(x\) or <code>\(x\)</code>?"
    assert fields["Explanation"] == "<p>A lone ( is a parenthesis.</p>"


def test_dollar_signs_stay_text(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(prompt=r"Is $x$ worth $5 or \$6?"))
    assert fields["Prompt"] == r"Is $x$ worth $5 or $6?"  # "\$" is an escaped "$"


@pytest.mark.parametrize("text", [
    "__init__", "Call self.__init__() from __new__", "snake_case_name", "4*8*2",
    "a*b*c and x**y**z", "__init__.py", "__a_b__",
])
def test_identifiers_keep_their_underscores_and_asterisks(renderer: Renderer,
                                                          text: str) -> None:
    fields = fields_of(renderer, make_question(prompt=text, choices=(text, "Other"),
                                               explanation=text))
    assert fields["Prompt"] == text
    assert choice_items(fields["Choices"])[0][1] == text
    assert fields["Explanation"] == f"<p>{text}</p>"


def test_emphasis_between_words_still_works(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(
        prompt="**bold** and *em*, _em_ and __two words__, ***both***: 2 * 3 * 4"))
    assert fields["Prompt"] == ("<strong>bold</strong> and <em>em</em>, <em>em</em> and "
                                "<strong>two words</strong>, <em><strong>both</strong></em>: "
                                "2 * 3 * 4")


# --- source text is never live markup --------------------------------------------------------

ATTACKS = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    '<a href="javascript:alert(1)">x</a>',
    "<iframe src=//evil></iframe>",
    '<div onclick="alert(1)">x</div>',
    "<style>body{display:none}</style>",
)


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("where", ["prompt", "choice", "explanation"])
def test_html_in_source_is_never_live(renderer: Renderer, attack: str, where: str) -> None:
    question = make_question(
        prompt=attack if where == "prompt" else "Prompt?",
        choices=(attack, "Safe") if where == "choice" else ("One", "Two"),
        explanation=f"Before.\n\n{attack}\n\nAfter." if where == "explanation" else "Fine.")
    fields = fields_of(renderer, question)
    html = fields["Choices"] if where == "choice" else fields[where.capitalize()]
    # Raw HTML is kept as escaped text ("&lt;img ... onerror=...&gt;"), which is harmless;
    # what must never appear is a live element or attribute.
    assert "<script" not in html.lower()
    if attack.startswith("["):  # a Markdown link to an unsafe URL is no link: it stays text
        assert "<a" not in html.lower()
    for tag, attrs in live_tags(html):
        assert tag not in {"script", "img", "iframe", "style", "div"}, (tag, html)
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        assert not (attrs.get("href") or "").lower().startswith("javascript"), attrs


def test_raw_html_is_shown_as_text(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(
        prompt="<script>alert(1)</script>",
        choices=("<img src=x onerror=alert(1)>", "[x](javascript:alert(1))"),
        explanation="Use <b>bold</b>."))
    assert fields["Prompt"] == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert [text for _, text, _ in choice_items(fields["Choices"])] == [
        "&lt;img src=x onerror=alert(1)&gt;", "[x](javascript:alert(1))"]
    assert fields["Explanation"] == "<p>Use &lt;b&gt;bold&lt;/b&gt;.</p>"


def test_safe_links_survive(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(explanation="[docs](https://docs.nvidia.com)"))
    assert fields["Explanation"] == \
        '<p><a href="https://docs.nvidia.com" rel="noopener noreferrer">docs</a></p>'


def test_ampersand_is_escaped(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(prompt="R&D and A & B", choices=("x & y", "z"),
                                               explanation="Q&A"))
    assert fields["Prompt"] == "R&amp;D and A &amp; B"
    assert [text for _, text, _ in choice_items(fields["Choices"])] == ["x &amp; y", "z"]
    assert fields["Explanation"] == "<p>Q&amp;A</p>"


# --- images (named by the media resolver: reading/media.py, tests/reading/test_media.py) -----------

VOLTA = MediaFile(name="nca-0123456789abcdef.png", path="/x/volta.png", sha256="0" * 64, size=9)


def resolver(question_file: str, src: str) -> MediaFile | str:
    return VOLTA if src == "img/volta.png" else f"image {src!r} not found"


@pytest.mark.parametrize("where, line, place", [
    ("prompt", 17, "prompt"),
    ("choice", 19, "choice B"),
    ("explanation", 17, "explanation"),
])
def test_an_image_is_named_by_its_media_file_or_is_an_error_at_its_line(
        where: str, line: int, place: str) -> None:
    renderer = Renderer(TEMPLATES, SHOWN, resolver)
    image = "![Volta die](img/volta.png)"
    question = make_question(
        prompt=image if where == "prompt" else "Which architecture is shown?",
        choices=("Pascal", image if where == "choice" else "Volta", "Turing"),
        explanation=f"Volta (2017).\n\n{image}" if where == "explanation" else "Volta.")
    note, problems = renderer.note(TOPIC, 1, question, as_written(question))
    assert problems == () and note is not None and note.media == (VOLTA,)
    shown = dict(zip(FIELDS, note.fields))
    field = {"prompt": "Prompt", "choice": "Choices", "explanation": "Explanation"}[where]
    assert '<img src="nca-0123456789abcdef.png" alt="Volta die">' in shown[field]
    assert "img/volta.png" not in "".join(note.fields)
    missing = dataclasses.replace(question, prompt=question.prompt.replace("volta.png", "gone.png"),
                      choices=tuple(dataclasses.replace(c, text=c.text.replace("volta.png", "gone.png"))
                                    for c in question.choices),
                      explanation=question.explanation.replace("volta.png", "gone.png"))
    note, problems = renderer.note(TOPIC, 1, missing, as_written(missing))
    assert note is None
    assert problems == (error("E122", "source/dl-1.txt", line,
                              f"Question 4's {place}: image 'img/gone.png' not found"),)


def test_every_image_of_a_question_is_reported_at_its_line() -> None:
    renderer = Renderer(TEMPLATES, SHOWN, resolver)
    result = parse(
        "Deep Learning 1 — Questions and Answers\n"
        "Question 1: Which chart shows overfitting? ![a](a.png)\n"
        "- [![b](b.png)](https://example.com/b)\n"
        "- Chart C (Correct answer)\n"
        "- Chart D\n"
        "Correct answer: Chart C\n"
        "It diverges,\nas ![d][chart-d] does.\n\n[chart-d]: d.png\n", "source/dl-1.txt")
    assert result.diagnostics == ()
    question = result.file.questions[0]
    assert question.explanation_line == 7
    note, problems = renderer.note(TOPIC, 1, question, as_written(question))
    assert note is None
    assert problems == (
        error("E122", "source/dl-1.txt", 2, "Question 1's prompt: image 'a.png' not found"),
        error("E122", "source/dl-1.txt", 3, "Question 1's choice A: image 'b.png' not found"),
        error("E122", "source/dl-1.txt", 7, "Question 1's explanation: image 'd.png' not found"),
    )


def test_image_like_text_that_is_no_image_renders(renderer: Renderer) -> None:
    fields = fields_of(renderer, make_question(
        prompt="Is `![x](y)` an image?", explanation=r"Not \![x](y), nor ![x][undefined]."))
    assert fields["Prompt"] == "Is <code>![x](y)</code> an image?"
    assert fields["Explanation"] == \
        '<p>Not !<a href="y" rel="noopener noreferrer">x</a>, nor ![x][undefined].</p>'


# --- template errors ----------------------------------------------------------------------------

@pytest.fixture
def templates_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    return folder


def test_templates_copy_renders_like_the_original(renderer: Renderer,
                                                  templates_copy: Path) -> None:
    assert Renderer(templates_copy, "my/templates").note_type() == renderer.note_type()


@pytest.mark.parametrize("missing", ["front.html", "back.html", "style.css"])
def test_missing_template_names_file_and_searched_folder(templates_copy: Path,
                                                         missing: str) -> None:
    (templates_copy / missing).unlink()
    note_type, problems = Renderer(templates_copy, "my/templates").note_type()
    assert note_type is None
    assert problems == (error("E401", f"my/templates/{missing}", 0,
                              "template not found; searched my/templates; restore it from "
                              "the project's templates/"),)


def test_missing_choices_template_fails_the_note(templates_copy: Path) -> None:
    (templates_copy / "choices.html").unlink()
    note, problems = Renderer(templates_copy, "my/templates/").note(TOPIC, 1, make_question(), as_written(make_question()))
    assert note is None
    assert problems == (error("E401", "my/templates/choices.html", 0,
                              "template not found; searched my/templates/; restore it from "
                              "the project's templates/"),)


def test_all_broken_templates_are_reported_at_once(templates_copy: Path) -> None:
    (templates_copy / "front.html").unlink()
    (templates_copy / "style.css").unlink()
    _, problems = Renderer(templates_copy, "t").note_type()
    assert [p.path for p in problems] == ["t/front.html", "t/style.css"]


def test_template_syntax_error_reports_its_line(templates_copy: Path) -> None:
    (templates_copy / "back.html").write_text(
        '<div>\n{{ field("Prompt") }}\n{% if %}\n</div>\n', encoding="utf-8")
    note_type, problems = Renderer(templates_copy, "t").note_type()
    assert note_type is None
    assert problems == (error("E402", "t/back.html", 3, "template syntax error: Expected an "
                                                "expression, got 'end of statement block'"),)


def test_undefined_variable_is_an_error_naming_the_template(templates_copy: Path) -> None:
    (templates_copy / "front.html").write_text(
        '<div>\n{{ field("Prompt") }}\n\n{{ answer_text }}\n</div>\n', encoding="utf-8")
    note_type, problems = Renderer(templates_copy, "t").note_type()
    assert note_type is None
    assert problems == (error("E402", "t/front.html", 4, "template error: 'answer_text' is undefined"),)


def test_undefined_variable_in_choices_template(templates_copy: Path) -> None:
    (templates_copy / "choices.html").write_text(
        "<ol>\n{% for c in choices %}<li>{{ c.missing }}</li>{% endfor %}</ol>\n",
        encoding="utf-8")
    note, problems = Renderer(templates_copy, "t").note(TOPIC, 1, make_question(), as_written(make_question()))
    assert note is None
    assert len(problems) == 1
    assert (problems[0].path, problems[0].line) == ("t/choices.html", 2)
    assert problems[0].message.startswith("template error: ")
    assert "'missing'" in problems[0].message


def test_choices_template_keeps_jinja_globals_for_every_note(templates_copy: Path) -> None:
    # The renderer flattens a template's globals once (render.py); an author's template
    # that counts with namespace() and range() must render the same on every note.
    (templates_copy / "choices.html").write_text(
        "{% set ns = namespace(n=0) %}{% for c in choices %}{% set ns.n = ns.n + 1 %}"
        "{% endfor %}{% for i in range(ns.n) %}{{ choices[i].label }}{% endfor %}",
        encoding="utf-8")
    renderer = Renderer(templates_copy, "t")
    for choices in (("a", "b"), ("a", "b", "c")):
        question = make_question(choices=choices)
        note, problems = renderer.note(TOPIC, 1, question, as_written(question))
        assert problems == ()
        assert note is not None and note.fields[1] == "ABC"[:len(choices)]


def test_unknown_field_is_an_error(templates_copy: Path) -> None:
    (templates_copy / "front.html").write_text(
        '<div>\n{{ field("Prompt") }}\n{{ field("Nope") }}\n</div>\n', encoding="utf-8")
    note_type, problems = Renderer(templates_copy, "t").note_type()
    assert note_type is None
    assert problems == (error("E402",
        "t/front.html", 3,
        "template error: KeyError: \"no field 'Nope'; the fields are Prompt, Choices, "
        "Answer, Explanation, Source\""),)


def test_template_edits_show_in_note_type(templates_copy: Path) -> None:
    (templates_copy / "front.html").write_text(
        '<section>{{ field("Prompt") }}|{{ field("Choices") }}</section>\n', encoding="utf-8")
    note_type, problems = Renderer(templates_copy, "t").note_type()
    assert problems == ()
    assert note_type.front == "<section>{{Prompt}}|{{Choices}}</section>"


def test_templates_autoescape(templates_copy: Path) -> None:
    (templates_copy / "front.html").write_text('{{ "<b>&" }}{{ field("Prompt") }}\n',
                                               encoding="utf-8")
    note_type, _ = Renderer(templates_copy, "t").note_type()
    assert note_type.front == "&lt;b&gt;&amp;{{Prompt}}"


# --- note types Anki cannot show ------------------------------------------------------------------

FIELD_LIST = ("the fields are Prompt, Choices, Answer, Explanation, Source (and Anki's "
              "FrontSide, Tags, Type, Deck, Subdeck, Card, CardFlag, CardID)")


def test_unknown_anki_field_in_a_template_is_an_error(templates_copy: Path) -> None:
    (templates_copy / "front.html").write_text(
        '<div>\n{{ field("Choices") }}\n{% raw %}<p>{{Promt}}</p>{% endraw %}\n</div>\n',
        encoding="utf-8")
    note_type, problems = Renderer(templates_copy, "t").note_type()
    assert note_type is None
    assert problems == (error("E402", "t/front.html", 3,
                              "unknown field 'Promt' in {{Promt}}: Anki would show an error "
                              f"on every card; {FIELD_LIST}"),)


def test_every_kind_of_anki_reference_is_checked(templates_copy: Path) -> None:
    (templates_copy / "back.html").write_text(
        '{{ field("Prompt") }}\n{% raw %}{{#Hint}}\n{{type:Answr}}\n{{/Hint}}\n'
        '{{^Explanation}}-{{/Explanation}}{{text:Promt}}{{Promt}}\n{{cloze:Promt}}'
        '{% endraw %}\n', encoding="utf-8")
    _, problems = Renderer(templates_copy, "t").note_type()
    assert problems == (
        error("E402", "t/back.html", 2, f"unknown field 'Hint' in {{{{#Hint}}}}: Anki would show an "
                                f"error on every card; {FIELD_LIST}"),
        error("E402", "t/back.html", 3, f"unknown field 'Answr' in {{{{type:Answr}}}}: Anki would "
                                f"show an error on every card; {FIELD_LIST}"),
        error("E402", "t/back.html", 4, f"unknown field 'Hint' in {{{{/Hint}}}}: Anki would show an "
                                f"error on every card; {FIELD_LIST}"),
        error("E402", "t/back.html", 5, f"unknown field 'Promt' in {{{{text:Promt}}}}: Anki would "
                                f"show an error on every card; {FIELD_LIST}"),
        error("E402", "t/back.html", 5, f"unknown field 'Promt' in {{{{Promt}}}}: Anki would show an "
                                f"error on every card; {FIELD_LIST}"),
        error("E402", "t/back.html", 6, f"unknown field 'Promt' in {{{{cloze:Promt}}}}: Anki would "
                                f"show an error on every card; {FIELD_LIST}"),
    )


def test_an_anki_reference_made_by_an_expression_is_reported_at_the_file(
        templates_copy: Path) -> None:
    (templates_copy / "back.html").write_text(
        '{{ field("Prompt") }}\n{{ "{{" ~ "Nope" ~ "}}" }}\n', encoding="utf-8")
    _, problems = Renderer(templates_copy, "t").note_type()
    assert problems == (error("E402", "t/back.html", 0, "unknown field 'Nope' in {{Nope}}: Anki would "
                                                f"show an error on every card; {FIELD_LIST}"),)


def test_a_stray_section_end_is_an_error(templates_copy: Path) -> None:
    (templates_copy / "back.html").write_text(
        '{{ field("Prompt") }}{% raw %}{{/Prompt}}{% endraw %}\n', encoding="utf-8")
    _, problems = Renderer(templates_copy, "t").note_type()
    assert problems == (error("E402", "t/back.html", 1, "{{/Prompt}} closes no open section"),)


def test_anki_sections_must_be_closed_in_order(templates_copy: Path) -> None:
    (templates_copy / "back.html").write_text(
        '{{ field("Prompt") }}\n{% raw %}{{#Explanation}}\n{{^Source}}\n{{/Explanation}}\n'
        '{{/Source}}\n{{/Answer}}{% endraw %}\n', encoding="utf-8")
    _, problems = Renderer(templates_copy, "t").note_type()
    assert problems == (
        error("E402", "t/back.html", 4, "{{/Explanation}} does not close the open {{^Source}}"),
        error("E402", "t/back.html", 6, "{{/Answer}} does not close the open {{#Explanation}}"),
        error("E402", "t/back.html", 2, "{{#Explanation}} is never closed; end the section with "
                                "{{/Explanation}}"),
    )


@pytest.mark.parametrize("front", [
    "<div>Pick one</div>\n",
    "{% raw %}{{#Prompt}}x{{/Prompt}}{{Tags}}{{FrontSide}}{% endraw %}\n",
])
def test_front_without_a_field_is_an_error(templates_copy: Path, front: str) -> None:
    (templates_copy / "front.html").write_text(front, encoding="utf-8")
    note_type, problems = Renderer(templates_copy, "t").note_type()
    assert note_type is None
    assert problems == (error("E402", "t/front.html", 0,
                              'the front shows no field: every card would say "The front of '
                              'this card is blank"; place one with {{ field("Prompt") }}'),)


def test_valid_anki_references_pass(templates_copy: Path) -> None:
    (templates_copy / "front.html").write_text(
        '{% raw %}{{ Prompt }}{{text:Choices}}{{#Source}}{{Source}}{{/Source}}{% endraw %}\n',
        encoding="utf-8")
    (templates_copy / "back.html").write_text(
        '{% raw %}{{FrontSide}}{{type:Answer}}{{^Explanation}}-{{/Explanation}}{{Tags}}'
        '{{Deck}}{{Subdeck}}{{Card}}{{CardFlag}}{{CardID}}{{Type}}{{hint:text:Explanation}}'
        '{{ }}{% endraw %}\n', encoding="utf-8")
    note_type, problems = Renderer(templates_copy, "t").note_type()
    assert problems == ()
    assert note_type is not None


# --- plain text skips Markdown, with the same result ------------------------------------------

def full_path(renderer: Renderer, text: str) -> str:
    """What Markdown and the sanitiser make of ``text`` (the path plain text skips)."""
    import nca_anki.cards.markup as module
    return module.cleaner().clean(renderer.markdown.engine.render(text)).strip()


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list("ab Z09.,;:?'\"%()/=@$^-+\n é—β\u00a0\u2003"
                                             "*_`<>&#[]!|")), max_size=60))
def test_the_plain_text_path_gives_exactly_what_markdown_gives(renderer: Renderer,
                                                               text: str) -> None:
    from nca_anki.cards.markup import _plain_html
    fast = _plain_html(text)
    if fast is not None:
        assert fast == full_path(renderer, text)


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list("ab Z09.,;:?'\"%()/=-+\n é—\u00a0\u2003*_`<&#")),
               max_size=40))
@example("\nPascal\n")
@example("1. Pascal")
@example("")
def test_the_plain_inline_path_gives_exactly_what_the_block_path_gives(renderer: Renderer,
                                                                       text: str) -> None:
    """A plain one-line prompt or choice skips even the paragraph it would be wrapped in;
    what it gives must be what the block path unwraps (that path is compared with Markdown
    above)."""
    markdown = renderer.markdown
    assert markdown.inline(text) == markdown._inline(text)


@settings(max_examples=1500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(
    st.text(alphabet=st.sampled_from(list("ab Z09.,;:?()'\"%/=@$^-+*`\né—")), max_size=40),
    # Tokens rather than characters, so marks land next to words, spaces and punctuation
    # (where emphasis rules differ) far more often.
    st.lists(st.sampled_from(["a", "bc", " ", " ", "*", "**", "`", ".", ",", "(", ")", "?",
                              "4", "-", "'", "é"]), max_size=16).map("".join)))
@example("Uses `cuda` and **bold** and *em*.")
@example("a*b* c")
@example("a**b** c")
@example("a **b *c* d** e")
@example("`a` `b`")
@example("a *b*c* d")
@example("**a** b**")
def test_the_simple_spans_path_gives_exactly_what_markdown_gives(renderer: Renderer,
                                                                 text: str) -> None:
    from nca_anki.cards.markup import _simple_spans_html
    fast = _simple_spans_html(text)
    if fast is not None:
        assert fast == full_path(renderer, text)


def test_the_simple_spans_path_is_taken_for_the_markdown_fields_use_most() -> None:
    from nca_anki.cards.markup import _simple_spans_html
    assert _simple_spans_html("Uses `nvcc` with **mixed** *precision*.") == (
        "<p>Uses <code>nvcc</code> with <strong>mixed</strong> <em>precision</em>.</p>")
    for text in ("4*8*2", "snake_case", "a\nb *c*", "*a*b", "<b>x</b>", "***x***"):
        assert _simple_spans_html(text) is None, text


def test_markdown_is_built_only_when_a_text_needs_it() -> None:
    renderer = Renderer(TEMPLATES, SHOWN)  # its own: the module's has rendered Markdown
    plain = make_question(prompt="Uses `nvcc` with **mixed** precision?",
                          choices=("Yes", "No"), explanation="It does.")
    fields_of(renderer, plain)
    assert renderer.markdown._engine is None  # every field took a fast path
    table = make_question(explanation="| a | b |\n|---|---|\n| 1 | 2 |")
    assert "<table>" in fields_of(renderer, table)["Explanation"]
    assert renderer.markdown._engine is not None


def test_a_generated_bank_builds_the_same_bytes_with_and_without_the_plain_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import random
    import sys
    sys.path.insert(0, str(TEMPLATES.parent / "bench"))
    from benchmark import write_part

    import nca_anki.cards.markup as module
    from nca_anki.build import BuildOptions, build

    def built(folder: Path) -> dict[str, bytes]:
        source = folder / "source"
        source.mkdir(parents=True)
        for part in (1, 2):
            write_part(source / f"t-{part}.txt", f"Bench Topic {part}", random.Random(part),
                       60)  # about one field in ten has Markdown
        (source / "t-3.txt").write_text(
            "Bench Topic 3 — Questions and Answers\nQuestion 1: Is `x` **bold** or 4*8*2?\n"
            "- Yes (Correct answer)\n- No, see \\(x^2\\)\nCorrect answer: Yes\n"
            "Line one.\nLine two  \nthree\n\n- a list\n- of items\n", encoding="utf-8")
        assert build(BuildOptions(source, TEMPLATES, folder / "dist", now=1_800_000_000)).ok
        return {p.name: p.read_bytes() for p in (folder / "dist").glob("*.apkg")}

    fast = built(tmp_path / "fast")
    monkeypatch.setattr(module, "_is_plain", lambda text: False)  # block and inline paths
    monkeypatch.setattr(module, "_simple_spans_html", lambda text: None)
    assert built(tmp_path / "slow") == fast


# --- the prompt's weight ----------------------------------------------------------------------

@pytest.mark.parametrize("prompt, prose", [
    ("Which GPU architecture introduced Tensor Cores?", False),
    ("What does `nvcc` do?", False),  # a code span: the heading stays (CSS sets the code)
    ("x" * 120, False),
    ("x" * 121, True),  # a scenario: text in normal weight
    ("Given:\n\n```python\nx = 1\n```", True),
    ("Which is true?\n\n| a | b |\n|---|---|\n| 1 | 2 |", True),
    ("line one\\\nline two", True),
    ("Steps:\n\n- one\n- two", True),
])
def test_long_or_structured_prompts_read_as_prose(renderer: Renderer, prompt: str,
                                                  prose: bool) -> None:
    field = fields_of(renderer, make_question(prompt=prompt))["Prompt"]
    assert field.startswith('<div class="nca-prose">') is prose
