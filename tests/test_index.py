"""The published index (nca_anki/publishing/index.py): text that reaches Markdown reads as written.
The files themselves, built and imported: tests/test_sharing.py."""

from __future__ import annotations

import json
import random

import markdown
import pytest

from anki_client import html_to_text
from nca_anki.publishing.index import _md
from nca_anki.publishing.manifest import json_string


@pytest.mark.parametrize("prompt", [
    "What does `torch.compile` do?", "Is 4*8*2 = 64?", "Pick [A] or (B)", "x_y and __init__",
    "AT&T &amp; &copy; <b>bold</b>", "C# or F#?", "a | b ~ c", "back\\slash \\(x\\)",
    "1. Not a list", "# not a heading", "+ plus", "![img](x)"])
def test_a_prompt_in_the_changelog_reads_as_written(prompt: str) -> None:
    rendered = markdown.markdown(f"- Changed: {_md(prompt)}")
    assert html_to_text(rendered) == f"Changed: {prompt}"


def test_json_strings_are_written_as_the_json_module_writes_them() -> None:
    """The manifest's fast path for plain strings (GUIDs, dates) gives json.dumps's very
    text for any string: quotes, backslashes, control characters, non-ASCII, lone
    surrogates."""
    alphabet = [chr(c) for c in range(0x80)] + ["é", "\u2028", "\ud800", "😀", "\u0085"]
    rng = random.Random(7)
    texts = ["", "nca-0123456789abcdef", 'a"b', "a\\b", "\x00", "\x1f", "\x7f", "\t"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(8)))
              for _ in range(5000)]
    assert [json_string(t) for t in texts] == [json.dumps(t, ensure_ascii=False)
                                               for t in texts]
    assert any(json_string(t) != f'"{t}"' for t in texts)  # the slow path was taken too
