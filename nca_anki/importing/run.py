"""``build_decks.py import``, whole: find the input files (a folder given is searched),
tell each one's format (``--from``, else its name, else its content: detect.py; a guess
that reads with errors gives way to another format that reads without any, W709), read
it with its format's reader, convert (convert.py), and write the question files and the
images they show into the output folder, never over a file that is there.

One entry point, ``import_banks``; the readers are readers.py's table. Nothing here
prints: what was written and every problem come back as an ``Imported`` record, and the
command prints it (commands/import_.py, commands/output.py).

Inputs are untrusted: only regular files are opened (a named pipe or a device would hang
the import or never end), none larger than ``INPUT_LIMIT``; an image a question shows is
copied only if it lies inside the folder the input came from, is a regular file, is no
larger than ``IMAGE_LIMIT`` and really is an image of a type Anki shows (its first bytes
say so, whatever its name says).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from nca_anki import diagnostics as diag
from nca_anki.diagnostics import Diagnostic
from nca_anki.files import NotRegularFile, TooLarge, read_regular as read_file
from nca_anki.importing.bank import Reading
from nca_anki.importing.convert import LEFT_OUT, Conversion, Part, convert
from nca_anki.importing.detect import NAMES, Guess, bank_files, by_name, guesses
from nca_anki.importing.messages import readable
from nca_anki.importing import page, settings as settings_file
from nca_anki.importing.readers import BY_CONTENT, READERS, extensions, named
from nca_anki.importing.settings import ImportSettings, ReadAs
from nca_anki.publishing.output import WriteError, write_atomic
from nca_anki.reading.decode import decode_source, is_utf8
from nca_anki.reading.images import image_problem, image_type
from nca_anki.reading.media import MAX_IMAGE_BYTES

# The codes of a question left out of the conversion: one error at each one's place.
NOT_CONVERTED = LEFT_OUT
INPUT_LIMIT = 256 << 20  # bytes: a bank of 100,000 questions is about 50 MB
# The build's own limit per image (reading/media.py): what it would refuse is not copied.
IMAGE_LIMIT = MAX_IMAGE_BYTES


@dataclass(frozen=True)
class Imported:
    written: tuple[Part, ...]  # the question files written, in order
    problems: tuple[Diagnostic, ...]  # sorted
    read: int = 0  # the questions read from the inputs, converted or not
    inputs: int = 0  # the files read (a folder given: those in it that may be banks)
    settings: str = ""  # which settings file was used, and what of it (settings.note)
    read_as: tuple[ReadAs, ...] = ()  # how each file was read, for --write-settings

    @property
    def refusals(self) -> tuple[Diagnostic, ...]:
        """The errors that each leave a question out, one at its place."""
        return tuple(d for d in self.problems if d.is_error and d.code in NOT_CONVERTED)

    @property
    def not_converted(self) -> int:
        return len(self.refusals)

    @property
    def exit_status(self) -> int:
        """The import command's: 1 when a question or file was refused or nothing was
        written, else 0."""
        return 1 if any(d.is_error for d in self.problems) or not self.written else 0


@dataclass(frozen=True)
class _Input:
    path: Path
    root: Path  # the folder it was found in (a file given: its own folder)
    searched: bool  # found by searching a folder (not named by the author)


def import_banks(inputs: Sequence[str], form: str | None, out: Path, topic: str | None,
                 overrides: Mapping[str, str] | None = None,
                 settings: ImportSettings | None = None) -> Imported:
    """Read ``inputs`` (files, or folders to search) as ``form`` (a reader's name; None:
    each file's own, detect.py), convert them, and write what converted into ``out`` (see
    the module docstring). Nothing is written when any file it would write is there.
    ``settings`` (settings.py) say how to read the inputs it is for, under ``form`` and
    ``overrides``."""
    problems: list[Diagnostic] = []
    found = _inputs(inputs, out, problems)
    chosen = [settings_file.choose(settings, one.path, one.root, form, overrides or {}, topic)
              for one in found]
    read = [_read_one(one, c.form, c.overrides) for one, c in zip(found, chosen)]
    readings = [settings_file.titled(r, c.topic) for (_, r), c in zip(read, chosen)]
    problems += settings_file.unmatched(settings, chosen)
    roots = {one.path.as_posix(): one.root for one in found}

    def converted(unwritable: Mapping[str, str] | None = None) -> Conversion:
        return convert(readings, topic=topic, unwritable=unwritable, image_problem=lambda
                       given, image: _image_problem(roots[given], image))

    result = converted()
    images = {target: source for part in result.parts for source, target in part.images}
    carried = {target: data for part in result.parts for target, data in part.embedded}
    taken = [name for name in (*(p.name for p in result.parts), *images, *carried)
             if _taken(out / name, images.get(name), carried.get(name))]
    problems += [diag.error("E705", (out / name).as_posix(), 0, "is already there; nothing "
                            "was written: move it away, or import into another folder "
                            "(--out DIR)") for name in taken]
    written: list[Part] = []
    if not taken:
        fresh, failed = _write_images(images, carried, out)
        if failed:  # the questions that show them are left out, each said at its place
            result = converted(failed)
            shown = {t for part in result.parts for t in (*(t for _, t in part.images),
                                                          *(t for t, _ in part.embedded))}
            for target in fresh - shown:
                (out / target).unlink(missing_ok=True)
        for k, part in enumerate(result.parts):
            failure = _write(part, out)
            if failure is not None:  # the questions not written: counted, never silent
                problems.append(_unwritten(failure, result.parts[k:]))
                break
            written.append(part)
    problems += result.problems
    count = sum(len(s.items) for r in readings for s in r.sections) + sum(
        d.code in NOT_CONVERTED and d.is_error for r in readings for d in r.problems)
    read_as = (settings_file.read_as(one.path, kind, reading, c, topic or c.topic)
               for one, c, (kind, reading) in zip(found, chosen, read))
    # The one place every message of an import passes: what it quotes is cut (messages.py).
    return Imported(tuple(written), diag.sort_diagnostics(readable(problems)), count,
                    len(found), settings_file.note(settings, chosen),
                    tuple(r for r in read_as if r is not None))


def _inputs(given: Sequence[str], out: Path, problems: list[Diagnostic]) -> list[_Input]:
    """The files to read: each file given, and the bank files in each folder given (not
    those in the output folder, should it be inside)."""
    found: list[_Input] = []
    for name in given:
        path = Path(name)
        if not path.is_dir():
            found.append(_Input(path, path.parent, False))
            continue
        names = []
        for folder, dirs, files in os.walk(path):
            here = Path(folder)
            dirs[:] = sorted(d for d in dirs if (here / d).resolve() != out.resolve())
            names += [(here / f).relative_to(path).as_posix() for f in files]
        chosen = bank_files(sorted(names))
        if not chosen:
            problems.append(diag.error("E701", path.as_posix(), 0, (
                f"holds no file a bank is kept in ({_EXTENSIONS}); nothing converted")))
        found += [_Input(path / n, path, True) for n in chosen]
    return found


def _read_one(one: _Input, form: str | None, overrides: Mapping[str, str]
              ) -> tuple[str | None, Reading]:
    """``_read``, with what its readers kept for the next reader of the same text let go
    of once it is read: the Markdown blocks of a bank of 100,000 questions are not held
    while it is converted (issue 46, 3)."""
    try:
        return _read(one, form, overrides)
    finally:
        page.blocks.cache_clear()


def _read(one: _Input, form: str | None, overrides: Mapping[str, str]
          ) -> tuple[str | None, Reading]:
    """What ``one`` holds, read as ``form`` (None: its own format), and the format read."""
    shown = one.path.as_posix()
    data, problem = read_regular(one.path, INPUT_LIMIT)
    if problem:
        return None, Reading((), (diag.error("E701", shown, 0,
                                             f"{problem}; nothing converted"),))
    data, legacy = _legacy_encoding(data, shown)
    decoded = decode_source(data, shown)
    del data  # the bytes of a large bank are not held while its text is read
    if legacy is not None:
        decoded = replace(decoded, diagnostics=(legacy, *(
            d for d in decoded.diagnostics if d.code != "W101")))
    kind = form or by_name(shown)
    if kind is not None:
        reading = named(kind).read(decoded.text, shown, overrides)
    elif found := guesses(decoded.text):
        kind, reading = _guessed(found, decoded.text, shown, overrides)
    elif one.searched:
        return None, Reading(())
    else:
        return None, Reading((), (diag.error("E701", shown, 0, (
            f"its format is not one this reads ({_NAMES}), by its name or its "
            "content; if it is one of them, say which with --from FORMAT")),))
    if one.searched and not reading.sections and not any(
            d.is_error and d.code in NOT_CONVERTED for d in reading.problems):
        # A README, a settings file: a file of the folder that holds no questions (one
        # whose questions were all refused says so, question by question).
        return None, Reading((), (diag.warning("W706", shown, 0, (
            f"read as {kind}, it holds no questions; skipped")),))
    return kind, Reading(reading.sections, (*decoded.diagnostics, *reading.problems))


def _guessed(found: list[Guess], text: str, shown: str, overrides: Mapping[str, str]
             ) -> tuple[str, Reading]:
    """``text`` read as the format its content speaks for most (``found``, detect.py);
    if that reading has errors, as the first other format found that reads it without
    any and reads as many questions. When the first guess failed, a warning (W709) says
    what was guessed, from what, and how to name the format."""
    first = found[0]
    reading = named(first.form).read(text, shown, overrides)
    if not any(d.is_error for d in reading.problems):
        return first.form, reading
    tried = []
    for other in found[1:]:
        second = named(other.form).read(text, shown, overrides)
        if second.sections and _questions(second) >= _questions(reading) and not any(
                d.is_error for d in second.problems):
            return other.form, Reading(second.sections, (*second.problems, diag.warning(
                "W709", shown, 0, (
                    f"read as {NAMES[other.form]} ({other.evidence}): it looked like "
                    f"{NAMES[first.form]} first, which it is not ({_first_error(reading)}); "
                    "--from NAME says otherwise"))))
        tried.append(NAMES[other.form])
    if reading.sections and all(d.code in NOT_CONVERTED for d in reading.problems
                                if d.is_error):
        return first.form, reading  # questions refused one by one: each says why
    return first.form, Reading(reading.sections, (*reading.problems, diag.warning(
        "W709", shown, 0, (
            f"read as {NAMES[first.form]} ({first.evidence}), with errors"
            + (f"; as {' or '.join(tried)}, which it also looks like, too" if tried else "")
            + f"; if it is another format, say which with --from NAME ({_NAMES})"))))


_NAMES = ", ".join(reader.name for reader in READERS)
_EXTENSIONS = " ".join((*extensions(), *BY_CONTENT))


def _questions(reading: Reading) -> int:
    """The questions a reading found, read or refused."""
    return sum(len(s.items) for s in reading.sections) + sum(
        d.is_error and d.code in NOT_CONVERTED for d in reading.problems)


def _first_error(reading: Reading) -> str:
    first = min(d for d in reading.problems if d.is_error)
    return f"line {first.line}: {diag.clip(first.message, 50)}" if first.line else \
        diag.clip(first.message, 50)


# Encodings the build's own decoding handles (reading/decode.py: cp1252, then latin-1).
_WESTERN = frozenset({"ascii", "utf_8", "cp1252", "latin_1", "iso8859_1", "iso8859_15",
                      "windows-1252"})
_DETECT_SAMPLE = 1 << 20  # bytes the detector looks at; the whole file is then decoded


def _legacy_encoding(data: bytes, shown: str) -> tuple[bytes, Diagnostic | None]:
    """``data`` as UTF-8 if it is in a legacy encoding of another script (GB18030, Big5,
    Shift JIS, cp1251, …), which charset-normalizer tells from its bytes, with a warning
    that says so; else ``data`` as it is (UTF-8, UTF-8 but for a few damaged bytes, or
    Western text: the build's own decoding reads each, reading/decode.py)."""
    if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) or data.isascii():
        return data, None
    if is_utf8(data):
        return data, None  # UTF-8, or UTF-8 but for a few damaged bytes, each mended
    if _western(data):
        return data, None  # a short Western file is no cp1250 or Big5 (issue 46)
    from charset_normalizer import from_bytes  # only an import of a legacy file loads it

    best = from_bytes(data[:_DETECT_SAMPLE]).best()
    if best is None or best.encoding.replace("-", "_").casefold() in _WESTERN:
        return data, None
    try:
        text = data.decode(best.encoding)
    except (UnicodeDecodeError, LookupError):
        return data, None
    return text.encode("utf-8"), diag.warning("W101", shown, 0, (
        f"file is not UTF-8; read as {best.encoding} (told by its bytes): check a few "
        "questions, and save the file as UTF-8 to be sure"))


_WORD_RE = re.compile(r"[^\W\d_]+")
# Marks a Western text holds besides letters: typographic quotes and dashes, « », €, °.
_WESTERN_MARKS = frozenset("\u2018\u2019\u201a\u201c\u201d\u201e\u2013\u2014\u2026\u2022"
                           "\xab\xbb\xb0\u20ac\xa3\xa7\xa9\xae\u2122\xb7\xd7\xa0\xb4\xaa\xba")


def _western(data: bytes) -> bool:
    """Whether ``data`` reads as Windows-1252 (ISO-8859-1) text of a Western language:
    every character beyond ASCII a letter of Latin-1 or a Western mark (``¿``/``¡`` only
    before a word), and the words it is in mostly ASCII around it. A detector guesses
    cp1250 or Big5 for a short Spanish or French file; cp1251 read so gives words with no
    ASCII letter at all."""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return False
    for at, ch in enumerate(text):
        if ch.isascii() or ch in _WESTERN_MARKS or (ch.isalpha() and ch <= "\xff"):
            continue
        if ch not in "\xbf\xa1" or (at and text[at - 1].isalpha()):
            return False
    accented = foreign = 0
    for word in _WORD_RE.finditer(text):
        if not word[0].isascii():
            accented += 1
            foreign += len(word[0]) >= 3 and not any(c.isascii() for c in word[0])
    return accented > 0 and 10 * foreign <= accented


def read_regular(path: Path, limit: int) -> tuple[bytes, str]:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes; else
    b"" and why not (files.read_regular: a pipe, a device or a socket is never opened)."""
    try:
        return read_file(path, limit), ""
    except (NotRegularFile, TooLarge) as exc:
        return b"", f"is {exc.strerror}"
    except OSError as exc:
        return b"", f"cannot be read: {exc.strerror or exc}"


def _image_problem(root: Path, image: str) -> str:
    """Why the image at ``image`` cannot go with a question read from inside ``root``;
    "" if it can."""
    path = Path(image)
    try:
        inside = path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        inside = False
    if not inside:
        return (f"is outside the folder the input came from ({root.as_posix() or '.'}); "
                "only images beside the bank, or below it, are copied")
    data, problem = read_regular(path, IMAGE_LIMIT)
    if problem:
        return "is not there (the path is read from the input file's folder)" \
            if "No such file" in problem else problem
    kind = image_type(data)
    if kind is None:
        return "is not an image of a type cards show (PNG, JPEG, GIF, WebP or SVG, by its bytes)"
    if why := image_problem(data, kind):
        return f"cannot be shown on a card: {why}"
    return ""


def _write_images(images: Mapping[str, str], carried: Mapping[str, bytes], out: Path
                  ) -> tuple[set[str], dict[str, str]]:
    """Write every image the question files show (copied from beside the input, or carried
    inside it, checked by its reader): the targets written that were not there before, and
    why each one that failed was not written (it went away meanwhile, the disk is full)."""
    fresh: set[str] = set()
    failed: dict[str, str] = {}
    for target in sorted({*images, *carried}):
        if target in carried:
            data, problem = carried[target], ""
        else:
            data, problem = read_regular(Path(images[target]), IMAGE_LIMIT)
        if problem:
            failed[target] = problem
            continue
        there = (out / target).exists()
        try:
            write_atomic(out / target, data)
        except WriteError as exc:
            failed[target] = exc.reason
            continue
        if not there:
            fresh.add(target)
    return fresh, failed


def _write(part: Part, out: Path) -> Diagnostic | None:
    """Write one question file (its images are written: _write_images); the error if that
    failed."""
    try:
        write_atomic(out / part.name, part.text.encode("utf-8"))
    except WriteError as exc:
        return diag.error("E501", exc.path.as_posix(), 0, exc.reason)
    return None


def _unwritten(failure: Diagnostic, parts: Sequence[Part]) -> Diagnostic:
    """``failure`` (writing ``parts[0]``) saying how many questions were not written, of it
    and of the files after it (written in order, they stop at the first that fails)."""
    after, files = sum(p.questions for p in parts[1:]), len(parts) - 1
    rest = f", nor the {after} of {files} file{'s' if files > 1 else ''} after it" \
        if files else ""
    return replace(failure, message=f"{failure.message}; its {parts[0].questions} "
                   f"questions were not written{rest}")


def _taken(target: Path, image: str | None, carried: bytes | None) -> bool:
    """Whether something is at ``target`` that an import must not write over: anything,
    a link even to nowhere included, except a regular file that already holds the image
    to copy (``image``: its path) or the ``carried`` bytes, imported before."""
    if not os.path.lexists(target):
        return False
    if target.is_symlink():
        return True
    return not (image is not None and _same_file(Path(image), target)
                or carried is not None and read_regular(target, IMAGE_LIMIT)[0] == carried)


def _same_file(source: Path, target: Path) -> bool:
    """Whether ``target`` already holds ``source``'s bytes (an image imported before)."""
    first, problem = read_regular(source, IMAGE_LIMIT)
    second, other = read_regular(target, IMAGE_LIMIT)
    return not problem and not other and first == second


def with_settings_written(imported: Imported, target: Path, command: str) -> Imported:
    """``imported`` after writing how each file was read to ``target`` (settings.py), for
    ``command`` to import the bank again the same; not when nothing was written because a
    file was there (E705)."""
    if any(d.code == "E705" for d in imported.problems):
        return imported
    text = settings_file.settings_text(imported.read_as, target.parent, command)
    failure = settings_file.write(target, text)
    said = f"wrote {target.as_posix()}: how each file was read, used when it is imported again"
    return replace(imported, settings="; ".join(s for s in (imported.settings, said) if s)
                   if failure is None else imported.settings,
                   problems=diag.sort_diagnostics((*imported.problems, failure))
                   if failure is not None else imported.problems)
