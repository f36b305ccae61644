"""A structured bank's text (JSON, YAML, JavaScript, CSV) holds its lines as its author
wrote them: a numbered list, then the question's next line ("Given these steps: 1. … 2. …
Which order is right?"). Written as Markdown, that next line ran into the list's last
item on the card, and lines of text ran into one another ("A. x B. y Which…?"), where
the bank's app shows each on its own line. A line after a list that is not indented under
it is a line of its own, and so is a line after a line of text. Every bank here is
written for the test."""

from __future__ import annotations

import csv
import io
import json

import pytest

from conftest import written_questions

_PROMPT = ("Consider these kitchen steps:\n1. Boil the water\n2. Add the pasta\n"
           "3. Drain it\nAnd these tools:\nA. a pot\nB. a sieve\nWhich step comes last?")
_EXPLANATION = ("The order is:\n- boil\n- add\n- drain\nDraining ends the work.\n"
                "```\n1. kept\nas written\n```")
_RECORDS = [
    {"question": _PROMPT, "options": ["Boil", "Add", "Drain"], "answer": 2,
     "explanation": _EXPLANATION},
    {"question": "Which colour is a lemon?\n2. a second line\nthat is no list",
     "options": ["Yellow", "Blue", "Red"], "answer": 0, "explanation": "Lemons are yellow."},
]


def _csv(records: list[dict[str, object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["question", "option_a", "option_b", "option_c", "answer", "explanation"])
    for r in records:
        writer.writerow([r["question"], *r["options"], "ABC"[r["answer"]],  # type: ignore[misc,index]
                         r["explanation"]])
    return out.getvalue()


@pytest.mark.parametrize(("suffix", "write"), [
    ("json", json.dumps),
    ("yaml", json.dumps),
    ("js", lambda data: "const quiz = " + json.dumps(data, indent=2) + ";\n"),
    ("csv", _csv),
])
def test_a_line_after_a_list_is_not_its_last_item(tmp_path, cli, suffix, write):
    from nca_anki.cards.markup import Markdown

    bank = tmp_path / f"steps.{suffix}"
    bank.write_text(write(_RECORDS), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    questions = {prompt.split("\n")[0].rstrip("\\"): (prompt, explanation)
                 for prompt, _, explanation in written_questions(tmp_path / "out")}
    prompt, explanation = questions["Consider these kitchen steps:"]
    shown = Markdown().block(prompt).html
    assert "<li>Drain it</li>" in shown, shown
    assert "<p>And these tools:<br />\nA. a pot<br />\nB. a sieve<br />\n" \
           "Which step comes last?</p>" in shown.replace("<br>", "<br />"), shown
    why = Markdown().block(explanation).html
    assert "<li>drain</li>" in why and "<p>Draining ends the work.</p>" in why, why
    assert "1. kept\nas written" in explanation  # code stays as it is
    # A numbered line that starts no list (Markdown's lists interrupt a paragraph only
    # from 1) is a line of the paragraph, as the lines around it.
    prompt, _ = questions["Which colour is a lemon?"]
    shown = Markdown().block(prompt).html.replace("<br>", "<br />")
    assert shown == ("<p>Which colour is a lemon?<br />\n2. a second line<br />\n"
                     "that is no list</p>"), shown


def test_the_line_breaks_of_html_texts_are_layout(tmp_path, cli):
    records = [{"question": f"<p>Which <b>tag</b> {n}\nopens a link?</p>",
                "options": ["<code>&lt;a&gt;</code>", "<code>&lt;b&gt;</code>"], "answer": 0}
               for n in ("first", "second")]
    bank = tmp_path / "html.json"
    bank.write_text(json.dumps(records), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    prompts = [prompt for prompt, _, _ in written_questions(tmp_path / "out")]
    assert "HTML texts" in done.err, done.err
    assert len(prompts) == 2 and not any("\\" in p for p in prompts), prompts


def test_a_backslash_that_ends_a_line_of_text_stays_on_the_card(tmp_path, cli):
    # "C:\" then another line: the writer's hard break used to be the author's backslash,
    # so the card showed "C:" and lost the backslash.
    from nca_anki.cards.markup import Markdown

    bank = tmp_path / "paths.json"
    bank.write_text(json.dumps([{"question": "Which drive is C:\\\nthe first one?",
                                 "options": ["D:\\\\", "E:"], "answer": 0}]),
                    encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    [(prompt, _, _)] = written_questions(tmp_path / "out")
    shown = Markdown().block(prompt).html.replace("<br />", "<br>")
    assert "Which drive is C:\\<br>" in shown and "the first one?" in shown, shown
