"""Each stage loads only its own heavy library: imported alone in a fresh interpreter, a
module pulls in exactly the third-party libraries its stage owns (HOUSE_STYLE: the parser
knows no Jinja and no genanki, only the renderer loads jinja2/nh3 (and Markdown and
Pygments when a text needs them), only packaging loads genanki)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

# The third-party libraries that shape a deck or cost start-up time, by import name.
HEAVY = ("jinja2", "markdown", "markdown_it", "linkify_it", "pygments", "nh3", "markupsafe",
         "genanki", "ftfy", "tqdm", "anki", "rapidfuzz")
# markdown_it, linkify_it and pygments load on first use: most fields take a fast path
# (tests/cards/test_render.py checks the engine is built only when a text needs it).
RENDERING = {"jinja2", "nh3", "markupsafe"}
PACKAGING = {"genanki"}

# module -> the heavy libraries importing it may load (and must: the check is real)
STAGES = {
    "nca_anki.records": set(),
    "nca_anki.diagnostics": set(),
    "nca_anki.codes": set(),
    "nca_anki.language": set(),
    "nca_anki.files": set(),
    "nca_anki.report": set(),
    "nca_anki.once": set(),
    "nca_anki.parallel": set(),
    "nca_anki.watch": set(),
    "nca_anki.arguments": set(),
    "nca_anki.cli": set(),
    # One module per command; the pipeline is imported inside each, after the no-op check.
    "nca_anki.commands.build": set(),
    "nca_anki.commands.watch": set(),
    "nca_anki.commands.import_": set(),
    "nca_anki.commands.locate": set(),
    "nca_anki.commands.stats": set(),
    "nca_anki.commands.report_form": set(),
    "nca_anki.commands.output": set(),
    "nca_anki.edges": set(),  # tqdm is loaded only on a terminal
    "nca_anki.caching.replay": set(),
    "nca_anki.caching.state": set(),
    "nca_anki.caching.entries": set(),
    "nca_anki.caching.build_cache": set(),
    # reading
    "nca_anki.reading.decode": set(),  # ftfy is loaded only for a line that needs repair
    "nca_anki.reading.parse": set(),
    "nca_anki.reading.lines": set(),  # rapidfuzz is loaded only for a misspelt header
    "nca_anki.reading.title": set(),  # and for a mistyped title suffix
    "nca_anki.reading.questions": set(),
    "nca_anki.reading.checks": set(),
    "nca_anki.reading.config": set(),
    "nca_anki.reading.topics": set(),
    "nca_anki.reading.lint": set(),
    "nca_anki.reading.duplicates": set(),  # rapidfuzz is loaded when the check runs
    "nca_anki.reading.seen": set(),
    "nca_anki.reading.acknowledged": set(),
    "nca_anki.reading.media": set(),
    "nca_anki.reading.images": set(),  # expat, from the standard library
    # cards
    "nca_anki.cards.references": set(),
    "nca_anki.cards.shuffle": set(),
    "nca_anki.cards.markup": {"nh3"},
    "nca_anki.cards.render": RENDERING,
    "nca_anki.cards.report_link": set(),
    # identity
    "nca_anki.identity.match": set(),
    "nca_anki.identity.assign": set(),
    "nca_anki.identity.lockfile": set(),
    "nca_anki.identity.recover": set(),
    "nca_anki.identity.retired": set(),
    "nca_anki.identity.identify": set(),
    "nca_anki.identity.schema": set(),
    # publishing
    "nca_anki.publishing.versions": set(),
    "nca_anki.publishing.package": PACKAGING,
    "nca_anki.publishing.index": PACKAGING,
    "nca_anki.publishing.changes": set(),
    "nca_anki.publishing.decks": PACKAGING,  # reads decks and manifests, never packages
    "nca_anki.publishing.manifest": set(),
    "nca_anki.reading.published": set(),
    "nca_anki.publishing.output": set(),
    "nca_anki.publishing.sink": set(),
    "nca_anki.publishing.publish": PACKAGING,  # the stage's entry: decks and index
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
    "nca_anki.importing.run": set(),
    "nca_anki.importing.settings": set(),  # tomllib is the standard library's
    "nca_anki.importing.messages": set(),
    # feedback (locate, stats, report-form): stats loads zstandard only for an export
    "nca_anki.feedback.report_form": set(),
    "nca_anki.feedback.locate": set(),
    "nca_anki.feedback.stats": set(),
    "nca_anki.importing.shape": set(),
    "nca_anki.importing.roles": set(),
    "nca_anki.importing.values": set(),
    "nca_anki.importing.cues": set(),
    "nca_anki.importing.answer_key": set(),
    "nca_anki.importing.page": set(),  # markdown_it is loaded when a page is parsed
    "nca_anki.importing.pictures": set(),
    "nca_anki.importing.choice_values": set(),
    "nca_anki.importing.choice_labels": set(),
    "nca_anki.importing.detect": set(),
    "nca_anki.importing.readers": set(),  # a reader's module loads when a file is read
    "nca_anki.importing.recognise": set(),
    "nca_anki.importing.spreadsheet": set(),
    "nca_anki.importing.lettered": set(),
    "nca_anki.importing.callouts": set(),
    "nca_anki.importing.moodle_xml": set(),
    "nca_anki.importing.moodle_text": set(),
    "nca_anki.importing.yaml_bank": set(),  # yaml is loaded when a file is read
    "nca_anki.importing.containers": set(),
    "nca_anki.importing.xml_records": set(),
    "nca_anki.importing.trivia": set(),
    "nca_anki.inputs": set(),  # reads everything; given the renderer, loads none of it
    "nca_anki.rendering": RENDERING,
    "nca_anki.planning": set(),  # reads manifests and decks; rapidfuzz when the check runs
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


def test_the_contributors_layout_table_lists_every_module() -> None:
    guide = (REPO / "docs" / "contributing.md").read_text(encoding="utf-8")
    modules = [p.relative_to(REPO).as_posix() for p in (REPO / "nca_anki").rglob("*.py")
               if p.stem != "__init__"]
    assert [m for m in modules if f"| `{m}` |" not in guide] == []


def test_the_no_op_check_builds_none_of_the_records_and_forks_nothing() -> None:
    """A rebuild with nothing changed is answered by the CLI, report and cache state
    alone: not the records, not multiprocessing (each a measured share of its 0.1 s)."""
    probe = ("import sys, nca_anki.cli, nca_anki.caching.replay; "
             "print(sorted(m for m in ('nca_anki.records', 'multiprocessing', 'nca_anki.build')"
             " if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=REPO, check=True)
    assert result.stdout.strip() == "[]"


# --- which way imports point ------------------------------------------------------------------

# The stages, lowest first (docs/contributing.md, "Module map"). A module imports only from
# its own layer or a lower one, and no two modules import each other, even through others.
LAYERS = ("base", "reading", "cards", "identity", "publishing", "caching", "importing",
          "feedback", "pipeline", "command")
# Top-level modules by layer; a sub-package is the layer of its name.
TOP_LEVEL = {"records": "base", "codes": "base", "language": "base", "diagnostics": "base", "files": "base",
             "once": "base", "parallel": "base", "report": "base",
             "inputs": "pipeline", "rendering": "pipeline", "planning": "pipeline",
             "build": "pipeline", "watch": "pipeline",
             "cli": "command", "arguments": "command", "commands": "command",
             "edges": "command"}


def package_imports(root: Path, package: str = "nca_anki") -> dict[str, set[str]]:
    """Each module of the package under ``root`` -> the package's modules it imports, read
    from its source (every import statement, inside functions and TYPE_CHECKING too)."""
    base = root / package
    modules = {".".join((package, *p.relative_to(base).with_suffix("").parts)).removesuffix(
        ".__init__"): p for p in base.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        here = module if path.stem == "__init__" else module.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                origin = node.module or ""
                if node.level:  # relative: from the module's own package upwards
                    parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    origin = ".".join([*parts, *([origin] if origin else [])])
                names = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in modules
                         else origin for alias in node.names]
            else:
                continue
            found.update(name for name in names if name in modules and name != module)
        graph[module] = found
    return graph


def layer_of(module: str) -> str | None:
    if "." not in module:
        return "base"  # the package itself: its version
    part = module.split(".")[1]
    return TOP_LEVEL.get(part, part if part in LAYERS else None)


def against_the_order(graph: dict[str, set[str]]) -> list[str]:
    """Every import that points up the layers, or from a module no layer holds."""
    wrong = []
    for module, imported in sorted(graph.items()):
        if module == "nca_anki":
            continue
        mine = layer_of(module)
        if mine is None:
            wrong.append(f"{module} is in no layer: add it to TOP_LEVEL or a sub-package")
            continue
        wrong += [f"{module} ({mine}) imports {other} ({layer_of(other)})"
                  for other in sorted(imported)
                  if layer_of(other) is None
                  or LAYERS.index(layer_of(other)) > LAYERS.index(mine)]  # type: ignore[arg-type]
    return wrong


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, directly or through others."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_imports_point_down_the_layers_only() -> None:
    assert against_the_order(package_imports(REPO)) == []


def test_no_modules_import_each_other() -> None:
    assert cycles(package_imports(REPO)) == []


def test_the_order_is_the_one_the_contributors_guide_gives() -> None:
    guide = (REPO / "docs" / "contributing.md").read_text(encoding="utf-8")
    assert " < ".join(f"`{layer}`" for layer in LAYERS) in guide


def test_the_checks_find_an_upward_import_and_a_cycle(tmp_path: Path) -> None:
    """The checks above can fail: on a package made for it, they name what is wrong."""
    package = tmp_path / "nca_anki"
    for name, text in {
            "__init__.py": "",
            "records.py": "from nca_anki.reading import parse\n",  # base imports reading
            "reading/__init__.py": "",
            "reading/parse.py": "from . import topics\n",
            "reading/topics.py": "def f():\n    import nca_anki.reading.parse\n",
            "stray.py": ""}.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text, encoding="utf-8")
    graph = package_imports(tmp_path)
    assert against_the_order(graph) == [
        "nca_anki.records (base) imports nca_anki.reading.parse (reading)",
        "nca_anki.stray is in no layer: add it to TOP_LEVEL or a sub-package"]
    assert cycles(graph) == [["nca_anki.reading.parse", "nca_anki.reading.topics"]]
