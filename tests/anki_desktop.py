"""The real Anki desktop app (aqt) under Xvfb, driven as a learner drives it.

``AnkiDesktop(decks, folder)`` makes a fresh profile in ``folder``, starts Anki on its own
X display, imports the ``.apkg`` files with the real backend when the profile opens,
selects a deck and opens the reviewer. Keys and clicks are real X events (``xdotool``);
the page the reviewer shows is read with ``page().runJavaScript`` through a small add-on
(``_DRIVER``) that answers requests written to files in the profile folder. Nothing is
mocked: the card runs in Anki's own web view, flipped by Anki's own shortcuts.

Needs the ``aqt`` package (the test extra pins it to the ``anki`` version), Debian's
``xvfb`` and ``xdotool``, and Qt's XCB libraries (``.ci/run`` installs them).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

# The add-on Anki loads from the fresh profile: it imports the decks once the profile is
# open, then answers each request file (a JavaScript expression, or "state") with a reply
# file, from Qt's event loop. It also records what the reviewer's console says.
_DRIVER = '''
import json, os, sys
from pathlib import Path
from aqt import gui_hooks, mw
from aqt.qt import QApplication, QPoint, QTimer
import aqt.webview

FOLDER = Path(os.environ["NCA_DRIVER"])
CONSOLE = []
LOADS = [0]  # pages the reviewer's web view finished loading: a reset waits for its own
_original = aqt.webview.AnkiWebPage.javaScriptConsoleMessage

def _console(page, level, message, line, source):
    CONSOLE.append({"level": int(getattr(level, "value", level)), "message": message,
                    "source": source, "line": line})
    return _original(page, level, message, line, source)

aqt.webview.AnkiWebPage.javaScriptConsoleMessage = _console


def _windows():
    return sorted(w.windowTitle() for w in QApplication.topLevelWidgets()
                  if w.isVisible() and w.windowTitle())


def _reply(number, value):
    origin = mw.reviewer.web.mapToGlobal(QPoint(0, 0)) if mw.reviewer.web else QPoint(0, 0)
    state = {"value": value, "state": mw.state,
             "reviewer": getattr(mw.reviewer, "state", None), "windows": _windows(),
             "console": list(CONSOLE), "origin": [origin.x(), origin.y()],
             "loads": LOADS[0]}
    tmp = FOLDER / f"reply-{number}.tmp"
    tmp.write_text(json.dumps(state), encoding="utf-8")
    tmp.rename(FOLDER / f"reply-{number}.json")


def _poll():
    for request in sorted(FOLDER.glob("request-*.json")):
        number = int(request.stem.split("-")[1])
        body = json.loads(request.read_text(encoding="utf-8"))
        request.unlink()
        if body.get("reset"):  # close every other window, back to the front of a card
            for widget in QApplication.topLevelWidgets():
                if widget is not mw and widget.isVisible():
                    widget.close()
            before = LOADS[0]  # the reviewer loads a new page: the reply tells from which
            mw.moveToState("review")
            CONSOLE.clear()  # what the page said before it was shown again is not the card's
            _reply(number, before)
        elif body.get("grab"):  # a picture of the main window, as Qt paints it
            mw.grab().save(body["grab"])
            _reply(number, None)
        elif body.get("clear"):
            CONSOLE.clear()
            _reply(number, None)
        elif body.get("js") is None:
            _reply(number, None)
        else:
            mw.reviewer.web.page().runJavaScript(body["js"], lambda v, n=number: _reply(n, v))


def _open():
    sys.path.insert(0, os.environ["NCA_TESTS"])
    from anki_client import import_package
    for path in json.loads(os.environ["NCA_DECKS"]):
        import_package(mw.col, path)
    mw.col.decks.select(mw.col.decks.id_for_name(os.environ["NCA_DECK"]))
    if os.environ.get("NCA_NIGHT"):
        from aqt.theme import Theme, theme_manager
        mw.pm.set_theme(Theme.DARK)
        theme_manager.apply_style()
    # No move to the reviewer here: the first reset makes it, so that one page load is
    # in flight at a time, and the page a reset waits for is the one it asked for.
    mw.web.loadFinished.connect(lambda ok: LOADS.__setitem__(0, LOADS[0] + 1))
    timer = QTimer(mw)
    timer.timeout.connect(_poll)
    timer.start(50)
    mw._nca_timer = timer
    (FOLDER / "ready").write_text("ready", encoding="utf-8")


gui_hooks.profile_did_open.append(lambda: mw.progress.single_shot(1000, _open, False))
'''

_PROFILE = '''
import sys
import anki.lang
from aqt.profiles import ProfileManager
anki.lang.set_lang("en_US")
pm = ProfileManager(ProfileManager.get_created_base_folder(sys.argv[1]))
pm.setupMeta()
pm.setLang("en_US")  # saved at once; the next start is no first run (no language dialog)
pm.profiles()  # makes "User 1"
'''


def missing() -> str | None:
    """What this machine lacks to run the real desktop app, or None."""
    import importlib.util
    if importlib.util.find_spec("aqt") is None:
        return "the aqt package (pip install -e '.[test]')"
    for tool, package in (("Xvfb", "xvfb"), ("xdotool", "xdotool")):
        if shutil.which(tool) is None:
            return f"{tool} (apt-get install {package})"
    return None


class AnkiDesktop:
    """One run of the Anki desktop app on a fresh profile, reviewing ``deck``."""

    def __init__(self, decks: Sequence[Path], folder: Path, deck: str, *,
                 night: bool = False, size: tuple[int, int] = (1000, 800)) -> None:
        """``self.opened``: the file each address the app hands the system's browser is
        appended to (a stand-in ``xdg-open`` and ``$BROWSER`` on the app's PATH)."""
        self.folder = folder
        self.base = folder / "profile"
        self.driver = folder / "driver"
        self.driver.mkdir(parents=True)
        self._requests = 0
        subprocess.run([sys.executable, "-c", _PROFILE, str(self.base)], check=True,
                       capture_output=True, timeout=60)
        addon = self.base / "addons21" / "nca_driver"
        addon.mkdir(parents=True)
        (addon / "__init__.py").write_text(textwrap.dedent(_DRIVER), encoding="utf-8")
        self._xvfb, self.display = _start_xvfb(size)
        env = {**os.environ, "DISPLAY": self.display,
               "QTWEBENGINE_CHROMIUM_FLAGS": "--no-sandbox",
               "NCA_DRIVER": str(self.driver), "NCA_TESTS": str(Path(__file__).parent),
               "NCA_DECKS": json.dumps([str(p) for p in decks]), "NCA_DECK": deck,
               "ANKI_NOHIGHDPI": "1", "QT_QPA_PLATFORM": "xcb",
               # Anki runs once per user: an Anki the user has open (or another test run)
               # would be handed this start instead. A key of its own keeps them apart.
               "ANKI_SINGLE_INSTANCE_KEY": f"nca-anki-tests-{os.getpid()}-{self.display}"}
        if night:
            env["NCA_NIGHT"] = "1"
        # The learner's browser: a stand-in that writes down each address it is given.
        self.opened = folder / "opened.txt"
        bin_dir = folder / "bin"
        bin_dir.mkdir()
        for name in ("xdg-open", "browser"):
            stand_in = bin_dir / name
            stand_in.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{self.opened}"\n',
                                encoding="utf-8")
            stand_in.chmod(0o755)
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
        env["BROWSER"] = str(bin_dir / "browser")
        self.log = folder / "anki.log"
        self._anki = subprocess.Popen(
            [sys.executable, "-c", "import aqt, sys; sys.exit(aqt.run())", "-b", str(self.base)],
            env=env, stdout=self.log.open("wb"), stderr=subprocess.STDOUT,
            start_new_session=True)
        self._env = env
        try:
            self._wait_for(self.driver / "ready", 90)
            self.window = self._window()
            self._xdo("windowsize", self.window, str(size[0]), str(size[1]))
            self._xdo("windowmove", self.window, "0", "0")
            # The reviewer's page may still be loading when the profile opens (Anki logs
            # "showQuestion is not defined" and shows nothing): show it again.
            for attempt in range(4):
                try:
                    self.reset()
                    break
                except TimeoutError:
                    if attempt == 3:
                        raise
            # What the pages said while Anki started (its own pages, before they loaded)
            # is not the card's: the console counts from the first card shown.
            time.sleep(0.5)
            self._send({"clear": True})
        except BaseException:
            self.close()
            raise

    # --- reading the reviewer ----------------------------------------------------------
    def ask(self, js: str | None, timeout: float = 20) -> dict:
        """Run ``js`` in the reviewer's web view; the reply: its ``value``, Anki's
        ``state`` and the reviewer's, the visible ``windows``, the ``console`` so far."""
        return self._send({"js": js}, timeout)

    def _send(self, request: dict, timeout: float = 20) -> dict:
        self._requests += 1
        number = self._requests
        tmp = self.driver / f"request-{number}.tmp"
        tmp.write_text(json.dumps(request), encoding="utf-8")
        tmp.rename(self.driver / f"request-{number}.json")
        reply = self.driver / f"reply-{number}.json"
        self._wait_for(reply, timeout)
        return json.loads(reply.read_text(encoding="utf-8"))

    def reset(self) -> None:
        """Close every window but the main one and show the front of the current card,
        as after a fresh start; waits until the card's script has run."""
        before = self._send({"reset": True})["value"]
        # Until the page the reset loads has loaded: asked earlier, the page being
        # replaced would answer, and would be gone before the next question.
        end = time.monotonic() + 8
        while self.ask(None)["loads"] <= before:
            if time.monotonic() > end:
                raise TimeoutError("the reviewer's page did not load again after a reset")
            time.sleep(0.05)
        self.wait_for("document.querySelector('.nca-card.nca-front.nca-js') !== null", 8)

    def value(self, js: str) -> object:
        return self.ask(js)["value"]

    def wait_for(self, condition: str, timeout: float = 20) -> None:
        """Until the JavaScript ``condition`` holds on the reviewer's page."""
        end = time.monotonic() + timeout
        while not self.value(f"!!({condition})"):
            if time.monotonic() > end:
                raise TimeoutError(f"the reviewer never showed: {condition}\n"
                                   f"{self.log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)

    # --- a learner's hands -------------------------------------------------------------
    def key(self, *keys: str) -> None:
        """Press each key (xdotool names: "2", "c", "space", "alt+2") in Anki's window."""
        for key in keys:
            self._xdo("windowfocus", "--sync", self.window)
            self._xdo("key", "--clearmodifiers", key)
            time.sleep(0.15)

    def click(self, x: float, y: float, button: int = 1) -> None:
        """A click (``button`` 1: left, 3: right) at the reviewer page's coordinates (CSS
        pixels; no scaling here: ANKI_NOHIGHDPI). Xvfb has no window manager: screen and
        root coordinates agree."""
        left, top = self.ask(None)["origin"]
        self._xdo("mousemove", str(int(left + x)), str(int(top + y)))
        self._xdo("click", str(button))
        time.sleep(0.15)

    def click_on(self, selector: str, index: int = 0, button: int = 1) -> None:
        """A click in the middle of the ``index``-th element matching ``selector``."""
        box = self.value(f"(() => {{ const e = document.querySelectorAll({json.dumps(selector)})"
                         f"[{index}]; e.scrollIntoView({{block: 'nearest'}}); "
                         "const r = e.getBoundingClientRect(); "
                         "return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        self.click(*box, button=button)

    def screenshot(self, path: Path) -> None:
        """A PNG of Anki's main window, as Qt paints it (the reviewer, its bottom bar)."""
        self._send({"grab": str(path)})

    # --- plumbing ----------------------------------------------------------------------
    def _window(self) -> str:
        end = time.monotonic() + 30
        while time.monotonic() < end:
            found = self._xdo_out("search", "--name", "^User 1 - Anki$").split()
            if found:
                return found[0]
            time.sleep(0.2)
        raise TimeoutError("Anki's main window never appeared")

    def _xdo(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self._env, check=True, capture_output=True,
                       timeout=20)

    def _xdo_out(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env=self._env, capture_output=True,
                              text=True, timeout=20).stdout

    def _wait_for(self, path: Path, timeout: float) -> None:
        end = time.monotonic() + timeout
        while not path.exists():
            if self._anki.poll() is not None:
                raise RuntimeError(f"Anki exited ({self._anki.returncode}):\n"
                                   f"{self.log.read_text(errors='replace')[-3000:]}")
            if time.monotonic() > end:
                raise TimeoutError(f"no {path.name} from Anki after {timeout} s:\n"
                                   f"{self.log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.05)

    def close(self) -> None:
        for process in (self._anki, self._xvfb):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM) if process is self._anki \
                        else process.terminate()
                    process.wait(timeout=10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    process.kill()

    def __enter__(self) -> AnkiDesktop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _start_xvfb(size: tuple[int, int]) -> tuple[subprocess.Popen, str]:
    """An Xvfb on a display number it chooses itself (``-displayfd``: no race with another
    run choosing at the same moment), and that display's name."""
    read, write = os.pipe()
    try:
        process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0",
                                    f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
                                   pass_fds=(write,), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
    finally:
        os.close(write)
    with os.fdopen(read) as chosen:
        number = chosen.readline().strip()  # written once the server is ready
    if not number.isdigit():
        process.kill()
        raise RuntimeError("Xvfb did not start (no display number from -displayfd)")
    return process, f":{number}"
