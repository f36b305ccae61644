"""Markdown read as the page GitHub shows (issue 46): the blocks markdown-it finds decide
what is a heading, an item, a quote, code or the inside of a <details> block, and quiz
widgets written in HTML say their right choice in their markup."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import built_and_imported, written_questions
from growth import least_cpu
from nca_anki.importing import page


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


# --- the blocks ---------------------------------------------------------------------------

def test_a_hash_line_in_a_fence_is_code_not_a_heading():
    found = page.blocks("# Shell\n\n```sh\n# list the files\nls\n```\n")
    assert [(b.kind, b.first, b.last) for b in found] == [("heading", 1, 1), ("code", 3, 6)]
    assert found[1].fenced and found[1].info == "sh" and found[1].content == "# list the files\nls\n"


def test_a_line_without_indent_goes_on_its_items_paragraph():
    found = page.blocks("1. Which planet is\nthe largest?\n   - [ ] Mars\n   - [x] Jupiter\n")
    item, paragraph, mars, _, jupiter, _ = found
    assert (item.kind, item.first, item.last, item.ordered, item.number) == ("item", 1, 4, True, 1)
    assert paragraph.parent == 0 and paragraph.content == "Which planet is\nthe largest?"
    assert (mars.task, jupiter.task, jupiter.depth, jupiter.bullet) == (" ", "x", 2, "-")
    assert found[0].text.split("\n")[1] == "the largest?"  # the input's lines, as written


def test_details_quote_emphasis_and_label_are_flags_of_the_blocks():
    found = page.blocks("*Which metal is liquid?*\n\n> **Answer:** mercury\n\n"
                        "Write `<details>` to fold.\n\n<details><summary>Why</summary>\n\n"
                        "It melts at -39 C.\n\n</details>\n\nAfter.\n")
    by_text = {b.content.strip(): b for b in found if b.kind == "paragraph"}
    assert by_text["*Which metal is liquid?*"].emphasised
    assert by_text["**Answer:** mercury"].label == "Answer:"
    assert by_text["**Answer:** mercury"].in_quote
    assert not by_text["Write `<details>` to fold."].in_details  # code, not a tag
    assert by_text["It melts at -39 C."].in_details
    assert not by_text["After."].in_details


def test_the_blocks_take_time_linear_in_the_text():
    unit = ("### 1. Which?\n\n- A. one\n- **B. two**\n\n> because\n\n<details>\n\nx\n\n"
            "</details>\n\n```\n# c\n```\n\n")
    read = page.blocks.__wrapped__  # not the cache
    short = least_cpu(lambda: read(unit * 500))
    long = least_cpu(lambda: read(unit * 2000))
    assert long < 8 * short, (short, long)


# --- quiz widgets -------------------------------------------------------------------------

WIDGETS = """## Tiere

### Frage 1

Wie viele Beine hat eine Spinne?

<div id="q1">
  <ol>
    <li><button onclick="check('q1', '', false)">Sechs</button></li>
    <li><button onclick="check('q1', 'Spinnen sind Spinnentiere: acht Beine.', true)">Acht</button></li>
    <li><button onclick="check('q1', '', false)">Zehn</button></li>
  </ol>
</div>

### Frage 2

Welches Tier legt Eier?

<ul>
  <li data-correct="false">Hund</li>
  <li data-correct="true">Huhn</li>
</ul>

### Frage 3

Welcher Vogel kann nicht fliegen?

<ul>
<li class="option">Amsel</li>
<li class="option correct">Pinguin</li>
</ul>

<button onclick="restart()">Noch einmal</button>
"""


def test_buttons_that_say_true_and_false_are_read_as_the_choices(tmp_path, cli):
    """Before: each question refused (E702), though its markup names the right one. A
    heading that only numbers the question ("Frage 1") is the page's, not the prompt's (a
    card is shown in any order): before, every prompt began with it."""
    _, done = _import(cli, tmp_path, "tiere.md", WIDGETS)
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "source") == [
        ("Wie viele Beine hat eine Spinne?", ["Sechs", "*Acht", "Zehn"],
         "Spinnen sind Spinnentiere: acht Beine."),
        ("Welches Tier legt Eier?", ["Hund", "*Huhn"], ""),
        ("Welcher Vogel kann nicht fliegen?", ["Amsel", "*Pinguin"], "")]


def test_buttons_whose_markup_does_not_tell_are_refused_at_their_line(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "quiz.md", """## Quiz

### Frage 1

Wie viele Beine hat eine Spinne?

<div>
  <button onclick="pick(1)">Sechs</button>
  <button onclick="pick(2)">Acht</button>
</div>

### Frage 2

Wie viele Beine hat ein Käfer?

<div>
  <button onclick="pick(this, false)">Sechs</button>
  <button onclick="pick(this, false)">Acht</button>
</div>
""")
    assert done.status == 1, done.err
    assert f"{bank}:7: error[E702]: choices written as HTML elements" in done.err, done.err
    assert f"{bank}:16: error[E702]: choices written as HTML elements" in done.err, done.err
    assert "2 errors, 0 warnings" in done.err  # one message a question, not one a button


def test_radio_inputs_marked_right_take_the_text_after_them():
    found = page.widget_choices("""<form>
<label><input type="radio" name="q" data-correct="false"> Copper</label>
<label><input type="radio" name="q" data-correct="true"> <b>Gold</b> leaf</label>
</form>
<p>Pick one.</p>""")
    assert [(c.text, c.right, c.line) for c in found] == [("Copper", False, 2),
                                                        ("Gold leaf", True, 3)]


@pytest.mark.anki
def test_a_button_quiz_arrives_in_a_real_collection(tmp_path, cli):
    _, done = _import(cli, tmp_path, "tiere.md", WIDGETS)
    assert done.status == 0, done.err
    _, cards = built_and_imported(tmp_path, ("NCA::Tiere",))
    spider = next(c for c in cards["NCA::Tiere"] if "Spinne" in c.fields["Prompt"])
    assert "Acht" in spider.fields["Choices"] and "button" not in spider.fields["Choices"]
    assert "acht Beine" in spider.fields["Explanation"]


# --- lettered questions, their structure from the tree -------------------------------------

def test_a_hash_line_in_an_html_block_starts_no_question(tmp_path, cli):
    """Before: "# make the folder" inside <pre> was a heading, which cut the question in
    two and lost its prompt's command and the question."""
    _, done = _import(cli, tmp_path, "shell.md", """# Shell

### 1. What does this do?

<pre>
# make the folder
mkdir -p build
</pre>

A. Makes a folder and its parents
B. Removes a folder

**Answer: A**

### 2. Which command lists files?

A. ls
B. cd

**Answer: A**
""")
    assert done.status == 0, done.err
    found = written_questions(tmp_path / "source")
    assert [q[1] for q in found] == [["*Makes a folder and its parents", "Removes a folder"],
                                     ["*ls", "cd"]]
    assert found[0][0].startswith("What does this do?"), found[0][0]
    assert "# make the folder" in found[0][0] and "mkdir -p build" in found[0][0]


def test_a_details_tag_in_code_opens_no_block(tmp_path, cli):
    """Before: the `<details>` in the prompt's code span opened a block up to the
    `</details>` of the explanation, and the choices inside it were no choices (E703)."""
    _, done = _import(cli, tmp_path, "tags.md", """# HTML

### 1. Which element folds its content, `<details>` or `<div>`?

A. The first
B. The second

**Answer: A**

It closes with `</details>`.

### 2. Which element makes a line break?

A. `<br>`
B. `<hr>`

**Answer: A**
""")
    assert done.status == 0, done.err
    found = written_questions(tmp_path / "source")
    assert [q[1] for q in found] == [["*The first", "The second"], ["*`<br>`", "`<hr>`"]]


def test_a_lettered_question_without_choices_is_named_at_its_line(tmp_path, cli):
    """Before: a question heading with no choices under it was left out silently."""
    bank, done = _import(cli, tmp_path, "fruit.md", """# Fruit

### 1. Which fruit is yellow?

A. Banana
B. Plum

**Answer: A**

### 2. Which fruit has the most seeds?

**Answer: B**

### 3. Which fruit do you like best?

Any, really.

### 4. Which fruit is red?

A. Cherry
B. Lime

**Answer: A**

## 5. Citrus

### 5.1 Which is a citrus fruit?

A. Lemon
B. Apple

**Answer: A**
""")
    assert done.status == 1, done.err
    assert f"{bank}:10: error[E702]: the question 'Which fruit has the most seeds?' has an " \
        "answer line but no lettered choices" in done.err, done.err
    assert f"{bank}:14: warning[W712]: the question 'Which fruit do you like best?' has no " \
        "lettered choices" in done.err, done.err
    assert "1 error, 1 warning" in done.err  # "## 5. Citrus", a section, is no question
    assert len(written_questions(tmp_path / "source")) == 3


def test_a_task_box_or_answer_line_in_code_does_not_hide_bold_choices(tmp_path, cli):
    """Before: "- [x]" and "A. … Answer: A" written in a code block (an example in an
    explanation) made the file a checkbox or lettered quiz, and nothing was read."""
    _, done = _import(cli, tmp_path, "md.md", """# Markdown

*Which mark ticks a box in a task list?*

- **x**
- o
- v

> Written like this:
>
> ```markdown
> - [x] done
> - [ ] to do
> ```

*How does a lettered quiz write its answer?*

- As a footnote
- **On its own line**

```text
A. one
B. two
Answer: A
```
""")
    assert done.status == 0, done.err
    found = written_questions(tmp_path / "source")
    assert [q[1] for q in found] == [["*x", "o", "v"], ["As a footnote", "*On its own line"]]
    assert "- [x] done" in found[0][2]


def test_lettered_choices_with_the_right_one_in_bold_need_no_answer_line(tmp_path, cli):
    """Before: with no answer line, each question was refused (E703) or the file read as
    having none, though the page shows the right choice in bold."""
    bank, done = _import(cli, tmp_path, "rivers.md", """# Rivers

### 1. Which river is the longest?

A. Thames
**B. Nile**
C. Rhine

> It runs through eleven countries.

### 2. Which rivers flow into the North Sea?

- a) **Thames**
- b) Danube
- c) <b>Rhine</b>

### 3. Which river is in Paris?

**A. Seine**
**B. Loire**
""")
    assert done.status == 1, done.err
    found = written_questions(tmp_path / "source")
    assert found == [
        ("Which river is the longest?", ["Thames", "*Nile", "Rhine"],
         "It runs through eleven countries."),
        ("Which rivers flow into the North Sea?", ["*Thames", "Danube", "*Rhine"], "")]
    # All in bold is a style, not a mark: that question has no answer, and says so.
    assert f"{bank}:17: error[E703]" in done.err, done.err


def test_a_details_block_after_bold_choices_is_that_questions_explanation(tmp_path, cli):
    """Before: the <details> block under the first question's choices opened the second
    question's prompt, and the last question's one was text not converted (W701)."""
    _, done = _import(cli, tmp_path, "birds.md", """# Birds

*Which bird cannot fly?*

* Crow
* **Emu**

<details><summary>Why</summary>

Its wings are too small.

</details>

*Which bird sings at dawn?*

- **Blackbird**
- Ostrich

<details>
<summary>Why</summary>
To mark its ground.
</details>
""")
    assert done.status == 0 and "0 warnings" in done.err, done.err
    found = written_questions(tmp_path / "source")
    assert [(q[0], q[1]) for q in found] == [("Which bird cannot fly?", ["Crow", "*Emu"]),
                                             ("Which bird sings at dawn?", ["*Blackbird", "Ostrich"])]
    assert "Its wings are too small." in found[0][2] and "To mark its ground." in found[1][2]


def test_reading_over_the_tree_takes_time_linear_in_the_file():
    from nca_anki.importing import markdown

    lettered = ("### {n}. Which is right?\n\nA. one\n**B. two**\n\n<details><summary>Why"
                "</summary>\n\nBecause `<details>`.\n\n</details>\n\n```\n# code\n```\n\n")
    widget = ("### Q{n}\n\nWhich is right?\n\n<ol>\n<li><button onclick=\"c('{n}', '', false)\">"
              "one</button></li>\n<li><button onclick=\"c('{n}', 'yes', true)\">two</button>"
              "</li>\n</ol>\n\n")

    def read(unit: str, count: int) -> None:
        page.blocks.cache_clear()
        text = "# Bank\n\n" + "".join(unit.replace("{n}", str(n)) for n in range(1, count))
        assert len(markdown.read(text, "bank.md").sections[0].items) == count - 1

    for unit in (lettered, widget):
        short = least_cpu(lambda unit=unit: read(unit, 300))
        long = least_cpu(lambda unit=unit: read(unit, 1200))
        assert long < 8 * short, (unit[:20], short, long)


def test_a_choice_whose_paragraph_goes_on_is_one_text(tmp_path, cli):
    """Before: a choice's line that goes on under it (its paragraph, without a blank line
    or its item's indent) made it a choice of two lines, refused (E704)."""
    _, done = _import(cli, tmp_path, "tides.md", """# Tides

### 1. What causes the tides?

- A. Mostly the pull
of the moon
- B. The wind over
  the open sea

**Answer: A**

### 2. When is the tide highest?

A. At spring tide, when sun
and moon pull together
B. At neap tide

**Answer: A**
""")
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "source")] == [
        ["*Mostly the pull of the moon", "The wind over the open sea"],
        ["*At spring tide, when sun and moon pull together", "At neap tide"]]


def test_links_a_script_handles_are_text_not_a_quiz(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "readme.md", """# Tools

### Install

<p>
<a href="#" onclick="copy('pip install x')">pip</a>
<a href="#" onclick="copy('conda install x')">conda</a>
</p>
""")
    assert "E702" not in done.err and f"{bank}:3,5" in done.err, done.err  # W701: text
