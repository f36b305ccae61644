"""Lists of the wrong answers named in the singular (``errada``, ``falso``,
``incorrecta``, ``sbagliata``, ``wrong_answer``) beside the right answer, and a bank
whose values decide it while one record breaks the pattern (issue 46). Every bank here is
written for the test."""

from __future__ import annotations

import json

import pytest

from conftest import written_questions



_TREES = [("Which tree loses its needles in winter?", "Larch", ["Pine", "Spruce", "Fir"]),
          ("Which tree gives acorns?", "Oak", ["Beech", "Birch"]),
          ("Which tree gives maple syrup?", "Sugar maple", ["Ash", "Elm", "Willow"]),
          ("Which tree has white bark?", "Birch", ["Oak", "Yew"]),
          ("Which tree gives conkers?", "Horse chestnut", ["Lime", "Alder"])]


def _expected(rows=_TREES):
    return [(q, ["*" + right, *wrong]) for q, right, wrong in rows]


@pytest.mark.parametrize(("prompt", "right", "wrong"), [
    ("pergunta", "resposta", "errada"),           # Portuguese
    ("pergunta", "resposta", "errado"),
    ("pergunta", "certo", "falso"),
    ("pregunta", "respuesta", "incorrecta"),      # Spanish
    ("pregunta", "correcta", "falsa"),
    ("domanda", "risposta", "sbagliata"),         # Italian
    ("question", "answer", "wrong_answer"),
])
def test_a_wrong_list_named_in_the_singular(tmp_path, cli, prompt, right, wrong):
    bank = tmp_path / "trees.json"
    bank.write_text(json.dumps([{prompt: q, right: r, wrong: w} for q, r, w in _TREES],
                               ensure_ascii=False), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.out + done.err
    assert written_questions(tmp_path / "out", explained=False) == _expected()
    said = done.out + done.err
    assert f"the right choice '{right}' and the wrong ones '{wrong}'" in said
    assert "(no answer is among them)" not in said  # the name said it, not only the values


@pytest.mark.parametrize("odd", [
    ("Which letter names the vitamin in citrus fruit?", "C", ["A", "K", "D"]),  # one letter
    ("Which tree is evergreen?", "Holly", ["Holly", "Oak"]),  # listed among the wrong ones
])
def test_one_odd_record_does_not_undo_what_the_values_say(tmp_path, cli, odd):
    # names that say nothing: the values decide that "alts" lists the wrong ones only
    rows = [*_TREES[:3], odd, *_TREES[3:]]
    bank = tmp_path / "trees.yaml"
    bank.write_text(json.dumps([{"q": q, "x": r, "alts": w} for q, r, w in rows]),
                    encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    said = done.out + done.err
    assert "the right choice 'x' and the wrong ones 'alts'" in said
    if odd[1] == "C":  # a one-letter right answer is still the right answer
        assert done.status == 0, said
        assert written_questions(tmp_path / "out", explained=False) == _expected(rows)
    else:  # the source lists the right one among the wrong ones: refused at its line
        assert done.status == 1, said
        assert "[3].alts: the right answer 'Holly' is also listed among the wrong ones" in said
        assert written_questions(tmp_path / "out", explained=False) == _expected(_TREES)
