"""Issue 46 (round five): a bank assigned to a property (``window.X =``, ``globalThis.X
=``, ``self.X =``, ``module.exports.X =``, ``exports.X =``, ``this.X =``) is read like
``const X =``; wrong answers written as one text joined by " / " (or ";" or " | ") are
a list, and a question with none is refused at its line, not the file."""

from __future__ import annotations

import pytest

from nca_anki.importing import typescript

_ITEMS = """[
  {"question": "Which planet do people call the red one?", "answer": "Mars",
   "choice": "Venus / Jupiter / Saturn"},
  {"question": "Which ocean is the largest of all?", "answer": "Pacific",
   "choice": "Indian / Arctic"},
  {"question": "Type the capital of Norway", "answer": "Oslo / oslo", "choice": ""}
]"""


def _read(text: str):
    reading = typescript.read(text, "bank.js")
    items = [(i.prompt, [(c.text, c.correct) for c in i.choices])
             for s in reading.sections for i in s.items]
    return items, [str(d) for d in reading.problems]


@pytest.mark.parametrize("target", ["window.BANK", "globalThis.BANK", "self.BANK",
                                    "module.exports.BANK", "exports.BANK", "this.BANK",
                                    "const BANK"])
def test_a_property_assignment_holds_data(target: str) -> None:
    items, said = _read(f"{target} = {_ITEMS};\n")
    assert items == [
        ("Which planet do people call the red one?",
         [("Mars", True), ("Venus", False), ("Jupiter", False), ("Saturn", False)]),
        ("Which ocean is the largest of all?",
         [("Pacific", True), ("Indian", False), ("Arctic", False)])], said
    assert any("split at '/'" in s for s in said), said
    # the typed-answer question has no wrong ones: refused at its own line, truly
    assert any(":6: error[E702]" in s and "only one choice" in s for s in said), said


def test_a_slash_inside_a_word_is_no_list() -> None:
    items, _ = _read('window.B = [{"question": "Which unit measures speed here?", '
                     '"answer": "km/h", "choice": "kg/m / m/s2"}, {"question": "Which '
                     'one is a protocol name?", "answer": "TCP/IP", "choice": "A/B / C/D"}];')
    assert [c for _, cs in items for c, _ in cs] == ["km/h", "kg/m", "m/s2", "TCP/IP", "A/B",
                                                     "C/D"]
