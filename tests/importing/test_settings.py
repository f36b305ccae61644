"""``import``'s settings file, ``nca-import.toml`` beside the bank (importing/settings.py):
found beside the bank or named, ignored on request, under the command line; written by
--write-settings so that the import repeats byte for byte; every problem in it at its
line, exit 2, nothing written."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from anki_client import html_to_text
from conftest import built_and_imported
from nca_anki.importing.settings import SETTINGS_NAME, key_line

# A bank the importer reads wrong by itself: the short 'heading' is taken for the prompt
# (the question sits in a nested object), and each choice's 'value' for its text (the
# words a learner reads are under 'caption', a name that says nothing).
GUESSED_WRONG = {"quiz": [
    {"heading": "Rivers 1", "content": {"ask": "Which river flows through Budapest?"},
     "picks": [{"id": "a", "value": "danube-r", "caption": "The Danube"},
               {"id": "b", "value": "rhine-r", "caption": "The Rhine"},
               {"id": "c", "value": "elbe-r", "caption": "The Elbe"}],
     "solution": "a"},
    {"heading": "Rivers 2", "content": {"ask": "Which river ends in the Caspian Sea?"},
     "picks": [{"id": "a", "value": "don-r", "caption": "The Don"},
               {"id": "b", "value": "volga-r", "caption": "The Volga"},
               {"id": "c", "value": "ural-r", "caption": "The Ural"}],
     "solution": "b"},
]}
FIX = '[map]\ncontent.ask = "prompt"   # a key inside a nested object\n' \
      'picks.caption = "choice-text"\n'


def _bank(folder: Path, settings: str | None = FIX) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    bank = folder / "rivers.json"
    bank.write_text(json.dumps(GUESSED_WRONG, indent=1), encoding="utf-8")
    if settings is not None:
        (folder / SETTINGS_NAME).write_text(settings, encoding="utf-8")
    return bank


def _written(out: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted(out.glob("*.txt")))


def _read_right(out: Path) -> bool:
    text = _written(out)
    return "Which river flows through Budapest?" in text and "The Danube" in text \
        and "danube-r" not in text


def test_the_settings_beside_a_file_given_are_used(tmp_path, cli):
    bank = _bank(tmp_path / "bank")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert _read_right(tmp_path / "out")
    said = done.err.splitlines()[0]
    assert said == f"read with settings {(tmp_path / 'bank' / SETTINGS_NAME).as_posix()} " \
                   "(beside the bank): its map (2 keys) taken"


def test_the_settings_in_a_folder_given_are_used(tmp_path, cli):
    _bank(tmp_path / "bank")
    done = cli("import", str(tmp_path / "bank"), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert _read_right(tmp_path / "out")


def test_settings_in_a_parent_or_another_folder_are_not_the_banks(tmp_path, cli):
    bank = _bank(tmp_path / "bank" / "inner", settings=None)
    (tmp_path / "bank" / SETTINGS_NAME).write_text(FIX, encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert not _read_right(tmp_path / "out")
    assert "read with settings" not in done.err


def test_settings_named_with_settings_are_used_for_every_input(tmp_path, cli):
    bank = _bank(tmp_path / "bank", settings=None)
    named = tmp_path / "elsewhere" / "rivers.toml"
    named.parent.mkdir()
    named.write_text(FIX, encoding="utf-8")
    done = cli("import", str(bank), "--settings", str(named), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert _read_right(tmp_path / "out")
    assert f"read with settings {named.as_posix()}: its map (2 keys) taken" in done.err


def test_no_settings_ignores_the_file_beside_the_bank(tmp_path, cli):
    bank = _bank(tmp_path / "bank", settings="this is not TOML at all [")
    done = cli("import", str(bank), "--no-settings", "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert "danube-r" in _written(tmp_path / "out")  # the importer's own guess
    assert "read with settings" not in done.err


def test_the_command_line_goes_over_the_file(tmp_path, cli):
    bank = _bank(tmp_path / "bank", settings='topic = "Settings Topic"\n' + FIX)
    done = cli("import", str(bank), "--topic", "Command Topic", "--map", "picks.value=choice-text",
               "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    text = _written(tmp_path / "out")
    assert text.startswith("Command Topic 1 — ")
    assert "Which river flows through Budapest?" in text  # the file's map, where not overridden
    assert "danube-r" in text  # the command line's --map over the file's picks.caption
    assert done.err.splitlines()[0].endswith(
        "(beside the bank): its map (2 keys) taken; the command line's --topic over it")


def test_a_files_table_says_how_some_files_are_read(tmp_path, cli):
    folder = tmp_path / "bank"
    _bank(folder / "json", settings=None)
    other = folder / "notes" / "plain.md"  # Aiken, though its name says Markdown
    other.parent.mkdir()
    other.write_text("Which colour is the sky on a clear day?\nA. Green\nB. Blue\n"
                     "ANSWER: B\n", encoding="utf-8")
    (folder / SETTINGS_NAME).write_text(
        '[files."json/*.json".map]\ncontent.ask = "prompt"\npicks.caption = "choice-text"\n'
        '\n[files."notes/**"]\nfrom = "aiken"\ntopic = "Sky"\n'
        '\n[files."nowhere/*.csv"]\nfrom = "csv"\n', encoding="utf-8")
    done = cli("import", str(folder), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert _read_right(tmp_path / "out")
    assert "Question 1: Which colour is the sky on a clear day?\n- Green\n- Blue (Correct" \
        in (tmp_path / "out" / "sky-1.txt").read_text(encoding="utf-8")
    assert done.err.startswith(f"read with settings {(folder / SETTINGS_NAME).as_posix()} "
                               "(beside the bank): its from 'aiken', map (2 keys) and topic "
                               "'Sky' taken\n")
    assert f"{(folder / SETTINGS_NAME).as_posix()}:9: warning[W710]: " \
           '[files."nowhere/*.csv"] matches no file of this import' in done.err


@pytest.mark.anki
def test_a_map_with_key_paths_fixes_a_wrongly_guessed_bank_in_anki(tmp_path, cli):
    """Guessed wrong, the learner would see 'danube-r' and 'Rivers 1'; the settings beside
    the bank (a nested object's key, and a key inside the choice objects) give the cards
    the words the bank's own quiz shows."""
    bank = _bank(tmp_path / "bank")
    done = cli("import", str(bank), "--out", str(tmp_path / "source"))
    assert done.status == 0, done.err
    _, decks = built_and_imported(tmp_path)
    seen = {}
    for card in (card for deck in decks.values() for card in deck):
        choices = dict(re.findall(r'<span class="nca-label">([A-J])</span> '
                                  r'<span class="nca-text">(.*?)</span>',
                                  card.fields["Choices"], re.DOTALL))
        right = re.findall(r"[A-J]", card.fields["Answer"])
        seen[html_to_text(card.fields["Prompt"]).strip()] = (
            sorted(html_to_text(t).strip() for t in choices.values()),
            [html_to_text(choices[x]).strip() for x in right])
    assert seen == {
        "Which river flows through Budapest?": (
            ["The Danube", "The Elbe", "The Rhine"], ["The Danube"]),
        "Which river ends in the Caspian Sea?": (
            ["The Don", "The Ural", "The Volga"], ["The Volga"])}


# --- reproducible ----------------------------------------------------------------------------

def _mixed_bank(folder: Path) -> None:
    """A folder of banks in several formats, each read by the importer's own guesses."""
    _bank(folder, settings=None)
    (folder / "quiz.csv").write_text(
        "Question;Option A;Option B;Option C;Answer;Why\n"
        "Which gas do plants take in?;Oxygen;Carbon dioxide;Helium;B;For photosynthesis\n"
        "Which planet is largest?;Jupiter;Mars;Venus;A;By far\n", encoding="utf-8")
    (folder / "deck.yaml").write_text(
        "- q: Which metal is liquid at room temperature?\n  opts: [Iron, Mercury, Tin]\n"
        "  right: 1\n- q: Which metal costs most?\n  opts: [Platinum, Iron, Tin]\n  right: 0\n",
        encoding="utf-8")
    (folder / "more.md").write_text(
        "### Which sea is saltiest?\n\n- [ ] The Baltic\n- [x] The Dead Sea\n- [ ] The North Sea\n",
        encoding="utf-8")


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file()}


def test_the_written_settings_repeat_the_import_byte_for_byte(tmp_path, cli):
    folder = tmp_path / "bank"
    _mixed_bank(folder)
    first = cli("import", str(folder), "--out", str(tmp_path / "one"), "--map",
                "picks.caption=choice-text", "--write-settings")
    assert first.status == 0, first.err
    settings = folder / SETTINGS_NAME
    assert f"wrote {settings.as_posix()}" in first.err
    written = settings.read_text(encoding="utf-8")
    assert '[files."quiz.csv"]\nfrom = "csv"' in written
    assert '[files."rivers.json".map]' in written
    assert '"picks.caption" = "choice-text"' in written  # what the command line said
    assert '[files."more.md"]\nfrom = "markdown"' in written
    again = cli("import", str(folder), "--out", str(tmp_path / "two"))
    assert again.status == 0, again.err
    assert _files(tmp_path / "one") == _files(tmp_path / "two")
    assert len(_files(tmp_path / "one")) == 4
    # Written again from the settings it wrote, the file is the same: nothing was left to
    # the guess that the file did not say.
    third = cli("import", str(folder), "--out", str(tmp_path / "three"), "--write-settings")
    assert third.status == 0, third.err
    assert settings.read_text(encoding="utf-8").split("\n")[3:] == written.split("\n")[3:]
    assert _files(tmp_path / "one") == _files(tmp_path / "three")


def test_json_says_how_each_file_was_read(tmp_path, cli):
    folder = tmp_path / "bank"
    _mixed_bank(folder)
    done = cli("import", str(folder), "--out", str(tmp_path / "out"), "--json")
    outcome = json.loads(done.out)
    by_file = {Path(one["file"]).name: one for one in outcome["settings"]["read_as"]}
    assert by_file["quiz.csv"]["from"] == "csv"
    assert by_file["quiz.csv"]["map"]["Question"] == "prompt"
    assert by_file["deck.yaml"]["map"] == {"q": "prompt", "opts": "choices",
                                           "right": "answer0"}
    assert by_file["more.md"] == {"file": (folder / "more.md").as_posix(), "from": "markdown",
                                  "map": {}, "topic": None}
    assert outcome["settings"]["said"] == ""


def test_write_settings_never_replaces_a_file_it_did_not_write(tmp_path, cli):
    bank = _bank(tmp_path / "bank")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"), "--write-settings")
    assert done.status == 2
    assert done.err.strip() == (
        f"{(tmp_path / 'bank' / SETTINGS_NAME).as_posix()}: error[E709]: is there and was "
        "not written by --write-settings, so it is not replaced; move it away, or leave "
        "out --write-settings")
    assert (tmp_path / "bank" / SETTINGS_NAME).read_text(encoding="utf-8") == FIX
    assert not (tmp_path / "out").exists()


def test_write_settings_needs_one_folder(tmp_path, cli):
    one = _bank(tmp_path / "a", settings=None)
    two = _bank(tmp_path / "b", settings=None)
    done = cli("import", str(one), str(two), "--out", str(tmp_path / "out"), "--write-settings")
    assert done.status == 2
    assert done.err.startswith(
        "--write-settings: error[E709]: writes the settings beside the bank, and the inputs "
        "come from 2 folders; import one folder at a time, or give the folder that holds "
        "them (") and done.err.endswith(") as the input\n")
    assert not (tmp_path / "out").exists()


def test_two_folders_with_settings_each_are_refused(tmp_path, cli):
    one = _bank(tmp_path / "a")
    two = _bank(tmp_path / "b")
    done = cli("import", str(one), str(two), "--out", str(tmp_path / "out"))
    assert done.status == 2
    assert done.err.strip() == (
        f"{(tmp_path / 'b' / SETTINGS_NAME).as_posix()}: error[E709]: the inputs come from "
        f"two folders that each have a {SETTINGS_NAME} (also "
        f"{(tmp_path / 'a' / SETTINGS_NAME).as_posix()}); import each folder on its own, or "
        "name one with --settings FILE, or --no-settings")
    assert not (tmp_path / "out").exists()


# --- the author's mistakes, each at its line -------------------------------------------------

@pytest.mark.parametrize(("text", "line", "said"), [
    ('from = "json"\n[map\n', 2, "not valid TOML: "),
    ('form = "json"\n', 1, "unknown setting 'form' (did you mean 'from'?); the settings: "
                           "from, topic, map, files"),
    ('\n[map]\nheading = "prompt"\npicks.caption = "choice-txt"\n', 4,
     "'picks.caption' = 'choice-txt' is not a role (did you mean 'choice-text'?); the "
     "roles: prompt, choices,"),
    ('from = "jsn"\n', 1, "from = 'jsn' is not a reader (did you mean 'json'?); the "
                          "readers: markdown, json,"),
    ('topic = 7\n', 1, "topic must be the topic's name, as text"),
    ('map = "heading"\n', 1, "map must be a table ([map] and its keys), not text"),
    ('[map]\nheading = true\n', 2, "'heading' = true is not a role"),
    ('\n[files."*.json"]\nfrom = "json"\nmapp = 1\n', 4,
     "unknown setting 'mapp' in [files.\"*.json\"] (did you mean 'map'?)"),
    ('[files]\n"*.json" = 3\n', 2, "files.*.json must be a table"),
])
def test_a_mistake_in_the_settings_is_named_at_its_line(tmp_path, cli, text, line, said):
    bank = _bank(tmp_path / "bank", settings=text)
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 2, done.err
    where = f"{(tmp_path / 'bank' / SETTINGS_NAME).as_posix()}:{line}: error[E706]: "
    assert done.err.startswith(where + said), done.err
    assert done.err.count("\n") == 1 and "Traceback" not in done.err
    assert not (tmp_path / "out").exists()


def test_a_mistake_in_json_mode_is_the_same_exit_and_message(tmp_path, cli):
    bank = _bank(tmp_path / "bank", settings='form = "json"\n')
    done = cli("import", str(bank), "--out", str(tmp_path / "out"), "--json")
    assert done.status == 2
    assert "error[E706]: unknown setting 'form'" in done.err and done.out == ""


def test_key_lines_are_found_through_tables_and_dotted_keys():
    text = ('topic = "x"\n[map]\n"picks.caption" = "choice-text"\ncontent.ask = "prompt"\n'
            '\n[files."a/*.js".map]\nq = "prompt"  # map\n')
    assert key_line(text, ("map", "picks.caption")) == 3
    assert key_line(text, ("map", "content", "ask")) == 4
    assert key_line(text, ("files", "a/*.js", "map", "q")) == 7
    assert key_line(text, ("topic",)) == 1
    assert key_line(text, ("nothing",)) == 0


# --- a hostile settings file -------------------------------------------------------------------

def _refused(cli, tmp_path: Path, bank: Path) -> str:
    started = time.monotonic()
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert time.monotonic() - started < 20
    assert done.status == 2, done.err
    assert "Traceback" not in done.err and done.err.count("\n") == 1
    assert not (tmp_path / "out").exists()
    return done.err


def test_a_pipe_for_settings_is_never_opened(tmp_path, cli):
    bank = _bank(tmp_path / "bank", settings=None)
    os.mkfifo(tmp_path / "bank" / SETTINGS_NAME)
    assert "error[E709]: is not a regular file" in _refused(cli, tmp_path, bank)


def test_huge_binary_and_deep_settings_are_refused(tmp_path, cli):
    bank = _bank(tmp_path / "bank", settings="x = '" + "y" * (2 << 20) + "'\n")
    assert "error[E709]: is too large" in _refused(cli, tmp_path, bank)
    (tmp_path / "bank" / SETTINGS_NAME).write_bytes(b"from = \"json\"\n\xff\xfe\x00\x01")
    assert f"{SETTINGS_NAME}:2: error[E709]: is not UTF-8 text" in \
        _refused(cli, tmp_path, bank)
    (tmp_path / "bank" / SETTINGS_NAME).write_text(
        "\nx = " + "[" * 200_000 + "]" * 200_000 + "\n", encoding="utf-8")
    assert f"{SETTINGS_NAME}:2: error[E706]: not valid settings: arrays or tables nested " \
           "far too deep" in _refused(cli, tmp_path, bank)
    (tmp_path / "bank" / SETTINGS_NAME).write_text(
        "[map]\n" + "".join(f'k{n} = "ignore"\n' for n in range(30_000)), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err  # a long map is only long


def test_a_link_out_of_the_banks_folder_is_refused(tmp_path, cli):
    bank = _bank(tmp_path / "bank", settings=None)
    outside = tmp_path / "secret.toml"
    outside.write_text('from = "json"\n', encoding="utf-8")
    (tmp_path / "bank" / SETTINGS_NAME).symlink_to(outside)
    assert "error[E709]: is a link to a file outside the bank's folder" in \
        _refused(cli, tmp_path, bank)
    # named with --settings, the author chose it
    done = cli("import", str(bank), "--settings", str(tmp_path / "bank" / SETTINGS_NAME),
               "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err


def test_patterns_match_a_path_part_by_part():
    from nca_anki.importing.settings import FileRule

    def matches(pattern: str, path: str) -> bool:
        return FileRule(pattern, 1).matches(path)

    assert matches("quiz/*.json", "quiz/a.json")
    assert not matches("quiz/*.json", "quiz/deep/a.json")  # * stays in one name
    assert matches("quiz/**/*.json", "quiz/a.json") and matches("quiz/**/*.json",
                                                               "quiz/x/y/a.json")
    assert matches("**", "any/where.md") and matches("./notes.md", "notes.md")
    assert matches("odd[1].md", "odd[1].md")  # a path written out matches itself
    assert not matches("*.md", "notes.txt") and matches("?.md", "a.md")


def test_hostile_patterns_and_keys_take_no_time(tmp_path, cli):
    from nca_anki.importing.settings import FileRule

    started = time.process_time()
    assert not FileRule("*a" * 5000 + "b", 1).matches("a" * 4000)
    assert not FileRule("/".join(["**"] * 20_000) + "/x", 1).matches("a/" * 200 + "y")
    line = "a" * 300_000
    text = f'topic = "{line}"\n[map]\n"{line}" = "nothing"\n'
    assert key_line(text, ("map", line)) == 3
    assert time.process_time() - started < 5
    bank = _bank(tmp_path / "bank", settings=text)
    err = _refused(cli, tmp_path, bank)
    assert f"{SETTINGS_NAME}:3: error[E706]: 'aaaa" in err and len(err) < 400
    (tmp_path / "bank" / SETTINGS_NAME).write_text(
        f'[files."{"*a" * 100_000}b"]\nfrom = "json"\n', encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0 and "warning[W710]" in done.err
    assert max(len(line) for line in done.err.splitlines()) < 400


def test_reading_settings_grows_linearly(tmp_path):
    """Checked, a settings file's map, its [files] tables and the line of a mistake at its
    end take time linear in the file (growth, not speed: tests/growth.py)."""
    from growth import least_cpu
    from nca_anki.importing.settings import SettingsProblem, load

    def settings(n: int) -> Path:
        path = tmp_path / f"s{n}.toml"
        path.write_text("[map]\n" + "".join(f'"k{i}.x" = "choice-text"\n' for i in range(n))
                        + "".join(f'[files."d{i}/*.json"]\nfrom = "json"\n' for i in range(n))
                        + f'[files."last"]\nfrom = "jsn{"x" * n}"\n', encoding="utf-8")
        return path

    def run(n: int) -> None:
        path = settings(n)
        with pytest.raises(SettingsProblem) as raised:
            load(path, ("json", "csv"), named=True)
        assert raised.value.diagnostic.line == 3 * n + 3

    assert least_cpu(lambda: run(8000)) < 8 * least_cpu(lambda: run(2000)) + 0.01


def test_a_settings_file_named_that_is_not_there_is_a_usage_error(tmp_path, cli):
    bank = _bank(tmp_path / "bank", settings=None)
    done = cli("import", str(bank), "--settings", str(tmp_path / "nope.toml"), "--out",
               str(tmp_path / "out"))
    assert done.status == 2
    assert done.err == f"{(tmp_path / 'nope.toml').as_posix()}: error[E709]: cannot be " \
                       "read: No such file or directory\n"
    done = cli("import", str(bank), "--settings", "x.toml", "--no-settings", "--out",
               str(tmp_path / "out"))
    assert done.status == 2 and "not allowed with argument" in done.err


def test_a_topic_given_once_is_written_for_each_file_and_repeats(tmp_path, cli):
    folder = tmp_path / "bank"
    _mixed_bank(folder)
    first = cli("import", str(folder), "--out", str(tmp_path / "one"), "--topic",
                "Mixed \"Quiz\"", "--write-settings")
    assert first.status == 0, first.err
    assert (folder / SETTINGS_NAME).read_text(encoding="utf-8").count(
        'topic = "Mixed \\"Quiz\\""') == 4
    again = cli("import", str(folder), "--out", str(tmp_path / "two"))
    assert again.status == 0 and "topic 'Mixed \"Quiz\"' taken" in again.err, again.err
    assert _files(tmp_path / "one") == _files(tmp_path / "two")
    assert list(_files(tmp_path / "two")) == ["mixed-quiz-1.txt", "mixed-quiz-2.txt",
                                              "mixed-quiz-3.txt", "mixed-quiz-4.txt"]
