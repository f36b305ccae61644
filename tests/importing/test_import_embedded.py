"""Pictures carried inside the bank's own text as ``data:`` URIs (issue 46, 8): Moodle's
editor writes ``<img src="data:image/png;base64,…">``, Markdown ``![](data:…)``. Such a
picture is neither on the web nor at an absolute path: it is decoded (bounded by the
build's image limit before any decoding), checked as any image is (its type by its bytes,
its size, an SVG's content), written to ``images/`` under a name made of its bytes' digest
and shown from there; the same picture twice is one file."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from conftest import built_and_imported, written_questions
from growth import least_cpu
from images import png
from nca_anki.importing import convert as convert_module
from nca_anki.reading.media import MAX_IMAGE_BYTES

CLEAN_SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">'
             b'<rect width="20" height="10" fill="teal"/></svg>')
SCRIPTED_SVG = (b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script>'
                b'</svg>')


def data_uri(data: bytes, kind: str = "image/png") -> str:
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


def _moodle(*prompts: str) -> str:
    """A Moodle XML bank: one two-answer question per prompt (HTML, as Moodle writes it)."""
    questions = "\n".join(f"""  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<p>{prompt}</p>]]></text></questiontext>
    <answer fraction="100"><text>right {k}</text></answer>
    <answer fraction="0"><text>wrong {k}</text></answer>
  </question>""" for k, prompt in enumerate(prompts, start=1))
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n{questions}\n</quiz>\n'


def _import(tmp_path: Path, cli, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "out"))


def _prompts(out: Path) -> list[str]:
    return [prompt for prompt, *_ in written_questions(out)]


def _images(out: Path) -> dict[str, bytes]:
    folder = out / "images"
    return {p.name: p.read_bytes() for p in folder.iterdir()} if folder.is_dir() else {}


def test_a_picture_in_moodle_html_is_written_out_once_and_shown_from_there(tmp_path, cli):
    chip, board = png(tag=b"chip"), png(3, 2, tag=b"board")
    _, done = _import(tmp_path, cli, "bank.xml", _moodle(
        f'Which part is this? <img src="{data_uri(chip)}" alt="a chip">',
        f'And this one? <img src="{data_uri(board)}">',
        f'The first again: <img src="{data_uri(chip)}" alt="the chip">'))
    assert done.status == 0, done.err
    assert "base64" not in done.err  # nothing about it, and above all not its text
    written = _images(tmp_path / "out")
    assert sorted(written.values()) == sorted([chip, board])  # the chip once
    names = {data: name for name, data in written.items()}
    assert all(re.fullmatch(r"image-[0-9a-f]{16}\.png", name) for name in written)
    assert _prompts(tmp_path / "out") == [
        f"Which part is this? ![a chip](images/{names[chip]})",
        f"And this one? ![](images/{names[board]})",
        f"The first again: ![the chip](images/{names[chip]})"]


def test_a_picture_in_markdown_is_written_out_by_its_bytes_type(tmp_path, cli):
    """Declared a JPEG, it is a PNG by its bytes: it is written and named as a PNG."""
    chip = png(tag=b"md")
    _, done = _import(tmp_path, cli, "quiz.md", f"""# Parts

#### Q1. What is shown? ![a chip]({data_uri(chip, "image/jpeg")})
- [x] a chip
- [ ] a board

The picture is the chip: ![again]({data_uri(chip)})
""")
    assert done.status == 0, done.err
    [(name, data)] = _images(tmp_path / "out").items()
    assert data == chip and name.endswith(".png")
    text = (tmp_path / "out" / "parts-1.txt").read_text(encoding="utf-8")
    assert f"What is shown? ![a chip](images/{name})" in text
    assert f"The picture is the chip: ![again](images/{name})" in text


def test_an_svg_picture_is_taken_as_the_build_takes_an_svg_file(tmp_path, cli):
    """A plain drawing is written (base64 or percent-encoded, as editors write SVG URIs);
    one that carries script is refused, as the build refuses such a file."""
    encoded = "data:image/svg+xml," + quote(CLEAN_SVG.decode(), safe="")
    bank, done = _import(tmp_path, cli, "bank.xml", _moodle(
        f'Drawn: <img src="{data_uri(CLEAN_SVG, "image/svg+xml")}">',
        f'Drawn again, encoded otherwise: <img src="{encoded}">',
        f'Scripted: <img src="{data_uri(SCRIPTED_SVG, "image/svg+xml")}">'))
    assert done.status == 1
    [(name, data)] = _images(tmp_path / "out").items()
    assert data == CLEAN_SVG and name.endswith(".svg")
    assert _prompts(tmp_path / "out") == [f"Drawn: ![](images/{name})",
                                          f"Drawn again, encoded otherwise: ![](images/{name})"]
    [refused] = [line for line in done.err.splitlines() if "E704" in line]
    assert refused.startswith(f"{bank}:13: error[E704]: ") and "script" in refused, refused


def _refusal(done, bank: Path) -> str:
    [line] = [line for line in done.err.splitlines() if f"{bank}:" in line and "E704" in line]
    return line


@pytest.mark.parametrize("payload, said", [
    ("iVBORw0KGgo!!!notbase64" * 40, "not valid base64"),
    (base64.b64encode(b"just some words, no picture").decode(), "not an image"),
    (base64.b64encode(b"\x89PNG\r\n\x1a\n").decode(), "cannot be shown on a card"),
], ids=["malformed base64", "not a picture", "a cut-short PNG"])
def test_a_bad_picture_costs_its_question_only_said_briefly_at_its_line(
        tmp_path, cli, payload, said):
    bank, done = _import(tmp_path, cli, "bank.xml", _moodle(
        "Before?", f'Broken: <img src="data:image/png;base64,{payload}">', "After?"))
    assert done.status == 1
    line = _refusal(done, bank)
    assert line.startswith(f"{bank}:8: error[E704]: ") and said in line, line
    assert payload[:40] not in line and len(line.split(": ", 1)[1]) < 200, line
    assert _prompts(tmp_path / "out") == ["Before?", "After?"]


def test_a_picture_over_the_limit_is_refused_before_it_is_decoded(tmp_path, cli,
                                                                   monkeypatch):
    big = "A" * (MAX_IMAGE_BYTES // 3 * 4 + 400)  # decodes to just over the limit
    decoded = []
    real = convert_module.base64.b64decode
    monkeypatch.setattr(convert_module.base64, "b64decode",
                        lambda data, *a, **k: decoded.append(len(data)) or real(data, *a, **k))
    bank, done = _import(tmp_path, cli, "bank.xml", _moodle(
        f'Huge: <img src="data:image/png;base64,{big}">', "Small?"))
    assert done.status == 1
    line = _refusal(done, bank)
    assert "over the limit" in line and "2.0 MiB" in line and len(line) < 300, line
    assert not [n for n in decoded if n > MAX_IMAGE_BYTES], decoded
    assert _prompts(tmp_path / "out") == ["Small?"]


def test_a_picture_from_the_web_becomes_a_link_and_the_question_is_kept(tmp_path, cli):
    bank, done = _import(tmp_path, cli, "bank.xml", _moodle(
        'Which logo? <img src="https://example.org/a.png" alt="the logo">', "Other?"))
    assert done.status == 0, done.err
    [said] = [line for line in done.err.splitlines() if "W702" in line and "on the web" in line]
    assert f"{bank}:" in said
    text = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").glob("*.txt"))
    assert "[the logo](https://example.org/a.png)" in text and "![" not in text


@pytest.mark.parametrize("name, text", [
    ("bank.json", '[{"question": "Which chart? ![a chart](https://example.org/c.svg)",'
                  ' "choices": ["Bar", "Pie"], "answer": "A"}]'),
    ("bank.md", "1. Which chart? ![](http://example.org/c.png)\n\n"
                "   A. Bar\n   B. Pie\n\n   Answer: A\n"),
])
def test_a_web_picture_written_in_markdown_is_a_link_as_an_html_one_is(tmp_path, cli, name,
                                                                         text):
    _, done = _import(tmp_path, cli, name, text)
    assert done.status == 0, done.err
    assert "on the web" in done.err and "W702" in done.err
    written = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").glob("*.txt"))
    assert "](http" in written and "![" not in written


def test_a_picture_by_an_absolute_path_is_still_refused(tmp_path, cli):
    bank, done = _import(tmp_path, cli, "bank.xml", _moodle(
        '<img src="/home/me/a.png">', "Other?"))
    assert "absolute path" in _refusal(done, bank)
    assert _prompts(tmp_path / "out") == ["Other?"]


@pytest.mark.anki
def test_a_carried_picture_arrives_in_anki_s_media_and_shows_on_the_card(tmp_path, cli):
    chip = png(5, 4, tag=b"anki")
    _, done = _import(tmp_path, cli, "bank.xml", _moodle(
        f'Which part is this? <img src="{data_uri(chip)}" alt="a chip">',
        f'Same part, other question: <img src="{data_uri(chip)}" alt="it again">'))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path, source="out")
    [cards] = decks.values()
    media = {p.name: p.read_bytes() for p in (tmp_path / "anki" / "collection.media").iterdir()}
    assert len(cards) == 2
    shown = set()
    for card in cards:
        found = re.search(r'<img src="(nca-[0-9a-f]{16}\.png)" alt="([^"]*)"',
                          card.fields["Prompt"])
        assert found, card.fields["Prompt"]
        shown.add(found[1])
    [name] = shown
    assert media[name] == chip


@pytest.mark.parametrize("uri, unit", [
    ("data:image/png", ";name=value"),  # parameters, and no "," ever
    ("data:", "a"),  # a media type that never ends
    ("data:image/png;base64,", "A"),  # data, decoded (under the limit), no picture
    ("data:image/svg+xml,", "%3C"),  # percent-encoded, decoded
], ids=["parameters", "media type", "base64", "percent-encoded"])
def test_reading_a_carried_picture_is_linear(uri, unit):
    def run(count: int):  # type: ignore[no-untyped-def]
        text = uri + unit * count
        return lambda: convert_module.carried_image(text)

    short, long = least_cpu(run(100_000)), least_cpu(run(400_000))
    assert long < 8 * max(short, 0.05), (uri, short, long)
