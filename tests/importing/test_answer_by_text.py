"""An answer line that gives the right choice by its words, under unlabelled choice
lines (issue 46, round five): "3) prompt", a line for each choice, "Correcta: text" and
an explanation, in spoiler tags or bold; the choices are the lines between."""

from __future__ import annotations

from pathlib import Path

from conftest import written_questions


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


SPOILERS = """## Test 1

1) ¿Qué río pasa por Sevilla?

El Tajo.~~
El Guadalquivir.~~
El Ebro.~~
<span class="spoiler">CORRECTA: El Guadalquivir.</span>~~
<span class="spoiler">JUSTIFICACIÓN: Nace en Jaén y llega al mar en Sanlúcar.</span>

---

2) ¿Cuál es la capital de Portugal?

Oporto.

Lisboa.

<p class="spoiler">Correcta: lisboa</p>
<p class="spoiler">Justificación: Está en la desembocadura del Tajo.</p>

---

3) Which planet is red?

Venus
Mars

**Answer:** Mars
""".replace("~~", "  ")  # hard line breaks


def test_an_answer_given_by_its_words_names_the_choice_that_says_them(tmp_path, cli):
    _, done = _import(cli, tmp_path, "rios.md", SPOILERS)
    assert done.status == 0, done.err
    assert list(written_questions(tmp_path / "source")) == [
        ("¿Qué río pasa por Sevilla?", ["El Tajo.", "*El Guadalquivir.", "El Ebro."],
         "Nace en Jaén y llega al mar en Sanlúcar."),
        ("¿Cuál es la capital de Portugal?", ["Oporto.", "*Lisboa."],
         "Está en la desembocadura del Tajo."),
        ("Which planet is red?", ["Venus", "*Mars"], ""),
    ]


def test_words_that_no_choice_says_answer_nothing(tmp_path, cli):
    text = "1) Which planet is red?\n\nVenus\nMars\n\nAnswer: Jupiter\n"
    _, done = _import(cli, tmp_path, "planets.md", text)
    assert list(written_questions(tmp_path / "source")) == []
