"""A release: the files a study group downloads, named with their versions.

``build_decks.py --release DIR`` first verifies that the output folder is what the
sources build (as ``--verify``), then copies each published deck as
``<deck file>-<its version>.apkg`` (the bundle with the newest version), the changelog,
and a ``SHA256SUMS`` file that ``sha256sum -c SHA256SUMS`` checks. A file posted in a
chat then says which version it is, and the deck's description in Anki says the same.
Everything comes from ``manifest.json`` (manifest.py), which the verification has just
proved current.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nca_anki.files import CHANGELOG_NAME, MANIFEST_NAME
from nca_anki.publishing.manifest import read_manifest
from nca_anki.publishing.output import WriteError, inside, write_atomic


@dataclass(frozen=True)
class Released:
    files: tuple[str, ...]  # paths as shown, in the order written
    problem: str = ""  # why nothing (or not everything) was released


def _versioned(file: str, version: str) -> str:
    return f"{file.removesuffix('.apkg')}-{version}.apkg"


def release(out: Path, into: Path) -> Released:
    """Copy the published decks of ``out`` into ``into`` under versioned names, with the
    changelog and SHA256SUMS. ``into`` is created; files already there are replaced."""
    try:
        manifest = read_manifest((out / MANIFEST_NAME).read_text(encoding="utf-8"))
        files = [(d.file, _versioned(d.file, d.record.version), d.sha256)
                 for d in manifest.decks]
        files.append((manifest.bundle_file, _versioned(manifest.bundle_file, manifest.version),
                      manifest.bundle_sha256))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return Released((), f"cannot read {(out / MANIFEST_NAME).as_posix()} ({exc}); "
                            "rebuild, then release")
    if any(not inside(into, into / target) or not inside(out, out / name)
           for name, target, _ in files):  # read_manifest allows none; keep it so
        return Released((), f"{(out / MANIFEST_NAME).as_posix()} names a file outside the "
                            "folders; rebuild, then release")
    written: list[str] = []
    try:
        for name, target, _ in files:
            write_atomic(into / target, (out / name).read_bytes())
            written.append((into / target).as_posix())
        write_atomic(into / CHANGELOG_NAME, (out / CHANGELOG_NAME).read_bytes())
        written.append((into / CHANGELOG_NAME).as_posix())
        sums = "".join(f"{sha}  {target}\n" for _, target, sha in files)
        write_atomic(into / "SHA256SUMS", sums.encode())
        written.append((into / "SHA256SUMS").as_posix())
    except WriteError as exc:
        return Released(tuple(written), f"{exc.path.as_posix()}: {exc.reason}")
    except OSError as exc:
        return Released(tuple(written), f"cannot copy into {into.as_posix()}: "
                                        f"{exc.strerror or exc}")
    return Released(tuple(written))
