"""The preview site (``--preview DIR``): every card of every deck as a static web page that
plays as it does in Anki, for an author without Anki or a study group's web pages.

A pure function of plain data: ``site()`` returns the site's files by name, and
``output.replace_folder`` puts them in place whole. How the pages work, and why each card
is a sandboxed frame: docs/preview.md.

- ``index.html`` lists the decks; ``<slug>.html`` holds one deck: the note type's front,
  back and CSS (the very templates the decks carry, card.js included) once, and each
  card's fields, as JSON. The page's script (site/preview.js) fills the templates with
  the fields as Anki does and shows each card in a frame of its own, as Anki desktop's
  reviewer shows a card: front, then back, in one page.
- Text from the sources reaches the pages only as the rendered, sanitised fields the
  decks carry (cards/render.py), inside JSON that cannot end its ``<script>`` element,
  or through Jinja's autoescaping.
- Images are carried in the fields as ``data:`` URLs: a sandboxed frame opened from disk
  may not load files. Nothing is fetched from the network.
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import jinja2
from markupsafe import Markup

from nca_anki import __version__
import nca_anki.diagnostics as diag
from nca_anki.diagnostics import Diagnostic
from nca_anki.language import DEFAULT_LANGUAGE, direction, preview_words_in
from nca_anki.publishing.output import WriteError, replace_folder
from nca_anki.cards.report_link import fill_fields
from nca_anki.records import (CARD_TEMPLATE_NAME, FIELDS, Disposition, NoteType, Plan,
                              RenderedNote)
from nca_anki.report import BuildReport, FileStatus, TopicResult

MARKER_NAME = ".nca-anki-preview"  # in a folder this tool wrote: the one it may replace
_MARKER_HEAD = ("nca-anki-preview-1\n# A preview site written by nca-anki: the next --preview "
                "into this folder replaces it\n# whole. It wrote these files, and no others "
                "may be here:\n")
MEDIA_TYPES = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
               "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml"}
_ASSETS = ("preview.js", "preview.css")


@dataclass(frozen=True, kw_only=True)
class PreviewCard:
    """One note as the preview shows it: its fields as the deck carries them, and where
    its question is written."""

    number: int  # the question's number in its file
    path: str  # the question file, as the report shows it
    line: int
    fields: tuple[str, ...]  # in FIELDS order
    tags: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class PreviewDeck:
    name: str  # the full deck name, "Parent::Topic"
    slug: str  # the deck's page is <slug>.html, as its package is <slug>.apkg
    files: tuple[str, ...]  # its question files, as shown
    cards: tuple[PreviewCard, ...]


@dataclass(frozen=True, kw_only=True)
class Missing:
    """A topic the preview leaves out (errors in its files), and what to read."""

    name: str
    files: tuple[str, ...]
    errors: int


def site(decks: list[PreviewDeck], missing: list[Missing], note_type: NoteType,
         media: dict[str, bytes], language: str = DEFAULT_LANGUAGE) -> dict[str, bytes]:
    """The site's files by name (``index.html``, one page per deck, the script and the
    style); ``media``: each image the cards show, by its name in the fields; ``language``:
    of the site's own words (language.py)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("nca_anki.publishing", "site"), autoescape=True,
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters["json_script"] = _json_script
    words = preview_words_in(language)

    def count(what: str, n: int) -> str:
        return words[f"{what}_one" if n == 1 else f"{what}_many"].format(n=n)

    env.globals.update(text=words, lang=language, dir=direction(language), count=count,
                       text_json=_json_script(dict(words)))
    files: dict[str, bytes] = {}
    for deck in decks:
        files[f"{deck.slug}.html"] = env.get_template("deck.html").render(
            deck=deck, title=_leaf(deck.name), version=__version__,
            data={"deck": deck.name, "card": CARD_TEMPLATE_NAME, "noteType": note_type.name,
                  "front": note_type.front, "back": note_type.back, "css": note_type.css,
                  "cards": [_card(card, media) for card in deck.cards]}).encode()
    files["index.html"] = env.get_template("index.html").render(
        decks=decks, missing=missing, version=__version__,
        questions=sum(len(d.cards) for d in decks)).encode()
    site_files = resources.files("nca_anki.publishing") / "site"
    for name in _ASSETS:
        files[name] = (site_files / name).read_bytes()
    files[MARKER_NAME] = (_MARKER_HEAD + "".join(f"{name}\n" for name in sorted(files))
                          ).encode()
    return dict(sorted(files.items()))


def written_names(marker: bytes) -> set[str] | None:
    """The files a preview's marker says it wrote; None if it is not a marker of ours."""
    try:
        lines = marker.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return None
    if not lines or lines[0] != _MARKER_HEAD.splitlines()[0]:
        return None
    return {line for line in lines[1:] if line and not line.startswith("#")} | {MARKER_NAME}


def _leaf(deck_name: str) -> str:
    return deck_name.split("::")[-1]


_IMG_SRC_RE = re.compile(r'(<img\b[^<>]*?\bsrc=")([^"]*)(")')


def _card(card: PreviewCard, media: dict[str, bytes]) -> dict[str, object]:
    fields = dict(zip(FIELDS, (_inline_images(text, media) for text in card.fields),
                      strict=True))
    return {"number": card.number, "where": f"{card.path}:{card.line}", "fields": fields,
            "tags": " ".join(card.tags)}


def _inline_images(html: str, media: dict[str, bytes]) -> str:
    """``html`` with each image of ``media`` carried as a data: URL (a sandboxed frame
    opened from disk may load no file; docs/preview.md)."""
    if "<img" not in html:
        return html

    def inline(match: re.Match[str]) -> str:
        data = media.get(match[2])
        kind = MEDIA_TYPES.get(match[2].rsplit(".", 1)[-1].lower())
        if data is None or kind is None:
            return match[0]
        return f"{match[1]}data:{kind};base64,{base64.b64encode(data).decode()}{match[3]}"

    return _IMG_SRC_RE.sub(inline, html)


def _json_script(value: object) -> str:
    """``value`` as JSON that is safe inside <script type="application/json">: no "<",
    ">" or "&" can end the element or open a comment (the HTML standard's rules for
    script data)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return Markup(
        text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _previewed(note: RenderedNote, files: Mapping[str, str]) -> tuple[str, ...]:
    """The note's fields, its report link (if any) completed as far as a preview knows:
    no GUID or version yet; the file as the decks name it (cards/report_link.py)."""
    question = note.question
    return fill_fields(note.fields, guid="", version="",
                       file=files.get(question.path, question.path), line=question.line)


def write_preview(site_dir: Path, note_type: NoteType, plan: Plan,
                  rendered: dict[str, list[RenderedNote]], problems: list[Diagnostic],
                  language: str = DEFAULT_LANGUAGE, files: Mapping[str, str] | None = None
                  ) -> BuildReport:
    """Write the preview site of every topic that builds (publishing/preview.py) into
    ``site_dir``, whole, its own words in ``language``; topics with errors are listed as
    left out. ``files``: each question file's path as shown -> its path in the source
    folder, what a report link names (Inputs.sources)."""
    files = files or {}
    # The packager (genanki) only for the images: a preview of text alone never loads it.
    from nca_anki.publishing.package import MediaChanged, media_entries

    built = list(plan.topics_to(Disposition.BUILD))
    decks = [PreviewDeck(name=t.deck_name, slug=t.slug, files=t.paths, cards=tuple(
        PreviewCard(number=n.question.number, path=n.question.path, line=n.question.line,
                    fields=_previewed(n, files), tags=n.tags) for n in rendered[t.name]))
        for t in built]
    errors = Counter(d.path for d in problems if d.is_error)
    missing = [Missing(name=t.deck_name, files=t.paths, errors=sum(errors[p] for p in t.paths))
               for t in plan.topics if plan.dispositions[t.name] is Disposition.FREEZE]
    statuses: dict[str, FileStatus] = {}
    index: tuple[tuple[str, FileStatus], ...] = ()
    try:
        media = dict(media_entries({m.name: m for t in built for n in rendered[t.name]
                                    for m in n.media}.values()))
        changed = replace_folder(site_dir, site(decks, missing, note_type, media, language),
                                 MARKER_NAME, written_names)
        statuses = {t.name: FileStatus.WRITTEN if changed[f"{t.slug}.html"]
                    else FileStatus.UNCHANGED for t in built}
        index = ((_shown(site_dir, "index.html"), FileStatus.WRITTEN if any(
            changed.values()) else FileStatus.UNCHANGED),)
    except MediaChanged as exc:
        problems = [*problems, diag.error("E501", exc.media.path, 0,
                                          f"image {exc.why}; preview again")]
    except WriteError as exc:
        problems = [*problems, diag.error("E501", exc.path.as_posix(), 0,
                                          f"preview not written: {exc.reason}")]
    topics = tuple(
        TopicResult(
            deck_name=t.deck_name,
            output=_shown(site_dir, f"{t.slug}.html"),
            questions=t.count,
            status=statuses.get(t.name, FileStatus.FAILED),
            sources=t.paths,
        )
        for t in plan.topics
    )
    return BuildReport(topics=topics, diagnostics=diag.sort_diagnostics(problems), index=index)


def _shown(folder: Path, name: str) -> str:
    return (folder / name).as_posix()
