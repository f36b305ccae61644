"""Shapes of real Markdown banks read as their page shows them (issue 46, round 4): a
paragraph of choices each after a box ("☐ Oak  ☑ **Ash**", on one line or one a line
with <br>), choices further under the heading that asks (its code between), a heading's
number written against its first word ("## 9.What"), a heading that is only the
question's label and number ("# Frage 3"), and a file whose lettered choices have no
question header, said rather than silent."""

from __future__ import annotations

from conftest import written_questions

from pathlib import Path

from nca_anki.importing import cues


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return cli("import", str(bank), "--out", str(tmp_path / "source"))


def test_boxes_split_a_paragraph_into_choices():
    assert cues.boxed("☐ Oak  ☐ Elm   ☑ **Ash**") == [("Oak", False), ("Elm", False),
                                                    ("**Ash**", True)]
    assert cues.boxed("☐ Oak <br>\n☑ Ash <br>\n☐ Elm") == [("Oak", False), ("Ash", True),
                                                         ("Elm", False)]
    assert cues.boxed("☑ yes ☐  no☐  maybe") == [("yes", True), ("no", False), ("maybe", False)]
    assert cues.boxed("Pick ☐ Oak ☑ Ash") is None  # text before the first box: a sentence
    assert cues.boxed("☑ Oak ☑ Ash") is None and cues.boxed("☐ Oak ☐ Ash") is None
    assert cues.boxed("☑ Oak ☐") is None  # a box with no choice after it


BOXED = """# Woods

## 1. Which wood is hardest?

☐ Pine  ☐ Balsa    ☑ **Ebony**

Ebony sinks in water.

## 2.What does this print?

```python
print(len("oak"))
```

☐ 2 <br>
☑ **3** <br>
☐ 4

`len` counts the letters.

## 3. Is cork a bark?

☑ True ☐  False
"""


def test_a_paragraph_of_boxed_choices_is_the_questions_choices(tmp_path, cli):
    """Failed before: every question was text that is no question (W701), none written."""
    done = _import(cli, tmp_path, "woods.md", BOXED)
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("Which wood is hardest?", ["Pine", "Balsa", "*Ebony"], "Ebony sinks in water."),
        ("What does this print?\n\n```python\nprint(len(\"oak\"))\n```", ["2", "*3", "4"],
         "`len` counts the letters."),
        ("Is cork a bark?", ["*True", "False"], "")]


def test_signed_choices_under_the_questions_code_are_its_choices(tmp_path, cli):
    """Failed before: a marked list not right under its heading was no question (W701)."""
    done = _import(cli, tmp_path, "out.md", """# Output

## 4. What does this print?

```python
print(2 * 3)
```

- 5
- 6 ✅
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "source")] == [
        ("What does this print?\n\n```python\nprint(2 * 3)\n```", ["5", "*6"])]


def test_a_notes_heading_over_a_list_with_ticks_and_text_between_is_no_question(tmp_path,
                                                                                  cli):
    done = _import(cli, tmp_path, "notes.md", """# Status

## Release plan

The plan for the spring.

- Docs ✅
- Tests
""")
    assert done.status == 1 and "warning[W701]" in done.err, done.err
    assert not list((tmp_path / "source").glob("*.txt"))


def test_a_heading_that_only_labels_and_numbers_the_question_is_not_its_text(tmp_path,
                                                                             cli):
    """Failed before: the prompt began "Frage 3" / "Question 7", the page's numbering."""
    done = _import(cli, tmp_path, "fragen.md", """# Farben

# Frage 3
Welche Farbe hat der Himmel?
- [ ] Grün
- [x] Blau

# Frage 4
Welche Farbe hat Gras?
- [x] Grün
- [ ] Rot
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "source")] == [
        ("Welche Farbe hat der Himmel?", ["Grün", "*Blau"]),
        ("Welche Farbe hat Gras?", ["*Grün", "Rot"])]
    done = _import(cli, tmp_path / "b", "kafka.md", """# Streams

## Question 7

Which language are streams apps written in?

- A. Java
- B. Cobol

**Answer:** A
""")
    assert done.status == 0, done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "b" / "source")] == [
        ("Which language are streams apps written in?", ["*Java", "Cobol"])]


def test_a_heading_with_a_title_after_its_label_keeps_the_title(tmp_path, cli):
    done = _import(cli, tmp_path, "kafka.md", """# Streams

## Question 1: Topic settings

How do you show a topic's settings?

- A. Describe it
- B. Delete it

**Answer:** A
""")
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "source")[0][0] == \
        "Topic settings\n\nHow do you show a topic's settings?"


def test_lettered_choices_under_no_header_are_said_not_silent(tmp_path, cli):
    """Failed before: "read 0 questions", no error and no warning: the file looked empty."""
    done = _import(cli, tmp_path, "loose.md", """__Practice question__

Which is a fruit?

A. Plum
B. Leek
""")
    assert done.status == 1 and "warning[W701]" in done.err, done.err


def test_a_section_of_notes_with_some_items_in_bold_is_no_question(tmp_path, cli):
    """Failed before: a notes file's "### Broker:" over a list with bold items was read as
    a question, its bold items the right choices (or refused for having 40 choices)."""
    many = "\n".join(f"- {'**' if n % 3 == 0 else ''}Fact {n}{'**' if n % 3 == 0 else ''}"
                     for n in range(12))
    done = _import(cli, tmp_path, "review.md", f"""# Review

### Broker:

- **Brokers** host the topics.
- Any broker answers metadata requests.

#### Hardware

- **Plenty of memory**
- A fast disk

### Facts?

{many}
""")
    assert done.status == 1 and "error" not in done.err.split("warnings")[-1], done.err
    assert "warning[W701]" in done.err and not list((tmp_path / "source").glob("*.txt"))


def test_questions_labelled_by_a_line_of_their_own_with_a_list_of_marked_letters(tmp_path,
                                                                                 cli):
    """Failed before: no question has a header, so none was read and none was said
    ("read 0 questions", no error, no warning); the right letters were in a list under an
    "__Answers__" label, "- B - Correct"."""
    done = _import(cli, tmp_path, "brand.md", """__Practice Question__

A baker sells bread that is always late. What does the bakery lack?

A. A logo
B. Reliability
C. Flour

__Suggested Answers__

- A
- B - Correct
- C

__Practice Question__

Which two are grains?

A. Rye
B. Salt
C. Oats

__Suggested Answers__

- A ✅
- B
- C ✅
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "source")] == [
        ("A baker sells bread that is always late. What does the bakery lack?",
         ["A logo", "*Reliability", "Flour"]),
        ("Which two are grains?", ["*Rye", "Salt", "*Oats"])]


def test_a_prompt_in_bold_right_above_its_lettered_choices_starts_a_question(tmp_path, cli):
    """Failed before: with no heading and no number, nothing was read, nothing said."""
    done = _import(cli, tmp_path, "gas.md", """# Plants

**Which gas do leaves take in?**

A. Oxygen
B. Carbon dioxide

Answer: B

**Which part holds the seeds?**

A. Fruit
B. Root

Answer: A
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "source")] == [
        ("Which gas do leaves take in?", ["Oxygen", "*Carbon dioxide"]),
        ("Which part holds the seeds?", ["*Fruit", "Root"])]


def test_the_text_above_an_answer_at_the_end_of_a_details_block_is_its_explanation(tmp_path,
                                                                                   cli):
    """Failed before: the paragraph inside the <details> block above its closing
    "**Answer:** B" was dropped, and the card had no explanation."""
    done = _import(cli, tmp_path, "tls.md", """# Security

## Question 20

Which protocol encrypts but does not authenticate?

- A. PLAINTEXT
- B. SSL

<details>
<summary>Response:</summary>

SSL encrypts the channel; it does not say who the client is.

**Answer:** B

</details>
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("Which protocol encrypts but does not authenticate?", ["PLAINTEXT", "*SSL"],
         "SSL encrypts the channel; it does not say who the client is.")]


def test_a_details_block_left_open_at_the_files_end_holds_the_rest(tmp_path, cli):
    """Failed before: the last question's <details> was never closed; its explanation
    was read as more of the prompt."""
    done = _import(cli, tmp_path, "end.md", """# Security

## Question 21

Which port does TLS on the web use?

- A. 80
- B. 443

<details>
<summary>Response:</summary>

HTTPS listens on 443.

**Answer:** B
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("Which port does TLS on the web use?", ["80", "*443"], "HTTPS listens on 443.")]
