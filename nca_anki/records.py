"""The records every stage shares: frozen data passed from one stage to the next, and the
statuses a build reports.

Standard library only, on purpose: a stage imports these and its own heavy library and
nothing else, so reading loads no Jinja and no genanki, and the lock is read without
loading the renderer (tests/pipeline/test_layers.py checks each stage in a fresh interpreter).
Records of more than three fields are keyword-only; positions (path, line) stay out of
equality, so two equal questions are equal wherever they were written.
"""

from __future__ import annotations

import enum
import hashlib
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from nca_anki.once import computed_once

# --- the note type -------------------------------------------------------------------------
# The note type's identity. Anki matches note types by id, and any change to the field
# names/order or template names is a schema change that strands every learner's notes in a
# duplicated "+ " note type (docs/anki-import.md). These values are frozen: do not edit.
NOTE_TYPE_ID = 1607392319_001
NOTE_TYPE_NAME = "NCA Multiple Choice (nca-anki)"
CARD_TEMPLATE_NAME = "Multiple choice"
FIELDS = ("Prompt", "Choices", "Answer", "Explanation", "Source")
# Each field's and the card template's id, in FIELDS order. Anki keeps them in a learner's
# collection and pairs fields by id where both sides have one, so a field renamed in a
# later release (its id kept) updates every learner in place; a field added or removed
# never does, ids or not (docs/anki-import.md, "Growing the note type"). Fixed for good:
# a rename keeps the id, a new field takes a new one; never reuse or change one.
FIELD_IDS = (61738631133607555, 33972029011092979, 29855124424942475, 25299672720434084,
             49696258228708084)
TEMPLATE_ID = 1610441399496178
# What Anki itself fills in a template besides the note's fields.
SPECIAL_FIELDS = ("FrontSide", "Tags", "Type", "Deck", "Subdeck", "Card", "CardFlag", "CardID")
LABELS = tuple(string.ascii_uppercase[:10])  # choices beyond J are an error
# The placeholders a report_url may hold (cards/report_link.py says when each is filled).
REPORT_RENDERED = ("fingerprint", "deck")
REPORT_DEFERRED = ("guid", "version", "file", "line")
REPORT_LIVE = ("pick", "verdict")
REPORT_PLACEHOLDERS = (*REPORT_RENDERED, *REPORT_DEFERRED, *REPORT_LIVE)


@dataclass(frozen=True, kw_only=True)
class NoteType:
    id: int
    name: str
    fields: tuple[str, ...]
    template_name: str
    front: str
    back: str
    css: str
    # Each field's id and the template's (FIELD_IDS, TEMPLATE_ID); () and None in a deck
    # written before nca-anki gave them.
    field_ids: tuple[int, ...] = ()
    template_id: int | None = None

    @property
    def fingerprint(self) -> str:
        """Changes whenever anything Anki stores for the note type changes."""
        parts = (self.name, *self.fields, self.template_name, self.front, self.back, self.css)
        if self.field_ids or self.template_id is not None:  # as before ids, without them
            parts += (*map(str, self.field_ids), str(self.template_id))
        return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]

    @property
    def schema(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """What Anki compares when it imports the note type over a learner's: the field
        names and the template names, in order."""
        return self.fields, (self.template_name,)


# --- what the source says ------------------------------------------------------------------

@dataclass(frozen=True)
class Choice:
    text: str
    correct: bool
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, kw_only=True)
class Question:
    """One question as written; ``prompt``, choices and ``explanation`` are Markdown."""

    number: int
    prompt: str
    choices: tuple[Choice, ...]
    explanation: str
    path: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)
    explanation_line: int = field(default=0, compare=False)  # 0: none, or not known

    @computed_once  # asked for by several stages, per question
    def correct_indexes(self) -> tuple[int, ...]:
        return tuple(i for i, choice in enumerate(self.choices) if choice.correct)

    @computed_once
    def fingerprint(self) -> str:
        """What an acknowledged warning names the question by (reading/acknowledged.py):
        a hash of what it asks and answers, not of its number or place, so renumbering
        keeps it and any edit changes it."""
        parts = [self.prompt, *(f"{c.correct:d}{c.text}" for c in self.choices),
                 self.explanation]
        return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")
                              ).hexdigest()[:12]


@dataclass(frozen=True, slots=True, kw_only=True)
class QuestionKey:
    """One question as the duplicate check compares it (reading/duplicates.py)."""

    number: int
    line: int
    fingerprint: str  # Question.fingerprint
    words: str  # the prompt's content words, sorted, joined by spaces
    answer: str  # the correct choices' content words, the same way


@dataclass(frozen=True, kw_only=True)
class ParsedFile:
    path: str
    title: str  # as written, without the "— Questions and Answers" suffix
    name: str  # the title without its part number
    part: int
    questions: Sequence[Question]  # a tuple, or built on first use from the parse cache
    title_line: int = field(default=1, compare=False)  # 0: the file has no title line
    # What the duplicate check and acknowledgements read of each question, in order
    # (reading/duplicates.py: question_key); () when not worked out yet. Kept in the parse
    # cache's header, so a rebuild need not build the questions of topics it reuses.
    keys: tuple[QuestionKey, ...] = field(default=(), compare=False)

    @computed_once
    def positions(self) -> tuple[int, ...]:
        """Where each question's correct choice is written (-1: not exactly one marked)."""
        return tuple(q.correct_indexes[0] if len(q.correct_indexes) == 1 else -1
                     for q in self.questions)


@dataclass(frozen=True, kw_only=True)
class Topic:
    name: str  # cleaned from the titles; key for deck-name overrides
    deck_name: str  # full Anki deck name, "Parent::Leaf"
    slug: str  # output file name without ".apkg"
    files: tuple[ParsedFile, ...]  # sorted by part

    @computed_once  # asked for per question by several stages
    def questions(self) -> tuple[tuple[int, Question], ...]:
        """(part, question) in study order: by part, then as written."""
        return tuple((f.part, q) for f in self.files for q in f.questions)

    @property
    def count(self) -> int:
        """How many questions, without building them (see caching/entries.py's parse cache)."""
        return sum(len(f.questions) for f in self.files)

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(f.path for f in self.files)


def answer_key(correct: Sequence[int]) -> str:
    """The correct choices' indexes as one text, for hashes: "2" for one answer (as the
    single index always was), "0,2" for several, "-1" for none."""
    return ",".join(map(str, correct)) if correct else "-1"


@dataclass(frozen=True, slots=True, kw_only=True)
class Acknowledgement:
    """A warning the authors judged (nca-anki.toml [[acknowledged]]): for one question, by
    its fingerprint, or for every warning of its code in one file, by the file's path."""

    code: str
    question: str  # Question.fingerprint, or "" for a file's entry
    line: int = field(default=0, compare=False)  # in the settings file
    file: str = ""  # a question file's path in the source folder ("gpu-1.txt"), or ""


def prompt_id(prompt: str) -> str:
    """A prompt's identity key: a hash of its whitespace-normalised text."""
    return hashlib.sha256(" ".join(prompt.split()).encode()).hexdigest()[:12]


@dataclass(frozen=True, slots=True, kw_only=True)
class MediaFile:
    """An image a question shows, as it goes into a package (reading/media.py)."""

    name: str  # its name in Anki's media folder: nca-<sha256[:16]>.<type>
    path: str  # where it is read from
    sha256: str
    size: int


# --- what the card shows -------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Layout:
    """How a question's choices are laid out on the card.

    ``order`` lists the source choices (their index in the question) in the order the
    card shows them without JavaScript; ``pinned`` holds source indexes that never move;
    ``shuffle`` says whether the card may reorder the others on each review.
    """

    order: tuple[int, ...]
    pinned: frozenset[int]
    shuffle: bool
    reason: str = ""  # why the choices stay as written
    # Where the correct choices sit in ``order``, in source order, if they were placed
    # (empty: the choices stay as written).
    slots: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class RenderedNote:
    """A question's note fields in ``FIELDS`` order, ready for identity and packaging."""

    question: Question
    part: int
    fields: tuple[str, ...]
    tags: tuple[str, ...]
    slots: tuple[int, ...] = ()  # the correct choices' places in the static order (locked)
    media: tuple[MediaFile, ...] = ()  # the images its fields show, by name
    # identity.note_hashes() of this note, when worked out where it was rendered (on a
    # worker, in parallel); None: identity works them out.
    hashes: tuple[str, str, str, str] | None = None


# --- the plan ------------------------------------------------------------------------------

class Disposition(enum.Enum):
    """What a build does with one topic, decided once (build._plan) for every stage."""

    BUILD = "build"  # rendered, identified and packaged
    REUSE = "reuse"  # its inputs are those its published deck was built from: kept as it is
    # An error in one of its files or notes (or in the settings, templates or lock): not
    # built; its deck and its lock entries stay exactly as they were.
    FREEZE = "freeze"


@dataclass(frozen=True, kw_only=True)
class Plan:
    """Every topic the build reports, with its disposition. ``topics`` holds the topics
    read from the source and, after them, frozen ones only the lock still knows (a topic
    whose only file cannot be read), so they are reported and their decks kept."""

    topics: tuple[Topic, ...]
    dispositions: Mapping[str, Disposition]  # topic name -> what is done with it

    def names(self, disposition: Disposition) -> frozenset[str]:
        return frozenset(name for name, d in self.dispositions.items() if d is disposition)

    def topics_to(self, disposition: Disposition) -> tuple[Topic, ...]:
        return tuple(t for t in self.topics if self.dispositions[t.name] is disposition)

    @property
    def kept(self) -> frozenset[str]:
        """Topics whose decks and lock entries this build leaves as they are."""
        return frozenset(name for name, d in self.dispositions.items()
                         if d is not Disposition.BUILD)


# --- identity ------------------------------------------------------------------------------

class NoteStatus(enum.Enum):
    """What this build did to a note, against the lock."""

    NEW = "new"
    CHANGED = "changed"
    UNCHANGED = "unchanged"


@dataclass(frozen=True, slots=True, kw_only=True)
class LockEntry:
    """One question's identity, as the lock keeps it."""

    guid: str
    topic: str
    part: int
    content_hash: str
    mod: int
    prompt: str  # the whole prompt, or only an excerpt when read from the lock file
    choices: tuple[str, ...]
    answer: int  # index of the (first) correct choice
    explanation: str
    removed: int | None = None  # when the question left the source; kept to revive it
    slots: tuple[int, ...] = ()  # the correct choices' places in the static order (shuffle.py)
    file: str | None = None  # the question file, inside the source folder (None: not known)
    source: str = ""  # source_hash() of its text ("": compute it from the text)
    prompt_id: str = ""  # prompt_id() of its prompt ("": compute it from the prompt)

    @property
    def has_text(self) -> bool:
        """False for an entry read from the lock file, which keeps no question text."""
        return bool(self.choices)

    @property
    def prompt_key(self) -> str:
        """The prompt's identity key (prompt_id), stored or worked out."""
        return self.prompt_id or prompt_id(self.prompt)


@dataclass(frozen=True, kw_only=True)
class Lock:
    note_type_hash: str = ""
    note_type_mod: int = 0
    entries: tuple[LockEntry, ...] = ()
    lines_lost: int = 0  # lines of the file that could not be read (damage, a bad merge)


@dataclass(frozen=True, kw_only=True)
class IdentifiedNote:
    note: RenderedNote
    topic: str
    guid: str
    mod: int
    status: NoteStatus


@dataclass(frozen=True, kw_only=True)
class Assignment:
    notes: tuple[IdentifiedNote, ...]
    note_type_mod: int
    lock: Lock
    removed: tuple[LockEntry, ...]  # entries whose question left the source in this build
    twins: tuple[LockEntry, ...] = ()  # second identities of one question, dropped


# --- packages ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class PackagedNote:
    """A note as it goes into a package. A note ``without_card`` is there only to update
    the note learners already have (a retired question: versions.py); a new learner gets
    the note but no card to study (docs/anki-import.md)."""

    guid: str
    mod: int
    fields: tuple[str, ...]
    tags: tuple[str, ...]
    without_card: bool = False


@dataclass(frozen=True, kw_only=True)
class DeckSpec:
    name: str
    description: str
    notes: tuple[PackagedNote, ...]  # in study order
    media: tuple[MediaFile, ...] = ()  # the images its notes show, by name
