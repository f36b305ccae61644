"""A change to the note type's fields or templates, said before it reaches learners.

Anki pairs an incoming note type with a learner's by its id, then needs the same number
of fields and of templates, paired in order by id where both sides have one and by name
otherwise (docs/anki-import.md, "Growing the note type"). So:

- a field or template **added or removed** gives every learner who imported an earlier
  release a second note type ("… +") and notes that no longer update, unless that learner
  imports this release with "Merge note types" and "Update notes: always": an error
  (E403) unless the build is told it is meant (``--note-type-change``), then a warning;
- a field or template **renamed** (its id kept) updates in place every learner whose
  collection holds the ids (everyone who imported a release that had them, unless they
  customised the card), and gives the others the "+" copy: a warning (W404).

What learners have is the note type of a published deck (every deck of one build shares
it); a project with no deck published has nothing to compare.
"""

from __future__ import annotations

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.records import NoteType

MERGE = ('in Anki\'s import dialog, tick "Merge note types" and set "Update notes" to '
         '"Always", for this one import')


def note_type_changes(published: tuple[str, tuple[str, ...], tuple[str, ...]] | None,
                      current: NoteType, *, allowed: bool) -> list[Diagnostic]:
    """What changes between ``published`` (the shown path of a published deck, its
    note type's field names and template names) and ``current``; nothing if it has none."""
    if published is None:
        return []
    where, fields, templates = published
    now_fields, now_templates = current.schema
    if (fields, templates) == (now_fields, now_templates):
        return []
    was = f"fields {', '.join(fields)}; templates {', '.join(templates)}"
    now = f"fields {', '.join(now_fields)}; templates {', '.join(now_templates)}"
    if len(fields) != len(now_fields) or len(templates) != len(now_templates):
        said = (f"the note type changes from ({was}) to ({now}): a field or template added "
                f"or removed. Every learner who imported an earlier release gets a second "
                f"note type ('{current.name}+') and notes that no longer update unless, "
                f"{MERGE}. Say so in the release notes")
        if allowed:
            return [warning("W403", where, 0, said)]
        return [error("E403", where, 0, said + "; if it is meant, build again with "
                      "--note-type-change")]
    return [warning("W404", where, 0, (
        f"the note type changes from ({was}) to ({now}): renamed, with the same ids. "
        "Learners who imported a release with field ids update in place; a learner whose "
        f"collection has no ids (a customised card, or no update since) gets a second note "
        f"type ('{current.name}+') unless, {MERGE}"))]
