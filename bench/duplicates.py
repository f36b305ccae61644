"""How long the duplicate check (nca_anki/reading/duplicates.py) takes on a big bank, and
whether it finds the copies planted in it.

    .venv/bin/python bench/duplicates.py [QUESTIONS ...]   (default: 10000 100000)

The bank is synthetic but shaped like a real one: prompts of 8-16 words drawn from a
vocabulary of 30,000 words with Zipf-like frequencies (a few words in many prompts, most
in few), among the small words every question uses. Into it go 300 copies of random
questions, each changed as an author rewording a question would: 100 with a word dropped,
100 with a word added, 100 with the small words changed and the words shuffled. Printed:
the seconds the check takes (best of 3), the pairs it reports, how many of the planted
copies it found, and the peak memory it added. Not part of the test suite.
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nca_anki.reading.duplicates import duplicates
from nca_anki.records import Choice, ParsedFile, Question, Topic

SMALL = "what which is the of in a for to does how when".split()
PLANTED = 300


def bank(count: int, seed: int = 7) -> tuple[list[Topic], set[tuple[int, int]]]:
    rng = random.Random(seed)
    vocabulary = [f"w{n}x{rng.randrange(10**6)}" for n in range(30_000)]
    weights = [1 / (rank + 1) ** 1.1 for rank in range(len(vocabulary))]
    prompts = []
    for _ in range(count - PLANTED):
        words = rng.choices(vocabulary, weights, k=rng.randint(8, 16))
        prompts.append(" ".join([rng.choice(SMALL[:3]), *words]) + "?")
    planted = set()
    for k in range(PLANTED):
        original = rng.randrange(len(prompts))
        words = prompts[original].rstrip("?").split()[1:]
        if k % 3 == 0:
            del words[rng.randrange(len(words))]
        elif k % 3 == 1:
            words.insert(rng.randrange(len(words)), rng.choice(vocabulary[5000:]))
        else:
            rng.shuffle(words)
            words.insert(0, rng.choice(SMALL))
        planted.add((original, len(prompts)))
        prompts.append(" ".join([rng.choice(SMALL), *words]) + "?")
    per_topic = 1000
    topics = []
    for start in range(0, len(prompts), per_topic):
        name = f"Topic {start // per_topic}"
        path = f"source/t{start // per_topic}-1.txt"
        questions = tuple(Question(number=n + 1, prompt=p, explanation="", path=path,
                                   line=start + n, choices=(Choice("a", True),
                                                            Choice("b", False)))
                          for n, p in enumerate(prompts[start:start + per_topic]))
        topics.append(Topic(name=name, deck_name=name, slug=name, files=(ParsedFile(
            path=path, title=name, name=name, part=1, questions=questions),)))
    return topics, planted


def measure(count: int) -> None:
    topics, planted = bank(count)
    times = []
    for _ in range(3):
        started = time.perf_counter()
        found = duplicates(topics)
        times.append(time.perf_counter() - started)
    tracemalloc.start()
    duplicates(topics)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    index = {(d.path, d.line): d for d in found}
    lines = {int(d.line) for d in found}
    hits = sum(1 for a, b in planted if a in lines and b in lines)
    print(f"{count:>7} questions: {min(times):6.2f} s (best of 3), {len(found) // 2} pairs "
          f"reported, {hits} of {len(planted)} planted copies found, peak "
          f"{peak / 2**20:.0f} MiB", flush=True)
    del index


if __name__ == "__main__":
    for size in [int(a) for a in sys.argv[1:]] or [10_000, 100_000]:
        measure(size)
