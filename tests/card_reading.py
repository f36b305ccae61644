"""Reading a card's choices and verdict from the page a Playwright reviewer shows
(card_browser.Reviewer): what a learner sees, as plain records. Shared by the card tests
and the exam-shaped end-to-end tests."""

from __future__ import annotations

from dataclasses import dataclass

from card_browser import Reviewer

_READ_JS = """() => {
    const group = document.querySelector(".nca-choice-list");
    return {
        role: group.getAttribute("role"),
        items: [...group.children].map(li => {
            const text = li.querySelector(".nca-text").cloneNode(true);
            text.querySelectorAll(".nca-mark").forEach(mark => mark.remove());
            return {
                label: li.querySelector(".nca-label").textContent,
                text: text.textContent.replace(/\\s+/g, " ").trim(),
                role: li.getAttribute("role"),
                // The front: a radio or a checkbox's state; the back, a list: the class.
                checked: li.getAttribute("aria-checked")
                    ?? (li.classList.contains("nca-picked") ? "true" : "false"),
                marks: [...li.querySelectorAll(".nca-mark")].map(m => m.textContent),
                correct: li.classList.contains("nca-correct"),
            };
        }),
    };
}"""


@dataclass(frozen=True)
class Shown:
    role: str | None
    labels: tuple[str, ...]
    texts: tuple[str, ...]
    roles: tuple[str | None, ...]
    checked: tuple[str | None, ...]
    marks: tuple[tuple[str, ...], ...]
    correct: tuple[bool, ...]

    def letter_of(self, text: str) -> str:
        return self.labels[self.texts.index(text)]


def shown(r: Reviewer) -> Shown:
    data = r.view.evaluate(_READ_JS)
    items = data["items"]
    return Shown(data["role"], *(tuple(item[key] for item in items) for key in
                                 ("label", "text", "role", "checked")),
                 tuple(tuple(" ".join(m.split()) for m in item["marks"]) for item in items),
                 tuple(item["correct"] for item in items))


# The verdict is written a moment after the back is shown (its live region is emptied
# first, so a screen reader announces it): wait for that state, or for a static back.
_SAID_JS = """() => {
    const verdict = document.querySelector(".nca-verdict");
    return !verdict || verdict.hasAttribute("data-nca-said")
        || !verdict.closest(".nca-card").classList.contains("nca-js");
}"""


def verdict(r: Reviewer) -> str:
    r.view.wait_for_function(_SAID_JS)
    return " ".join((r.view.text_content(".nca-verdict") or "").split())


def choice(r: Reviewer, text: str):
    """The displayed choice whose text is ``text``, as a Playwright locator."""
    return r.view.locator(".nca-choice-list > *").nth(shown(r).texts.index(text))
