"""A GIFT question written only as its title (issue 46, round 5): "::Which …?::" and then
the answers, no text. Moodle imports it with an empty text and shows the title (the
question's name) to teachers only; the author meant the title as the question, so the
card asks it, said once per file (W702). A question with neither stays refused. Banks
written for the test."""

from __future__ import annotations

from conftest import written_questions

BANK = """// two questions asked in their titles
::Which river is the longest?::
{=Nile ~Rhine ~Danube}

::Which planet is red?::{=Mars ~Venus}

::Plain:: Which metal is liquid? {=Mercury ~Iron}

{=alone ~without anything}
"""


def test_a_title_without_text_is_the_question(tmp_path, cli):
    bank = tmp_path / "in" / "titles.gift"
    bank.parent.mkdir()
    bank.write_text(BANK, encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "source"))
    assert done.status == 1, done.err
    assert written_questions(tmp_path / "source", explained=False) == [
        ("Which river is the longest?", ["*Nile", "Rhine", "Danube"]),
        ("Which planet is red?", ["*Mars", "Venus"]),
        ("Which metal is liquid?", ["*Mercury", "Iron"])]
    assert done.err.count("[W702]") == 1, done.err
    assert f"{bank}:2: warning[W702]: 2 questions without text but a title ('::…::', " \
           "which Moodle shows only to teachers): the title was taken as the text" \
           in done.err, done.err
    assert f"{bank}:9: error[E702]: no question text; not converted" in done.err, done.err
