"""``build_decks.py import``, whole: read each input with its format's reader, convert
(convert.py), and write the question files and the images they show into the output
folder, never over a file that is there.

One entry point, ``import_banks``, and one table of readers, ``READERS``. Nothing here
prints: what was written and every problem come back as an ``Imported`` record, and the
command prints it (cli.py, reporting.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from nca_anki import diagnostics as diag
from nca_anki.diagnostics import Diagnostic
from nca_anki.importing import aiken, gift, json_bank, markdown, typescript
from nca_anki.importing.bank import Reading
from nca_anki.importing.convert import Part, convert
from nca_anki.publishing.output import WriteError, write_atomic
from nca_anki.reading.decode import decode_source

# Each format ``--from`` names -> its reader: (text, the path to show) -> a Reading.
READERS: dict[str, Callable[[str, str], Reading]] = {
    "markdown": markdown.read,
    "json": json_bank.read,
    "typescript": typescript.read,
    "aiken": aiken.read,
    "gift": gift.read,
}

# The codes of a question left out of the conversion: one error at each one's place.
NOT_CONVERTED = ("E702", "E703", "E704")


@dataclass(frozen=True)
class Imported:
    written: tuple[Part, ...]  # the question files written, in order
    problems: tuple[Diagnostic, ...]  # sorted

    @property
    def not_converted(self) -> int:
        return sum(d.code in NOT_CONVERTED for d in self.problems if d.is_error)


def import_banks(inputs: Sequence[str], form: str, out: Path, topic: str | None
                 ) -> Imported:
    """Read ``inputs`` as ``form`` (a key of READERS), convert them, and write what
    converted into ``out`` (see the module docstring). Nothing is written when any file
    it would write is there already."""
    result = convert([_read(Path(given), READERS[form]) for given in inputs], topic=topic,
                     is_file=lambda path: Path(path).is_file())
    problems = list(result.problems)
    images = {target: source for part in result.parts for source, target in part.images}
    taken = [name for name in (*(p.name for p in result.parts), *images)
             if (out / name).exists() and not (name in images and _same_file(
                 Path(images[name]), out / name))]
    problems += [diag.error("E705", (out / name).as_posix(), 0, "is already there; nothing "
                            "was written: move it away, or import into another folder "
                            "(--out DIR)") for name in taken]
    written: list[Part] = []
    if not taken:
        for part in result.parts:
            failed = _write(part, out)
            if failed is not None:
                problems.append(failed)
                break
            written.append(part)
    return Imported(tuple(written), diag.sort_diagnostics(problems))


def _read(path: Path, reader: Callable[[str, str], Reading]) -> Reading:
    shown = path.as_posix()
    try:
        data = path.read_bytes()
    except OSError as exc:
        return Reading((), (diag.error("E701", shown, 0,
                                       f"cannot read it: {exc.strerror or exc}"),))
    decoded = decode_source(data, shown)
    reading = reader(decoded.text, shown)
    return Reading(reading.sections, (*decoded.diagnostics, *reading.problems))


def _write(part: Part, out: Path) -> Diagnostic | None:
    """Write one question file and the images it shows; the error if that failed."""
    try:
        for source, target in part.images:
            write_atomic(out / target, Path(source).read_bytes())
        write_atomic(out / part.name, part.text.encode("utf-8"))
    except OSError as exc:  # an image that went away meanwhile
        return diag.error("E501", (out / part.name).as_posix(), 0, f"not written: {exc}")
    except WriteError as exc:
        return diag.error("E501", exc.path.as_posix(), 0, exc.reason)
    return None


def _same_file(source: Path, target: Path) -> bool:
    """Whether ``target`` already holds ``source``'s bytes (an image imported before)."""
    try:
        return source.read_bytes() == target.read_bytes()
    except OSError:
        return False
