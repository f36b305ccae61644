"""Independent readers for the banks of ``banks_46_e5_struct.json`` (issue 46, round 5:
structured banks whose questions sit one level down inside group records).

Each reader is ``(path, text) -> list[Expected]`` and reads its bank the way the app it
was written for shows it. They share nothing with ``nca_anki``.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from real_banks import NODE, Expected, words


def _js_value(text: str, name: str) -> object:
    """The value of the top-level variable ``name`` once the file has run, as a page's
    script runs it (Node, in an empty sandbox)."""
    program = (
        "const vm = require('vm'); let src = '';"
        "process.stdin.on('data', d => src += d);"
        "process.stdin.on('end', () => {"
        " const out = vm.runInNewContext(src + '\\n;JSON.stringify(' + process.argv[1] + ')',"
        " {console: {log() {}}}); process.stdout.write(out); });")
    run = subprocess.run([str(NODE or "node"), "-e", program, name], input=text,
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def quiz_with_tags(path: Path, text: str) -> list[Expected]:
    """``var quiz = {title, description, "meta-tags": [..], difficulty, questions: [{text,
    answers: [..], "correct-answer": "1", "meta-tags": [..]}]}``: the page compares the
    index of the clicked answer, from 0, with ``correct-answer``; no explanation."""
    name = re.search(r"(?m)^\s*(?:var|let|const)\s+(\w+)\s*=\s*\{", text)
    data = _js_value(text, name[1]) if name else {}
    found = []
    for q in data.get("questions") or [] if isinstance(data, dict) else []:
        answers = [str(a) for a in q.get("answers") or []]
        right = int(str(q.get("correct-answer", "-1")).strip() or -1)
        if len(answers) >= 2 and 0 <= right < len(answers):
            found.append(Expected(words(str(q.get("text", ""))), [words(a) for a in answers],
                                  {right}, ""))
    return found
