"""manifest.json, defined once (nca_anki/publishing/manifest.py): what the build writes is
what the next build and --release read back, and a damaged one is refused, not half-read."""

from __future__ import annotations

import json

import pytest

from conftest import REPO
from nca_anki.publishing.manifest import read_manifest


def test_the_published_manifest_reads_back_as_written() -> None:
    text = (REPO / "dist" / "manifest.json").read_text(encoding="utf-8")
    data = json.loads(text)
    manifest = read_manifest(text)
    assert manifest.version == data["version"]
    assert (manifest.bundle_file, manifest.bundle_sha256) == (data["bundle"]["file"],
                                                              data["bundle"]["sha256"])
    assert [(d.deck, d.file, d.sha256, d.record.version) for d in manifest.decks] == [
        (d["deck"], d["file"], d["sha256"], d["version"]) for d in data["decks"]]
    assert [d.record.to_json() for d in manifest.decks] == [
        {"version": d["version"], **d["changes"]} for d in data["decks"]]
    assert len(manifest.decks) == 3


def _published() -> dict:
    return json.loads((REPO / "dist" / "manifest.json").read_text(encoding="utf-8"))


def _damaged(change) -> str:
    data = _published()
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("text, reason", [
    ("{", "not JSON: Expecting property name enclosed in double quotes at line 1"),
    ("[]", "not a JSON object"),
    (_damaged(lambda d: d.update(format="nca-anki-manifest-0")),
     "format 'nca-anki-manifest-0', not 'nca-anki-manifest-1'"),
    (_damaged(lambda d: d.pop("bundle")), "no 'bundle' object or 'decks' list"),
    (_damaged(lambda d: d["decks"][0].update(sha256=7)),
     "NCA::AI & Deep Learning Frameworks: 'sha256' is not a string"),
    (_damaged(lambda d: d["decks"][1].update(changes=["added"])),
     "bad version record of 'NCA::Deep Learning Training Techniques and Optimization'"),
    (_damaged(lambda d: d["decks"][2]["changes"].update(added="nca-1")),
     "bad version record of 'NCA::Neural Network Applications and Frameworks'"),
    (_damaged(lambda d: d.update(version=None)), "the manifest: 'version' is not a string"),
    # Hand edits that would travel into paths and markup: read back, never trusted.
    (_damaged(lambda d: d.update(version="x/../../../escaped")),
     "version 'x/../../../escaped' is not a date"),
    (_damaged(lambda d: d["decks"][0].update(version="<img src=x onerror=alert(1)>")),
     "bad version record of 'NCA::AI & Deep Learning Frameworks'"),
    (_damaged(lambda d: d["decks"][0].update(version="2026-13-45")),
     "bad version record of 'NCA::AI & Deep Learning Frameworks'"),
    (_damaged(lambda d: d["decks"][0]["changes"].update(added=["<b>nca-1</b>"])),
     "bad version record of 'NCA::AI & Deep Learning Frameworks'"),
    (_damaged(lambda d: d["decks"][0].update(file="../../outside.apkg")),
     "NCA::AI & Deep Learning Frameworks: file '../../outside.apkg' is not a deck file name"),
    (_damaged(lambda d: d["bundle"].update(sha256="<script>")),
     "the bundle: sha256 '<script>' is not a SHA-256"),
])
def test_a_damaged_manifest_is_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError) as raised:
        read_manifest(text)
    assert str(raised.value) == reason
