"""The "Report a problem" link (report_url in nca-anki.toml; nca_anki/cards/report_link.py):
what the setting accepts, what the link carries, and that it changes each note once."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from conftest import options
from nca_anki.build import build
from nca_anki.reading.config import load_config
from nca_anki.reading.published import read_deck

URL = ("https://github.com/owner/bank/issues/new?template=question.yml&fingerprint="
       "{fingerprint}&guid={guid}&deck={deck}&version={version}&source={file}%3A{line}"
       "&pick={pick}&verdict={verdict}")
AI = "nca-ai-deep-learning-frameworks-4.txt"


def with_report_url(project, url: str = URL) -> None:
    (project / "source" / "nca-anki.toml").write_text(f'report_url = "{url}"\n',
                                                      encoding="utf-8")


def links(project, deck: str = "ai-deep-learning-frameworks.apkg") -> dict[str, str]:
    """GUID -> the link's href, of each note in a published deck ("" if it has none)."""
    found = {}
    for note in read_deck((project / "dist" / deck).read_bytes()).notes:
        href = re.search(r'<a class="nca-report" href="([^"]*)"', note.fields[4])
        found[note.guid] = html.unescape(href.group(1)) if href else ""
    return found


def query(href: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(href).query, keep_blank_values=True).items()}


@pytest.mark.parametrize(("value", "why"), [
    ('"javascript:alert(1)"', "not an http:// or https:// address"),
    ('"https://example.org/a b"', "write a space as %20"),
    ('"example.org/new?f={fingerprint}"', "not an http:// or https:// address"),
    ('"https://example.org/?q={prompt}"', "'{prompt}'"),
    ('"https://example.org/?q={guid"', "a lone brace"),
    ("3", "must be text"),
    (f'"https://example.org/?{"x" * 2100}"', "at most 2000"),
])
def test_a_report_url_that_cannot_work_is_an_error_at_its_line(tmp_path, value, why):
    (tmp_path / "nca-anki.toml").write_text(f'parent_deck = "NCA"\nreport_url = {value}\n',
                                            encoding="utf-8")
    config, problems = load_config(tmp_path, "source/nca-anki.toml")
    assert config.report_url == ""
    [problem] = problems
    assert (problem.code, problem.line) == ("E203", 2)
    assert why in problem.message and "docs/study-groups.md" in problem.message


def test_without_the_setting_no_card_has_a_link(project):
    assert build(options()).ok
    assert set(links(project).values()) == {""}


def test_every_card_links_to_a_report_naming_its_question(project):
    with_report_url(project)
    report = build(options(now=1_800_000_000))
    assert report.ok
    found = links(project)
    assert len(found) == 7
    lines = [n for n, text in enumerate((project / "source" / AI).read_text(
        encoding="utf-8").splitlines(), start=1) if text.startswith("Question ")]
    seen_lines = set()
    for guid, href in found.items():
        assert href.startswith("https://github.com/owner/bank/issues/new?template=question.yml&")
        q = query(href)
        assert q["guid"] == guid and re.fullmatch(r"[0-9a-f]{12}", q["fingerprint"])
        assert q["deck"] == "NCA::AI & Deep Learning Frameworks"
        assert q["version"] == "2027-01-15"  # the link is new: every note changed today
        file, line = q["source"].rsplit(":", 1)
        assert file == AI
        seen_lines.add(int(line))
        assert (q["pick"], q["verdict"]) == ("", "")  # the card's script fills them
    assert seen_lines == set(lines)


def test_the_link_is_data_however_the_address_is_written(project):
    with_report_url(project, 'https://example.org/x?a=\\"><script>alert(1)</script>&f={fingerprint}')
    assert build(options()).ok
    for note in read_deck((project / "dist" / "ai-deep-learning-frameworks.apkg")
                          .read_bytes()).notes:
        assert "<script" not in note.fields[4] and "&lt;script&gt;" in note.fields[4]


def test_the_link_changes_each_note_once_and_a_moved_line_changes_none(project):
    assert build(options(now=1_800_000_000)).ok
    mods = {n.guid: n.mod for n in read_deck(
        (project / "dist" / "ai-deep-learning-frameworks.apkg").read_bytes()).notes}
    with_report_url(project)
    report = build(options(now=1_800_086_400))
    assert report.ok
    after = {n.guid: n.mod for n in read_deck(
        (project / "dist" / "ai-deep-learning-frameworks.apkg").read_bytes()).notes}
    assert set(after) == set(mods) and set(after.values()) == {1_800_086_400}, after
    changelog = (project / "dist" / "CHANGELOG.md").read_text(encoding="utf-8")
    assert ('- The "Report a problem" link on the back of 7 cards was added, removed or '
            "given a new address; their questions did not change.") in changelog
    assert "- Changed:" not in changelog.split("## 2027-01-16")[1].split("## ")[0]
    # A question inserted at the top moves every other one down: their links' lines
    # change in the deck, their notes do not (learners are not sent a change).
    path = project / "source" / AI
    text = path.read_text(encoding="utf-8")
    first = text.index("Question 1:")
    path.write_text(text[:first] + "Question 1: Which unit is new at the top?\n- A\n- B "
                    "(Correct answer)\nCorrect answer: B\nBecause.\n" + text[first:],
                    encoding="utf-8")
    assert build(options(now=1_800_172_800)).ok
    moved = {n.guid: n.mod for n in read_deck(
        (project / "dist" / "ai-deep-learning-frameworks.apkg").read_bytes()).notes}
    assert {g: m for g, m in moved.items() if g in after} == after
    new_lines = {query(h)["guid"]: int(query(h)["source"].rsplit(":", 1)[1])
                 for h in links(project).values()}
    assert min(new_lines.values()) == 2 and len(new_lines) == 8
    # The setting taken out again: the link goes, and the changelog says so in one line.
    (project / "source" / "nca-anki.toml").unlink()
    assert build(options(now=1_800_259_200)).ok
    assert set(links(project).values()) == {""}
    latest = (project / "dist" / "CHANGELOG.md").read_text(encoding="utf-8").split(
        "## 2027-01-18")[1].split("\n## ")[0]
    assert "- Changed:" not in latest
    assert "link on the back of 8 cards was added, removed or given a new address" in latest


def test_the_preview_s_link_names_the_file_as_the_decks_do(project, cli):
    """The preview fills the link as far as it knows (no GUID or version yet) and names the
    question file by its path in the source folder, as the decks' links do (locate reads
    it back the same way)."""
    with_report_url(project)
    assert cli("--preview", "site").status == 0
    page = (project / "site" / "ai-deep-learning-frameworks.html").read_text(encoding="utf-8")
    sources = set(re.findall(r"source=([^&\\\\]+)%3A(\d+)", page))
    assert {file for file, _ in sources} == {AI}
    assert len(sources) == 7
    assert build(options()).ok  # the decks name the same file
    assert {query(href)["source"].rsplit(":", 1)[0] for href in links(project).values()} == {AI}
