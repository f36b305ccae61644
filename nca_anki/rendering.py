"""Render every topic's notes (cards/render.py), on forked workers when there is enough
work (parallel.py): the pipeline's second step, after everything is read (inputs.py).
A topic whose deck can be reused as published (the cache says so) is not rendered.
Each worker also works out its notes' content hashes (identity), so only plain fields
travel back to the parent.

A note rendered before with the same inputs is taken from the render cache
(caching/entries.py, ``RenderCache``) instead: an edit of one question renders that
question, not its whole topic.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from nca_anki.caching.entries import RenderMemo, Rendering
from nca_anki.cards.render import Renderer
from nca_anki.cards.shuffle import plan
from nca_anki.diagnostics import Diagnostic
from nca_anki.identity.assign import by_topic, note_hashes
from nca_anki.inputs import Inputs
from nca_anki.parallel import run_tasks, worker_count
from nca_anki.reading.topics import repeats_across_parts
from nca_anki.records import Layout, MediaFile, Question, RenderedNote, Topic
from nca_anki.report import BuildOptions, Progress


def topic_context(inputs: Inputs, topic: Topic, templates: str) -> str:
    """What every note of ``topic`` is rendered with: the templates (``templates``: a
    digest of their folder), the topic's names and its settings. (The code and library
    versions are in every cache entry's header.)"""
    config = inputs.config
    shared = (templates, topic.name, topic.deck_name, topic.slug,
              config.shows_answer_on_pick(topic.name), config.language, config.report_url)
    return hashlib.sha256(repr(shared).encode("utf-8", "surrogatepass")).hexdigest()


def note_key(part: int, question: Question, layout: Layout) -> str:
    """What else a note's rendering reads: its part, its texts (as written) and the layout
    of its choices. Not its number or lines: they only appear in messages, and a note
    with a problem is not cached."""
    # The repr of a tuple quotes each text: no two questions share it, whatever their
    # texts hold (a separator joined between texts could be in a text too).
    read = (part, question.prompt, tuple((c.correct, c.text) for c in question.choices),
            question.explanation, layout)
    return hashlib.sha256(repr(read).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, kw_only=True)
class Rendered:
    """What rendering gave: each topic's notes, what it found, and the processes the
    work is big enough for (publishing packages the decks on as many)."""

    notes: dict[str, list[RenderedNote]]  # by topic name; reused topics have none
    problems: list[Diagnostic]  # the notes', and questions repeated across a topic's parts
    # Also in problems: render cache entries that could not be read. They are about this
    # build's events and do not recur (the no-op replay is not recorded).
    events: list[Diagnostic]
    workers: int


def render(renderer: Renderer, inputs: Inputs, reusable: set[str], options: BuildOptions,
           progress: Progress, memo: RenderMemo | None) -> Rendered:
    """The stage's entry: every topic's notes but the ``reusable`` ones', on as many
    processes as the work and ``options`` allow; nothing without a note type."""
    workers = worker_count(options.jobs, options.cores,
                           sum(t.count for t in inputs.topics if t.name not in reusable))
    notes, problems, events = render_notes(renderer, inputs, reusable, workers, progress, memo) \
        if inputs.note_type is not None else ({}, [], [])
    return Rendered(notes=notes, workers=workers, events=events, problems=[
        *problems, *(d for t in inputs.topics if t.name not in reusable
                     for d in repeats_across_parts(t.files))])


def render_notes(renderer: Renderer, inputs: Inputs, reusable: set[str], workers: int,
                 progress: Progress, memo: RenderMemo | None = None
                 ) -> tuple[dict[str, list[RenderedNote]], list[Diagnostic], list[Diagnostic]]:
    """Each topic's notes (topics in ``reusable`` are skipped), on ``workers`` processes;
    ``memo``: the render cache and a digest of the templates, or None to render all.
    Also the render cache entries that could not be read (also among the problems)."""
    entries = by_topic(inputs.lock.entries if inputs.lock else ())
    todo = [t for t in inputs.topics if t.name not in reusable]

    def render_topic(index: int) -> tuple[list[tuple[int, Rendering, tuple[MediaFile, ...]]],
                                          list[Diagnostic], bytes | None, list[Diagnostic]]:
        topic = todo[index]
        kept = {e.prompt_key: e.slots for e in entries.get(topic.name, ()) if e.slots}
        layouts = plan([q for _, q in topic.questions], inputs.config.shuffles(topic.name), kept)
        on_pick = inputs.config.shows_answer_on_pick(topic.name)
        context = topic_context(inputs, topic, memo.templates) if memo else ""
        known, unread = memo.cache.notes(topic.name, context) if memo else ({}, [])
        notes: list = []
        problems: list[Diagnostic] = []
        keep: list[tuple[str, Rendering]] = []
        for k, ((part, question), layout) in enumerate(zip(topic.questions, layouts,
                                                           strict=True)):
            key = note_key(part, question, layout) if memo else ""
            if (done := known.get(key)) is not None:
                notes.append((k, done, ()))
                keep.append((key, done))
                continue
            note, note_problems = renderer.note(topic, part, question, layout,
                                                show_on_pick=on_pick,
                                                language=inputs.config.language,
                                                report_url=inputs.config.report_url)
            problems += note_problems
            if note is not None:  # only the fields travel back; the question is ours
                rendering = (note.fields, note.tags, note.slots, note_hashes(topic.name, note))
                notes.append((k, rendering, note.media))
                if memo and not note.media:
                    keep.append((key, rendering))
        unchanged = len(keep) == len(known) == len(notes) and not problems  # as it was
        entry = None if not memo or unchanged else memo.cache.encode(context, keep)
        return notes, problems, entry, unread

    rendered: dict[str, list[RenderedNote]] = {}
    problems: list[Diagnostic] = []
    events: list[Diagnostic] = []
    progress.start("rendering", sum(t.count for t in todo))
    for topic, (notes, topic_problems, entry, unread) in zip(
            todo, run_tasks(render_topic, len(todo), workers)):
        questions = topic.questions
        rendered[topic.name] = [RenderedNote(question=questions[k][1], part=questions[k][0],
                                             fields=fields, tags=tags, slots=slots,
                                             hashes=hashes, media=media)
                                for k, (fields, tags, slots, hashes), media in notes]
        problems += [*unread, *topic_problems]
        events += unread
        if memo and entry is not None:
            memo.cache.put(topic.name, entry)
        progress.advance(topic.count)
    return rendered, problems, events
