"""Each stage loads only its own heavy library: imported alone in a fresh interpreter, a
module pulls in exactly the third-party libraries its stage owns (HOUSE_STYLE: the parser
knows no Jinja and no genanki, only the renderer loads jinja2/nh3 (and Markdown and
Pygments when a text needs them), only packaging loads genanki)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import REPO

# The third-party libraries that shape a deck or cost start-up time, by import name.
HEAVY = ("jinja2", "markdown", "markdown_it", "linkify_it", "pygments", "nh3", "markupsafe",
         "genanki", "ftfy", "tqdm", "anki", "rapidfuzz")
# markdown_it, linkify_it and pygments load on first use: most fields take a fast path
# (tests/test_render.py checks the engine is built only when a text needs it).
RENDERING = {"jinja2", "nh3", "markupsafe"}
PACKAGING = {"genanki"}

# module -> the heavy libraries importing it may load (and must: the check is real)
STAGES = {
    "nca_anki.records": set(),
    "nca_anki.diagnostics": set(),
    "nca_anki.codes": set(),
    "nca_anki.files": set(),
    "nca_anki.report": set(),
    "nca_anki.reporting": set(),
    "nca_anki.once": set(),
    "nca_anki.parallel": set(),
    "nca_anki.watch": set(),
    "nca_anki.cli": set(),  # the pipeline is imported inside main(), after the no-op check
    "nca_anki.caching.replay": set(),
    "nca_anki.caching.state": set(),
    "nca_anki.caching.entries": set(),
    # reading
    "nca_anki.reading.decode": set(),  # ftfy is loaded only for a line that needs repair
    "nca_anki.reading.parse": set(),
    "nca_anki.reading.config": set(),
    "nca_anki.reading.topics": set(),
    "nca_anki.reading.lint": set(),
    "nca_anki.reading.duplicates": set(),  # rapidfuzz is loaded when the check runs
    "nca_anki.reading.acknowledged": set(),
    "nca_anki.reading.media": set(),
    # cards
    "nca_anki.cards.references": set(),
    "nca_anki.cards.shuffle": set(),
    "nca_anki.cards.markup": {"nh3"},
    "nca_anki.cards.render": RENDERING,
    # identity
    "nca_anki.identity.match": set(),
    "nca_anki.identity.assign": set(),
    "nca_anki.identity.lockfile": set(),
    "nca_anki.identity.recover": set(),
    # publishing
    "nca_anki.publishing.versions": set(),
    "nca_anki.publishing.package": PACKAGING,
    "nca_anki.publishing.index": PACKAGING,
    "nca_anki.publishing.changes": PACKAGING,
    "nca_anki.publishing.manifest": set(),
    "nca_anki.publishing.published": set(),
    "nca_anki.publishing.output": set(),
    "nca_anki.publishing.sink": set(),
    "nca_anki.publishing.transaction": set(),
    "nca_anki.publishing.release": set(),
    "nca_anki.publishing.preview": {"jinja2", "markupsafe"},  # the site's pages, autoescaped
    # importing another format (build_decks.py import)
    "nca_anki.importing.bank": set(),
    "nca_anki.importing.markdown": set(),  # markdown_it is loaded when a file is read
    "nca_anki.importing.json_bank": set(),
    "nca_anki.importing.typescript": set(),  # tree_sitter is loaded when a file is read
    "nca_anki.importing.aiken": set(),
    "nca_anki.importing.gift": set(),
    "nca_anki.importing.convert": set(),
    "nca_anki.inputs": set(),  # reads everything; given the renderer, loads none of it
    # the hub runs every stage
    "nca_anki.build": RENDERING | PACKAGING,  # rapidfuzz: when the duplicate check runs
}

_PROBE = """
import json, sys
import {module}
print(json.dumps(sorted(name for name in {heavy!r} if name in sys.modules)))
"""


def loaded_by(module: str) -> set[str]:
    """The heavy libraries in ``sys.modules`` after importing ``module`` alone."""
    result = subprocess.run([sys.executable, "-c", _PROBE.format(module=module, heavy=HEAVY)],
                            capture_output=True, text=True, cwd=REPO, check=True)
    return set(json.loads(result.stdout))


@pytest.mark.slow
@pytest.mark.parametrize("module", sorted(STAGES))
def test_a_stage_loads_only_its_own_heavy_libraries(module: str) -> None:
    assert loaded_by(module) == STAGES[module]


def test_every_module_of_the_package_is_placed_in_a_stage() -> None:
    package = REPO / "nca_anki"
    modules = {".".join(("nca_anki", *p.relative_to(package).with_suffix("").parts))
               for p in package.rglob("*.py") if p.stem != "__init__"}
    assert modules == set(STAGES)


def test_the_readme_layout_table_lists_every_module() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    modules = [p.relative_to(REPO).as_posix() for p in (REPO / "nca_anki").rglob("*.py")
               if p.stem != "__init__"]
    assert [m for m in modules if f"| `{m}` |" not in readme] == []


def test_the_no_op_check_builds_none_of_the_records_and_forks_nothing() -> None:
    """A rebuild with nothing changed is answered by the CLI, report and cache state
    alone: not the records, not multiprocessing (each a measured share of its 0.1 s)."""
    probe = ("import sys, nca_anki.cli, nca_anki.caching.replay; "
             "print(sorted(m for m in ('nca_anki.records', 'multiprocessing', 'nca_anki.build')"
             " if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=REPO, check=True)
    assert result.stdout.strip() == "[]"
