"""A choice listed twice in a bank (issue 46): the same text with the same mark is one
choice, kept once and said once at the question's line (W702), in every format; the same
text marked right in one place and wrong in another is a contradiction, refused at the
question's line (E703). Texts compare as the card shows them, by the rule the build uses
(reading/seen.py): spacing aside, never case. Every bank here is written for the test."""

from __future__ import annotations

import json

import pytest

from conftest import built_and_imported, written_questions


def _import(cli, tmp_path, name, text):
    bank = tmp_path / name
    bank.write_text(text, encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "source"))
    return done, done.out + done.err


def _said(cli, tmp_path, name, text):
    """The import's status and each of its messages, one by one (--json)."""
    bank = tmp_path / name
    bank.write_text(text, encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "source"), "--json")
    return done.status, json.loads(done.out)["diagnostics"]


def _moodle(*answers: tuple[str, str], single: str = "true") -> str:
    listed = "".join(f'    <answer fraction="{f}"><text>{t}</text></answer>\n'
                     for t, f in answers)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'
            '  <question type="multichoice">\n'
            '    <questiontext format="html"><text>Which planet is red?</text></questiontext>\n'
            f"    <single>{single}</single>\n{listed}  </question>\n</quiz>\n")


# Each format with one choice written twice, the same mark both times: (file name, bank,
# what the question reads as once written).
REPEATED = {
    "json": ("planets.json", json.dumps([
        {"question": "Which planet is red?", "options": ["Mars", "Venus", "Venus", "Saturn"],
         "answer": "Mars"},
        {"question": "Which planet has rings you can see?",
         "options": ["Saturn", "Mercury", "Saturn"], "answer": "Saturn"}]),
        [("Which planet is red?", ["*Mars", "Venus", "Saturn"]),
         ("Which planet has rings you can see?", ["*Saturn", "Mercury"])]),
    "csv": ("planets.csv", "Question,A,B,C,D,Answer\n"
            "Which planet is red?,Mars,Venus,Venus,Saturn,A\n"
            "Which planet is largest?,Earth,Jupiter,Mars,Earth,B\n",
            [("Which planet is red?", ["*Mars", "Venus", "Saturn"]),
             ("Which planet is largest?", ["Earth", "*Jupiter", "Mars"])]),
    "markdown": ("planets.md", "# Planets\n\n### Which planet is red?\n\n"
                 "- [x] Mars\n- [ ] Venus\n- [ ] Venus\n- [ ] Saturn\n",
                 [("Which planet is red?", ["*Mars", "Venus", "Saturn"])]),
    "gift": ("planets.gift", "::red:: Which planet is red? {=Mars ~Venus ~Saturn ~Venus}\n",
             [("Which planet is red?", ["*Mars", "Venus", "Saturn"])]),
    "moodle": ("planets.xml", _moodle(("Mars", "100"), ("Venus", "0"), ("Venus", "0"),
                                      ("Saturn", "0")),
               [("Which planet is red?", ["*Mars", "Venus", "Saturn"])]),
    "moodle, two right": ("planets.xml", _moodle(("Mars", "50"), ("Mars", "50"),
                                                 ("Venus", "-100"), single="false"),
                          [("Which planet is red?", ["*Mars", "Venus"])]),
}


@pytest.mark.parametrize("form", REPEATED)
def test_a_choice_listed_twice_alike_is_kept_once_and_said(tmp_path, cli, form):
    name, text, expected = REPEATED[form]
    status, said = _said(cli, tmp_path, name, text)
    assert status == 0, said
    assert written_questions(tmp_path / "source", explained=False) == expected
    assert not [d for d in said if d["severity"] == "error"], said
    # once per question, at the question's own line in the input
    kept = [d for d in said if d["code"] == "W702"]
    assert len(kept) == len(expected), said
    assert all("more than once, word for word" in d["message"] and
               d["message"].endswith("kept once") for d in kept), kept


def test_the_warning_is_at_the_questions_line_and_names_each_repeat_once(tmp_path, cli):
    done, said = _import(cli, tmp_path, "moons.md", (
        "# Moons\n\nIntro text.\n\n### Which body orbits a planet?\n\n"
        "- [ ] Comet\n- [x] Moon\n- [ ] Comet\n- [ ] Asteroid\n- [ ] Asteroid\n- [ ] Comet\n"))
    assert done.status == 0, said
    assert written_questions(tmp_path / "source", explained=False) == [
        ("Which body orbits a planet?", ["Comet", "*Moon", "Asteroid"])]
    [line] = [x for x in said.splitlines() if "W702" in x]
    assert "moons.md:5:" in line, line
    assert "'Comet' more than once" in line and "(and 1 more choice listed twice alike)" \
        in line, line


@pytest.mark.parametrize(("name", "text"), [
    ("planets.json", json.dumps([
        {"question": "Which planet is red?", "options": [
            {"text": "Mars", "correct": True}, {"text": "Venus", "correct": False},
            {"text": "Mars", "correct": False}]},
        {"question": "Which planet is blue?", "options": [
            {"text": "Neptune", "correct": True}, {"text": "Mars", "correct": False}]}])),
    ("planets.md", "# Planets\n\n### Which planet is red?\n\n- [x] Mars\n- [ ] Venus\n"
     "- [ ] Mars\n\n### Which planet is blue?\n\n- [x] Neptune\n- [ ] Mars\n"),
    ("planets.gift", "::red:: Which planet is red? {=Mars ~Venus ~Mars}\n\n"
     "::blue:: Which planet is blue? {=Neptune ~Mars}\n"),
])
def test_a_choice_right_in_one_place_and_wrong_in_another_is_refused(tmp_path, cli, name,
                                                                    text):
    done, said = _import(cli, tmp_path, name, text)
    assert done.status == 1, said
    [refused] = [x for x in said.splitlines() if "error[" in x]
    assert "E703" in refused and f"{name}:" in refused, refused
    assert "'Mars' twice, once as right and once as wrong" in refused, refused
    # the question beside it is written
    assert written_questions(tmp_path / "source", explained=False) == [
        ("Which planet is blue?", ["*Neptune", "Mars"])]


def test_texts_compare_as_the_card_shows_them_spacing_aside_never_case(tmp_path, cli):
    done, said = _import(cli, tmp_path, "net.json", json.dumps([
        {"question": "Which names a network address?",
         "options": ["IP", "ip", "MAC\u00a0 address", "MAC address"], "answer": "IP"}]))
    assert done.status == 0, said
    # "IP" and "ip" are two things to a learner; two spaces and one are not
    assert written_questions(tmp_path / "source", explained=False) == [
        ("Which names a network address?", ["*IP", "ip", "MAC address"])]


@pytest.mark.anki
def test_choices_listed_twice_arrive_once_in_a_real_collection(tmp_path, cli):
    name, text, _ = REPEATED["csv"]
    done, said = _import(cli, tmp_path, name, text)
    assert done.status == 0, said
    report, cards = built_and_imported(tmp_path)
    assert not [d for d in report.diagnostics if d.code == "E118"]
    [deck] = cards.values()
    choices = sorted(c.fields["Choices"].count("nca-text") for c in deck)
    assert choices == [3, 3]
    red = next(c for c in deck if "red" in c.fields["Prompt"])
    assert red.fields["Choices"].count("Venus") == 1


def test_a_long_choice_listed_twice_is_quoted_short(tmp_path, cli):
    long = "Saturn " + "and its rings " * 400
    status, said = _said(cli, tmp_path, "long.json", json.dumps([
        {"question": "Which planet has rings?", "options": ["Saturn", long, long],
         "answer": "A"},
        {"question": "Which planet is red?", "options": [
            {"text": long, "correct": True}, {"text": "Mars", "correct": False},
            {"text": long, "correct": False}]}]))
    assert {d["code"] for d in said} >= {"W702", "E703"}, said
    assert all(len(d["message"]) <= 200 for d in said), [len(d["message"]) for d in said]
