"""``--watch``: notice when an input of the build changes, so the CLI can rebuild at once.

What is watched is what a build reads from its folders: the question files (the same
``question_files`` the build uses), the images in the source folder, the settings file,
and the files under the templates
folder, an editor's swap and backup files aside. The lock is not: the build writes it
itself, and a rebuild for its own write would never end. A change is seen by polling
each file's size and modification time: no dependency, and it works on every file
system, a network or container mount included. Whether anything must be redone is then
decided by the build, by content (docs/speed.md), so a file saved without a change costs
a rebuild that reuses everything.

Light on purpose, like files.py: nothing here loads the pipeline.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from nca_anki.files import CONFIG_NAME, image_files, question_files

POLL_SECONDS = 0.1  # between two looks at the files: a rebuild starts 0.1-0.2 s after a save

# (path, modification time in ns, size) of each watched file, sorted by path.
Snapshot = tuple[tuple[str, int, int], ...]


def snapshot(source: Path, templates: Path) -> Snapshot:
    """The watched files as they are now; a file that cannot be read is left out (it
    comes back as a change when it can)."""
    try:
        files = [*question_files(source), *image_files(source), source / CONFIG_NAME,
                 *_template_files(templates)]
    except OSError:  # a folder deleted or renamed while it was listed: look again later
        return ()
    found = []
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            continue
        found.append((path.as_posix(), stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(found))


# An editor's own files beside the one it edits: vim's swap files, emacs's autosave and
# lock files, backups. They change while the author types, and no template includes them.
_EDITOR_FILE_RE = re.compile(r"\..*\.sw[a-p]|#.*#|\.#.*|.*~")


def _template_files(templates: Path) -> list[Path]:
    """The files under ``templates`` (every one may be included by a template, as the
    build's cache key counts them: cache.folder_digest), an editor's own files aside."""
    return [p for p in templates.rglob("*")
            if p.is_file() and not _EDITOR_FILE_RE.fullmatch(p.name)]


def changed_files(before: Snapshot, after: Snapshot) -> list[str]:
    """The paths added, removed or modified between two snapshots, sorted."""
    old, new = {p: rest for p, *rest in before}, {p: rest for p, *rest in after}
    return sorted(p for p in old.keys() | new.keys() if old.get(p) != new.get(p))


def wait_for_change(seen: Snapshot, source: Path, templates: Path,
                    check: Callable[[], None] = lambda: None) -> Snapshot:
    """Return once the watched files differ from ``seen`` and have then held still for one
    poll (an editor may save in several steps, a checkout touches many files): the state
    the next build will read. Ctrl-C raises KeyboardInterrupt, as anywhere; ``check``,
    called after each pause, may raise it too (a stop asked for meanwhile)."""
    current = seen
    while current == seen:
        _sleep(POLL_SECONDS)
        check()
        current = snapshot(source, templates)
    while True:
        _sleep(POLL_SECONDS)
        check()
        later = snapshot(source, templates)
        if later == current:
            return current
        current = later


def _sleep(seconds: float) -> None:  # tests replace it to act between two looks
    time.sleep(seconds)
