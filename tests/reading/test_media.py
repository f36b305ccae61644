"""Tests for nca_anki.reading.media: which files a question may show, and their names."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from nca_anki.reading.media import (MAX_IMAGE_BYTES, MediaFolder, image_type, images_key,
                                    referenced)
from nca_anki.records import MediaFile

from images import png

PNG = png(2, 2)
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'


@pytest.mark.parametrize("data, kind", [
    (PNG, "png"), (b"\xff\xd8\xff\xe0" + b"\0" * 8, "jpg"), (b"GIF89a....", "gif"),
    (b"RIFF\0\0\0\0WEBPVP8 ", "webp"), (SVG, "svg"),
    (b'\xef\xbb\xbf<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>', "svg"),
    (b"not an image", None), (b"<html><body>hi</body></html>", None), (b"", None),
])
def test_the_type_is_told_by_the_bytes(data: bytes, kind: str | None) -> None:
    assert image_type(data) == kind


@pytest.fixture
def source(tmp_path: Path) -> Path:
    root = tmp_path / "source"
    (root / "part" / "images").mkdir(parents=True)
    (root / "part" / "images" / "plot.png").write_bytes(PNG)
    return root


def test_a_file_is_named_by_its_content_and_read_once(source: Path) -> None:
    media = MediaFolder(source)
    found = media.resolve((source / "part" / "q-1.txt").as_posix(), "images/plot.png")
    digest = hashlib.sha256(PNG).hexdigest()
    assert found == MediaFile(name=f"nca-{digest[:16]}.png",
                              path=(source / "part" / "images" / "plot.png").resolve().as_posix(),
                              sha256=digest, size=len(PNG))
    (source / "part" / "images" / "plot.png").write_bytes(b"changed")
    assert media.resolve((source / "part" / "q-1.txt").as_posix(), "images/plot.png") == found
    spaced = source / "part" / "images" / "my plot.png"
    spaced.write_bytes(PNG)
    assert isinstance(MediaFolder(source).resolve((source / "part" / "q.txt").as_posix(),
                                                  "images/my%20plot.png"), MediaFile)


@pytest.mark.parametrize("src, words", [
    ("https://example.com/a.png", "is a web address"),
    ("data:image/png;base64,AAAA", "is a web address"),
    ("/etc/passwd", "is absolute"),
    ("C:\\\\pics\\\\a.png", "is absolute"),
    ("../../outside.png", "is outside the source folder"),
    ("images", "is a folder"),
    ("images/none.png", "not found (looked for "),
])
def test_what_cannot_be_shown_says_why(source: Path, src: str, words: str) -> None:
    (source.parent / "outside.png").write_bytes(PNG)
    found = MediaFolder(source).resolve((source / "part" / "q-1.txt").as_posix(), src)
    assert isinstance(found, str) and words in found, found


def test_too_large_not_an_image_and_scripted_svg_are_refused(source: Path) -> None:
    folder = source / "part" / "images"
    (folder / "big.png").write_bytes(PNG + b"\0" * MAX_IMAGE_BYTES)
    (folder / "text.png").write_bytes(b"hello")
    (folder / "evil.svg").write_bytes(SVG[:-2] + b' onload="alert(1)"/>')
    (folder / "fine.svg").write_bytes(SVG)
    media = MediaFolder(source)
    question = (source / "part" / "q-1.txt").as_posix()
    assert "over the limit of 2.0 MiB" in media.resolve(question, "images/big.png")
    assert "is not an image the Anki apps show" in media.resolve(question, "images/text.png")
    assert "line 1: its attribute onload= is an event handler" in media.resolve(
        question, "images/evil.svg")
    assert media.resolve(question, "images/fine.svg").name.endswith(".svg")


def test_references_are_found_without_parsing_and_key_the_bytes(source: Path) -> None:
    question = source / "part" / "q-1.txt"
    text = ("![a](images/plot.png) and ![b](<images/plot.png>) ![web](https://x.org/a.png)\n"
            "`![c](images/code.png)` ![d](/abs.png)")
    assert referenced(text, question) == (question.parent / "images/plot.png",
                                          question.parent / "images/code.png")
    assert referenced("no images here", question) == ()
    before = images_key(text, question)
    assert before and images_key(text, question) == before
    (source / "part" / "images" / "plot.png").write_bytes(PNG + b"edited")
    assert images_key(text, question) != before
    assert images_key("plain", question) == ""
