"""Importers: question banks in other formats -> question files in this project's format
(``build_decks.py import``; docs/importing.md)."""
