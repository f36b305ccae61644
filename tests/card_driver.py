"""One way to drive a card in either engine: Chromium (card_browser.Reviewer, Playwright)
or WebKit (webkit_browser.WebKitReviewer, Selenium), so that a test of the card's
behaviour runs unchanged in both.

``Driver`` shows the question and the answer as the client of its mode does, runs
JavaScript in the card's page, waits for a state (never for a fixed time), and acts as a
learner does: a click, a right-click, keys, and touches. A touch is a real touch in
Chromium (the DevTools protocol's touch events, so the browser itself decides between a
tap and a scroll) and, in WebKit, which has no touch input through WebDriver, the
pointer events a touch screen sends (webkit_browser.py says why).
"""

from __future__ import annotations

import time
from typing import Any

from card_browser import CardHtml

CHOICES = ".nca-choice-list > *"

# The pointer events of a touch, in the page: down at the choice's centre, then each move
# (dx, dy from the centre), then up, or cancel (as a browser cancels a touch it scrolls).
_REPLAY_TOUCH_JS = """([index, moves, end]) => {
    const item = document.querySelectorAll(arguments_selector)[index];
    const box = item.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const target = document.elementFromPoint(x, y) || item;
    const send = (type, dx, dy) => target.dispatchEvent(new PointerEvent(type, {
        pointerId: 7, pointerType: "touch", isPrimary: true, bubbles: true, cancelable: true,
        clientX: x + dx, clientY: y + dy, button: type === "pointermove" ? -1 : 0}));
    if (end !== "up-only" && end !== "cancel-only") send("pointerdown", 0, 0);
    for (const [dx, dy] of moves) send("pointermove", dx, dy);
    const last = moves.length ? moves[moves.length - 1] : [0, 0];
    if (end === "up" || end === "up-only") send("pointerup", last[0], last[1]);
    if (end === "cancel" || end === "cancel-only") send("pointercancel", last[0], last[1]);
}""".replace("arguments_selector", repr(CHOICES))


class Driver:
    """A card page in ``engine`` ("chromium" or "webkit"), through its reviewer."""

    def __init__(self, engine: str, reviewer: Any) -> None:
        self.engine, self.reviewer = engine, reviewer

    # --- showing ------------------------------------------------------------------------

    def show_question(self, card: CardHtml) -> None:
        self.reviewer.show_question(card)

    def show_answer(self, card: CardHtml) -> None:
        self.reviewer.show_answer(card)

    def errors(self) -> list[str]:
        return self.reviewer.console_errors()

    # --- the page -----------------------------------------------------------------------

    def js(self, function: str, argument: Any = None) -> Any:
        """Call ``function`` (a JavaScript function of one argument) in the card's page."""
        if self.engine == "chromium":
            return self.reviewer.view.evaluate(function, argument)
        return self.reviewer.evaluate(function, argument)

    def wait(self, function: str, argument: Any = None, timeout: float = 15) -> Any:
        """Wait until ``function`` returns a true value in the page; return that value."""
        if self.engine == "chromium":
            handle = self.reviewer.view.wait_for_function(function, arg=argument,
                                                          timeout=timeout * 1000)
            return handle.json_value()
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(function, argument)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"not reached in {timeout} s: {function}")
            time.sleep(0.02)  # polling a state, not waiting for one to pass

    def state(self) -> dict:
        """Each choice in display order: its role, checked, struck, focused, tabindex."""
        return self.js("""(selector) => ({
            group: document.querySelector(".nca-choice-list").getAttribute("role"),
            items: [...document.querySelectorAll(selector)].map(item => ({
                role: item.getAttribute("role"),
                checked: item.getAttribute("aria-checked") === "true"
                    || item.classList.contains("nca-picked"),
                struck: item.classList.contains("nca-struck"),
                focused: document.activeElement === item,
                tabindex: item.getAttribute("tabindex"),
                text: item.querySelector(".nca-text").textContent,
            })),
        })""", CHOICES)

    def picked(self) -> list[bool]:
        return [item["checked"] for item in self.state()["items"]]

    def struck(self) -> list[bool]:
        return [item["struck"] for item in self.state()["items"]]

    # --- a learner's hands --------------------------------------------------------------

    def _element(self, index: int):
        if self.engine == "chromium":
            return self.reviewer.view.locator(CHOICES).nth(index)
        from selenium.webdriver.common.by import By

        return self.reviewer.driver.find_elements(By.CSS_SELECTOR, CHOICES)[index]

    def click(self, index: int) -> None:
        self._element(index).click()

    def right_click(self, index: int) -> None:
        if self.engine == "chromium":
            self._element(index).click(button="right")
            return
        # WebKit: the events a right-click sends, replayed (webkit_browser.py says why).
        self.js("""([s, i]) => {
            const item = document.querySelectorAll(s)[i];
            item.scrollIntoView({block: "nearest"});
            const box = item.getBoundingClientRect();
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            const target = document.elementFromPoint(x, y) || item;
            const at = {bubbles: true, cancelable: true, clientX: x, clientY: y, button: 2,
                        buttons: 2};
            target.dispatchEvent(new PointerEvent("pointerdown",
                                                  {...at, pointerType: "mouse", isPrimary: true}));
            target.dispatchEvent(new MouseEvent("mousedown", at));
            target.dispatchEvent(new MouseEvent("contextmenu", at));
            target.dispatchEvent(new PointerEvent("pointerup",
                                                  {...at, buttons: 0, pointerType: "mouse", isPrimary: true}));
            target.dispatchEvent(new MouseEvent("mouseup", {...at, buttons: 0}));
        }""", [CHOICES, index])

    def press(self, *keys: str) -> None:
        """Keys as Playwright names them: "Tab", "Shift+Tab", "ArrowDown", "Space", "x",
        "Alt+2", "Alt+Shift+2"."""
        if self.engine == "chromium":
            for key in keys:
                self.reviewer.page.keyboard.press(key)
            return
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        names = {"Tab": Keys.TAB, "ArrowDown": Keys.ARROW_DOWN, "ArrowUp": Keys.ARROW_UP,
                 "ArrowLeft": Keys.ARROW_LEFT, "ArrowRight": Keys.ARROW_RIGHT,
                 "Space": Keys.SPACE, "Enter": Keys.ENTER, "Home": Keys.HOME, "End": Keys.END,
                 "Delete": Keys.DELETE, "Alt": Keys.ALT, "Shift": Keys.SHIFT}
        for key in keys:
            *modifiers, last = key.split("+")
            chain = ActionChains(self.reviewer.driver)
            for modifier in modifiers:
                chain.key_down(names[modifier])
            chain.send_keys(names.get(last, last))
            for modifier in reversed(modifiers):
                chain.key_up(names[modifier])
            chain.perform()

    def touch(self, index: int, moves: tuple[tuple[float, float], ...] = (),
              end: str = "up") -> None:
        """A touch on choice ``index``: down at its centre, through ``moves`` (offsets from
        the centre), then lifted (``end="up"``). ``end="hold"``: left down (release it
        with ``lift``). ``end="cancel"`` (WebKit): the browser cancels it, as for a scroll."""
        # A finger touches what is on the screen: bring the choice's middle onto it first.
        if self.js("""([s, i]) => { const box = document.querySelectorAll(s)[i]
                .getBoundingClientRect(), middle = box.top + box.height / 2;
                if (middle > 8 && middle < window.innerHeight - 8) return false;
                document.querySelectorAll(s)[i].scrollIntoView({block: "center"});
                return true; }""", [CHOICES, index]):
            self.settle()
        if self.engine == "webkit":
            self.js(_REPLAY_TOUCH_JS, [index, [list(m) for m in moves],
                                       "none" if end == "hold" else end])
            return
        box = self._element(index).bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        self._held = (x, y, moves[-1] if moves else (0.0, 0.0))
        cdp = self._cdp()
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                              "touchPoints": [{"x": x, "y": y}]})
        for dx, dy in moves:
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                                  "touchPoints": [{"x": x + dx, "y": y + dy}]})
        if end != "hold":
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def lift(self, index: int) -> None:
        """Lift the touch ``touch(..., end="hold")`` left on choice ``index``."""
        if self.engine == "webkit":
            self.js(_REPLAY_TOUCH_JS, [index, [], "up-only"])
            return
        self._cdp().send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def _cdp(self):
        if not hasattr(self, "_session"):
            page = self.reviewer.page
            self._session = page.context.new_cdp_session(page)
        return self._session

    def settle(self) -> None:
        """Wait until the page stops scrolling (a fling goes on after the finger is lifted,
        and a touch during one only stops it, as on a phone)."""
        self.wait("""() => new Promise(done => {
            let last = -1, still = 0;
            const tick = () => {
                still = window.scrollY === last ? still + 1 : 0;
                last = window.scrollY;
                if (still >= 3) done(true); else requestAnimationFrame(tick);
            };
            tick();
        })""")

    def scroll_y(self) -> float:
        return self.js("() => window.scrollY")
