"""--release (nca_anki/publishing/release.py): verified decks copied with their versions in their
names, the changelog and SHA256SUMS; nothing from a stale dist/."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from test_sharing import AI, DAY1, build_at, replace_in


def test_release_copies_the_verified_decks_with_their_versions_and_checksums(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build_at(cli, monkeypatch, DAY1)
    target = tmp_path / "release"
    run = cli("--release", str(target))
    assert run.status == 0, run.err
    manifest = json.loads((project / "dist" / "manifest.json").read_text(encoding="utf-8"))
    expected = {f"{d['file'][:-5]}-{d['version']}.apkg": d["file"] for d in manifest["decks"]}
    expected[f"nca_all_topics-{manifest['version']}.apkg"] = "nca_all_topics.apkg"
    assert sorted(p.name for p in target.iterdir()) == sorted(
        [*expected, "CHANGELOG.md", "SHA256SUMS"])
    for released, published in expected.items():
        assert (target / released).read_bytes() == (project / "dist" / published).read_bytes()
    sums = dict(reversed(line.split("  ")) for line in
                (target / "SHA256SUMS").read_text(encoding="utf-8").splitlines())
    assert sums == {name: hashlib.sha256((target / name).read_bytes()).hexdigest()
                    for name in expected}
    assert (target / "CHANGELOG.md").read_bytes() == \
        (project / "dist" / "CHANGELOG.md").read_bytes()


def test_no_release_from_a_stale_dist_or_into_the_output_folder(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build_at(cli, monkeypatch, DAY1)
    replace_in(AI, "Question 2: ", "Question 2: Reworded: ")
    run = cli("--release", str(tmp_path / "release"))
    assert run.status == 1
    assert "AI & Deep Learning Frameworks" in run.err and "release: not made" in run.err
    assert not (tmp_path / "release").exists()
    run = cli("--release", "dist/release")
    assert run.status == 2 and "--release is inside --out" in run.err
    assert not (project / "dist" / "release").exists()
