"""Each stage loads only its own heavy library: imported alone in a fresh interpreter, a
module pulls in exactly the third-party libraries its stage owns (HOUSE_STYLE: the parser
knows no Jinja and no genanki, only the renderer loads jinja2/markdown/nh3, only
packaging loads genanki)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import REPO

# The third-party libraries that shape a deck or cost start-up time, by import name.
HEAVY = ("jinja2", "markdown", "nh3", "markupsafe", "genanki", "ftfy", "tqdm", "anki")
RENDERING = {"jinja2", "markdown", "nh3", "markupsafe"}
PACKAGING = {"genanki"}

# module -> the heavy libraries importing it may load (and must: the check is real)
STAGES = {
    "nca_anki.records": set(),
    "nca_anki.diagnostics": set(),
    "nca_anki.files": set(),
    "nca_anki.report": set(),
    "nca_anki.once": set(),
    "nca_anki.parallel": set(),
    "nca_anki.watch": set(),
    "nca_anki.cli": set(),  # the pipeline is imported inside main(), after the no-op check
    "nca_anki.replay": set(),
    "nca_anki.cache": set(),
    # reading
    "nca_anki.decode": set(),  # ftfy is loaded only for a line that needs repair
    "nca_anki.parse": set(),
    "nca_anki.config": set(),
    "nca_anki.topics": set(),
    "nca_anki.lint": set(),
    # cards
    "nca_anki.shuffle": set(),
    "nca_anki.render": RENDERING,
    # identity
    "nca_anki.match": set(),
    "nca_anki.identity": set(),
    "nca_anki.lockfile": set(),
    "nca_anki.recover": set(),
    # publishing
    "nca_anki.versions": set(),
    "nca_anki.package": PACKAGING,
    "nca_anki.index": PACKAGING,
    "nca_anki.changes": PACKAGING,
    "nca_anki.output": set(),
    "nca_anki.release": set(),
    # the hub runs every stage
    "nca_anki.build": RENDERING | PACKAGING,
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


@pytest.mark.parametrize("module", sorted(STAGES))
def test_a_stage_loads_only_its_own_heavy_libraries(module: str) -> None:
    assert loaded_by(module) == STAGES[module]


def test_every_module_of_the_package_is_placed_in_a_stage() -> None:
    modules = {f"nca_anki.{p.stem}" for p in (REPO / "nca_anki").glob("*.py")
               if p.stem != "__init__"}
    assert modules == set(STAGES)
