"""nca-anki: build Anki decks from multiple-choice question banks.

Pipeline, one module per stage, plain frozen data between them:
``decode`` (bytes -> text) -> ``parse`` (text -> questions) -> ``topics`` (files -> decks)
-> ``render`` (questions -> field HTML, note type) -> ``identity`` (lock file: GUIDs and
mod times) -> ``package`` (notes -> .apkg bytes) -> ``output`` (atomic writes).
``build`` runs the stages; ``cli`` is the thin command-line shell around it.
"""

__version__ = "0.1.0"
