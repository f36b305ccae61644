"""axe-core (Deque's accessibility engine, from npm, pinned in tests/axe/package-lock.json)
run inside a page of Chromium (Playwright) or WebKit (Selenium).

``require_axe()`` installs it with ``npm ci`` on first use when it is missing (the README's
test command then needs nothing more), skips without npm, and fails under CI. ``violations``
runs WCAG 2.0-2.2 A and AA and axe's best practices on one element of the page (``#qa``:
the card, not the client's page around it) or, with ``selector=None``, on the whole
document, and returns each violation with the nodes it found.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

AXE_DIR = Path(__file__).resolve().parent / "axe"
AXE = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]

_RUN = """async ([selector, tags]) => {
    const where = selector === null ? document : document.querySelector(selector);
    // preload: false: axe fetches no style sheet (the page asks the network for nothing).
    const result = await axe.run(where, {runOnly: {type: "tag", values: tags}, preload: false});
    return result.violations.map(v => ({id: v.id, impact: v.impact,
        nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary)}));
}"""
_INSTALL = """(source) => {
    if (typeof window.axe === "object") return;
    const script = document.createElement("script");
    script.textContent = source;
    document.head.appendChild(script);
}"""


def require_axe() -> str:
    """axe.min.js's source; installed from the lock file with npm if missing."""
    import pytest

    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            why = "npm is not installed (apt-get install npm), so axe-core cannot be"
            if os.environ.get("CI"):
                pytest.fail(why + "; accessibility tests must not be skipped under CI")
            pytest.skip(why)
        # The suite runs on every core (pytest-xdist): one worker installs, the others wait
        # for it on the lock and then find the file there.
        with (AXE_DIR / ".install.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not AXE.exists():
                done = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"],
                                      cwd=AXE_DIR, capture_output=True, text=True, timeout=300,
                                      check=False)
                if done.returncode != 0 or not AXE.exists():
                    pytest.fail(f"npm ci in {AXE_DIR} failed: {done.stderr[-800:]}")
    return AXE.read_text(encoding="utf-8")


def violations(page: Any, source: str, selector: str | None = "#qa") -> list[dict]:
    """axe's violations in ``page``: a Playwright page or frame, or a Selenium driver."""
    if hasattr(page, "evaluate"):  # Playwright
        page.evaluate(_INSTALL, source)
        return page.evaluate(_RUN, [selector, TAGS])
    page.execute_script(f"({_INSTALL})(arguments[0])", source)
    return page.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"({_RUN})(arguments[0]).then(done, e => done([{{id: 'error', nodes: [String(e)]}}]));",
        [selector, TAGS])
