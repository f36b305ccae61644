"""Issue 46 (round five): a bank whose answers are the right choice's text, with a
number here and there, says so in its W704, not that its answers are counted from 1."""

from __future__ import annotations

from nca_anki.importing import typescript

_BANK = """export const quiz = [
  {question: "Which gas do plants take in from the air?", options: ["Oxygen", "Carbon dioxide",
   "Helium"], answer: "Carbon dioxide"},
  {question: "Which is the longest river of Africa?", options: ["Nile", "Congo", "Niger"],
   answer: "Nile"},
  {question: "Which animal is known for black and white stripes?", options: ["Zebra",
   "Lion", "Horse"], answer: "Zebra"},
  {question: "How many legs has an insect, the right choice counted?",
   options: ["Four legs", "Eight legs", "Six legs"], answer: "3"}
];
"""


def test_answers_mostly_texts_are_said_as_texts() -> None:
    said = " ".join(str(d) for d in typescript.read(_BANK, "bank.ts").problems)
    assert "answer 'answer', a choice's text (1 of 4 a number, counted from" in said, said
