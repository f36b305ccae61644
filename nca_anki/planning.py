"""Decide once what becomes of each topic: the one plan every later stage reads.

``decide`` takes everything read and rendered, finds each topic's errors, reads what each
topic to build has published (a deck that is damaged or another topic's stops the
build), adds the lint warnings of the topics that can build, and applies ``--strict``;
then it returns the plan, final. ``settle`` adds the duplicate warnings of those topics
(found meanwhile on a second core: ``DuplicateCheck``) and leaves out what the settings
acknowledge; a warning never changes the plan, except under ``--strict``, where
``decide`` settles first.
A topic is frozen (not built; its deck and lock entries kept exactly) for an error in one
of its files, a question that did not become a note, or a broken file whose questions the
lock places in it; every topic is frozen when the settings, templates or lock are broken,
a published deck cannot be built on, or ``--strict`` fails the build.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from nca_anki.diagnostics import Diagnostic, is_about_sources
from nca_anki.files import CONFIG_NAME, LOCK_NAME
from nca_anki.inputs import Inputs, Questions, shown_path
from nca_anki.publishing.changes import published_decks
from nca_anki.publishing.manifest import FactsStore, IndexedDeck
from nca_anki.publishing.sink import Sink
from nca_anki.identity.schema import note_type_changes
from nca_anki.parallel import Meanwhile, worker_count
from nca_anki.reading.acknowledged import acknowledge, attach_questions
from nca_anki.reading.duplicates import duplicates
from nca_anki.reading.lint import position_cluster
from nca_anki.reading.published import Published, note_type_schema
from nca_anki.reading.topics import deck_for
import nca_anki.diagnostics as diag
from nca_anki.records import (Assignment, Disposition, Lock, NoteStatus, Plan, RenderedNote, Topic,
                              prompt_id)
from nca_anki.report import BuildOptions, BuildReport, FileStatus, TopicResult


if TYPE_CHECKING:  # publishing's entry loads genanki: only its record's name is used here
    from nca_anki.publishing.publish import Outcome


@dataclass(frozen=True, kw_only=True)
class Decision:
    plan: Plan
    problems: list[Diagnostic]
    acknowledged: int = 0  # warnings the settings acknowledge, left out
    strict_failed: bool = False
    # Nothing is identified or written: the inputs are broken, a published deck cannot
    # be built on, or --strict failed (the plan then freezes every topic).
    halted: bool = False
    # What each topic to build published last time (publishing/changes.py).
    published: Mapping[str, IndexedDeck] = field(default_factory=dict)
    checked: tuple[Topic, ...] = ()  # the topics linted and checked for duplicates
    # Whether the duplicate warnings and the settings' acknowledgements are in
    # ``problems`` (``settle``).
    settled: bool = True


class DuplicateCheck(Meanwhile[list[Diagnostic]]):
    """The duplicate check (reading/duplicates.py), started before rendering on the topics
    that will be checked if every question renders: on a second core it is done by the
    time the report needs it (in a one-topic edit it was a third of the build, with one
    core idle). If the topics checked turn out to be others, they are checked again here."""

    def __init__(self, topics: Sequence[Topic], *, fork: bool) -> None:
        self.names = tuple(t.name for t in topics)
        super().__init__(partial(duplicates, topics), fork=fork)

    def of(self, topics: Sequence[Topic]) -> list[Diagnostic]:
        if tuple(t.name for t in topics) == self.names:
            return self.result()
        self.close()
        return duplicates(topics)


def start_duplicate_check(questions: Questions, options: BuildOptions) -> DuplicateCheck:
    """The check of the topics that no error in their files freezes (on a second core,
    meanwhile, where the work is big enough for ``options``), started before the lock is
    read and the notes rendered.
    Should these turn out not to be the topics checked (the lock places questions of a
    broken file in another topic, a question does not render), ``of`` checks again."""
    errors = {d.path for d in questions.problems if d.is_error}
    fork = worker_count(options.jobs, options.cores, sum(t.count for t in questions.topics)) > 1
    return DuplicateCheck([t for t in questions.topics if not errors & set(t.paths)],
                          fork=fork)


def decide(options: BuildOptions, inputs: Inputs, rendered: dict[str, list[RenderedNote]],
           problems: list[Diagnostic], reusable: set[str], decks: Published,
           facts: FactsStore | None, check: DuplicateCheck, *, sink: Sink) -> Decision:
    """The plan of this build, and every problem found on the way (module docstring).
    The duplicate warnings and the settings' acknowledgements are added by ``settle``,
    once the plan's work is done, unless ``--strict`` needs them to decide."""
    plan = _plan(inputs, rendered, problems, reusable)
    if inputs.global_failure or inputs.note_type is None or inputs.lock is None:
        return Decision(plan=plan, problems=problems, halted=True)
    # A deck that is damaged or another topic's cannot be built from (its withdrawn
    # questions and version would be lost), nor indexed with the others (the bundle and
    # changelog would describe the wrong deck): nothing is published until it is
    # restored or deleted. A preview builds on no deck.
    published, unusable = published_decks(decks, plan.topics_to(Disposition.BUILD),
                                          inputs.lock, facts) \
        if not sink.shows_every_card else ({}, {})
    # A card with fields or templates added or removed strands learners' notes unless
    # the build is told it is meant (identity/schema.py).
    schema = note_type_changes(note_type_schema(decks), inputs.note_type,
                               allowed=options.note_type_change) \
        if not sink.shows_every_card else []
    if unusable or diag.has_errors(schema):
        return Decision(plan=_all_frozen(plan),
                        problems=[*problems, *unusable.values(), *schema], halted=True)
    problems = [*problems, *schema]
    # Lint warnings never fail a topic, and a topic that fails is not linted: its errors
    # come first.
    checked = tuple(t for t in inputs.topics
                    if plan.dispositions[t.name] is not Disposition.FREEZE)
    problems = [*problems, *(d for topic in checked for d in (
        *(d for path in topic.paths for d in inputs.lint.get(path, ())),
        *position_cluster(topic)))]
    decision = Decision(plan=plan, problems=problems, published=published, checked=checked,
                        settled=False)
    if not options.strict:
        return decision
    decision = settle(decision, inputs, options, check)
    strict_failed = any(is_about_sources(d) for d in decision.problems)
    if strict_failed and sink.halts_on_strict:  # a comparing build writes nothing anyway,
        return replace(decision, plan=_all_frozen(plan),  # and goes on to say what is stale
                       strict_failed=True, halted=True)
    return replace(decision, strict_failed=strict_failed)


def settle(decision: Decision, inputs: Inputs, options: BuildOptions,
           check: DuplicateCheck) -> Decision:
    """``decision`` with the duplicate warnings of the topics checked, and without the
    warnings the settings acknowledge (counted)."""
    if decision.settled:
        return decision
    problems, acknowledged = _acknowledged(
        inputs, [*decision.problems, *check.of(decision.checked)],
        shown_path(options.source, CONFIG_NAME),
        complete=len(decision.checked) == len(decision.plan.topics))
    return replace(decision, problems=problems, acknowledged=acknowledged, settled=True)


def _all_frozen(plan: Plan) -> Plan:
    return replace(plan, dispositions=dict.fromkeys(plan.dispositions, Disposition.FREEZE))


def _plan(inputs: Inputs, rendered: dict[str, list[RenderedNote]],
          problems: list[Diagnostic], reusable: set[str]) -> Plan:
    """The one place that decides what becomes of each topic; every later stage reads the
    plan. A topic is frozen (not built; its deck and lock entries kept exactly) for an
    error in one of its files, a question that did not become a note (say, a broken
    choices template), a broken file whose questions the lock places in it, or when the
    settings, templates or lock are broken; else reused if its inputs are as the cache
    recorded them (``reusable``), else built. Frozen topics that no readable file names
    any more (a single-part topic whose file is broken) are added, so the report lists
    them and their decks are not called stale."""
    frozen = _frozen(inputs, problems, reusable, rendered)
    named = {t.name for t in inputs.topics}
    absent = tuple(Topic(name=name, deck_name=deck_for(name, inputs.config)[0],
                         slug=deck_for(name, inputs.config)[1], files=())
                   for name in sorted(frozen - named))
    return Plan(topics=inputs.topics + absent, dispositions={
        t.name: Disposition.FREEZE if t.name in frozen else
        Disposition.REUSE if t.name in reusable else Disposition.BUILD
        for t in inputs.topics + absent})


def _frozen(inputs: Inputs, problems: list[Diagnostic], reusable: set[str],
            rendered: dict[str, list[RenderedNote]] | None) -> set[str]:
    """The topics ``_plan`` freezes; with ``rendered`` None, as if every question rendered
    (what can be known before rendering)."""
    if inputs.global_failure:
        return {t.name for t in inputs.topics}
    error_paths = {d.path for d in problems if d.is_error}
    return {t.name for t in inputs.topics if error_paths & set(t.paths)
            or (rendered is not None and t.name not in reusable
                and len(rendered.get(t.name, ())) != t.count)} \
        | _topics_of_broken_files(inputs, problems)


def _topics_of_broken_files(inputs: Inputs, problems: list[Diagnostic]) -> set[str]:
    """Topics the lock places questions of a broken file in (unreadable, empty, no title,
    or with any error): building them without that file would drop a whole part from the
    learners' deck and mark its questions removed."""
    broken = {inputs.sources[d.path] for d in problems if d.is_error and d.path in inputs.sources}
    prompts = {prompt_id(q.prompt) for orphan in inputs.orphans for q in orphan.questions}
    entries = inputs.lock.entries if inputs.lock else ()
    # Entries written before the lock recorded files are recognised by their prompt.
    return {e.topic for e in entries
            if e.file in broken or (e.file is None and e.prompt_key in prompts)}


def _acknowledged(inputs: Inputs, problems: list[Diagnostic], settings: str, *,
                  complete: bool) -> tuple[list[Diagnostic], int]:
    """The problems with each one inside a question marked with its fingerprint, less the
    warnings the settings acknowledge, and how many those were (reading/acknowledged.py).
    Only the files some problem names are read for their questions."""
    named = {d.path for d in problems}
    files = [f for t in inputs.topics for f in t.files if f.path in named]
    marked = attach_questions(problems, files)
    if not inputs.config.acknowledged:
        return marked, 0
    return acknowledge(marked, inputs.config.acknowledged, settings, complete=complete,
                       files=inputs.sources)


def nothing_built(decision: Decision, out: Path) -> BuildReport:
    """The report of a build that stops before it identifies anything: every topic as the
    plan has it, nothing written."""
    nothing = Assignment(notes=(), note_type_mod=0, lock=Lock(), removed=())
    return said(BuildReport(topics=results(decision.plan, nothing, {}, out),
                            diagnostics=diag.sort_diagnostics(decision.problems)), decision)


def said(report: BuildReport, decision: Decision) -> BuildReport:
    """``report`` with what ``decision`` says of the settings and --strict."""
    return replace(report, acknowledged=decision.acknowledged,
                   strict_failed=decision.strict_failed)


def report(options: BuildOptions, decision: Decision, outcome: Outcome, sink: Sink
           ) -> BuildReport:
    """The report of a build that published (or compared) ``outcome`` through ``sink``."""
    plan, out, assignment = decision.plan, options.out, outcome.assignment
    deck_names = {t.name: t.deck_name for t in plan.topics}
    lock_changes = sink.lock_changes(options.source / LOCK_NAME, outcome.lock_text)
    stale_index = [shown_path(out, n) for n, s in outcome.index_statuses.items()
                   if s is FileStatus.WOULD_WRITE]
    return said(BuildReport(
        topics=results(plan, assignment, outcome.statuses, out),
        diagnostics=diag.sort_diagnostics([*decision.problems, *outcome.stale,
                                           *outcome.events]),
        removed=assignment.removed,
        templates_changed=outcome.layout_changed,
        stale_lock_decks=tuple(deck_names.get(t, t) for t in lock_changes),
        stale_files=tuple(sorted([*stale_index, *(d.path for d in outcome.stale)])),
        index=tuple((shown_path(out, n), s) for n, s in outcome.index_statuses.items()
                    if s is not FileStatus.UNCHANGED),
        newest=sink.newest(assignment)), decision)


def results(plan: Plan, assignment: Assignment, statuses: dict[str, FileStatus], out: Path
             ) -> tuple[TopicResult, ...]:
    found = []
    tally = Counter((n.topic, n.status) for n in assignment.notes)  # one pass, not one a topic
    for topic in plan.topics:
        count = {s.value: tally[topic.name, s] for s in NoteStatus}
        if plan.dispositions[topic.name] is Disposition.REUSE:
            count["unchanged"] = topic.count
        found.append(
            TopicResult(
                deck_name=topic.deck_name,
                output=shown_path(out, f"{topic.slug}.apkg"),
                questions=topic.count,
                **count,
                status=statuses.get(topic.name, FileStatus.FAILED),
                sources=topic.paths,
            )
        )
    return tuple(found)
