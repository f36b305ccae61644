"""Show rendered Anki card HTML in headless Chromium the way Anki's clients do.

Contract: ``Reviewer(mode="desktop")`` swaps question/answer HTML into one long-lived page (Anki
desktop, AnkiMobile); ``mode="mobile"`` loads front and back as separate pages of one tab
(AnkiDroid). Pages come from a local HTTP server so sessionStorage behaves as on a real origin.

Typical use (``playwright`` from ``sync_playwright()``)::

    require_chromium()
    with CardServer() as server:
        browser = launch(playwright)
        with Reviewer(browser, server, mode="mobile", night=True) as reviewer:
            reviewer.show_question(card)
            reviewer.page.click("text=B")
            reviewer.show_answer(card)
            assert reviewer.console_errors() == []
"""

from __future__ import annotations

import itertools
import os
import shutil
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Frame, Page, Playwright

# Needed here: root (no sandbox), no GPU, and a closed network (no background fetches to wait on).
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # One raster thread, no partial raster: the same pixels on every run (screenshots).
    "--num-raster-threads=1", "--disable-partial-raster",
]
MISSING_CHROMIUM = "Debian's chromium is not installed (apt-get install chromium)"


def chromium_path() -> str | None:
    """The Chromium to drive: $NCA_CHROMIUM, else chromium on PATH, else /usr/bin/chromium."""
    found = os.environ.get("NCA_CHROMIUM") or shutil.which("chromium")
    if found:
        return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


def require_chromium() -> str:
    """Return chromium_path(); skip the calling test without one, but fail under CI, where a
    silently skipped browser test would hide a broken setup."""
    import pytest

    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(MISSING_CHROMIUM + "; browser tests must not be skipped under CI")
        pytest.skip(MISSING_CHROMIUM)
    return path


def launch(playwright: Playwright) -> Browser:
    """Headless system Chromium (Playwright's own browser download is not reachable here)."""
    path = chromium_path()
    if path is None:
        raise RuntimeError(MISSING_CHROMIUM)
    return playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)


class CardServer:
    """Serves HTML pages from memory on 127.0.0.1 (random port) until closed.

    A real origin is needed: Chromium denies sessionStorage on about:blank and data: URLs.
    """

    def __init__(self) -> None:
        pages: dict[str, tuple[str, bytes]] = {}  # path -> (content type, body)
        self._pages, self._lock = pages, threading.Lock()
        lock = self._lock

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with lock:
                    kind, body = pages.get(self.path.split("?", 1)[0], ("", None))
                if body is None:
                    # 204 for the favicon keeps a "Failed to load resource" error off the console.
                    self.send_response(204 if self.path == "/favicon.ico" else 404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:  # keep test output clean
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    def url_for(self, path: str) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/{path.lstrip('/')}"

    def put(self, path: str, html: str) -> str:
        """Serve ``html`` at ``path`` (replacing any earlier page there); return its URL."""
        return self.put_file(path, html.encode("utf-8"), "text/html; charset=utf-8")

    def put_file(self, path: str, body: bytes, kind: str) -> str:
        """Serve ``body`` as ``kind`` (a content type) at ``path``; return its URL."""
        with self._lock:
            self._pages["/" + path.lstrip("/")] = (kind, body)
        return self.url_for(path)

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def __enter__(self) -> CardServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class CardHtml:
    """What the real anki backend renders for one card (``card.question()``, ``.answer()``,
    ``card.css()``); ``ord`` is the 0-based template index, giving body class ``card{ord+1}``."""

    question: str
    answer: str
    css: str
    ord: int = 0
    # The media files the card shows, (name, bytes), served beside its page as Anki serves
    # the collection's media folder beside the reviewer's.
    media: tuple[tuple[str, bytes], ...] = ()


_HEAD = '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'

# Anki desktop's setInnerHTML (ts/reviewer/index.ts): innerHTML does not run scripts, so each is
# replaced by a fresh copy, which runs synchronously on insertion. The body class is set only
# afterwards (in Anki's onUpdate hook), so card scripts must not rely on it while they run.
_SWAP_JS = """([html, css, bodyClass, isAnswer]) => {
    document.getElementById("card-css").textContent = css;
    const qa = document.getElementById("qa");
    qa.innerHTML = html;
    for (const old of qa.getElementsByTagName("script")) {
        const fresh = document.createElement("script");
        for (const attribute of old.attributes) fresh.setAttribute(attribute.name, attribute.value);
        fresh.appendChild(document.createTextNode(old.innerHTML));
        old.parentNode.replaceChild(fresh, old);
    }
    if (!isAnswer) window.scrollTo(0, 0);
    document.body.className = bodyClass;
    if (isAnswer) document.getElementById("answer")?.scrollIntoView();
}"""
_SCROLL_JS = '() => document.getElementById("answer")?.scrollIntoView()'
_sessions = itertools.count(1)


def body_class(card: CardHtml, mode: str, night: bool) -> str:
    """The body's classes as the client of ``mode`` sets them for ``card``: Anki desktop
    appends " nightMode night_mode" at night, AnkiDroid " night_mode nightMode"."""
    marks = {"desktop": " nightMode night_mode", "mobile": " night_mode nightMode"}
    return f"card card{card.ord + 1}" + (marks[mode] if night else "")
_MEDIA_TYPES = {"png": "image/png", "jpg": "image/jpeg", "gif": "image/gif",
                "webp": "image/webp", "svg": "image/svg+xml"}


class Reviewer:
    """One simulated client session: its own BrowserContext (storage) and one tab, ``page``."""

    def __init__(self, browser: Browser, server: CardServer, *,
                 mode: Literal["desktop", "mobile"], night: bool = False,
                 viewport: tuple[int, int] = (390, 700), javascript: bool = True,
                 device_scale_factor: float = 1, touch: bool = False,
                 sandboxed: bool = False) -> None:
        if mode not in ("desktop", "mobile"):
            raise ValueError(f"mode must be 'desktop' or 'mobile', not {mode!r}")
        self.mode, self.night, self.server = mode, night, server
        # sandboxed: the card's page inside <iframe sandbox="allow-scripts">, as the desktop's
        # new reviewer shows it (ankitects/anki PR #4289): an opaque origin, where
        # sessionStorage throws. ``view`` is the frame the card is in (the page itself
        # otherwise): read and drive the card through it.
        self.sandboxed = sandboxed
        self.view: Page | Frame  # set with the page, below
        self._prefix = f"reviewer-{next(_sessions)}"
        self._shown = 0
        self._errors: list[str] = []
        self._context = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]},
            java_script_enabled=javascript, device_scale_factor=device_scale_factor,
            has_touch=touch, is_mobile=touch)  # touch: a phone (no hover, a coarse pointer)
        self.page = self._context.new_page()
        self.view = self.page
        self.page.on("pageerror", lambda error: self._errors.append(f"pageerror: {error}"))
        self.page.on("console", lambda message: message.type == "error"
                     and self._errors.append(f"console.error: {message.text}"))
        if mode == "desktop":  # the reviewer page is loaded once; cards are swapped into it
            self._goto("reviewer.html", f"{_HEAD}<style id=\"card-css\"></style>",
                       '<div id="qa"></div>', "")

    def _body_class(self, card: CardHtml) -> str:
        return body_class(card, self.mode, self.night)

    def _goto(self, name: str, head: str, body: str, body_class: str) -> None:
        html = (f"<!doctype html><html><head>{head}</head>"
                f'<body class="{body_class}">{body}</body></html>')
        url = self.server.put(f"{self._prefix}/{name}", html)
        if self.sandboxed:  # the card's page in a sandboxed frame of a parent page
            url = self.server.put(f"{self._prefix}/parent-{name}", (
                '<!doctype html><html><body style="margin:0">'
                f'<iframe sandbox="allow-scripts" src="{name}" '
                'style="border:0;width:100vw;height:100vh"></iframe></body></html>'))
        # "load" fires after all parser-inserted (inline) scripts ran, a frame's included.
        self.page.goto(url, wait_until="load")
        self.view = self.page.main_frame.child_frames[0] if self.sandboxed else self.page

    def _show(self, card: CardHtml, html: str, side: str) -> None:
        is_answer = side == "answer"
        for name, data in card.media:
            self.server.put_file(f"{self._prefix}/{name}", data, _MEDIA_TYPES.get(
                name.rsplit(".", 1)[-1], "application/octet-stream"))
        if self.mode == "desktop":
            # The HTML travels as an argument: never spliced into JavaScript source.
            self.view.evaluate(_SWAP_JS, [html, card.css, self._body_class(card), is_answer])
            return
        self._shown += 1
        self._goto(f"{self._shown}-{side}.html", f"{_HEAD}<style>{card.css}</style>",
                   f'<div id="qa">{html}</div>', self._body_class(card))
        if is_answer:
            self.view.evaluate(_SCROLL_JS)

    def show_question(self, card: CardHtml) -> None:
        self._show(card, card.question, "question")

    def show_answer(self, card: CardHtml) -> None:
        """Desktop: swap the answer into the same page; mobile: load the back as a new page."""
        self._show(card, card.answer, "answer")

    def console_errors(self) -> list[str]:
        """Uncaught page errors and console.error messages collected so far, oldest first."""
        if not self.page.is_closed():
            self.page.evaluate("0")  # a round trip, so events already sent have been delivered
        return list(self._errors)

    def close(self) -> None:
        self._context.close()

    def __enter__(self) -> Reviewer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
