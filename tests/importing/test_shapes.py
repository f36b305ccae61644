"""``import`` on the shapes real banks come in (issue 34): structured banks read by their
shape, Markdown as quiz repositories write it, GIFT as Moodle reads it, spreadsheets, a
folder of mixed files with no --from; and hostile inputs, each a clear error at its
place, never an internal error, never a hang. Every bank here is written for the test in
its shape's conventions (none is copied from a real bank)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from nca_anki.reading.parse import parse

from images import png


def _write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _questions(out: Path) -> list[tuple[str, str, list[str], str]]:
    """Every question the import wrote, as the build's own parser reads it back: (topic
    title, prompt, choices with "*" before each correct one, explanation)."""
    found = []
    for path in sorted(out.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        assert text.endswith("\n")  # an author can append to it
        result = parse(text, path.name)
        assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
        found += [(result.file.name, q.prompt, [("*" if c.correct else "") + c.text
                                                for c in q.choices], q.explanation)
                  for q in result.file.questions]
    return found


def _run(cli, tmp_path: Path, *args: str):
    return cli("import", *args, "--out", str(tmp_path / "out"))


# --- structured banks by their shape ---------------------------------------------------------

def test_an_index_key_by_any_name_is_read_from_zero_and_said_once(tmp_path, cli):
    bank = _write(tmp_path, "quiz.json", json.dumps({"data": {"networking": [
        {"questionText": "Which fabric links GPUs inside one server?",
         "answerOptions": ["NVLink", "Ethernet", "USB"], "correctAnswerIndex": 0,
         "why": "NVLink is the GPU-to-GPU link."},
        {"questionText": "Which port does gRPC use on Triton by default?",
         "answerOptions": ["8000", "8001", "8002"], "correctAnswerIndex": 1},
    ]}}, indent=2))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert f"{bank}:3: warning[W704]: read 2 question objects: prompt 'questionText'; " \
        "choices 'answerOptions'; answer 'correctAnswerIndex', counted from 0 (an answer " \
        "is 0); " \
        "explanation 'why'" in done.err
    assert _questions(tmp_path / "out") == [
        ("Networking", "Which fabric links GPUs inside one server?",
         ["*NVLink", "Ethernet", "USB"], "NVLink is the GPU-to-GPU link."),
        ("Networking", "Which port does gRPC use on Triton by default?",
         ["8000", "*8001", "8002"], "")]


def test_choice_objects_with_a_flag_and_letter_lists_are_read(tmp_path, cli):
    bank = _write(tmp_path, "bank.json", json.dumps([
        {"q": "Pick the precision with 8 exponent bits.",
         "options": [{"value": "FP16", "isCorrect": False}, {"value": "BF16", "isCorrect": True}]},
        {"q": "Which two are parallelism strategies?", "choices": {"A": "Tensor", "B": "Dropout",
                                                                   "C": "Pipeline", "D": "ReLU"},
         "correct_answer": ["A", "C"]},
        {"q": "Which one is the letter D?", "choices": {"A": "a", "B": "b", "C": "c",
                                                        "D": "d"}, "correct_answer": "D"},
    ]))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[2] for q in _questions(tmp_path / "out")] == [
        ["FP16", "*BF16"], ["*Tensor", "Dropout", "*Pipeline", "ReLU"], ["a", "b", "c", "*d"]]


def test_numbers_that_fit_both_counts_are_not_guessed(tmp_path, cli):
    """Answers 1 and 2 of three choices read differently from 0 and from 1: the author says."""
    rows = [{"question": f"Question number {n}?", "options": ["x", "y", "z"], "answer": a}
            for n, a in ((1, 1), (2, 2))]
    bank = _write(tmp_path, "bank.json", json.dumps(rows, indent=1))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:9: error[E703]: [0].answer: the answer 1 may count from 0 or 1" in done.err
    assert "say which: --map answer=answer0 or answer1" in done.err
    assert done.err.splitlines()[-1] == "read 2 questions in 1 file: nothing written, 2 " \
        "refused (no correct answer ×2): 2 errors, 1 warning"
    again = cli("import", str(bank), "--map", "answer=answer1", "--out", str(tmp_path / "o2"))
    assert again.status == 0, again.err
    assert "answer 'answer', counted from 1 (--map)" in again.err
    assert [q[2] for q in _questions(tmp_path / "o2")] == [["*x", "y", "z"], ["x", "*y", "z"]]


def test_several_lists_are_several_topics_and_a_category_is_a_topic(tmp_path, cli):
    bank = _write(tmp_path, "bank.json", json.dumps({
        "storage": [{"prompt": "Which protocol is block storage over RDMA?",
                     "options": ["NVMe-oF", "SMB"], "answer": "NVMe-oF"}],
        "compute": [{"prompt": "Which GPU has Tensor Cores?", "options": ["V100", "K80"],
                     "answer": "A", "domain": "GPU Hardware"}],
    }))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert "in 2 lists" in done.err
    assert [(q[0], q[2]) for q in _questions(tmp_path / "out")] == [
        ("GPU Hardware", ["*V100", "K80"]), ("Storage", ["*NVMe-oF", "SMB"])]


def test_window_assignments_and_a_bare_array_are_banks(tmp_path, cli):
    script = _write(tmp_path / "web", "data.js", """// quiz data for the web app
window.quizData = [
  { text: "Which tool lists the GPUs?", answers: ["nvidia-smi", "top"], correct: 0 },
];
""")
    bare = _write(tmp_path / "web", "more.ts", """/* the second set */
[
  { question: "Which CUDA call copies memory?", options: ["cudaMemcpy", "cudaFree"],
    answer: "cudaMemcpy" },
]
""")
    done = _run(cli, tmp_path, str(script), str(bare))
    assert done.status == 0, done.err
    assert sorted(q[1] for q in _questions(tmp_path / "out")) == [
        "Which CUDA call copies memory?", "Which tool lists the GPUs?"]


def test_one_bad_question_never_costs_the_bank(tmp_path, cli):
    rows = [{"question": f"Which number is {n}?", "options": [str(n), "no"], "answer": 0}
            for n in range(1, 200)]
    rows[100] = {"question": "Broken: no choices", "answer": 0}
    rows[150]["answer"] = 7
    bank = _write(tmp_path, "bank.json", json.dumps(rows, indent=1))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1  # a script notices
    assert len(_questions(tmp_path / "out")) == 197
    errors = [line for line in done.err.splitlines() if ": error[" in line]
    assert len(errors) == 2
    assert errors[0].startswith(f"{bank}:") and "[100]: no choices ('options' is not " \
        "there); not converted" in errors[0]
    assert "[150].answer: the answer 7 names none of the 2 choices" in errors[1]
    assert done.err.splitlines()[-1] == (
        "read 199 questions in 1 file: 197 converted, 2 refused (no correct answer ×1, not a "
        f"multiple-choice question ×1); wrote 1 file in {tmp_path}/out: 2 errors, 1 warning")


# --- hostile JSON and TypeScript ---------------------------------------------------------------

@pytest.mark.parametrize("text, says", [
    ('[{"question": "Q?", "options": ["a", "b"], "answer": NaN}]',
     ':1: error[E701]: [0].answer: `NaN` is not a JSON value'),
    ('[\n{"question": "Q?", "options": ["a", "b"],\n "answer": -Infinity}]',
     ':3: error[E701]: [0].answer: `-Infinity` is not a JSON value'),
    ('[{"question": "Q?", "options": ["a", "b"], "answer": 1' + "0" * 5000 + '}]',
     ':1: error[E701]: [0].answer: the number 10000'),
    ('[{"question": "Q?", "options": ["a", "b"], "answer": 1e999}]',
     ':1: error[E701]: [0].answer: the number 1e999 is too large'),
    ("[" * 900 + "]" * 900, ":1: error[E701]: nested more than 64 levels deep"),
], ids=["NaN", "Infinity", "a huge integer", "a float overflow", "deep nesting"])
def test_hostile_json_is_an_error_at_its_place(tmp_path, cli, text, says):
    bank = _write(tmp_path, "bank.json", text)
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}{says}" in done.err
    assert "internal error" not in done.err
    assert not (tmp_path / "out").exists()


def test_a_lone_surrogate_costs_its_question_only(tmp_path, cli):
    bank = _write(tmp_path, "bank.json", '[\n{"question": "Half \\ud800 a character?", '
                  '"options": ["a", "b"], "answer": 0},\n{"question": "Whole?", '
                  '"options": ["a", "b"], "answer": 1}\n]')
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:2: error[E702]: [0]: holds a lone UTF-16 surrogate" in done.err
    assert [q[1] for q in _questions(tmp_path / "out")] == ["Whole?"]


def test_a_key_written_twice_is_said_with_both_lines(tmp_path, cli):
    bank = _write(tmp_path, "bank.json", '[{"question": "Which?",\n "options": ["a", "b"],\n'
                  ' "answer": "a",\n "answer": "b"}]')
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0
    assert f"{bank}:4: warning[W705]: [0]: the key 'answer' is written twice in one object " \
        "(lines 3 and 4); JSON keeps the second" in done.err
    assert _questions(tmp_path / "out")[0][2] == ["a", "*b"]


def test_deep_typescript_is_an_error_not_a_crash(tmp_path, cli):
    bank = _write(tmp_path, "bank.ts", "export const q = " + "[" * 500 + "]" * 500 + ";\n")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:1: error[E701]: nested more than 64 levels deep" in done.err


# --- Markdown as repositories write it -------------------------------------------------------------

def test_one_file_per_question_with_front_matter(tmp_path, cli):
    folder = tmp_path / "bank" / "questions"
    for n, (prompt, right) in enumerate((("Which tool profiles CUDA kernels?", "Nsight Compute"),
                                         ("Which format is a model repository?", "Triton")), 1):
        _write(folder, f"q{n:02}.md", f'---\nquestion: "{prompt}"\ndifficulty: easy\n---\n\n'
               f"- [x] {right}\n- [ ] Something else\n")
    done = cli("import", str(tmp_path / "bank"), "--topic", "Tools", "--out",
               str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert [(q[1], q[2]) for q in _questions(tmp_path / "out")] == [
        ("Which tool profiles CUDA kernels?", ["*Nsight Compute", "Something else"]),
        ("Which format is a model repository?", ["*Triton", "Something else"])]


def test_code_under_a_choice_at_the_margin_belongs_to_it(tmp_path, cli):
    bank = _write(tmp_path, "python.md", """# 🐍 Python

#### Q1. Which prints 2?
- [ ] A
```python
print(1)
```
- [x] B
```python
print(2)
```

**[⬆ Back to Top](#table-of-contents)**
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert "W701" not in done.err  # the navigation line is no lost text
    assert _questions(tmp_path / "out") == [(
        "Python", "Which prints 2?", ["A\n```python\nprint(1)\n```", "*B\n```python\nprint(2)\n```"],
        "")]


def test_a_setext_heading_is_a_heading_not_a_crash(tmp_path, cli):
    bank = _write(tmp_path, "bank.md", "Networking\n==========\n\nWhich is fastest?\n---\n\n"
                  "- [x] NVLink\n- [ ] PCIe\n")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert _questions(tmp_path / "out") == [("Networking", "Which is fastest?",
                                             ["*NVLink", "PCIe"], "")]


# --- GIFT as Moodle reads it --------------------------------------------------------------------

def test_gift_without_blank_lines_with_html_and_empty_answers(tmp_path, cli):
    lines = "\n".join(f"::Q{n}:: Which word means <i>number {n}</i>? {{~many~=n{n} ~other}}"
                      for n in range(1, 13))
    bank = _write(tmp_path, "bank.gift", f"$CATEGORY: $course$/Top/Gift <b>Words</b>\n{lines}\n")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    questions = _questions(tmp_path / "out")
    assert len(questions) == 12
    assert questions[0] == ("Gift Words", "Which word means *number 1*?",
                            ["many", "*n1", "other"], "")
    assert f"{bank}:2: warning[W702]: 1 empty answer" in done.err or "W702" in done.err


# --- spreadsheets ---------------------------------------------------------------------------------

def test_a_spreadsheet_with_lettered_columns(tmp_path, cli):
    sheet = _write(tmp_path, "bank.csv", 'Question,A,B,C,D,Answer,Explanation,Domain\n'
                   '"Which, of these, is a GPU?",H100,Xeon,,,A,The H100 is a GPU.,Hardware\n'
                   'Which API is NVIDIA\'s?,OpenCL,CUDA,Vulkan,Metal,CUDA,,Software\n'
                   'Which two are numbers?,1,x,2,y,"A, C",,Software\n')
    tsv = _write(tmp_path, "more.tsv", "question\toption1\toption2\tcorrect\n"
                 "Which is a tensor core GPU?\tV100\tK80\t1\n"
                 "Which has 80 GB?\tA100 80GB\tT4\t1\n")
    done = _run(cli, tmp_path, str(sheet), str(tsv), "--map", "correct=answer1")
    assert done.status == 0, done.err
    got = {(q[0], q[1]): q[2] for q in _questions(tmp_path / "out")}
    assert got == {
        ("Hardware", "Which, of these, is a GPU?"): ["*H100", "Xeon"],
        ("Software", "Which API is NVIDIA's?"): ["OpenCL", "*CUDA", "Vulkan", "Metal"],
        ("Software", "Which two are numbers?"): ["*1", "x", "*2", "y"],
        ("More", "Which is a tensor core GPU?"): ["*V100", "K80"],
        ("More", "Which has 80 GB?"): ["*A100 80GB", "T4"]}


# --- a folder, formats told by name and content ------------------------------------------------

def test_a_folder_of_mixed_files_comes_in_without_from(tmp_path, cli):
    bank = tmp_path / "repo"
    _write(bank, "README.md", "# My quizzes\n\nStudy hard.\n")
    _write(bank, "package.json", '{"name": "quiz-app"}')
    _write(bank, "src/data.json", json.dumps([{"question": "JSON one?", "options": ["a", "b"],
                                                "answer": "a"}]))
    _write(bank, "md/cuda.md", "# CUDA\n\n#### Which?\n- [x] yes\n- [ ] no\n")
    _write(bank, "moodle/words.txt", "::W:: Which? {=yes ~no}\n")
    _write(bank, "aiken/a.txt", "Which?\nA. yes\nB. no\nANSWER: A\n")
    _write(bank, "node_modules/x/index.js", "module.exports = [1, 2];\n")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert sorted(q[0] for q in _questions(tmp_path / "out")) == ["A", "CUDA", "Data", "Words"]
    assert f"{bank}/README.md: warning[W706]: read as markdown, it holds no questions; " \
        "skipped" in done.err or "W706" in done.err


# --- special files and images ------------------------------------------------------------------

def test_a_named_pipe_is_refused_not_waited_on(tmp_path, cli):
    pipe = tmp_path / "bank.json"
    os.mkfifo(pipe)
    done = _run(cli, tmp_path, str(pipe))  # opened, this would wait for a writer for ever
    assert done.status == 1
    assert f"{pipe}: error[E701]: is not a regular file" in done.err


def test_images_only_from_inside_the_bank_and_only_real_images(tmp_path, cli):
    _write(tmp_path, "secret.txt", "password")
    bank = tmp_path / "bank"
    _write(bank, "fake.png", "not an image")
    _write(bank, "real.png", png(tag=b"real"))
    os.mkfifo(bank / "pipe.png")
    questions = [(name, f"Which picture {k}?") for k, name in enumerate(
        ("../secret.txt", "fake.png", "pipe.png", "real.png"))]
    _write(bank, "quiz.md", "\n".join(f"#### {prompt}\n![it]({name})\n\n- [x] yes\n- [ ] no\n"
                                      for name, prompt in questions))
    done = _run(cli, tmp_path, str(bank / "quiz.md"))
    assert done.status == 1
    assert re.search(r"shows the image '\.\./secret\.txt', which is outside the folder", done.err)
    assert "shows the image 'fake.png', which is not an image of a type cards show" in done.err
    assert "shows the image 'pipe.png', which is not a regular file" in done.err
    assert sorted(p.name for p in (tmp_path / "out").rglob("*") if p.is_file()) == [
        "quiz-1.txt", "real.png"]


# --- --json ---------------------------------------------------------------------------------------

def test_json_outcome_follows_its_schema_with_true_counts(tmp_path, cli):
    import jsonschema

    from conftest import REPO
    rows = [{"question": f"Which is {n}?", "options": [str(n), "no"], "answer": 0}
            for n in range(1, 11)]
    rows[3] = {"question": "Which has no answer?", "options": ["a", "b"]}
    bank = _write(tmp_path, "bank.json", json.dumps(rows, indent=1))
    done = cli("import", str(bank), "--json", "--out", str(tmp_path / "out"))
    assert done.status == 1
    assert done.err == ""
    outcome = json.loads(done.out)
    schema = json.loads((REPO / "docs" / "import.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(outcome, schema)
    assert outcome["counts"] == {"inputs": 1, "read": 10, "converted": 9, "refused": 1,
                                 "errors": 1, "warnings": 1}
    assert outcome["files"] == [{"file": f"{tmp_path}/out/bank-1.txt", "topic": "Bank",
                                 "part": 1, "questions": 9}]
    assert [(d["code"], d["line"]) for d in outcome["diagnostics"]] == [("W704", 1), ("E703", 26)]
    assert len(_questions(tmp_path / "out")) == 9


def test_lettered_choices_with_an_answer_line_or_a_details_block(tmp_path, cli):
    bank = _write(tmp_path, "prep.md", """# 🚀 GPU Exam Prep

## Contents
- [Questions](#questions)

### 1. Which GPU first had Tensor Cores?
A. Pascal
B. Volta
C. Kepler

**Answer: B**

Volta (2017) brought them.

### 2. Which two are interconnects?
- A) NVLink
- B) CUDA
- C) InfiniBand

<details><summary>Show answer</summary>

Correct answer: A, C

NVLink and InfiniBand move data; CUDA is a platform.
</details>

**3. What does `nvcc` compile?**
a) Python
b) CUDA C++

<details>
<summary>Answer</summary>

b. It compiles CUDA C++.
</details>

### 4. Which answer is missing?
A. this
B. that
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:37: error[E703]: a question with lettered choices but no answer line" \
        in done.err
    assert _questions(tmp_path / "out") == [
        ("GPU Exam Prep", "Which GPU first had Tensor Cores?", ["Pascal", "*Volta", "Kepler"],
         "Volta (2017) brought them."),
        ("GPU Exam Prep", "Which two are interconnects?", ["*NVLink", "CUDA", "*InfiniBand"],
         "NVLink and InfiniBand move data; CUDA is a platform."),
        ("GPU Exam Prep", "What does `nvcc` compile?", ["Python", "*CUDA C++"],
         "It compiles CUDA C++.")]


# --- Moodle XML -------------------------------------------------------------------------------

def test_moodle_xml_with_categories_fractions_feedback_and_embedded_images(tmp_path, cli):
    import base64
    encoded = base64.b64encode(png(tag=b"chip")).decode()
    bank = _write(tmp_path, "export.xml", f"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category">
    <category><text>$course$/Top/GPU &lt;b&gt;basics&lt;/b&gt;</text></category>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<p>Which GPU first had <b>Tensor Cores</b>?</p>]]></text></questiontext>
    <generalfeedback format="html"><text>Volta, 2017.</text></generalfeedback>
    <answer fraction="100"><text>Volta</text><feedback><text>Right.</text></feedback></answer>
    <answer fraction="0"><text>Pascal</text></answer>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text>Which two are fabrics?</text></questiontext>
    <single>false</single>
    <answer fraction="50"><text>NVLink</text></answer>
    <answer fraction="-50"><text>CUDA</text></answer>
    <answer fraction="50"><text>InfiniBand</text></answer>
  </question>
  <question type="truefalse">
    <questiontext format="plain_text"><text>A100 has HBM2e.</text></questiontext>
    <answer fraction="100"><text>true</text></answer>
    <answer fraction="0"><text>false</text></answer>
  </question>
  <question type="matching">
    <questiontext><text>Match them.</text></questiontext>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<p>Which chip is this? <img src="@@PLUGINFILE@@/chip.png" alt="a die photo"></p>]]></text>
    <file name="chip.png" path="/" encoding="base64">{encoded}</file></questiontext>
    <answer fraction="100"><text>GH100</text></answer>
    <answer fraction="0"><text>GA100</text></answer>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<img src="@@PLUGINFILE@@/x.png">Not a picture?]]></text>
    <file name="x.png" encoding="base64">{base64.b64encode(b"MZ not an image").decode()}</file></questiontext>
    <answer fraction="100"><text>a</text></answer>
    <answer fraction="0"><text>b</text></answer>
  </question>
</quiz>
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:24: error[E702]: a matching question, not multiple choice" in done.err
    assert f"{bank}:33: error[E704]: its embedded file 'x.png' is not an image" in done.err
    assert _questions(tmp_path / "out") == [
        ("GPU basics", "Which GPU first had **Tensor Cores**?", ["*Volta", "Pascal"],
         "Volta, 2017.\n\nVolta: Right."),
        ("GPU basics", "Which two are fabrics?", ["*NVLink", "CUDA", "*InfiniBand"], ""),
        ("GPU basics", "A100 has HBM2e.", ["*True", "False"], ""),
        ("GPU basics", "Which chip is this? ![a die photo](images/chip.png)",
         ["*GH100", "GA100"], "")]
    assert (tmp_path / "out" / "images" / "chip.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("text, says", [
    ("<quiz><question type='multichoice'>", ":1: error[E701]: not valid XML: no element found"),
    ('<?xml version="1.0"?>\n<!DOCTYPE q [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;'
     '&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;'
     '&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;'
     '&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">]>\n<quiz>&g;</quiz>',
     ":2: error[E701]: it declares an entity ('a')"),
    ("<html><body/></html>", ":1: error[E701]: not a Moodle XML bank (its root is <html>"),
], ids=["cut short", "an entity bomb", "not a quiz"])
def test_broken_or_hostile_xml_is_an_error(tmp_path, cli, text, says):
    bank = _write(tmp_path, "bank.xml", text)
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert says in done.err
    assert "internal error" not in done.err


# --- what real banks taught (issue 34's measurements) -------------------------------------------

def test_checkbox_quiz_details_real_repositories_write(tmp_path, cli):
    """A code block after a blank line under a choice; a choice's text wrapped onto an
    indented line; two choices that start with the same line; an image path with a query."""
    folder = tmp_path / "quiz"
    _write(folder, "images/q1.png", png(tag=b"q1"))
    bank = _write(folder, "python-quiz.md", """## Python

#### Q1. Which defines a class?

- [ ] :

```python
def Game(): pass
```

- [x] :

```python
class Game: pass
```

#### Q2. Which is a long answer?

- [ ] A short one.
- [x] A choice whose text goes on
      onto a second, indented line.

#### Q3. What does this show?

![diagram](images/q1.png?raw=true)

- [x] A picture
- [ ] Nothing
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert _questions(tmp_path / "out") == [
        ("Python", "Which defines a class?",
         [":\n```python\ndef Game(): pass\n```", "*:\n```python\nclass Game: pass\n```"], ""),
        ("Python", "Which is a long answer?",
         ["A short one.", "*A choice whose text goes on onto a second, indented line."], ""),
        ("Python", "What does this show?\n\n![diagram](images/q1.png)",
         ["*A picture", "Nothing"], "")]
    assert (tmp_path / "out" / "images" / "q1.png").is_file()


def test_numbered_questions_with_nested_lettered_choices(tmp_path, cli):
    bank = _write(tmp_path, "exam-1.md", """---
layout: exam
---

# Practice Exam 1

1. Which two can host a SQL Server database? (Select TWO)
    - A. Amazon EC2
    - B. Amazon RDS
    - C. Amazon S3

    <details markdown=1><summary markdown="span">Answer</summary>

    Correct Answer: AB

    </details>

2. Which service records API calls?
    - A. CloudTrail
    - B. Inspector

    <details markdown=1><summary markdown='span'>Answer</summary>
      Correct answer: A
    </details>
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [(q[1], q[2]) for q in _questions(tmp_path / "out")] == [
        ("Which two can host a SQL Server database? (Select TWO)",
         ["*Amazon EC2", "*Amazon RDS", "Amazon S3"]),
        ("Which service records API calls?", ["*CloudTrail", "Inspector"])]


def test_choice_objects_with_their_own_letters(tmp_path, cli):
    bank = _write(tmp_path, "domain.ts", """export const domainQuestions = [
  { question: "Which is the warehouse?", domain: "Storage",
    options: [{ label: "B", text: "Bigtable" }, { label: "A", text: "BigQuery" }],
    correctAnswers: ["A"] },
];
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert "each one's label 'label', text 'text'" in done.err
    assert _questions(tmp_path / "out")[0][2] == ["Bigtable", "*BigQuery"]


def test_a_legacy_encoded_spreadsheet_with_short_column_names(tmp_path, cli):
    rows = ("id,type,content,c1,c2,c3,c4,answer\n"
            "1,单选题,旅客是持有铁路（  ）的人。,车票,乘车卡,有效乘车凭证,乘车凭证,C\n"
            "2,多选题,（  ）是旅客。,甲,乙,丙,丁,BCD\n"
            "3,填空题,依据<--NRC-->制定。,,,,,铁路法\n")
    sheet = _write(tmp_path, "questions.csv", rows.encode("gb18030"))
    done = _run(cli, tmp_path, str(sheet))
    assert done.status == 1
    assert f"{sheet}: warning[W101]: file is not UTF-8; read as gb18030" in done.err
    assert f"{sheet}:4: error[E702]: no choices: not a multiple-choice question" in done.err
    assert [q[2] for q in _questions(tmp_path / "out")] == [
        ["车票", "乘车卡", "*有效乘车凭证", "乘车凭证"], ["甲", "*乙", "*丙", "*丁"]]


def test_a_spreadsheet_column_of_choices_as_json(tmp_path, cli):
    options = json.dumps([{"index": 0, "text": "It delays the driver.", "is_correct": True},
                          {"index": 1, "text": "It helps the clutch.", "is_correct": False}])
    sheet = _write(tmp_path, "theory.csv", "id,category,question,correct_answer,options_json\n"
                   f'1,Control,What does a bad seat do?,It delays the driver.,"{options.replace(chr(34), chr(34) * 2)}"\n')
    done = _run(cli, tmp_path, str(sheet))
    assert done.status == 0, done.err
    assert _questions(tmp_path / "out") == [
        ("Control", "What does a bad seat do?", ["*It delays the driver.", "It helps the clutch."],
         "")]


def test_gift_with_two_blanks_is_refused_by_name(tmp_path, cli):
    bank = _write(tmp_path, "cloze.gift", "::C1:: I drink {~=hardly any~a few} coffee, if I "
                  "drink too {~many~=much} I can't sleep.\n\n::C2:: Plain {=yes ~no}\n")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:1: error[E702]: two sets of answers" in done.err
    assert [q[1] for q in _questions(tmp_path / "out")] == ["Plain"]


def test_a_folder_file_whose_questions_were_all_refused_says_so(tmp_path, cli):
    folder = tmp_path / "bank"
    _write(folder, "short.gift", "::S1:: Capital of France? {=Paris}\n")
    _write(folder, "mc.gift", "::M1:: Which? {=yes ~no}\n")
    done = cli("import", str(folder), "--out", str(tmp_path / "out"))
    assert done.status == 1
    assert "short.gift:1: error[E702]: a short-answer question" in done.err
    assert "W706" not in done.err
    assert done.err.splitlines()[-1].startswith("read 2 questions in 2 files: 1 converted, 1 "
                                                "refused")


def test_gift_with_moodle_embedded_answer_syntax(tmp_path, cli):
    bank = _write(tmp_path, "cloze.gift", "::P1:: Who do you find impressive? I'm impressed "
                  "{1:MC:~for~=by} them.\n\n::P2:: Not I to Peru {1:SA:=hadn't been~=had not "
                  "been} for three years.\n")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:3: error[E702]: an embedded-answer (SA) question, not multiple choice" \
        in done.err
    assert _questions(tmp_path / "out") == [
        ("Cloze", "Who do you find impressive? I'm impressed _____ them.", ["for", "*by"], "")]


def test_translated_banks_number_and_answer_in_their_own_words(tmp_path, cli):
    checkbox = _write(tmp_path, "aws-es.md", """## AWS

#### P45. ¿Qué script mueve la IP elástica?

- [x] A

<!---->

    aws ec2 disassociate-address --association-id x
    aws ec2 associate-address --instance-id y

- [ ] B

<!---->

    aws ec2 release-address --association-id x

---
La primera pareja de órdenes.
""")
    lettered = _write(tmp_path, "js-de.md", """# JavaScript Fragen

###### <a name=20190805></a>87. Was wird ausgegeben?

- A: `"I"`
- B: `undefined`

<details><summary><b>Antwort</b></summary>
<p>

#### Antwort: A

Ein String ist ein Array von Zeichen.
</p>
</details>
""")
    done = _run(cli, tmp_path, str(checkbox), str(lettered))
    assert done.status == 0, done.err
    assert _questions(tmp_path / "out") == [
        ("AWS", "¿Qué script mueve la IP elástica?",
         ["*A\n```\naws ec2 disassociate-address --association-id x\naws ec2 associate-address "
          "--instance-id y\n```", "B\n```\naws ec2 release-address --association-id x\n```"],
         "La primera pareja de órdenes."),
        ("JavaScript Fragen", "Was wird ausgegeben?", ['*`"I"`', "`undefined`"],
         "Ein String ist ein Array von Zeichen.")]


# --- YAML ----------------------------------------------------------------------------------------

def test_a_yaml_bank_by_its_shape_with_its_lines(tmp_path, cli):
    bank = _write(tmp_path, "bank.yaml", """title: Networking
questions:
  - question: Which fabric links GPUs in one server?
    options: [NVLink, Ethernet, USB]
    answer: NVLink
  - question: |
      Which of these is a collective?
    options:
      - all-reduce
      - malloc
    answer: 0
    explanation: NCCL implements it.
  - question: Which port does gRPC use?
    options: ["8000", "8001"]
    answer: 5
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:15: error[E703]: questions[2].answer: the answer 5 names none of the 2 " \
        "choices" in done.err
    assert _questions(tmp_path / "out") == [
        ("Networking", "Which fabric links GPUs in one server?", ["*NVLink", "Ethernet", "USB"],
         ""),
        ("Networking", "Which of these is a collective?", ["*all-reduce", "malloc"],
         "NCCL implements it.")]


@pytest.mark.parametrize("text, says", [
    ('a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
     'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n',
     ":2: error[E701]: b[0]: an alias (*name) to the value written at line 1"),
    ("questions:\n  - question: Q?\n    options: [a, b]\n    answer: *missing\n",
     ":4: error[E701]: not read: found undefined alias"),
    ("- " * 2000 + "x\n", "error[E701]: "),  # libyaml's limit, or ours: see below
    ("questions:\n  - question: [unclosed\n", ":3: error[E701]: not valid YAML"),
    ("x: !!python/object:os.system ls\n", ":1: error[E701]: x: could not determine a "
     "constructor for the tag"),
], ids=["an alias bomb", "an undefined alias", "deep nesting", "a syntax error", "a python tag"])
def test_hostile_yaml_is_an_error(tmp_path, cli, text, says):
    bank = _write(tmp_path, "bank.yml", text)
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert says in done.err, done.err
    if text.startswith("- - "):
        assert re.search(r"nested more than 64 levels deep|exceeded maximum nesting depth",
                         done.err)
    assert "internal error" not in done.err


def test_moodle_html_as_a_browser_shows_it(tmp_path, cli):
    """Word's pasted styles and comments are invisible; O(n<sup>2</sup>) is O(n²); a list in
    the question text stays a list (numbered: a bulleted line would read as a choice), not
    choices; an answer of two paragraphs is one choice."""
    bank = _write(tmp_path, "course.xml", """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<!--[if gte mso 9]><xml><w:WordDocument/></xml><![endif]--><style type="text/css"> &amp;lt;!-- @page { size: 21cm } --&amp;gt; </style><p>Which are true?</p><ol><li>A stack is LIFO.</li><li>A queue is FIFO.</li></ol><ul><li>one note</li></ul>]]></text></questiontext>
    <answer fraction="100"><text><![CDATA[<p>Both,</p><p>always.</p>]]></text></answer>
    <answer fraction="0"><text>Neither</text></answer>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<p>Searching an unsorted array is <o:p></o:p>of order</p>]]></text></questiontext>
    <answer fraction="100"><text><![CDATA[O(n)]]></text></answer>
    <answer fraction="0"><text><![CDATA[O(n<sup>2</sup>)]]></text></answer>
  </question>
</quiz>
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert _questions(tmp_path / "out") == [
        ("Course", "Which are true?\n\n1. A stack is LIFO.\n2. A queue is FIFO.\n\n1. one note",
         ["*Both, always.", "Neither"], ""),
        ("Course", "Searching an unsorted array is of order", ["*O(n)", "O(n²)"], "")]


def test_yaml_choices_marked_right_by_a_one_key_mapping(tmp_path, cli):
    bank = _write(tmp_path, "questions.yaml", """-
  id: 1
  q: In which city was the latest EU treaty signed?
  a:
    - Rome.
    - correct: Lisbon.
    - Amsterdam.
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert _questions(tmp_path / "out")[0][1:3] == (
        "In which city was the latest EU treaty signed?", ["Rome.", "*Lisbon.", "Amsterdam."])


def test_numbered_questions_without_a_heading_mark(tmp_path, cli):
    bank = _write(tmp_path, "rust.md", """## Rust

#### Q66. What does move do?

- [x] Moves a value.
- [ ] Copies a value.

[reference](https://doc.rust-lang.org/std/keyword.move.html)
Q67. What is the purpose of the `'static` lifetime?

- [ ] A value on the stack.
- [x] A value for the whole program.

Q68.What does `&mut` create?

- [x] A mutable reference.
- [ ] A shared reference.
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [(q[1], q[3]) for q in _questions(tmp_path / "out")] == [
        ("What does move do?", "[reference](https://doc.rust-lang.org/std/keyword.move.html)"),
        ("What is the purpose of the `'static` lifetime?", ""),
        ("What does `&mut` create?", "")]
