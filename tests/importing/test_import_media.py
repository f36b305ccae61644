"""Images an import writes (issue 45, 17b and 20): every name it gives one is one a file
system takes, however the input names it; an image that cannot be written costs only the
questions that show it, each named at its place with the image; and naming and finding
images takes time linear in their number, as does reading Markdown."""

from __future__ import annotations

from conftest import written_questions

import base64
from pathlib import Path
from urllib.parse import quote

import pytest

from growth import least_cpu
from nca_anki.importing.bank import Choice, Item, Reading, Section
from nca_anki.importing import convert as convert_module
from nca_anki.importing.convert import convert

from images import png


def _moodle(images: list[tuple[str, bytes] | None]) -> str:
    """A Moodle XML bank: one question per entry, showing the embedded image named so."""
    questions = []
    for k, image in enumerate(images, start=1):
        shown = carried = ""
        if image is not None:
            name, data = image
            shown = f'<img src="@@PLUGINFILE@@/{quote(name)}" alt="figure {k}">'
            carried = (f'<file name="{name}" path="/" encoding="base64">'
                       f"{base64.b64encode(data).decode()}</file>")
        questions.append(f"""  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<p>Question {k}? {shown}</p>]]></text>{carried}</questiontext>
    <answer fraction="100"><text>right {k}</text></answer>
    <answer fraction="0"><text>wrong {k}</text></answer>
  </question>""")
    return '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + "\n".join(questions) + \
        "\n</quiz>\n"


def _written(out: Path) -> list[str]:
    return [prompt for prompt, *_ in written_questions(out)]


@pytest.mark.parametrize("name", [
    "x" * 300 + ".png",  # longer than any file system takes
    "é" * 200 + ".png",  # 400 bytes in UTF-8
    "a figure of the memory hierarchy, registers to DRAM, drawn for chapter 3 of the"
    " course notes and exported from the slides without renaming, version 2 final.png",
    "\u200b" * 90 + ".png",
], ids=["300 letters", "400 bytes", "a sentence", "zero-width spaces"])
def test_an_embedded_image_with_a_name_no_file_system_takes_is_written_named_safely(
        tmp_path, cli, name):
    bank = tmp_path / "bank.xml"
    bank.write_text(_moodle([None, (name, png(tag=b"long")), ("ok.png", png(tag=b"ok"))]),
                    encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    written = sorted(p.name for p in (tmp_path / "out" / "images").iterdir())
    assert "ok.png" in written and len(written) == 2
    [other] = [w for w in written if w != "ok.png"]
    assert len(other.encode()) <= convert_module.NAME_LIMIT and other.endswith(".png") \
        and not other.startswith(".")
    assert (tmp_path / "out" / "images" / other).read_bytes() == png(tag=b"long")
    assert _written(tmp_path / "out") == [
        "Question 1?", f"Question 2? ![figure 2](images/{quote(other)})",
        "Question 3? ![figure 3](images/ok.png)"]


def test_safe_names_are_kept_and_cut_ones_stay_apart():
    assert convert_module.safe_name("grid.svg") == "grid.svg"
    assert convert_module.safe_name("a b (1).png") == "a b (1).png"
    long_a, long_b = convert_module.safe_name("a" * 300 + "1.png"), convert_module.safe_name("a" * 300 + "2.png")
    assert long_a != long_b and len(long_a) <= convert_module.NAME_LIMIT and long_a.endswith(".png")
    assert convert_module.safe_name("..").startswith("image-") and convert_module.safe_name(".x.png").startswith("x")
    assert "\x00" not in convert_module.safe_name("x\x00y.png")


def test_an_image_that_cannot_be_written_costs_only_its_question(tmp_path, cli):
    """The output's images/ folder cannot be made (a file is in its way): the question that
    shows an image is refused at its line, naming the image and why; the others are
    written, and nothing is blamed on the question file."""
    bank = tmp_path / "bank.xml"
    bank.write_text(_moodle([None, ("chip.png", png(tag=b"chip")), None]), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "images").write_text("in the way")
    done = cli("import", str(bank), "--out", str(out))
    assert done.status == 1
    assert f"{bank}:8: error[E704]: shows the image 'chip.png', which could not be written " \
           "as images/chip.png: cannot write:" in done.err, done.err
    assert "E501" not in done.err
    assert _written(out) == ["Question 1?", "Question 3?"]
    assert (out / "images").read_text() == "in the way"


def test_an_image_in_a_markdown_bank_with_a_long_name_is_copied_named_safely(tmp_path, cli):
    folder = tmp_path / "bank"
    (folder / "images").mkdir(parents=True)
    name = "d" * 200 + ".png"  # fine on disk, too long once numbered or moved
    (folder / "images" / name).write_bytes(png(tag=b"d"))
    (folder / "quiz.md").write_text(f"""# Quiz

#### Q1. What is shown? ![a die](images/{name})
- [x] a die
- [ ] a board
""", encoding="utf-8")
    done = cli("import", str(folder / "quiz.md"), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    [written] = (tmp_path / "out" / "images").iterdir()
    assert len(written.name) <= convert_module.NAME_LIMIT and written.read_bytes() == png(tag=b"d")
    assert _written(tmp_path / "out") == [f"What is shown? ![a die](images/{written.name})"]


# --- item 20: linear in the number of questions and images ----------------------------------



def _images(count: int, same_name: bool) -> list[Reading]:
    items = tuple(Item(prompt=f"What is {k}? ![x](figures/{k}/{'a' if same_name else k}.png)",
                       choices=(Choice("yes", True), Choice("no", False)), path="bank.md",
                       line=k + 1) for k in range(count))
    return [Reading((Section(title="Figures", items=items, path="bank.md"),))]


@pytest.mark.parametrize("same_name", [False, True], ids=["distinct names", "one name"])
def test_naming_images_is_linear_in_their_number(same_name):
    """Four times the images is about four times the CPU time, not sixteen (each new
    image's name was checked against a set rebuilt of all before it, and each part's
    images found by searching its text once per image)."""
    def run(count: int) -> None:
        done = convert(_images(count, same_name), image_problem=lambda given, image: "")
        assert sum(len(p.images) for p in done.parts) == count

    short, long = least_cpu(lambda: run(1_000)), least_cpu(lambda: run(4_000))
    assert long < 8 * max(short, 0.05), (short, long)


def _bank(count: int, shape: str) -> str:
    lines = ["# Big bank"]
    for k in range(1, count + 1):
        pad = " " * len(f"{k}. ")
        lines += {
            "headings": [f"#### Q{k}. What is {k}?", "- [x] yes", "- [ ] no", "",
                         f"Because {k}.", ""],
            "an ordered list": [f"{k}. What is {k}?", f"{pad}- [x] yes", f"{pad}- [ ] no", "",
                                f"{pad}Because {k}.", ""],
            "lettered": [f"{k}. What is {k}?", "A) yes", "B) no", "Answer: A", "",
                         f"Because {k}.", ""],
        }[shape]
    return "\n".join(lines)


HOSTILE = {
    "unclosed fences under choices": "- [ ] a\n```python\n",
    "lines of a damaged numbering": "2 x\nA. a\n",
}


@pytest.mark.parametrize("shape", ["headings", "an ordered list"])
def test_reading_markdown_is_linear_in_its_questions(shape):
    """2,000 and 8,000 questions: four times the CPU time, not sixteen (a list's items were
    found by copying the rest of the token list for each list: 20,000 questions took
    58 s)."""
    from nca_anki.importing import markdown

    def run(count: int):  # type: ignore[no-untyped-def]
        text = _bank(count, shape)
        return lambda: markdown.read(text, "bank.md")

    assert len(markdown.read(_bank(20, shape), "bank.md").sections[0].items) == 20
    short, long = least_cpu(run(2_000)), least_cpu(run(8_000))
    assert long < 8 * max(short, 0.05), (short, long)


@pytest.mark.parametrize("what", HOSTILE)
def test_hostile_markdown_is_linear(what):
    from nca_anki.importing import markdown

    def run(count: int):  # type: ignore[no-untyped-def]
        text = "# T\n\n#### Q1. What?\n- [x] a\n- [ ] b\n\n1. Q?\nA. a\nB. b\nAnswer: A\n" \
            + HOSTILE[what] * count
        return lambda: convert([markdown.read(text, "bank.md")])

    short, long = least_cpu(run(5_000)), least_cpu(run(20_000))
    assert long < 8 * max(short, 0.05), (short, long)


def _texts() -> list[tuple[str, object, str]]:
    """(what, a function of one text, a hostile unit) for each pattern of the importers
    that could search from every opening to the end (tests/pipeline/test_hostile.py's
    rows, for the paths issue 45 added or changed)."""
    from nca_anki.importing import convert as conversion, lettered

    return [
        ("an image an imported text shows", lambda t: conversion._IMAGE_RE.sub("", t), "!["),
        ("a damaged header", lambda t: lettered._LOOSE_RE.match("1 a" + t + "b"), " "),
        ("a header's emphasis", lambda t: lettered._unwrapped("**a" + t), "`a"),
        ("a header's emphasis", lambda t: lettered._unwrapped("**a" + t), "**"),
        ("a lettered line's markup", lettered._plain_at, "<b>"),
        ("a lettered line's markup", lettered._plain_at, "<b"),
        ("a header's breaks", lambda t: lettered._breaks_as_spaces("<" + t), "`a"),
    ]


@pytest.mark.parametrize("what, call, unit", _texts(),
                         ids=[f"{what}-{unit!r}" for what, _, unit in _texts()])
def test_every_new_text_path_is_linear(what, call, unit):
    short = least_cpu(lambda: call(unit * 20_000))
    long = least_cpu(lambda: call(unit * 80_000))
    assert long < 8 * max(short, 0.05), (what, unit, short, long)
