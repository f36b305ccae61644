"""The authors' text on the card, whatever it holds, in Chromium and in WebKit:

- the report link (report_url) carries the learner's pick cut at 120 characters as a
  reader counts them, so an emoji, a family of people joined by ZWJ, a flag, a letter with
  its accents, a mathematical letter or a CJK Extension B ideograph at the cut is kept
  whole, never halved; a lone surrogate becomes U+FFFD; the address always decodes; and
  nothing that befalls the link keeps the verdict from being shown (issue 45, 14);
- each block of the authors' text takes its direction from its own words, whatever the
  card's language: a long English prompt in an Arabic card ends with its "?" at the right
  end of its last line, an Arabic one in an English card at the left end; an English and
  an Arabic paragraph in one explanation each read their own way; code is always left to
  right; the card's own words (the hint, the verdict, the marks, the source line) follow
  the card's language (issue 45, 21).

Layout is measured (the boxes of a Range against the block's edges), not read from
strings.
"""

from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from anki_client import html_to_text
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
    return {" ".join(html_to_text(view.fields["Prompt"]).split()[:3]): CardHtml(
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


# --- direction: each block of the authors' text its own, the card's words the card's -----------

# An Arabic card (language = "ar") of English questions, one with an Arabic code block and
# one quoting an Arabic word; an English card of Arabic questions.
AR_UI = """Direction Check 1 — Questions and Answers
Question 1: A training job on eight GPUs runs out of memory when the batch size is raised from 32 to 64, although each GPU still shows free memory before the step starts. Which change lets the larger batch fit without changing the model?
- Gradient accumulation over two steps of 32 (Correct answer)
- A larger learning rate
- Turning off mixed precision
- More data loader workers
Correct answer: Gradient accumulation over two steps of 32
Accumulating gradients over two micro-batches of 32 gives the effect of a batch of 64 with the memory of a batch of 32, at the cost of a second pass.

يعطي تجميع التدرجات على دفعتين صغيرتين من 32 أثر دفعة من 64 بذاكرة دفعة من 32، مقابل تمريرة ثانية.
Question 2: Which GPU has the most memory bandwidth?
- V100
- H100 (Correct answer)
- L4
Correct answer: H100
HBM3 gives the H100 the widest memory bus.
Question 3: ما الذي يطبعه هذا البرنامج؟
```python
"مرحبا" + " " + "world"
```
- مرحبا world (Correct answer)
- world مرحبا
- خطأ
Correct answer: مرحبا world
تُجمع السلاسل النصية بالترتيب الذي كُتبت به.
Question 4: In a long English sentence that quotes the Arabic word كتاب in passing, as a glossary would, which English word is its usual translation?
- Book (Correct answer)
- Pen
- School
Correct answer: Book
The word كتاب means book.
"""
EN_UI = """Arabic Check 1 — Questions and Answers
Question 1: يتوقف تدريب نموذج على ثماني وحدات معالجة رسومية بسبب نفاد الذاكرة عند رفع حجم الدفعة من 32 إلى 64، مع أن كل وحدة ما زالت تُظهر ذاكرة حرة قبل بدء الخطوة. أي تغيير يسمح للدفعة الأكبر بأن تتسع دون تغيير النموذج؟
- تجميع التدرجات على خطوتين من 32 (Correct answer)
- معدل تعلم أكبر
- إيقاف الدقة المختلطة
- زيادة عدد عمال تحميل البيانات
Correct answer: تجميع التدرجات على خطوتين من 32
يعطي تجميع التدرجات على دفعتين صغيرتين من 32 أثر دفعة من 64 بذاكرة دفعة من 32، مقابل تمريرة ثانية.
Question 2: أي وحدة معالجة رسومية لها أعلى عرض نطاق للذاكرة؟
- V100
- H100 (Correct answer)
- L4
Correct answer: H100
تمنح ذاكرة HBM3 وحدة H100 أعرض ناقل ذاكرة.
"""


@pytest.fixture(scope="module")
def directions(tmp_path_factory) -> dict[str, CardHtml]:
    root = tmp_path_factory.mktemp("directions")
    return {**_build(root / "ar", "ar", "direction-check-1.txt", AR_UI),
            **_build(root / "en", "en", "arabic-check-1.txt", EN_UI)}


# For each block ``selector`` finds: the edges of its content box; the boxes of its text on
# the line of its first character and on the line of its last (a Range over each text
# node: the boxes of the words, not of the elements), and the box of its last character.
_MEASURE = """(selector) => [...document.querySelectorAll(selector)].map(block => {
    const walk = document.createTreeWalker(block, NodeFilter.SHOW_TEXT), nodes = [];
    for (let node; (node = walk.nextNode());) if (node.data.trim()) nodes.push(node);
    const box = (node, i) => { const r = document.createRange(); r.setStart(node, i);
        r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
    const first = nodes[0], last = nodes[nodes.length - 1];
    const f = box(first, first.data.search(/\\S/)), l = box(last, last.data.trimEnd().length - 1);
    const rects = nodes.flatMap(node => { const r = document.createRange();
        r.selectNodeContents(node); return [...r.getClientRects()]; }).filter(r => r.width > 0);
    const mid = r => (r.top + r.bottom) / 2;  /* a line: boxes whose middles lie in each other */
    const on = c => rects.filter(r => (r.top <= mid(c) && r.bottom >= mid(c)) ||
                                      (c.top <= mid(r) && c.bottom >= mid(r)));
    const outer = block.getBoundingClientRect(), cs = getComputedStyle(block);
    const px = name => parseFloat(cs[name]) || 0;
    return {left: outer.left + px("paddingLeft") + px("borderLeftWidth"),
            right: outer.right - px("paddingRight") - px("borderRightWidth"),
            firstLine: [Math.min(...on(f).map(r => r.left)), Math.max(...on(f).map(r => r.right))],
            lastLine: [Math.min(...on(l).map(r => r.left)), Math.max(...on(l).map(r => r.right))],
            last: [l.left, l.right], lastChar: last.data.trimEnd().slice(-1), lines: new Set(rects.map(r => Math.round(r.top))).size,
            text: block.textContent.trim().slice(0, 40)};
})"""


def laid_out(d: Driver, selector: str) -> list[str]:
    """How each block ``selector`` finds is laid out: "ltr" when its first line starts at
    its left edge and, if it ends in a mark that takes the paragraph's direction ("?",
    "؟", "."), that mark ends its last line on the right; "rtl" when mirrored; else what
    was measured."""
    found = []
    for m in d.js(_MEASURE, selector):
        mark = unicodedata.bidirectional(m["lastChar"]) not in ("L", "R", "AL", "EN", "AN")
        ltr = abs(m["firstLine"][0] - m["left"]) <= 1.5 and (
            not mark or m["last"][1] >= m["lastLine"][1] - 1)
        rtl = abs(m["firstLine"][1] - m["right"]) <= 1.5 and (
            not mark or m["last"][0] <= m["lastLine"][0] + 1)
        found.append("ltr" if ltr and not rtl else "rtl" if rtl and not ltr else str(m))
    return found


# card (its prompt's first words) -> side -> selector -> each block's direction (OWN: that of
# its first strong letter, for choices whose order the shuffle decides).
OWN = "own"
LAYOUT = {
    "A training job": {  # the long prompt of the issue: its "?" ends the last line
        "front": {".nca-prompt": ["ltr"], ".nca-text": ["ltr"] * 4, ".nca-hint": ["rtl"]},
        "back": {".nca-prompt": ["ltr"], ".nca-explanation p": ["ltr", "rtl"],
                 ".nca-mark": ["rtl"] * 2, ".nca-verdict": ["rtl"], ".nca-source": ["rtl"]},
    },
    "Which GPU has": {
        "front": {".nca-prompt": ["ltr"], ".nca-text": ["ltr"] * 3},
        "back": {".nca-prompt": ["ltr"], ".nca-explanation p": ["ltr"]},
    },
    "ما الذي يطبعه": {  # Arabic words, and code left to right, in an Arabic card
        "front": {".nca-prompt p": ["rtl"], ".nca-prompt pre code": ["ltr"],
                  ".nca-text": OWN},
        "back": {".nca-prompt pre code": ["ltr"], ".nca-explanation p": ["rtl"]},
    },
    "In a long": {  # English that quotes an Arabic word
        "front": {".nca-prompt": ["ltr"], ".nca-text": ["ltr"] * 3},
        "back": {".nca-explanation p": ["ltr"]},
    },
    "يتوقف تدريب نموذج": {  # a long Arabic prompt in an English card
        "front": {".nca-prompt": ["rtl"], ".nca-text": ["rtl"] * 4, ".nca-hint": ["ltr"]},
        "back": {".nca-prompt": ["rtl"], ".nca-explanation p": ["rtl"],
                 ".nca-mark": ["ltr"] * 2, ".nca-verdict": ["ltr"], ".nca-source": ["ltr"]},
    },
    "أي وحدة معالجة": {
        "front": {".nca-prompt": ["rtl"], ".nca-text": ["ltr"] * 3},  # V100, H100, L4
        "back": {".nca-prompt": ["rtl"], ".nca-explanation p": ["rtl"]},
    },
}


_TEXTS = "(s) => [...document.querySelectorAll(s)].map(e => e.textContent)"


def _own(text: str) -> str:
    """The direction of ``text``'s first strong letter (Unicode's bidirectional classes)."""
    strong = next(unicodedata.bidirectional(c) for c in text
                  if unicodedata.bidirectional(c) in ("L", "R", "AL"))
    return "ltr" if strong == "L" else "rtl"


def _wrong_pick(d: Driver) -> int:
    """The place of a choice that is not the answer (the back then marks two choices)."""
    texts = [item["text"] for item in d.state()["items"]]
    return next(i for i, t in enumerate(texts)
                if not t.startswith(("Gradient", "تجميع", "H100", "Book", "مرحبا world")))


@pytest.mark.parametrize("width", [390, 1000])
@pytest.mark.parametrize("engine", ENGINES)
def test_each_block_takes_its_direction_from_its_own_words(drive, directions, engine, width):
    for prompt, sides in LAYOUT.items():
        card = directions[prompt]
        d = drive(engine, "desktop", viewport=(width, 700))
        d.show_question(card)
        seen = {selector: laid_out(d, selector) for selector in sides["front"]}
        assert seen == {selector: [_own(t) for t in d.js(_TEXTS, selector)] if want == OWN
                        else want for selector, want in sides["front"].items()}, prompt
        d.click(_wrong_pick(d))
        d.show_answer(card)
        _verdict(d)
        seen = {selector: laid_out(d, selector) for selector in sides["back"]}
        assert seen == sides["back"], prompt
        assert d.errors() == []
        d.reviewer.close()


def test_the_measure_is_of_a_prompt_of_several_lines(drive, directions):
    """The long prompt wraps on a phone, as in the issue: its last line is measured."""
    d = drive("chromium", "desktop", viewport=(390, 700))
    d.show_question(directions["A training job"])
    assert d.js(_MEASURE, ".nca-prompt")[0]["lines"] >= 4
