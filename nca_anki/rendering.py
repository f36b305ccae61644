"""Render every topic's notes (cards/render.py), on forked workers when there is enough
work (parallel.py): the pipeline's second step, after everything is read (inputs.py).
A topic whose deck can be reused as published (the cache says so) is not rendered.
Each worker also works out its notes' content hashes (identity), so only plain fields
travel back to the parent.
"""

from __future__ import annotations

from nca_anki.cards.render import Renderer
from nca_anki.cards.shuffle import plan
from nca_anki.diagnostics import Diagnostic
from nca_anki.identity.assign import by_topic, note_hashes
from nca_anki.inputs import Inputs
from nca_anki.parallel import run_tasks
from nca_anki.records import MediaFile, RenderedNote
from nca_anki.report import Progress


def render_notes(renderer: Renderer, inputs: Inputs, reusable: set[str], workers: int,
                  progress: Progress) -> tuple[dict[str, list[RenderedNote]], list[Diagnostic]]:
    """Each topic's notes (topics in ``reusable`` are skipped), on ``workers`` processes."""
    entries = by_topic(inputs.lock.entries if inputs.lock else ())
    todo = [t for t in inputs.topics if t.name not in reusable]

    def render_topic(index: int) -> tuple[list[tuple[int, tuple[str, ...], tuple[str, ...],
                                                     tuple[int, ...], tuple[str, str, str, str],
                                                     tuple[MediaFile, ...]]],
                                          list[Diagnostic]]:
        topic = todo[index]
        kept = {e.prompt_key: e.slots for e in entries.get(topic.name, ()) if e.slots}
        layouts = plan([q for _, q in topic.questions], inputs.config.shuffles(topic.name), kept)
        on_pick = inputs.config.shows_answer_on_pick(topic.name)
        notes: list = []
        problems: list[Diagnostic] = []
        for k, ((part, question), layout) in enumerate(zip(topic.questions, layouts,
                                                           strict=True)):
            note, note_problems = renderer.note(topic, part, question, layout,
                                                show_on_pick=on_pick,
                                                language=inputs.config.language,
                                                report_url=inputs.config.report_url)
            problems += note_problems
            if note is not None:  # only the fields travel back; the question is ours
                notes.append((k, note.fields, note.tags, note.slots,
                              note_hashes(topic.name, note), note.media))
        return notes, problems

    rendered: dict[str, list[RenderedNote]] = {}
    problems: list[Diagnostic] = []
    progress.start("rendering", sum(t.count for t in todo))
    for topic, (notes, topic_problems) in zip(todo, run_tasks(render_topic, len(todo), workers)):
        questions = topic.questions
        rendered[topic.name] = [RenderedNote(question=questions[k][1], part=questions[k][0],
                                             fields=fields, tags=tags, slots=slots,
                                             hashes=hashes, media=media)
                                for k, fields, tags, slots, hashes, media in notes]
        problems += topic_problems
        progress.advance(topic.count)
    return rendered, problems
