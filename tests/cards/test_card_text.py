"""The authors' text on the card, whatever it holds, in Chromium and in WebKit:

- the report link (report_url) carries the learner's pick cut at 120 characters as a
  reader counts them, so an emoji, a family of people joined by ZWJ, a flag, a letter with
  its accents, a mathematical letter or a CJK Extension B ideograph at the cut is kept
  whole, never halved; a lone surrogate becomes U+FFFD; the address always decodes; and
  nothing that befalls the link keeps the verdict from being shown (issue 45, 14);
"""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from card_browser import CardHtml
from card_driver import Driver

pytestmark = pytest.mark.anki  # every card here is built and rendered by the real backend

REPO = Path(__file__).resolve().parents[2]
ENGINES = ["chromium", "webkit"]
REPORT_URL = "https://example.org/new?deck={deck}&file={file}&pick={pick}&verdict={verdict}"

# (what stands at the cut, the cluster): each choice is 119 characters of words, the
# cluster as the 120th character a reader counts, then more words.
CLUSTERS = {
    "emoji": "\U0001F600",
    "family": "\U0001F468\u200d\U0001F469\u200d\U0001F467",
    "flag": "\U0001F1E9\U0001F1EA",
    "accents": "q\u0323\u0307",  # in canonical order: the build keeps NFC
    "math": "\U0001D465",
    "cjk": "\U00020000",
}
WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron "
         "pi rho sigma tau upsilon phi chi psi omega ")


def _choice(name: str, cluster: str) -> tuple[str, str]:
    """A choice (its text, what the report should carry): 119 characters, ``cluster``, more."""
    head = f"{name} {WORDS * 3}"[:118]
    head += "s"  # 119 characters, the last a letter
    return f"{head}{cluster} and the rest of the choice", head + cluster


CHOICES_CUT = {name: _choice(name.capitalize(), cluster) for name, cluster in CLUSTERS.items()}
LONE = _choice("Lone", "\u00a7")[0]  # "§" becomes a lone surrogate in the page (below)


def _bank() -> str:
    names = list(CLUSTERS)
    one = "\n".join(f"- {CHOICES_CUT[n][0]}" + (" (Correct answer)" if n == "emoji" else "")
                    for n in names)
    return ("Astral Cut \U0001F1E9\U0001F1EA 1 — Questions and Answers\n"
            f"Question 1: Which choice ends its first 120 characters with a cluster?\n{one}\n"
            f"- {LONE}\n"
            f"Correct answer: {CHOICES_CUT['emoji'][0]}\n"
            "Every choice holds a cluster at the cut.\n")


def _build(root: Path, language: str, bank_name: str, bank: str) -> dict[str, CardHtml]:
    """The cards of ``bank`` (written as ``bank_name``), built in ``language`` with a report
    link, imported by the real backend: prompt's first words -> card."""
    from conftest import built_and_imported

    source = root / "source"
    shutil.rmtree(root, ignore_errors=True)
    source.mkdir(parents=True)
    (source / bank_name).write_text(bank, encoding="utf-8")
    (source / "nca-anki.toml").write_text(f'language = "{language}"\nreport_url = '
                                          f'"{REPORT_URL}"\n', encoding="utf-8")
    deck = "NCA::" + bank.split("\n", 1)[0].split(" 1 — ")[0]
    _, cards = built_and_imported(root, (deck,))
    return {" ".join(view.fields["Prompt"].split()[:4]): CardHtml(
        view.question_html, view.answer_html, view.css) for view in cards[deck]}


@pytest.fixture(scope="module")
def astral(tmp_path_factory) -> CardHtml:
    [card] = _build(tmp_path_factory.mktemp("astral"), "en", "astral-cut-1.txt",
                    _bank()).values()
    return card


def before_the_card(card: CardHtml, script: str, sides: str = "both") -> CardHtml:
    """``card`` with ``script`` run just before the card's own script (after the card's
    text is in the page), on the front, the back or both: a page where the text or the
    engine is not as usual."""
    def put(html: str) -> str:
        at = html.rindex("<script>")
        return f"{html[:at]}<script>{script}</script>{html[at:]}"

    return CardHtml(put(card.question) if sides in ("both", "front") else card.question,
                    put(card.answer) if sides in ("both", "back") else card.answer, card.css)


# In the page: the "§" of the choice LONE becomes a lone high surrogate, front and back.
_LONE_SURROGATE = """document.querySelectorAll(".nca-text").forEach(function (t) {
  var walk = document.createTreeWalker(t, NodeFilter.SHOW_TEXT), node;
  while ((node = walk.nextNode())) node.data = node.data.replace("\\u00a7", "\\ud83d");
});"""


def _pick_and_flip(d: Driver, card: CardHtml, starts: tuple[str, ...]) -> None:
    d.show_question(card)
    texts = [item["text"] for item in d.state()["items"]]
    for start in starts:
        d.click(next(i for i, text in enumerate(texts) if text.startswith(start)))
    d.show_answer(card)


def _verdict(d: Driver) -> str:
    d.wait("() => document.querySelector('.nca-verdict[data-nca-said]')")
    return " ".join(d.js("() => document.querySelector('.nca-verdict').textContent").split())


def _link(d: Driver) -> tuple[dict[str, str], str]:
    """The report link's query, decoded strictly (invalid UTF-8 raises), and what the page
    itself decodes of its pick (decodeURIComponent: it throws on a malformed address)."""
    href = d.js("() => document.querySelector('a.nca-report').getAttribute('href')")
    query = urlsplit(href).query
    found = {}
    for part in query.split("&"):
        key, _, value = part.partition("=")
        found[key] = unquote(value, errors="strict")
    assert {k: v[0] for k, v in parse_qs(query, keep_blank_values=True,
                                         errors="strict").items()} == found
    in_page = d.js("""() => { const raw = /[?&]pick=([^&]*)/.exec(document.querySelector(
        'a.nca-report').getAttribute('href'))[1]; return decodeURIComponent(raw); }""")
    return found, in_page


@pytest.mark.parametrize("name", list(CLUSTERS))
@pytest.mark.parametrize("engine", ENGINES)
def test_a_cluster_at_the_cut_is_kept_whole_and_the_verdict_shown(drive, astral, engine, name):
    text, expected = CHOICES_CUT[name]
    d = drive(engine, "desktop")
    _pick_and_flip(d, astral, (name.capitalize(),))
    assert _verdict(d).startswith("✓" if name == "emoji" else "✗")
    found, in_page = _link(d)
    assert found["pick"] == in_page == expected
    assert found["verdict"] == ("right" if name == "emoji" else "wrong")
    assert found["deck"] == "NCA::Astral Cut \U0001F1E9\U0001F1EA"  # built by Python
    assert found["file"] == "astral-cut-1.txt"
    assert d.errors() == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_lone_surrogate_in_the_text_is_sent_as_a_replacement_character(drive, astral,
                                                                          engine):
    d = drive(engine, "mobile")
    _pick_and_flip(d, before_the_card(astral, _LONE_SURROGATE), ("Lone",))
    assert _verdict(d).startswith("✗")
    found, in_page = _link(d)
    assert found["pick"] == in_page == LONE[:119] + "\ufffd"
    assert d.errors() == []


@pytest.mark.parametrize("engine", ENGINES)
def test_without_a_grapheme_segmenter_the_cut_is_by_code_points(drive, astral, engine):
    """An engine without Intl.Segmenter: the cut falls between code points, never inside
    one (the family keeps its first person), and the address still decodes."""
    d = drive(engine, "desktop")
    card = before_the_card(astral, "try { Intl.Segmenter = undefined; } catch (e) {}", "back")
    _pick_and_flip(d, card, ("Family",))
    assert _verdict(d).startswith("✗")
    found, in_page = _link(d)
    assert found["pick"] == in_page == CHOICES_CUT["family"][1][:120]
    assert d.errors() == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_link_that_cannot_be_filled_never_costs_the_verdict(drive, astral, engine):
    d = drive(engine, "desktop")
    card = before_the_card(astral, "window.encodeURIComponent = function () {"
                                   " throw new URIError('URI malformed'); };", "back")
    _pick_and_flip(d, card, ("Flag",))
    assert _verdict(d).startswith("✗")
    assert d.js("() => document.querySelectorAll('.nca-mark').length") == 2
    found, _ = _link(d)  # the address the deck gave it, without the pick
    assert (found["pick"], found["verdict"]) == ("", "")
    assert d.errors() == []
