#!/usr/bin/env python3
"""Build the Anki decks from source/ into dist/ (see README.md).

    python build_decks.py [--source DIR] [--templates DIR] [--out DIR] [--check]
"""

import sys

from nca_anki.cli import main

if __name__ == "__main__":
    sys.exit(main())
