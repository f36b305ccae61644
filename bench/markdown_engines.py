"""Python-Markdown against markdown-it-py: CommonMark conformance and speed.

The measurement behind render.py's choice of Markdown engine (issue 21). Not part of the
build or the suite: it needs both engines installed and the CommonMark spec's examples
as JSON (tests/test_cmark_spec/commonmark.json in markdown-it-py's repository, 652
examples of spec 0.31.2):

    pip install markdown markdown-it-py
    python bench/markdown_engines.py commonmark.json

Conformance: the share of examples whose HTML equals the spec's, after both are
normalised the same way (whitespace between tags, self-closing slashes). Speed: every
example rendered 20 times, best of 5, and a bank of real-shaped fields (generated like
bench/benchmark.py's, with code blocks and tables) rendered 3 times.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable


def normal(html: str) -> str:
    html = re.sub(r"\s*/>", ">", html)
    html = re.sub(r">\s+<", "><", html.strip())
    return re.sub(r"\s+", " ", html)


def python_markdown() -> Callable[[str], str]:
    import markdown
    md = markdown.Markdown(extensions=["sane_lists", "fenced_code", "tables"],
                           output_format="html")

    def convert(text: str) -> str:
        md.reset()
        return md.convert(text)
    return convert


def markdown_it() -> Callable[[str], str]:
    from markdown_it import MarkdownIt
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return md.render


def best(convert: Callable[[str], str], texts: list[str], repeat: int) -> float:
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            for text in texts:
                convert(text)
        times.append(time.perf_counter() - start)
    return min(times)


FIELDS = [
    "Which keyword defines a macro in C++?",
    "Use `torch.cuda.amp.autocast()` to run the **forward pass** in *mixed precision*.",
    "Given the model below, what is printed?\n\n```python\nimport torch\n"
    "x = torch.ones(2, 3)\nprint(x.sum(dim=1))\n```",
    "| GPU | Memory | FP16 TFLOPS |\n|---|---:|---:|\n| A100 | 80 GB | 312 |\n"
    "| H100 | 80 GB | 989 |",
    "The correct answer is B.\n\nA larger batch lowers gradient noise; see\n"
    "https://docs.nvidia.com/deeplearning/performance/ for details.\n\n"
    "- Option A is about latency\n- Option C is about memory",
    "#define sets a macro, \\$HOME is a variable, and a trailing backslash\\\nbreaks.",
]


def main() -> None:
    examples = json.loads(open(sys.argv[1], encoding="utf-8").read())
    engines = {"Python-Markdown": python_markdown(), "markdown-it-py": markdown_it()}
    texts = [example["markdown"] for example in examples]
    for name, convert in engines.items():
        passed: Counter[str] = Counter()
        for example in examples:
            try:
                ok = normal(convert(example["markdown"])) == normal(example["html"])
            except Exception:  # noqa: BLE001 - an engine that crashes fails the example
                ok = False
            passed[example["section"]] += ok
        total = sum(passed.values())
        print(f"{name}: {total}/{len(examples)} CommonMark examples "
              f"({100 * total / len(examples):.1f} %)")
        for section in ("Backslash escapes", "ATX headings", "Hard line breaks",
                        "Fenced code blocks", "Tabs", "Emphasis and strong emphasis"):
            count = sum(e["section"] == section for e in examples)
            print(f"    {section}: {passed[section]}/{count}")
        spec = best(convert, texts, 20)
        fields = best(convert, FIELDS * 500, 1)
        print(f"    speed: spec examples x20 {spec:.3f} s; {len(FIELDS) * 500} "
              f"real-shaped fields {fields:.3f} s")


if __name__ == "__main__":
    main()
