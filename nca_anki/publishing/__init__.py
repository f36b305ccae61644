"""Publishing: packages (genanki), the index, versions and releases, atomic writes."""
