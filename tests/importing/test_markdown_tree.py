"""Markdown read as the page GitHub shows (issue 46): the blocks markdown-it finds decide
what is a heading, an item, a quote, code or the inside of a <details> block, and quiz
widgets written in HTML say their right choice in their markup."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import built_and_imported
from growth import least_cpu
from nca_anki.importing import page
from nca_anki.reading.parse import parse


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


def _questions(out: Path) -> list[tuple[str, list[str], str]]:
    found = []
    for path in sorted(out.glob("*.txt")):
        result = parse(path.read_text(encoding="utf-8"), path.name)
        assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
        found += [(q.prompt, [("*" if c.correct else "") + c.text for c in q.choices],
                   q.explanation) for q in result.file.questions]
    return found


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
    short = least_cpu(lambda: page.blocks(unit * 500))
    long = least_cpu(lambda: page.blocks(unit * 2000))
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
    """Before: each question refused (E702), though its markup names the right one."""
    _, done = _import(cli, tmp_path, "tiere.md", WIDGETS)
    assert done.status == 0, done.err
    assert _questions(tmp_path / "source") == [
        ("Frage 1\n\nWie viele Beine hat eine Spinne?", ["Sechs", "*Acht", "Zehn"],
         "Spinnen sind Spinnentiere: acht Beine."),
        ("Frage 2\n\nWelches Tier legt Eier?", ["Hund", "*Huhn"], ""),
        ("Frage 3\n\nWelcher Vogel kann nicht fliegen?", ["Amsel", "*Pinguin"], "")]


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


@pytest.mark.anki
def test_a_button_quiz_arrives_in_a_real_collection(tmp_path, cli):
    _, done = _import(cli, tmp_path, "tiere.md", WIDGETS)
    assert done.status == 0, done.err
    _, cards = built_and_imported(tmp_path, ("NCA::Tiere",))
    spider = next(c for c in cards["NCA::Tiere"] if "Spinne" in c.fields["Prompt"])
    assert "Acht" in spider.fields["Choices"] and "button" not in spider.fields["Choices"]
    assert "acht Beine" in spider.fields["Explanation"]
