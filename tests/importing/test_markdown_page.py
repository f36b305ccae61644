"""Markdown banks read as the page their readers see (issue 46, 1, 3, 9 and K): a quiz kept
in the YAML front matter, the HTML a page renders, a question whose scenario is a heading
of its own, the right choice shown in bold, and an HTML quiz that is named, not lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from growth import least_cpu
from conftest import built_and_imported, written_questions
from nca_anki.importing.bank import html_to_markdown
from nca_anki.importing import markdown


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


FRONT_MATTER_QUIZ = """---
title: "Kitchen check"
passPercentage: 80
questions:
  - id: "k1"
    text: "Which knife cuts bread best?"
    type: "single-answer"
    options:
      - id: "a"
        text: "A serrated knife"
        isCorrect: true
      - id: "b"
        text: "A paring knife"
  - id: "k2"
    text: "Which of these are herbs?"
    type: "multiple-answers"
    options:
      - id: "a"
        text: "Basil"
        isCorrect: true
      - id: "b"
        text: "Salt"
      - id: "c"
        text: "Thyme"
        isCorrect: true
---
"""


def test_a_quiz_in_the_front_matter_is_read_as_a_structured_bank(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "test.md", FRONT_MATTER_QUIZ)
    assert done.status == 0, done.err
    assert f"{bank}:5: warning[W704]: read 2 question objects: prompt 'text'" \
        in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("Which knife cuts bread best?", ["*A serrated knife", "A paring knife"], ""),
        ("Which of these are herbs?", ["*Basil", "Salt", "*Thyme"], "")]


def test_front_matter_of_one_question_and_metadata_stays_markdown(tmp_path, cli):
    """Tags and a question's own keys are no bank: the Markdown under them is read."""
    _, done = _import(cli, tmp_path, "one.md", """---
tags: [soup, stock]
question: "Which stock is clear?"
---

- [x] A consommé
- [ ] A bisque
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("Which stock is clear?", ["*A consommé", "A bisque"], "")]


HTML_BANK = """# Pantry

### Which flour has the most <strong>protein</strong>?

- [ ] Cake flour
- [x] Bread flour<br>(strong flour)
- [ ] Pastry flour

| flour | use |
| --- | --- |
| bread | loaves<br>and <b>rolls</b> |

<details>
<summary>Explanation</summary>
  <br/>
    <a href="https://example.org/flour">Where this comes from</a>
    <table>
        <tr>
            <th>Bread flour</th>
        </tr>
        <tr>
            <td><p>About <b>13%</b> protein, for <code>gluten</code>.</p></td>
        </tr>
    </table>
    <table>
      <tr><th>flour</th><th>protein</th></tr>
      <tr><td>cake</td><td>8%</td></tr>
    </table>
    <script>alert(1)</script>
</details>

### Which tag does `<b>` write in `std::vector<int>` code?

- [x] Bold, as <T> says
- [ ] None

Like <i>this</i>:

```html
<b>kept</b>
```
"""


def test_html_in_a_markdown_bank_becomes_markdown_and_code_stays(tmp_path, cli):
    _, done = _import(cli, tmp_path, "pantry.md", HTML_BANK)
    assert done.status == 0, done.err
    [flour, tag] = written_questions(tmp_path / "source")
    assert flour[0] == "Which flour has the most **protein**?"
    # A line break in text is one on the card too (the card keeps <br>, as in a table).
    assert flour[1] == ["Cake flour", "*Bread flour<br>(strong flour)", "Pastry flour"]
    assert flour[2] == (  # the label "Explanation" goes; the block is shown open
        "| flour | use |\n| --- | --- |\n| bread | loaves<br>and **rolls** |\n\n"
        "[Where this comes from](https://example.org/flour)\n\n**Bread flour**\n\n"
        "About **13%** protein, for `gluten`.\n\n"
        "| flour | protein |\n| --- | --- |\n| cake | 8% |")
    assert tag == ("Which tag does `<b>` write in `std::vector<int>` code?",
                   ["*Bold, as <T> says", "None"], "Like *this*:\n\n```html\n<b>kept</b>\n```")


def test_a_scenario_heading_above_the_question_heading_opens_its_prompt(tmp_path, cli):
    """Two questions whose scenarios differ and whose second headings are the same are
    two questions, each with its scenario; a section heading above is no scenario."""
    bank, done = _import(cli, tmp_path, "ovens.md", """# Ovens

## Section: baking

### 1 . A baker wants an even crust on forty loaves at once.

### Would a convection oven do it?

- [x] Yes
- [ ] No

---

### 2 . A baker wants a soft crust on one loaf.

Steam is not available.

### Would a convection oven do it?

- [ ] Yes
- [x] No
""")
    assert done.status == 0 and " 1 warning" in done.err, done.err
    assert f"{bank}:3: warning[W701]" in done.err  # the section heading, said as before
    assert written_questions(tmp_path / "source") == [
        ("A baker wants an even crust on forty loaves at once.\n\n"
         "Would a convection oven do it?", ["*Yes", "No"], ""),
        ("A baker wants a soft crust on one loaf.\n\nSteam is not available.\n\n"
         "Would a convection oven do it?", ["Yes", "*No"], "")]
    assert "repeats" not in done.err


BOLD_QUIZ = """# Networks

*Which unit does a router forward?*

* Frames
* **Packets**
* Bits

> A router reads the IP header of each packet.

*Which layers carry addresses?*

- **Data link**
- **Network**
- Presentation

> MAC and IP addresses.
"""


def test_the_right_choice_shown_in_bold_is_the_right_one(tmp_path, cli):
    _, done = _import(cli, tmp_path, "net.md", BOLD_QUIZ)
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("Which unit does a router forward?", ["Frames", "*Packets", "Bits"],
         "A router reads the IP header of each packet."),
        ("Which layers carry addresses?", ["*Data link", "*Network", "Presentation"],
         "MAC and IP addresses.")]


def test_bold_choices_under_numbered_questions_in_italics(tmp_path, cli):
    _, done = _import(cli, tmp_path, "cells.md", """# Cells

1. *Which organelle makes energy?*
   * Nucleus
   * <strong>Mitochondrion</strong>
   * Ribosome

   > It holds the respiratory chain.

2. *Which holds the DNA?*
   * **Nucleus**
   * Vacuole
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("Which organelle makes energy?", ["Nucleus", "*Mitochondrion", "Ribosome"],
         "It holds the respiratory chain."),
        ("Which holds the DNA?", ["*Nucleus", "Vacuole"], "")]


def test_a_list_all_in_bold_or_none_is_no_question(tmp_path, cli):
    """A glossary's list (every item bold), or a list under text that asks nothing (a
    README's "Features:"), is no question."""
    _, done = _import(cli, tmp_path, "notes.md", """# Notes

Terms:

* **Router**
* **Switch**

Features of this page:

* **Fast**
* Small
""")
    assert done.status == 1 and "warning[W701]" in done.err, done.err
    assert not list((tmp_path / "source").glob("*.txt"))


@pytest.mark.anki
def test_bold_html_and_scenario_banks_arrive_in_a_real_collection(tmp_path, cli):
    """Import, build, and import into a real collection: bold marks the right choice,
    HTML shows rendered (a table, bold), never as tags or live script."""
    _, done = _import(cli, tmp_path, "net.md", BOLD_QUIZ)
    assert done.status == 0, done.err
    _, more = _import(cli, tmp_path / "more", "pantry.md", HTML_BANK)
    assert more.status == 0, more.err
    for path in (tmp_path / "more" / "source").glob("*.txt"):
        path.rename(tmp_path / "source" / path.name)
    _, cards = built_and_imported(tmp_path, ("NCA::Networks", "NCA::Pantry"))
    net, pantry = cards["NCA::Networks"], cards["NCA::Pantry"]
    router = next(c for c in net if "router" in c.fields["Prompt"])
    assert "Packets" in router.fields["Choices"] and "**" not in router.fields["Choices"]
    flour = next(c for c in pantry if "flour" in c.fields["Prompt"])
    assert "<strong>protein</strong>" in flour.fields["Prompt"]
    explanation = flour.fields["Explanation"]
    assert "<table>" in explanation and "<td>8%</td>" in explanation
    assert "&lt;" not in explanation and "<script" not in explanation and "alert" not in explanation
    assert "Explanation" not in explanation


def test_a_web_picture_is_a_link_and_other_page_elements_are_their_text(tmp_path, cli):
    """The card is studied offline: a picture on the web becomes a link to it rather than
    costing the question; <label> and the like show their text; a link whose address is
    two addresses is its text."""
    _, done = _import(cli, tmp_path, "tea.md", """# Tea

### Which tea is not fermented?

- [x] Green tea
- [ ] Pu-erh

<details>
<summary>Explanation</summary>
<label>In short</label
>
<img src="https://example.org/leaf.png"/>
<img src="https://example.org/cup.png" alt="a cup"/>
<a href="https://example.org/a https://example.org/b">two places</a>
</details>
""")
    assert done.status == 0, done.err
    assert ":3: warning[W702]: shows a picture on the web (<img src=…>)" in done.err, done.err
    [(_, _, explanation)] = written_questions(tmp_path / "source")
    assert explanation == ("In short\n[\U0001f5bc\ufe0f](https://example.org/leaf.png)\n"
                           "[a cup](https://example.org/cup.png)\ntwo places"), explanation


# --- linear time ------------------------------------------------------------------------------

GROWING = {
    "html explanations": HTML_BANK.split("### Which tag")[0].replace("# Pantry\n", ""),
    "bold choices": BOLD_QUIZ.replace("# Networks\n", ""),
    "scenario headings": "### A scenario.\n\n### The question?\n\n- [x] a\n- [ ] b\n\n",
    "unclosed tags": "<details><summary><table><tr><td><a href='https://x.org/a'>",
    "tags in text": "- [ ] <b>a</b> `<b>` <br> <T>\n",
    "blank lines": "\n" * 40 + "* a\n",
}


@pytest.mark.parametrize("shape", GROWING)
def test_markdown_pages_are_read_in_time_linear_in_their_size(shape):
    """Growth, not speed (docs/contributing.md): four times the text, about four times
    the CPU time."""
    unit = GROWING[shape]
    short = least_cpu(lambda: markdown.read(unit * 250, "bank.md"))
    long = least_cpu(lambda: markdown.read(unit * 1_000, "bank.md"))
    assert long < 8 * max(short, 0.02), (shape, short, long)


def test_an_unanswered_template_repeated_is_refused_for_having_no_answer(tmp_path, cli):
    """A template left in a bank ("### question", "- [ ] option 1") many times marks no
    choice: that is why each is left out, not that it repeats the one before."""
    template = "### question\n\n- [ ] option 1\n- [ ] option 2\n\n"
    bank, done = _import(cli, tmp_path, "t.md", "# T\n\n" + template * 3
                         + "### Real?\n\n- [x] yes\n- [ ] no\n")
    assert done.status == 1
    assert "no correct answer ×3" in done.err and "repeats" not in done.err, done.err
    assert f"{bank}:8: error[E703]: marks no choice correct" in done.err, done.err


def test_front_matter_questions_that_cannot_be_read_are_named_not_dropped(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "test.md", FRONT_MATTER_QUIZ.replace(
        "        isCorrect: true\n", ""))
    assert done.status == 1, done.err
    assert f"{bank}:5: error[E703]" in done.err and f"{bank}:13: error[E703]" in done.err, \
        done.err


@pytest.mark.parametrize(("html", "markdown"), [
    ("<p>Two uses:</p><ol><li><p>Moving: as it is.</p></li><li><p>Testing: a copy.</p></li>"
     "</ol><p>Done.</p>", "Two uses:\n\n1. Moving: as it is.\n2. Testing: a copy.\n\nDone."),
    ("<ul><li><div>Only</div></li><li>Plain</li></ul>", "1. Only\n2. Plain"),
    ("<ol><li><p>First</p><p>more of it</p></li></ol>", "1. First\n\nmore of it"),
    ("<ol><li><p></p></li></ol><p>After the list</p>", "1.\n\nAfter the list"),
])
def test_a_list_item_s_paragraph_is_on_its_number_s_line(html: str, markdown: str) -> None:
    """An editor writes <li><p>…</p></li>; a browser shows the text beside its number, so
    the item must not become "1." alone above a paragraph (an empty Markdown item)."""
    assert html_to_markdown(html) == markdown
