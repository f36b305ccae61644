"""Show rendered Anki card HTML in a real WebKit engine, the engine family of AnkiMobile.

Debian's WebKitGTK (package ``webkit2gtk-driver``: ``WebKitWebDriver`` and its MiniBrowser)
driven through Selenium, under an Xvfb of its own. ``WebKitReviewer`` has the same contract
as card_browser.Reviewer: ``mode="desktop"`` swaps question and answer HTML into one
long-lived page, ``mode="mobile"`` loads each side as a page of its own; pages come from
the same CardServer. What it cannot do, said here so no test pretends otherwise:

- a right-click: WebKitGTK's WebDriver sends a real one, but on a loaded machine GTK may
  open its own context menu before the page has said it handled the event, and the
  menu's grab stops every later command; so the events of a right-click are replayed in
  the page (AnkiMobile, on a touch screen, has no right-click; the real right-click is
  tested in Chromium and in the real desktop app);
- touch: WebKitGTK's WebDriver has no touch input, so a touch is replayed as the pointer
  events a touch screen sends (``pointerType: "touch"``), dispatched on the element; the
  engine's own choice between a tap and a scroll (it cancels a touch it scrolls with) is
  replayed as ``pointercancel``. Real touch scrolling is measured in Chromium;
- console messages: each page collects its own errors (uncaught ones and console.error)
  in ``window.__errors``, read by ``console_errors()``;
- a page loaded by WebDriver cannot be watched from outside before its scripts run, so
  each page records, from its first line, every text its verdict has and the verdict's
  role at that time (``window.__verdicts``: tests/cards/test_card_access.py).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import threading
from typing import TYPE_CHECKING, Any, Literal

from card_browser import _HEAD, _MEDIA_TYPES, _SWAP_JS, CardHtml, CardServer, body_class

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

WEBDRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER_DIRS = ("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1", "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1",
                    "/usr/libexec/webkit2gtk-4.1")
MISSING_WEBKIT = ("Debian's WebKitGTK WebDriver is not installed (apt-get install "
                  "webkit2gtk-driver; bash .ci/run installs it)")

# Before anything else on each page: keep the page's errors where a test can read them.
_COLLECT = """<script>window.__errors = window.__errors || [];
window.addEventListener("error", function (e) { window.__errors.push("pageerror: " + e.message); });
(function () { var original = console.error; console.error = function () {
  window.__errors.push("console.error: " + Array.prototype.join.call(arguments, " "));
  return original.apply(console, arguments); }; })();
window.__verdicts = [];
new MutationObserver(function () { var v = document.querySelector(".nca-verdict");
  if (v) window.__verdicts.push([v.getAttribute("role"), v.textContent]); })
  .observe(document, {subtree: true, childList: true, characterData: true});</script>"""
_sessions = itertools.count(1)


def minibrowser() -> str | None:
    for folder in MINIBROWSER_DIRS:
        path = os.path.join(folder, "MiniBrowser")
        if os.path.exists(path):
            return path
    return None


def webkit_missing() -> str | None:
    """Why the WebKit tests cannot run here, or None."""
    if not os.path.exists(WEBDRIVER) or minibrowser() is None:
        return MISSING_WEBKIT
    for tool, package in (("Xvfb", "xvfb"), ("xdotool", "xdotool")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install {package})"
    return None


def require_webkit() -> None:
    """Skip the calling test without WebKit, but fail under CI (a skipped engine would hide
    a broken set-up)."""
    import pytest

    why = webkit_missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why + "; WebKit tests must not be skipped under CI")
        pytest.skip(why)


class WebKitDisplay:
    """An Xvfb for WebKit's windows, started once per test session."""

    def __init__(self) -> None:
        from anki_desktop import _start_xvfb

        self.process, self.name = _start_xvfb((1280, 1024))

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


_SESSION_TRIES = 3
_SESSION_WAIT = 90  # seconds for WebKitWebDriver to answer "new session"


def _start_session(display: WebKitDisplay) -> WebDriver:
    """A new MiniBrowser session. Rarely (once in a whole run on a loaded machine,
    2026-12-04) WebKitWebDriver never answers the "new session" request, with no MiniBrowser
    left running, and Selenium waits for that answer for ever. The request gets a limit: a
    driver that has not answered by then is killed, which ends the request with an error,
    and the start is made again with a new driver; a browser that never starts still fails
    the test, after three tries."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    failures: list[str] = []
    for _ in range(_SESSION_TRIES):
        options = Options()
        options.binary_location = minibrowser() or ""
        options.add_argument("--automation")
        service = Service(executable_path=WEBDRIVER,
                          env={**os.environ, "DISPLAY": display.name})
        started: list[WebDriver] = []
        errors: list[BaseException] = []

        def start(options: Options = options, service: Service = service,
                  started: list[WebDriver] = started,
                  errors: list[BaseException] = errors) -> None:
            try:
                started.append(webdriver.WebKitGTK(options=options, service=service))
            except BaseException as error:  # noqa: BLE001 - handed to the test's thread
                errors.append(error)

        starting = threading.Thread(target=start, daemon=True)
        starting.start()
        starting.join(_SESSION_WAIT)
        if started:
            return started[0]
        if starting.is_alive():  # no answer: end the driver, and with it the request
            if service.process is not None:
                service.process.kill()
            starting.join(30)
            failures.append(f"no answer in {_SESSION_WAIT} s")
        else:
            failures.append(f"{type(errors[0]).__name__}: {errors[0]}"[:300])
        service.stop()
    raise RuntimeError(f"MiniBrowser did not start in {_SESSION_TRIES} tries: {failures}")


class WebKitReviewer:
    """One simulated client session in its own MiniBrowser (its own storage)."""

    def __init__(self, display: WebKitDisplay, server: CardServer, *,
                 mode: Literal["desktop", "mobile"], night: bool = False,
                 viewport: tuple[int, int] = (390, 700)) -> None:

        if mode not in ("desktop", "mobile"):
            raise ValueError(f"mode must be 'desktop' or 'mobile', not {mode!r}")
        self.mode, self.night, self.server = mode, night, server
        self._prefix = f"webkit-{next(_sessions)}"
        self._shown = 0
        self.driver: WebDriver = _start_session(display)
        # A command the browser never answers fails the test in a minute, never hangs it.
        self.driver.command_executor.client_config.timeout = 60
        try:
            self._size(viewport)
            self._focus(display)
            if mode == "desktop":
                self._goto("reviewer.html", f'{_HEAD}<style id="card-css"></style>',
                           '<div id="qa"></div>', "")
        except BaseException:
            self.driver.quit()
            raise

    def _focus(self, display: WebKitDisplay) -> None:
        """Give this browser's window the keyboard focus, as a learner's window has it
        (Xvfb runs no window manager to give it): without it no element matches
        ``:focus`` and ``document.hasFocus()`` is false."""
        self.driver.get(self.server.put(f"{self._prefix}/focus.html",
                                        f"<!doctype html><title>{self._prefix}</title>"))
        env = {**os.environ, "DISPLAY": display.name}
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name",
                                f" {self._prefix}$"], env=env, capture_output=True, text=True,
                               timeout=60, check=True).stdout.split()
        subprocess.run(["xdotool", "windowfocus", "--sync", found[-1]], env=env,
                       capture_output=True, timeout=60, check=True)
        if not self.driver.execute_script("return document.hasFocus()"):
            raise RuntimeError("the WebKit window did not take the keyboard focus")

    def _size(self, viewport: tuple[int, int]) -> None:
        """Make the page's inner size ``viewport``: the window's frame is measured first."""
        self.driver.set_window_size(*viewport)
        inner = self.driver.execute_script("return [window.innerWidth, window.innerHeight]")
        self.driver.set_window_size(2 * viewport[0] - inner[0], 2 * viewport[1] - inner[1])

    def _body_class(self, card: CardHtml) -> str:
        return body_class(card, self.mode, self.night)

    def _goto(self, name: str, head: str, body: str, body_class: str) -> None:
        html = (f"<!doctype html><html><head>{_COLLECT}{head}</head>"
                f'<body class="{body_class}">{body}</body></html>')
        self.driver.get(self.server.put(f"{self._prefix}/{name}", html))  # waits for "load"

    def _show(self, card: CardHtml, html: str, side: str) -> None:
        is_answer = side == "answer"
        for name, data in card.media:
            self.server.put_file(f"{self._prefix}/{name}", data, _MEDIA_TYPES.get(
                name.rsplit(".", 1)[-1], "application/octet-stream"))
        if self.mode == "desktop":
            self.driver.execute_script(f"({_SWAP_JS})(arguments[0])",
                                       [html, card.css, self._body_class(card), is_answer])
            return
        self._shown += 1
        self._goto(f"{self._shown}-{side}.html", f"{_HEAD}<style>{card.css}</style>",
                   f'<div id="qa">{html}</div>', self._body_class(card))
        if is_answer:
            self.driver.execute_script('document.getElementById("answer")?.scrollIntoView()')

    def show_question(self, card: CardHtml) -> None:
        self._show(card, card.question, "question")

    def show_answer(self, card: CardHtml) -> None:
        self._show(card, card.answer, "answer")

    def evaluate(self, function: str, argument: Any = None) -> Any:
        """``function`` (JavaScript source of a function of one argument) called in the page."""
        return self.driver.execute_script(f"return ({function})(arguments[0])", argument)

    def console_errors(self) -> list[str]:
        return list(self.driver.execute_script("return window.__errors || []"))

    def close(self) -> None:
        try:
            self.driver.quit()
        except Exception:  # noqa: BLE001 - a browser that died already is closed
            pass

    def __enter__(self) -> WebKitReviewer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
