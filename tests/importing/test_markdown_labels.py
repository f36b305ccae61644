"""Markdown banks whose authors wrote more than the card needs (issue 46, round 4):
checkbox choices that carry their own label ("- [x] B、7天", "- [ ] (c) …", "- [ ] 2. …"),
explanation paragraphs opening with a label in CJK brackets ("【解析】", "〔点评〕"), and a
heading's number written against a word that is no letter ("### 7.（多选）…",
"### 9.`len`…")."""

from __future__ import annotations

import pytest

from conftest import as_read, built_and_imported
from nca_anki.importing import choice_labels, cues, markdown
from nca_anki.reading.parse import parse


def _read(text: str) -> list[tuple[str, list[str], str]]:
    reading = markdown.read(text, "bank.md")
    return [(item.prompt, [("*" if c.correct else "") + c.text for c in item.choices],
             item.explanation) for section in reading.sections for item in section.items]


# --- 1. labels written into checkbox choices ---------------------------------------------------

LABELLED = """# Gemischt

### 1. 一年有几个季节?

- [ ] A. 三个
- [x] B、四个
- [ ] C．五个

### 2. Quelle planète est la plus grande ?

- [ ] (a) Mars
- [x] (b) Jupiter
- [ ] (c) Vénus

### 3. ¿Cuántas patas tiene una araña?

- [ ] a) seis
- [x] b) ocho

### 4. Welche Zahl ist gerade?

- [ ] 1. drei
- [x] 2. vier

### 5. 哪个是水果?

- [x] （A）苹果
- [ ] （B）白菜
"""


def test_labels_every_checkbox_choice_carries_in_order_are_left_out():
    assert [choices for _, choices, _ in _read(LABELLED)] == [
        ["三个", "*四个", "五个"], ["Mars", "*Jupiter", "Vénus"], ["seis", "*ocho"],
        ["drei", "*vier"], ["*苹果", "白菜"]]


LOOK_LETTERED = """# Looks

### 1. Who freed the slaves?

- [x] A. Lincoln
- [ ] Grant

### 2. Which letters?

- [ ] B. bee
- [x] C. sea

### 3. Which one?

- [x] A. first
- [ ] C. third

### 4. Mixed marks?

- [ ] A) one
- [x] B. two
"""


def test_choices_that_only_look_lettered_keep_their_text():
    assert [choices for _, choices, _ in _read(LOOK_LETTERED)] == [
        ["*A. Lincoln", "Grant"], ["B. bee", "*C. sea"], ["*A. first", "C. third"],
        ["A) one", "*B. two"]]


def test_the_shared_rule_reads_cjk_marks_as_their_latin_ones():
    assert choice_labels.starts(["A. x", "B、y", "C．z"]) == [3, 2, 2]
    assert choice_labels.starts(["（A）x", "(B) y"]) == [3, 4]
    assert choice_labels.starts(["A.Lincoln", "B.Grant"]) is None  # no space: a word
    assert choice_labels.starts(["A. x"]) is None  # one choice: no numbering to speak of


CODE_UNDER_LABELS = """# Functions

#### Q1. Which definition documents itself best?

- [x] A:

```python
def tax(subtotal):
    \'\'\'The sales tax on a subtotal.\'\'\'
```

- [ ] B:

```python
def tx(a):
    pass
```
"""


def test_a_label_alone_on_its_line_over_code_is_the_choice_s_text():
    # Before: both labels were taken off, each choice was only code, and the question was
    # refused (E704) — 2 of LinkedIn's Python questions.
    assert choice_labels.starts(["A:\n```python\nx\n```", "B:\n```python\ny\n```"]) is None
    [(_, choices, _)] = _read(CODE_UNDER_LABELS)
    assert [c.split("\n")[0] for c in choices] == ["*A:", "B:"]


# --- 2. explanation labels in CJK brackets -----------------------------------------------------

BRACKETED = """# 练习

### 1. 水的化学式是什么?

- [x] H2O
- [ ] CO2

【解析】水由两个氢原子和一个氧原子构成。

### 2. 地球绕什么转?

- [ ] 月亮
- [x] 太阳

〔分析〕
地球是行星。

**【点评】** 常识题。

### 3. 一加一?

- [x] 二
- [ ] 三

答案在【解析】里: 不是标签。
"""


def test_a_paragraph_opening_with_a_bracketed_label_loses_the_label():
    assert [why for _, _, why in _read(BRACKETED)] == [
        "水由两个氢原子和一个氧原子构成。", "地球是行星。\n\n常识题。", "答案在【解析】里: 不是标签。"]
    assert cues.without_bracketed_labels("【技巧】先排除。\n\n【答案】B") == "先排除。\n\nB"


def test_a_lettered_question_loses_the_bracketed_label_too():
    text = "## 1. 哪个最大?\n\nA. 1\nB. 9\n\n答案：B\n\n【解析】九比一大。\n"
    assert _read(text) == [("哪个最大?", ["1", "*9"], "九比一大。")]


# --- 3. a number against a word that is no letter ----------------------------------------------

TIGHT = """# Nummern

### 6.以下哪个是偶数?

- [x] 4
- [ ] 5

### 7.（多选）哪些是颜色?

- [x] 红
- [x] 蓝

### 8.`len("ab")` returns?

- [x] 2
- [ ] 3

### 9.“Hola” significa?

- [x] hello
- [ ] bye

### 2.0 was released when?

- [x] 2020
- [ ] 2010
"""


def test_a_heading_number_without_a_space_is_left_out_before_any_word():
    assert [prompt for prompt, _, _ in _read(TIGHT)] == [
        "以下哪个是偶数?", "（多选）哪些是颜色?", '`len("ab")` returns?', "“Hola” significa?",
        "2.0 was released when?"]


def test_a_lettered_heading_loses_its_tight_number_too():
    text = "## 12.Which is prime?\n\nA. 4\nB. 7\n\nAnswer: B\n"
    assert [prompt for prompt, _, _ in _read(text)] == ["Which is prime?"]


# --- end to end: into a real collection --------------------------------------------------------

@pytest.mark.anki
def test_labelled_checkbox_choices_arrive_in_anki_unlabelled(tmp_path, cli):
    bank = tmp_path / "in" / "mixed.md"
    bank.parent.mkdir(parents=True)
    bank.write_text(LABELLED + "\n" + LOOK_LETTERED.replace("# Looks\n", ""), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "src"))
    assert done.status == 0, done
    for path in (tmp_path / "src").glob("*.txt"):
        assert not [d for d in parse(path.read_text(encoding="utf-8"), path.name).diagnostics
                    if d.is_error]
    _, decks = built_and_imported(tmp_path, source="src")
    cards = {prompt: sorted(choices) for each in decks.values()
             for prompt, choices, _ in map(as_read, each)}
    assert cards["一年有几个季节?"] == ["*四个", "三个", "五个"]
    assert cards["Quelle planète est la plus grande ?"] == ["*Jupiter", "Mars", "Vénus"]
    assert cards["Welche Zahl ist gerade?"] == ["*vier", "drei"]
    assert cards["哪个是水果?"] == ["*苹果", "白菜"]
    assert cards["Who freed the slaves?"] == ["*A. Lincoln", "Grant"]
