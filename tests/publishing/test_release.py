"""--release (nca_anki/publishing/release.py): verified decks copied with their versions in their
names, the changelog and SHA256SUMS; nothing from a stale dist/."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from conftest import build_at, edit, the_day_after_the_committed_lock

DAY1 = the_day_after_the_committed_lock()
AI = "source/nca-ai-deep-learning-frameworks-4.txt"


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
    edit(Path(AI), "Question 2: ", "Question 2: Reworded: ")
    run = cli("--release", str(tmp_path / "release"))
    assert run.status == 1
    assert "AI & Deep Learning Frameworks" in run.err and "release: not made" in run.err
    assert not (tmp_path / "release").exists()
    run = cli("--release", "dist/release")
    assert run.status == 2 and "--release is inside --out" in run.err
    assert not (project / "dist" / "release").exists()


@pytest.mark.parametrize("version", ["x/../../../escaped", "<img src=x onerror=alert(1)>"])
def test_a_hand_edited_manifest_version_is_not_carried_into_paths_or_markup(
        project: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        version: str) -> None:
    build_at(cli, monkeypatch, DAY1)
    path = project / "dist" / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = version
    for deck in data["decks"]:
        deck["version"] = version
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cli("--verify").status == 1  # the manifest is not what the sources build
    inner = tmp_path / "rel" / "inner"
    assert cli("--release", str(inner)).status == 1
    assert not (tmp_path / "rel").exists() and not (tmp_path / "escaped").exists()
    run = cli()  # the next build works the versions out again and says so
    assert run.status == 0
    assert "dist/manifest.json: warning[W502]: cannot read the decks' version records (" in run.err
    published = "".join(p.read_bytes().decode("latin-1") for p in (project / "dist").iterdir())
    assert "onerror" not in published and "escaped" not in published
    assert cli("--verify").status == 0
    assert cli("--release", str(inner)).status == 0
    assert all(p.parent == inner for p in inner.rglob("*"))
