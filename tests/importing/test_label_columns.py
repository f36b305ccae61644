"""A spreadsheet with a column of labels beside each choice's text (``o1, p1, o2, p2 …``
holding ``(1)`` or ``A`` beside the texts): the labels are no choices, the texts beside
them are, decided once per bank and said in W704 (issue 46). Every bank here is written
for the test."""

from __future__ import annotations


import pytest

from conftest import written_questions



_BIRDS = [("Which bird cannot fly?", ["Sparrow", "Penguin", "Swallow"], 1),
          ("Which bird is the largest?", ["Ostrich", "Robin", "Wren"], 0),
          ("Which bird hoots at night?", ["Gull", "Heron", "Owl"], 2),
          ("Which bird mimics speech?", ["Parrot", "Crow", "Duck"], 0)]
_EXPECTED = [(q, [("*" if k == right else "") + t for k, t in enumerate(texts)])
             for q, texts, right in _BIRDS]


def _bank(labels: list[str], *, interleaved: bool, sep: str, names=("q", "o", "p", "r")
          ) -> str:
    q, o, p, r = names
    if interleaved:
        head = [q, *(x for k in range(3) for x in (f"{o}{k + 1}", f"{p}{k + 1}")), r]
    else:
        head = [q, *(f"{o}{k + 1}" for k in range(3)), *(f"{p}{k + 1}" for k in range(3)), r]
    rows = [sep.join(head)]
    for prompt, texts, right in _BIRDS:
        cells = [x for k in range(3) for x in (labels[k], texts[k])] if interleaved else \
            [*labels, *texts]
        rows.append(sep.join([prompt, *cells, labels[right]]))
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize(("labels", "interleaved", "sep", "names", "suffix"), [
    (["(1)", "(2)", "(3)"], True, "\t", ("pergunta", "o", "p", "resposta"), "tsv"),
    (["A", "B", "C"], True, ",", ("question", "o", "p", "answer"), "csv"),
    (["1", "2", "3"], False, ";", ("frage", "nr", "text", "antwort"), "csv"),
    (["a)", "b)", "c)"], True, "\t", ("pregunta", "l", "opcion", "correcta"), "tsv"),
])
def test_label_columns_beside_the_texts_are_no_choices(tmp_path, cli, labels, interleaved,
                                                       sep, names, suffix):
    bank = tmp_path / f"birds.{suffix}"
    bank.write_text(_bank(labels, interleaved=interleaved, sep=sep, names=names),
                    encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    said = done.out + done.err
    assert done.status == 0, said
    assert written_questions(tmp_path / "out", explained=False) == _EXPECTED
    w704 = [line for line in said.splitlines() if "W704" in line]
    assert len(w704) == 1, said
    o = names[1]
    assert f"labels '{o}1', '{o}2', '{o}3'" in w704[0], w704[0]


def test_labels_that_are_the_texts_own_columns_are_still_choices(tmp_path, cli):
    # one-letter choices of their own, not labels beside texts: nothing else to take
    bank = tmp_path / "grades.csv"
    bank.write_text("question,o1,o2,o3,answer\n"
                    "Which grade is the best?,A,B,C,A\n"
                    "Which grade is the middle one?,A,B,C,B\n", encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert written_questions(tmp_path / "out", explained=False) == [("Which grade is the best?", ["*A", "B", "C"]),
                                            ("Which grade is the middle one?",
                                             ["A", "*B", "C"])]
    assert "their labels" not in done.out + done.err


@pytest.mark.anki
def test_label_columns_arrive_in_anki_as_the_texts_beside_them(tmp_path, cli):
    from conftest import as_read, built_and_imported

    bank = tmp_path / "birds.tsv"
    bank.write_text(_bank(["(1)", "(2)", "(3)"], interleaved=True, sep="\t",
                          names=("pergunta", "o", "p", "resposta")), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path, source="out")
    cards = {prompt: choices for each in decks.values() for prompt, choices, _ in
             map(as_read, each)}
    assert {q: sorted(c) for q, c in cards.items()} == {q: sorted(c) for q, c in _EXPECTED}
