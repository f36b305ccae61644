"""``build_decks.py report-form``: the issue form the report link opens."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
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


def test_a_link_planted_at_the_form_or_at_any_name_beside_it_is_never_written_through(
        tmp_path, cli):
    """The form is written through a temporary file of a name no one can guess, linked
    into place: a link at the form's own name, or at the temporary name an earlier
    version used, leaves the file it points to as it was."""
    outside = tmp_path / "outside.txt"
    outside.write_text("not the tool's\n", encoding="utf-8")
    project = tmp_path / "project"
    folder = project / FORM_PATH.parent
    folder.mkdir(parents=True)
    (folder / ".question.yml.tmp").symlink_to(outside)  # the name it used to write to
    run = cli("report-form", str(project))
    assert run.status == 0, run.err
    assert outside.read_text(encoding="utf-8") == "not the tool's\n"
    assert (project / FORM_PATH).read_text(encoding="utf-8") == form()
    assert not (project / FORM_PATH).is_symlink()
    assert sorted(p.name for p in folder.iterdir()) == [".question.yml.tmp", "question.yml"]

    for target in (outside, tmp_path / "nowhere.txt"):  # a link to a file, and to nothing
        other = tmp_path / f"other-{target.stem}"
        (other / FORM_PATH.parent).mkdir(parents=True)
        (other / FORM_PATH).symlink_to(target)
        again = cli("report-form", str(other))
        assert again.status == 1 and "not overwritten" in again.err, again.err
        assert outside.read_text(encoding="utf-8") == "not the tool's\n"
        assert not (tmp_path / "nowhere.txt").exists()
        assert (other / FORM_PATH).is_symlink()
        assert [p.name for p in (other / FORM_PATH.parent).iterdir()] == ["question.yml"]


def test_a_file_where_its_folder_goes_is_named_and_left_as_it_is(tmp_path, cli):
    (tmp_path / ".github").write_text("a file\n", encoding="utf-8")
    run = cli("report-form", str(tmp_path))
    assert run.status == 1 and run.err.startswith(str(tmp_path / ".github")), run.err
    assert ": error: cannot write the form: Not a directory" in run.err
    assert (tmp_path / ".github").read_text(encoding="utf-8") == "a file\n"


@pytest.mark.parametrize("repository", [
    'o/r" x', "o/r\nreport_url = \"https://evil.example/\"", "owner", "owner/", "/name",
    "own er/name", "owner/na me", "-owner/name", "owner-/name", "owner/..", "owner/.",
    "o_wner/name", "owner/name/extra", "https://github.com/owner/name", "owner/näme",
    "o" * 40 + "/name", "owner/" + "n" * 101, "owner/name\\", ""])
def test_a_repository_that_is_no_github_owner_and_name_is_a_usage_error(tmp_path, cli,
                                                                         repository):
    run = cli("report-form", str(tmp_path), f"--repository={repository}")
    assert run.status == 2 and run.out == ""
    assert run.err.startswith("--repository: error: ") and "OWNER/NAME" in run.err
    assert "nothing was written" in run.err
    assert not (tmp_path / ".github").exists()


@pytest.mark.parametrize("repository", ["study/bank", "a/b", "Octo-Cat/my.repo_name-2",
                                        "o" * 39 + "/" + "n" * 100, "owner/.github",
                                        "owner/...", "0/1"])
def test_every_github_repository_gives_a_settings_line_the_settings_read_back(
        tmp_path, cli, repository):
    from nca_anki.reading.config import load_config
    run = cli("report-form", str(tmp_path / "p"), "--repository", repository)
    assert run.status == 0, run.err
    said = run.out.splitlines()[-1]
    (tmp_path / "nca-anki.toml").write_text(said + "\n", encoding="utf-8")
    config, problems = load_config(tmp_path, "nca-anki.toml")
    assert problems == ()
    assert config.report_url.startswith(f"https://github.com/{repository}/issues/new?")


@pytest.mark.parametrize("value", ['a"b', "a\\b", "line\nbreak", "tab\there", "\x7f",
                                   "ünïcode ✓", 'ends with \\"'])
def test_a_value_in_a_printed_settings_line_is_a_toml_string_of_itself(value):
    import tomllib

    from nca_anki.feedback.report_form import toml_string
    assert tomllib.loads(f"key = {toml_string(value)}\n") == {"key": value}
