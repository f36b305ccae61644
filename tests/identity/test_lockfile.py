"""Tests for nca_anki.identity.lockfile: a small, line-per-question lock that survives git merges."""

from __future__ import annotations

import functools
import json
from dataclasses import replace

import pytest

from nca_anki.diagnostics import error, warning
from nca_anki.identity.assign import assign, with_texts
from nca_anki.records import Lock, LockEntry
from nca_anki.identity.lockfile import LINE_LIMIT, dump_lock, future_mods, load_lock, load_old_lock
from test_identity import NOTE_TYPE, T0, T1, T2, bank

LOCK_PATH = "source/nca-anki.lock"


def identity(entry: LockEntry) -> tuple:
    """What the lock file keeps of an entry (its question text comes from the decks)."""
    return (entry.guid, entry.topic, entry.part, entry.content_hash, entry.mod, entry.removed,
            entry.slots, entry.file, entry.source, entry.prompt_id)


def sample_lock() -> Lock:
    first = assign(bank(), NOTE_TYPE, Lock(), frozenset(), T0,
                   files={"source/deep-learning-1.txt": "deep-learning-1.txt"})
    return assign(bank()[1:], NOTE_TYPE, first.lock, frozenset(), T1).lock


def test_round_trip_keeps_every_identity_and_the_text_stays_out() -> None:
    lock = sample_lock()
    assert any(e.removed == T1 for e in lock.entries) and any(e.file for e in lock.entries)
    text = dump_lock(lock)
    loaded, problems = load_lock(text, LOCK_PATH)
    assert problems == ()
    assert (loaded.note_type_hash, loaded.note_type_mod) == (lock.note_type_hash,
                                                             lock.note_type_mod)
    assert sorted(map(identity, loaded.entries)) == sorted(map(identity, lock.entries))
    assert not any(e.has_text for e in loaded.entries)
    assert dump_lock(loaded) == text  # the excerpt survives too


def test_format_is_one_sorted_line_per_question_within_the_limit() -> None:
    entry = LockEntry(guid="nca-00000000000000b2", topic="Tópic", part=2,
                      content_hash="0123456789abcdef", mod=1_795_970_519,
                      prompt="A very long prompt " * 12, choices=("a", "b"), answer=1,
                      explanation="Why.", slots=(1,),
                      file="tópic-2.txt", source="fedcba9876543210", prompt_id="0123456789ab")
    other = replace(entry, guid="nca-00000000000000a1", topic="Another", removed=T2, slots=(),
                    prompt="Short?", file=None)
    lines = dump_lock(Lock(note_type_hash="abcdef0123456789", note_type_mod=5,
                          entries=(entry, other))).splitlines()
    assert lines[0].startswith("# nca-anki lock 2: ")
    assert lines[1] == "N abcdef0123456789 5"
    assert [line[:2] for line in lines[2:]] == ["T ", "T ", "F ", "Q ", "Q "]
    assert lines[-2].startswith("Q nca-00000000000000a1 ")  # topic "Another" sorts first
    assert lines[-2].endswith(f" - - {T2} Short?")
    assert lines[-1].endswith("…") and "Tópic" in lines[2] + lines[3]  # readable, not escaped
    assert all(len(line.encode()) <= LINE_LIMIT for line in lines[1:])


def test_empty_lock_round_trip() -> None:
    assert load_lock(dump_lock(Lock()), LOCK_PATH) == (Lock(), ())


def test_what_a_union_merge_leaves_is_resolved_with_warnings() -> None:
    lock = sample_lock()
    text = dump_lock(lock)
    lines = text.splitlines()
    question = next(i for i, line in enumerate(lines) if line.startswith("Q "))
    guid = lines[question].split()[1]
    fields = lines[question].split(" ")
    fields[4] = str(int(fields[4]) + 60)  # the other branch edited it a minute later
    newer = " ".join(fields)
    merged = "\n".join([*lines, lines[question], newer, f"N {lock.note_type_hash} {T2}",
                        lines[2]]) + "\n"
    loaded, problems = load_lock(merged, LOCK_PATH)
    assert [e.mod for e in loaded.entries if e.guid == guid] == [int(fields[4])]
    assert loaded.note_type_mod == T2
    assert len(loaded.entries) == len(lock.entries)
    assert sorted(p.message for p in problems) == [
        f"two lines for {guid} (a merge?); the newer is kept",
        "two note-type lines (a merge?); the newer is kept"]


def test_conflict_markers_are_read_as_a_union_of_both_sides() -> None:
    lock = sample_lock()
    lines = dump_lock(lock).splitlines()
    conflicted = "\n".join([*lines[:-2], "<<<<<<< HEAD", lines[-2], "=======", lines[-1],
                            ">>>>>>> other"]) + "\n"
    loaded, problems = load_lock(conflicted, LOCK_PATH)
    assert sorted(map(identity, loaded.entries)) == sorted(map(identity, lock.entries))
    assert problems == (warning("W301", LOCK_PATH, 0, "3 merge conflict marker line(s) ignored and "
                                "both sides kept; mark the lock merge=union (see docs/authors.md)"),)


def test_a_damaged_line_is_skipped_with_a_warning() -> None:
    text = dump_lock(sample_lock()) + "Q nca-garbage\n"
    loaded, problems = load_lock(text, LOCK_PATH)
    assert len(loaded.entries) == len(sample_lock().entries)
    assert problems[0].severity.value == "warning" and "not a lock line" in problems[0].message


def test_a_file_that_is_no_lock_is_an_error() -> None:
    assert load_lock('{"format": 1}\n', LOCK_PATH) == (None, (error("E301",
        LOCK_PATH, 0, "not an nca-anki lock (no note-type or question line); restore it from "
                      "version control, or delete it to recover it from the decks in the "
                      "output folder"),))


def test_the_previous_format_is_read_in_full_for_migration() -> None:
    data = {"format": 1, "note_type": {"hash": "a" * 64, "mod": 5}, "questions": [
        {"guid": "nca-1", "topic": "T", "part": 2, "hash": "b" * 64, "mod": 7, "prompt": "P?",
         "choices": ["x", "y"], "answer": 1, "explanation": "E.", "slot": 0}]}
    lock, problems = load_old_lock(json.dumps(data), "source/nca-anki.lock.json")
    assert problems == ()
    assert lock == Lock(note_type_hash="a" * 16, note_type_mod=5, entries=(LockEntry(
        guid="nca-1", topic="T", part=2, content_hash="b" * 16, mod=7, prompt="P?",
        choices=("x", "y"), answer=1, explanation="E.", slots=(0,)),))


@pytest.mark.parametrize("text, message", [
    ('{"format": 2}', "lock file format 2 is not 1; use the nca-anki version that wrote it"),
    ('{"format": 1, "questions": []}', "lock file is damaged (KeyError: 'note_type'); restore "
                                       "it from version control"),
])
def test_a_damaged_old_lock_is_an_error(text: str, message: str) -> None:
    assert load_old_lock(text, "x") == (None, (error("E301", "x", 0, message),))


def test_texts_come_back_by_guid_without_touching_identities() -> None:
    lock, _ = load_lock(dump_lock(sample_lock()), LOCK_PATH)
    full = {e.guid: e for e in sample_lock().entries}
    filled = with_texts(lock.entries, full)
    assert [identity(e) for e in filled] == [identity(e) for e in lock.entries]
    assert all(e.choices == full[e.guid].choices for e in filled)


def test_future_mods_warns_about_clock() -> None:
    lock = Lock(note_type_hash="h", note_type_mod=T2, entries=tuple(
        LockEntry(guid=guid, topic="T", part=1, content_hash="h", mod=mod, prompt="p",
                  choices=(), answer=0, explanation="") for guid, mod in (("g1", T2), ("g2", T0))))
    assert future_mods(lock, T2 - 300, LOCK_PATH) == (warning("W303",
        LOCK_PATH, 0, "2 time(s) in the lock file are ahead of this machine's clock; "
                      "check the clock"),)
    assert future_mods(lock, T2, LOCK_PATH) == ()
    # Well behind: an error, nothing is built (versions would run backwards).
    behind = future_mods(lock, T2 - 301, LOCK_PATH)
    assert len(behind) == 1 and behind[0].is_error
    assert "is before the newest change the lock records" in behind[0].message


def test_changed_topics_names_the_topics_whose_question_lines_differ() -> None:
    from nca_anki.identity.lockfile import changed_topics

    head = "# nca-anki lock 2\nN 0123456789abcdef 5\nT aaaaaa Alpha\nT bbbbbb Beta\n"
    q1 = "Q nca-1 aaaaaa 1 5 0123456789abcdef 0123456789abcdef 0123456789ab 0 - - One\n"
    q2 = "Q nca-2 bbbbbb 1 5 0123456789abcdef 0123456789abcdef 0123456789ab 0 - - Two\n"
    assert changed_topics(head + q1 + q2, head + q1 + q2) == ()
    assert changed_topics(head + q1 + q2, head + q1 + q2.replace(" 5 ", " 6 ", 1)) == ("Beta",)
    assert changed_topics(head + q1, head + q1 + q2) == ("Beta",)
    assert changed_topics(head + q1 + q2, head.replace(" 5\n", " 6\n") + q1 + q2) == ("",)


@functools.cache
def _colliding_names() -> tuple[str, str]:
    """Two topic names whose 6-digit keys are the same (a birthday search)."""
    from nca_anki.identity.lockfile import key

    seen: dict[str, str] = {}
    for n in range(1_000_000):
        name = f"Topic {n}"
        found = seen.setdefault(key(name), name)
        if found != name:
            return found, name
    raise AssertionError("no collision")  # pragma: no cover


def _entry(guid: str, topic: str, mod: int = T0) -> LockEntry:
    return LockEntry(guid=guid, topic=topic, part=1, content_hash="0" * 16, mod=mod,
                     prompt=f"A question of {topic}", choices=(), answer=-1, explanation="")


def test_topic_names_whose_short_keys_collide_keep_their_own_questions() -> None:
    first, second = _colliding_names()
    lock = Lock(note_type_hash="1" * 16, note_type_mod=T0, entries=(
        _entry("nca-" + "a" * 16, first), _entry("nca-" + "b" * 16, second),
        _entry("nca-" + "c" * 16, "Another topic")))
    text = dump_lock(lock)
    t_lines = [line.split(" ")[1] for line in text.splitlines() if line.startswith("T ")]
    assert len(set(t_lines)) == 3 and sorted(map(len, t_lines)) == [6, 8, 8]
    loaded, problems = load_lock(text, LOCK_PATH)
    assert problems == ()
    assert {(e.guid, e.topic) for e in loaded.entries} == {(e.guid, e.topic)
                                                           for e in lock.entries}


def test_a_key_two_names_share_is_not_guessed() -> None:
    # A lock from a version with 6-digit keys only, where two names met by chance.
    first, second = _colliding_names()
    from nca_anki.identity.lockfile import key

    k = key(first)
    text = (f"N {'1' * 16} {T0}\nT {k} {first}\nT {k} {second}\n"
            f"Q nca-{'a' * 16} {k} 1 {T0} {'0' * 16} - - - - - excerpt\n")
    loaded, problems = load_lock(text, LOCK_PATH)
    assert loaded.entries == () and loaded.lines_lost == 1
    assert [p.message for p in problems] == [
        f"question nca-{'a' * 16} names a key two names share (lock lines of two versions?); "
        "ignored, the decks in the output folder fill in what it held"]


@pytest.mark.parametrize("guid", ["nca-<b>x</b>", "nca-f2b16400f165eb9", "nca-F2B16400F165EB98",
                                  "nca-f2b16400f165eb98x"])
def test_a_mistyped_or_tampered_guid_is_not_a_lock_line(guid: str) -> None:
    text = (f"N {'1' * 16} {T0}\nT 0a0a0a Topic\n"
            f"Q {guid} 0a0a0a 1 {T0} {'0' * 16} - - - - - excerpt\n")
    loaded, problems = load_lock(text, LOCK_PATH)
    assert loaded.entries == () and loaded.lines_lost == 1
    assert problems[0].message.startswith("not a lock line, ignored: ")


@pytest.mark.parametrize("field", [3, 4, 8, 10])  # part, mod, slots, removed
@pytest.mark.parametrize("digits", ["²", "1²", "٣", "٣,1", "①"])
def test_a_number_written_in_other_digits_is_not_a_lock_line(field: int, digits: str) -> None:
    """Python's str.isdigit() takes a superscript two, which int() refuses: a hand-edited
    or tampered lock line was a crash. Only ASCII digits make a number in a lock line."""
    fields = ["Q", f"nca-{'a' * 16}", "0a0a0a", "1", str(T0), "0" * 16, "-", "-", "-", "-",
              "-", "excerpt"]
    fields[field] = digits
    text = f"N {'1' * 16} {T0}\nT 0a0a0a Topic\n{' '.join(fields)}\n"
    loaded, problems = load_lock(text, LOCK_PATH)
    assert loaded.entries == () and loaded.lines_lost == 1
    assert problems[0].message.startswith("not a lock line, ignored: ")


def test_the_slots_of_a_question_with_several_answers_round_trip() -> None:
    entry = LockEntry(guid="nca-00000000000000c3", topic="T", part=1,
                      content_hash="0123456789abcdef", mod=1_795_970_519, prompt="Which two?",
                      choices=(), answer=-1, explanation="", slots=(0, 3),
                      source="fedcba9876543210", prompt_id="0123456789ab")
    text = dump_lock(Lock(note_type_hash="abcdef0123456789", note_type_mod=5, entries=(entry,)))
    assert " 0,3 - - Which two?" in text
    loaded, problems = load_lock(text, LOCK_PATH)
    assert problems == () and loaded.entries[0].slots == (0, 3)
    damaged, problems = load_lock(text.replace(" 0,3 ", " 0,,3 "), LOCK_PATH)
    assert damaged.entries == () and damaged.lines_lost == 1
