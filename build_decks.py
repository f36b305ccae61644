#!/usr/bin/env python3
"""Build the Anki decks from source/ into dist/ (see README.md).

    python build_decks.py [--source DIR] [--templates DIR] [--out DIR] [--check]
"""

import sys

if __name__ == "__main__":
    try:
        from nca_anki.cli import run  # light: the pipeline loads inside main()
    except KeyboardInterrupt:
        print("interrupted; nothing was written", file=sys.stderr)
        sys.exit(130)
    run()
