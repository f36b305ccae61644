"""Quizzes in Obsidian and GitHub callouts (issue 46, round 4): a question box (`> [!question]
…`) with its choices inside, and a folded answer box (`> > [!success]- Answer`) inside it or
under it, read as the page shows them; other callouts stay quotes."""

from __future__ import annotations

from conftest import written_questions

from pathlib import Path

from nca_anki.importing import callouts, page


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return cli("import", str(bank), "--out", str(tmp_path / "source"))


LETTERED = """# Addresses

> [!question] Which mask has 24 bits?
> a) 255.0.0.0
> b) 255.255.255.0
> c) 255.255.0.0
>> [!success]- Answer
>> b) 255.255.255.0
>> Three full octets.

> [!question] Which port does SSH use?
> a) 22
> b) 80
>
> > [!success]- Answer
> > a) 22
"""


def test_lettered_choices_in_a_question_box_answered_in_a_folded_box(tmp_path, cli):
    """Failed before: every question was text that is no question, none written."""
    done = _import(cli, tmp_path, "net.md", LETTERED)
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("Which mask has 24 bits?", ["255.0.0.0", "*255.255.255.0", "255.255.0.0"],
         "Three full octets."),
        ("Which port does SSH use?", ["*22", "80"], "")]


def test_plain_choices_answered_by_their_words_in_a_folded_box(tmp_path, cli):
    """Failed before: no question read. The answer box names the choice by its words."""
    done = _import(cli, tmp_path, "fn.md", """# Functions

> [!question] Question 1 What makes a function run?
>
> - A binding
> - A trigger
>
> > [!success]- Answer
> > A trigger

> [!question] Question 2 Which settings take a direction?
>
> - Bindings
> - Triggers
>
> > [!success]- Answer
> > Bindings
> > Only bindings have one.

> [!note]
> Study the bindings page too.
""")
    assert done.status == 0, done.err
    found = written_questions(tmp_path / "source")
    assert [(p, c) for p, c, _ in found] == [
        ("What makes a function run?", ["A binding", "*A trigger"]),
        ("Which settings take a direction?", ["*Bindings", "Triggers"])]
    assert found[1][2].startswith("Only bindings have one.")


def test_callouts_keep_every_line_in_its_place_and_code_as_code():
    text = ("> [!question] Q?\n> a) x\n> b) y\n>> [!success]- Answer\n>> a) x\n\n"
            "```\n> [!question] in code\n```\n")
    unfolded = callouts.unfolded(text, page.code_lines(text))
    assert len(unfolded.split("\n")) == len(text.split("\n"))
    assert unfolded.split("\n")[:5] == ["### Q?", "a) x", "b) y", "Answer: a) x", ""]
    assert "> [!question] in code" in unfolded
    assert callouts.has_quiz(text) and not callouts.has_quiz("> [!note]\n> A note.\n")


def test_many_callouts_are_read_in_linear_time():
    import time
    def cost(n: int) -> float:
        text = "".join(f"> [!question] Q{n}?\n> - a{k}\n> - b{k}\n>> [!success]- Answer\n"
                       f">> a{k}\n\n" for k in range(n))
        start = time.process_time()
        callouts.unfolded(text, page.code_lines(text))
        return time.process_time() - start
    small, large = cost(5000), cost(20000)
    assert large < small * 8, (small, large)
