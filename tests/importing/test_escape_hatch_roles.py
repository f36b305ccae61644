"""The escape hatch reaches every role the inference decides (issue 46, design point 4): a
picture key the guess does not see can be named with --map KEY=picture, and the settings
--write-settings writes name a prompt made of several keys and the picture key, so the
import repeats from them exactly. Every bank here is written for the test."""

from __future__ import annotations

from conftest import written_questions

import json
import tomllib
from pathlib import Path

from images import png


def _write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def _prompts(out: Path) -> list[str]:
    return [prompt for prompt, *_ in written_questions(out)]


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


_DIALS = [{"ask": "Which reading does the dial show?", "picks": ["Low", "High"], "ok": 0,
           "figure": "dials/first"},
          {"ask": "Which unit is on the dial's face?", "picks": ["bar", "volt"], "ok": 0,
           "figure": "dials/second"}]


def test_a_picture_key_the_guess_misses_is_named_with_map(tmp_path, cli):
    # picture files without an extension: no guess takes "figure" for a picture key
    _write(tmp_path / "bank/dials/first", png(4, 3, tag=b"first"))
    _write(tmp_path / "bank/dials/second", png(4, 3, tag=b"second"))
    bank = _write(tmp_path / "bank/dials.json", json.dumps(_DIALS, indent=1))
    guessed = cli("import", str(bank), "--out", str(tmp_path / "guessed"))
    assert guessed.status == 0, guessed.err
    assert not any("![" in p for p in _prompts(tmp_path / "guessed"))
    mapped = cli("import", str(bank), "--out", str(tmp_path / "mapped"),
                 "--map", "figure=picture")
    assert mapped.status == 0, mapped.err
    prompts = _prompts(tmp_path / "mapped")
    assert [p.split("\n\n")[-1] for p in prompts] == [d["ask"] for d in _DIALS]
    assert all(p.startswith("![](images/") for p in prompts), prompts
    assert sorted(_tree(tmp_path / "mapped/images").values()) == sorted(
        [png(4, 3, tag=b"first"), png(4, 3, tag=b"second")])


def test_written_settings_name_every_prompt_key_and_the_picture_and_repeat_the_import(
        tmp_path, cli):
    _write(tmp_path / "bank/img/a.png", png(5, 2, tag=b"a"))
    records = [{"situation": f"A depot stores {n} crates on shelves of three levels.",
                "question": f"How should crate {n} be lifted?",
                "answers": ["By forklift", "By hand"], "solution": "A",
                "photo": "img/a.png" if n % 2 else ""} for n in range(1, 5)]
    bank = _write(tmp_path / "bank/crates.json", json.dumps(records, indent=1))
    first = cli("import", str(bank), "--out", str(tmp_path / "one"), "--write-settings")
    assert first.status == 0, first.err
    written = tomllib.loads((tmp_path / "bank/nca-import.toml").read_text(encoding="utf-8"))
    roles = written["files"]["crates.json"]["map"]
    assert list(roles.items())[:2] == [("situation", "prompt"), ("question", "prompt")]
    assert roles["photo"] == "picture"
    again = cli("import", str(bank), "--out", str(tmp_path / "two"))
    assert again.status == 0, again.err
    assert _tree(tmp_path / "one") == _tree(tmp_path / "two")
    assert _prompts(tmp_path / "two")[0].startswith("![](images/a.png)\n\nA depot stores 1")
