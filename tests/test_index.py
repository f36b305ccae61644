"""The published index (nca_anki/index.py): text that reaches Markdown reads as written.
The files themselves, built and imported: tests/test_sharing.py."""

from __future__ import annotations

import markdown
import pytest

from anki_client import html_to_text
from nca_anki.index import _md


@pytest.mark.parametrize("prompt", [
    "What does `torch.compile` do?", "Is 4*8*2 = 64?", "Pick [A] or (B)", "x_y and __init__",
    "AT&T &amp; &copy; <b>bold</b>", "C# or F#?", "a | b ~ c", "back\\slash \\(x\\)",
    "1. Not a list", "# not a heading", "+ plus", "![img](x)"])
def test_a_prompt_in_the_changelog_reads_as_written(prompt: str) -> None:
    rendered = markdown.markdown(f"- Changed: {_md(prompt)}")
    assert html_to_text(rendered) == f"Changed: {prompt}"
