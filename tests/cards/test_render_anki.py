"""The note-type check in nca_anki.cards.render against the real Anki backend: every template
Anki refuses, the build refuses too (it is stricter only about a front without a field)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from anki_client import open_collection
from nca_anki.cards.render import Renderer
from nca_anki.records import FIELDS

from conftest import REPO

pytestmark = pytest.mark.anki  # every test here imports into a real collection

TEMPLATES = REPO / "templates"
BACK = "{{Choices}}{{Answer}}"

FRONTS = [
    "{{Prompt}}", "{{ Prompt }}", "{{{Prompt}}}", "{{Prompt}}{{ }}", "{{Prompt}}{{Prompt}",
    "{{Promt}}", "{{prompt}}", "{{Prompt}}{{frontside}}", "{{Prompt}}{{text: Prompt}}",
    "{{text:Promt}}", "{{Prompt}}{{Nope::x}}", "{{Prompt}}{{!comment}}", "{{Prompt}}{{#}}",
    "{{Prompt}}{{a}b}}", "{{type:Prompt}}", "{{cloze:Prompt}}", "{{hint:text:Prompt}}",
    "{{tts en_US:Prompt}}", "{{#Prompt}}{{Prompt}}{{/Prompt}}", "{{Prompt}}{{#Prompt}}",
    "{{/Prompt}}{{Prompt}}", "{{#Prompt}}{{/Choices}}{{Prompt}}",
    "{{Prompt}}{{ # Source }}x{{/Source}}", "{{#Promt}}x{{/Promt}}{{Prompt}}",
    "{{Prompt}}{{Tags}}{{Deck}}{{Subdeck}}{{Card}}{{CardFlag}}{{CardID}}{{Type}}",
    "{{Prompt}}{{=<% %>=}}", "no field",
]
# Anki accepts these fronts, but no card can show anything without a note field on its
# front; the build refuses them ("The front of this card is blank").
STRICTER = {"{{#Prompt}}x{{/Prompt}}{{Tags}}", "{{FrontSide}}", "{{Deck}}"}


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    col = open_collection(tmp_path_factory.mktemp("anki") / "collection.anki2")
    yield col
    col.close()


def anki_accepts(col, front: str, back: str) -> bool:
    from anki.errors import CardTypeError

    models = col.models
    model = models.new(f"check {front!r} {back!r}")
    for name in FIELDS:
        models.add_field(model, models.new_field(name))
    template = models.new_template("Multiple choice")
    template["qfmt"], template["afmt"] = front, back
    models.add_template(model, template)
    try:
        models.add(model)
    except CardTypeError:
        return False
    return True


def build_accepts(tmp_path: Path, front: str, back: str) -> bool:
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    (folder / "front.html").write_text(f"{{% raw %}}{front}{{% endraw %}}\n", encoding="utf-8")
    (folder / "back.html").write_text(f"{{% raw %}}{back}{{% endraw %}}\n", encoding="utf-8")
    note_type, problems = Renderer(folder, "t").note_type()
    assert (note_type is None) == bool(problems)
    return note_type is not None


@pytest.mark.parametrize("front", [*FRONTS, *sorted(STRICTER)])
def test_build_refuses_what_anki_refuses(collection, tmp_path: Path, front: str) -> None:
    anki, build = anki_accepts(collection, front, BACK), build_accepts(tmp_path, front, BACK)
    if front in STRICTER:
        assert (anki, build) == (True, False)
    else:
        assert build == anki


@pytest.mark.parametrize("back", ["{{Promt}}", "{{#Hint}}x{{/Hint}}", "{{/Answer}}",
                                  "{{FrontSide}}{{type:Answer}}{{^Source}}x{{/Source}}"])
def test_back_is_checked_like_anki(collection, tmp_path: Path, back: str) -> None:
    assert build_accepts(tmp_path, "{{Prompt}}", back) == \
        anki_accepts(collection, "{{Prompt}}", back)


def test_the_projects_templates_pass_both(collection) -> None:
    note_type, problems = Renderer(TEMPLATES, "templates").note_type()
    assert problems == ()
    assert anki_accepts(collection, note_type.front, note_type.back)
