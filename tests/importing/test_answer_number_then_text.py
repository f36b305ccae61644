"""An answer line that names a numbered choice in bold, its explanation after the bold
on the same line (issue 46, round five): "**Réponse : 2**. Because …" — the text after
the number is the explanation's first line, not the answer's words; "**Answer 2**."
without a colon is an answer line too."""

from __future__ import annotations

from pathlib import Path

from conftest import written_questions


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


WRAPPED = """### Quel fleuve traverse Lyon ?

1.  la Loire
2.  le Rhône
3.  la Garonne

**Réponse : 2**. Le Rhône traverse Lyon et y reçoit les eaux de
la Saône, qui vient du nord.

### Quelle ville est la capitale de la Bretagne ?

1.  Brest
2.  Rennes

**Réponse 2**. Rennes est la capitale de la région depuis
longtemps.

### Which sea lies east of Italy?

1.  the Adriatic
2.  the Baltic

**Answer: 1.** The Adriatic lies between Italy and the
Balkans.
"""


def test_text_after_a_bold_numbered_answer_is_the_explanation(tmp_path, cli):
    _, done = _import(cli, tmp_path, "fleuves.md", WRAPPED)
    assert done.status == 0, done.err
    assert "W711" not in done.err
    assert list(written_questions(tmp_path / "source")) == [
        ("Quel fleuve traverse Lyon ?", ["la Loire", "*le Rhône", "la Garonne"],
         "Le Rhône traverse Lyon et y reçoit les eaux de\nla Saône, qui vient du nord."),
        ("Quelle ville est la capitale de la Bretagne ?", ["Brest", "*Rennes"],
         "Rennes est la capitale de la région depuis\nlongtemps."),
        ("Which sea lies east of Italy?", ["*the Adriatic", "the Baltic"],
         "The Adriatic lies between Italy and the\nBalkans."),
    ]


NESTED = """### Quelles villes sont au bord de la mer ?

1.  1.  Marseille, un grand port
        de la Méditerranée
    2.  Lyon
    3.  Dijon

**Réponse : 1.** Marseille est un port.
"""


def test_choices_in_a_numbered_list_nested_in_one_item_are_read(tmp_path, cli):
    _, done = _import(cli, tmp_path, "villes.md", NESTED)
    assert done.status == 0, done.err
    assert list(written_questions(tmp_path / "source")) == [
        ("Quelles villes sont au bord de la mer ?",
         ["*Marseille, un grand port de la Méditerranée", "Lyon", "Dijon"],
         "Marseille est un port."),
    ]


STATEMENTS = """## Question 1

**QUESTION**: Which statements about rivers are true?
I. They flow downhill.
II. They are salty.
III. They reach a sea or a lake.

**OPTIONS**:
a) I only
b) II only
c) II & III
d) I & III
e) None of the above

**CORRECT ANSWER**: **(d) I & III**

## Question 2

**QUESTION**: Which expression is simplified?

**OPTIONS**:
a) A + A
b) A + B' + C
c) A . A

**CORRECT ANSWER**: **(b) A + B' + C**
"""


def test_words_after_a_bracketed_letter_are_no_letters(tmp_path, cli):
    _, done = _import(cli, tmp_path, "rivers.md", STATEMENTS)
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "source")] == [
        ["I only", "II only", "II & III", "*I & III", "None of the above"],
        ["A + A", "*A + B' + C", "A . A"],
    ]
