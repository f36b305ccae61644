"""``build_decks.py report-form``: the issue form the report link opens."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import yaml

from conftest import REPO
from nca_anki.feedback.report_form import FORM_PATH, form


def test_the_form_is_written_once_and_never_over_another_file(tmp_path, cli):
    run = cli("report-form", str(tmp_path), "--repository", "study/bank")
    assert run.status == 0
    path = tmp_path / FORM_PATH
    assert path.read_text(encoding="utf-8") == form()
    said = run.out.splitlines()
    assert said[0] == f"{path.as_posix()} written"
    url = said[-1].removeprefix('report_url = "').removesuffix('"')
    assert url.startswith("https://github.com/study/bank/issues/new?template=question.yml&")
    assert cli("report-form", str(tmp_path)).out.startswith(f"{path.as_posix()} already there")
    path.write_text("name: ours\n", encoding="utf-8")
    again = cli("report-form", str(tmp_path))
    assert again.status == 1 and "not overwritten" in again.err
    assert path.read_text(encoding="utf-8") == "name: ours\n"


def test_every_placeholder_of_the_link_fills_a_field_of_the_form(tmp_path, cli):
    """GitHub fills a form's field from the query parameter of its id."""
    body = yaml.safe_load(form())["body"]
    ids = {item["id"] for item in body if "id" in item}
    said = cli("report-form", str(tmp_path)).out.splitlines()[-1]
    url = said.removeprefix('report_url = "').removesuffix('"')
    params = set(parse_qs(urlsplit(url).query)) - {"template", "title"}
    assert params <= ids and {"fingerprint", "guid", "source", "pick", "verdict"} <= params
    assert {"problem", "details"} <= ids


def test_the_repository_ships_the_form_the_tool_writes():
    assert (REPO / FORM_PATH).read_text(encoding="utf-8") == form()


def test_the_printed_report_url_is_one_the_settings_accept(tmp_path, cli):
    from nca_anki.reading.config import load_config
    said = cli("report-form", str(tmp_path / "p")).out.splitlines()[-1]
    (tmp_path / "nca-anki.toml").write_text(said + "\n", encoding="utf-8")
    config, problems = load_config(tmp_path, "nca-anki.toml")
    assert problems == () and config.report_url.startswith("https://github.com/OWNER/REPO/")
    assert Path(tmp_path / "p" / FORM_PATH).is_file()
