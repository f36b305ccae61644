"""The published index (nca_anki/publishing/index.py): text that reaches Markdown reads as written.
The files themselves, built and imported: tests/e2e/test_sharing.py."""

from __future__ import annotations

import json
import random

import re

import pytest
from markdown_it import MarkdownIt

from anki_client import html_to_text
from nca_anki.publishing.index import _md
from nca_anki.publishing.manifest import json_string


# As GitHub shows dist/README.md and dist/CHANGELOG.md: CommonMark with GitHub's tables
# and strike-through.
_GFM = MarkdownIt("commonmark").enable(["table", "strikethrough"])
_TEXTS = ["What does `torch.compile` do?", "Is 4*8*2 = 64?", "Pick [A] or (B)",
          "x_y and __init__", "AT&T &amp; &copy; &#124; <b>bold</b>", "C# or F#?",
          "a | b ~ c ~~struck~~", "back\\slash \\(x\\)", "1. Not a list", "# not a heading",
          "+ plus", "![img](x)", "<script>alert(1)</script>", "x > y < z", "a\\|b", "\\"]


@pytest.mark.parametrize("prompt", _TEXTS)
def test_a_prompt_in_the_changelog_reads_as_written_on_github(prompt: str) -> None:
    for line, shown in ((f"- Changed: {_md(prompt)}", f"Changed: {prompt}"),
                        (f"### {_md(prompt)}", prompt)):
        rendered = _GFM.render(line)
        assert html_to_text(rendered) == shown, (line, rendered)
        assert "<script" not in rendered and "<b>" not in rendered


@pytest.mark.parametrize("name", _TEXTS)
def test_a_deck_name_in_the_readme_table_stays_in_its_cell(name: str) -> None:
    table = f"| Deck | Questions |\n| --- | --- |\n| {_md(name)} | 3 |\n"
    rendered = _GFM.render(table)
    cells = re.findall(r"<td>(.*?)</td>", rendered, re.DOTALL)
    assert [html_to_text(c) for c in cells] == [name, "3"], rendered


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
