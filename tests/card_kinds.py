"""One card of every kind a bank makes, built by this checkout and rendered by the real
``anki`` backend, for the tests that look at the card in a browser as learners meet it.

``every_kind(root, language)`` builds the seeds with the fixture banks of
tests/fixtures/real-shaped/ and exam-shaped/ and a question whose choices name others by
letter, imports them into a new collection, then removes one question, rebuilds and
imports again (a learner's retired card), and returns each kind's card with the media it
shows. The clock is fixed, so the same checkout gives the same cards.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from card_browser import CardHtml

REPO = Path(__file__).resolve().parent.parent

LETTERS = """Letter Reference 1 — Questions and Answers
Question 1: Which statements about reduced precision are true?
- FP16 halves activation memory
- BF16 keeps the exponent range of FP32
- Both A and B (Correct answer)
- Neither
Correct answer: Both A and B
Both hold: FP16 and BF16 are 16-bit formats; BF16 keeps FP32's 8 exponent bits.
"""

# kind -> (deck, words of its prompt)
KINDS: dict[str, tuple[str, str]] = {
    "single": ("NCA::Neural Network Applications and Frameworks", "What is model quantization"),
    "several": ("NCA::Generative AI", "Which three are decoding strategies"),
    "code-prompt": ("NCA::Systems Programming", "What does this program print"),
    "code-choices": ("NCA::Systems Programming", "Which docstring holds a doctest"),
    "table": ("NCA::GPU Infrastructure", "Based on the table below"),
    "letters": ("NCA::Letter Reference", "Which statements about reduced precision"),
    "diagram": ("NCA::Training Diagnostics", "which stack is the encoder"),
    "plots": ("NCA::Training Diagnostics", "Which shows overfitting"),
    "retired": ("NCA::Neural Network Applications and Frameworks", "What is model quantization"),
}
_RETIRED_PROMPT = KINDS["retired"][1]


def _card(col, deck: str, prompt: str) -> CardHtml:
    from anki_client import cards_in_deck

    view = next(c for c in cards_in_deck(col, deck) if prompt in c.question_html)
    media = Path(col.media.dir())
    names = sorted(set(re.findall(r'src="(nca-[^"]+)"', view.question_html + view.answer_html)))
    return CardHtml(view.question_html, view.answer_html, view.css,
                    media=tuple((name, (media / name).read_bytes()) for name in names))


# Which fixture bank (besides the seeds and LETTERS) each kind needs.
_BANK = {"several": "exam-shaped", "diagram": "exam-shaped", "plots": "exam-shaped",
         "code-prompt": "real-shaped", "code-choices": "real-shaped", "table": "real-shaped"}


# Every kind carries a report link (report_url), so what checks the card checks it too.
REPORT_URL = ("https://example.org/issues/new?fingerprint={fingerprint}&guid={guid}"
              "&deck={deck}&version={version}&source={file}%3A{line}&pick={pick}"
              "&verdict={verdict}")


def every_kind(root: Path, language: str = "en",
               only: tuple[str, ...] = tuple(KINDS)) -> dict[str, CardHtml]:
    """Each kind of KINDS (or of ``only``), built in ``root`` with the card's words in
    ``language`` and a report link (REPORT_URL)."""
    from anki_client import import_package, open_collection
    from nca_anki.build import BuildOptions, build

    source = root / "source"
    shutil.copytree(REPO / "source", source)
    for bank in sorted({_BANK[kind] for kind in only if kind in _BANK}):
        shutil.copytree(REPO / "tests" / "fixtures" / bank, source, dirs_exist_ok=True)
    (source / "letter-reference-1.txt").write_text(LETTERS, encoding="utf-8")
    (source / "nca-anki.toml").write_text(f'language = "{language}"\nreport_url = '
                                          f'"{REPORT_URL}"\n', encoding="utf-8")

    def built(now: int) -> None:
        report = build(BuildOptions(source, REPO / "templates", root / "dist", now=now,
                                    cache=root / "cache"))
        assert report.ok, [str(d) for d in report.diagnostics]

    built(1_800_000_000)
    col = open_collection(root / "anki" / "collection.anki2")
    try:
        for apkg in sorted((root / "dist").glob("*.apkg")):
            import_package(col, apkg)
        cards = {kind: _card(col, deck, prompt) for kind, (deck, prompt) in KINDS.items()
                 if kind != "retired" and kind in only}
        if "retired" not in only:
            return cards
        # The authors remove a question; the learner imports the rebuilt decks.
        path = next(p for p in source.glob("*.txt")
                    if _RETIRED_PROMPT in p.read_text(encoding="utf-8"))
        lines = path.read_bytes().split(b"\n")
        start = next(i for i, line in enumerate(lines)
                     if line.startswith(b"Question ") and _RETIRED_PROMPT.encode() in line)
        del lines[start:start + 7]  # header, four choices, answer, explanation
        path.write_bytes(b"\n".join(lines))
        built(1_800_086_400)
        for apkg in sorted((root / "dist").glob("*.apkg")):
            import_package(col, apkg)
        cards["retired"] = _card(col, *KINDS["retired"])
        assert "nca-retired" in cards["retired"].question, "the question was not retired"
    finally:
        col.close()
    return cards
