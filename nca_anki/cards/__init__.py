"""Cards: questions to note fields and the note type (Jinja, Markdown, nh3)."""
