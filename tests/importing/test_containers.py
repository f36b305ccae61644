"""Where a structured bank's records are (issue 46, item 5, and the whole-file refusals of
its measurement): an object keyed by number or id, a JavaScript Map, a call around a
literal, hand-written JavaScript that builds the list one element at a time, and XML that
is no Moodle export; the entities and the letters an author writes into texts. Every bank
here is written for the test (none is copied from a real bank)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import as_read, built_and_imported
from growth import least_cpu

from nca_anki.importing import json_bank, moodle_xml, typescript
from nca_anki.importing.containers import clean_text
from nca_anki.reading.parse import parse

REPO = Path(__file__).resolve().parents[2]


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _questions(out: Path) -> list[tuple[str, str, list[str], str]]:
    """Every question written, as the build's parser reads it back: (topic, prompt,
    choices with "*" before each correct one, explanation)."""
    found = []
    for path in sorted(out.glob("*.txt")):
        result = parse(path.read_text(encoding="utf-8"), path.name)
        assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
        found += [(result.file.name, q.prompt, [("*" if c.correct else "") + c.text
                                                for c in q.choices], q.explanation)
                  for q in result.file.questions]
    return found


def _run(cli, tmp_path: Path, *args: str):
    return cli("import", *args, "--out", str(tmp_path / "out"))


# --- an object keyed by number or id -------------------------------------------------------------

def test_a_json_object_keyed_by_number_is_a_list_of_its_values(tmp_path, cli):
    bank = _write(tmp_path, "quiz.json", json.dumps({"version": 3, "questions": {
        "7": {"q": "Which bus links a GPU to the CPU?", "options": ["PCIe", "SATA"],
              "answer": "PCIe"},
        "12": {"q": "Which memory sits on the GPU package?", "options": ["HBM", "DDR4"],
               "answer": "A"},
        "81": {"q": "Which interconnect is NVIDIA's own?", "options": ["NVLink", "USB"]},
    }}, indent=1))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:3: warning[W704]: read 3 question objects from " \
        "'questions' (keyed by number): prompt 'q'" in done.err
    # the place as the author wrote it, at its own line
    assert f"{bank}:20: error[E703]: questions.81: no correct answer under 'answer'" in done.err
    assert [q[1:3] for q in _questions(tmp_path / "out")] == [
        ("Which bus links a GPU to the CPU?", ["*PCIe", "SATA"]),
        ("Which memory sits on the GPU package?", ["*HBM", "DDR4"])]


def test_typescript_keyed_objects_and_ids_exported_by_default(tmp_path, cli):
    bank = _write(tmp_path, "bank.ts", """let questions = {
  1: {question: "Which layer routes packets?", answers: ["Network", "Session"], correct: 0},
  2: {question: "Which port does SSH use?", answers: ["22", "25"], correct: 0},
  3: "left for later",
};
const extra = {
  q1: {question: "Which protocol resolves names?", answers: ["DNS", "ARP"], correct: 0},
  q2: {question: "Which command shows routes?", answers: ["ip route", "ls"], correct: 0},
};
export default {questions, extra};
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert "from 'questions' (keyed by number) and 'extra' (keyed by id):" in done.err
    assert f"{bank}:4: error[E702]: questions.3: a question must be an object" in done.err
    assert [q[1] for q in _questions(tmp_path / "out")] == [
        "Which layer routes packets?", "Which port does SSH use?",
        "Which protocol resolves names?", "Which command shows routes?"]


def test_an_object_of_settings_beside_one_question_is_no_collection(tmp_path, cli):
    """Two objects, one question-like and one not, under names: not a collection (that
    needs two questions, or keys that number them), so the settings are never called a
    broken question."""
    bank = _write(tmp_path, "app.json", json.dumps({
        "theme": {"colour": "dark", "font": "serif", "sizes": [1, 2]},
        "sample": {"question": "Which is a GPU?", "options": ["H100", "Xeon"], "answer": 0}}))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert "error[E702]" not in done.err
    assert "no list of questions found" in done.err


# --- calls around literals ---------------------------------------------------------------------

def test_a_map_of_questions_by_id(tmp_path, cli):
    long_id = "Q29tcHV0ZSBjYXBhYmlsaXR5IG9mIGEgR1BVIGNoaXA_" * 2
    bank = _write(tmp_path, "quest.js", f"""// questions by id
export const quest = new Map([
  ['{long_id}', {{
    question: "Which GPU was first with Tensor Cores?",
    options: [{{label: "a", text: "Volta"}}, {{label: "b", text: "Kepler"}}],
    correctAnswer: "Pascal"
  }}],
  [2, {{question: "Which cache is shared per SM?", options: [{{label: "a", text: "L1"}},
        {{label: "b", text: "L3"}}], correctAnswer: "L1"}}],
  broken,
  ["q4", {{question: "Which unit runs a warp?",
          options: [{{label: "a", text: "SM"}}, {{label: "b", text: "ALU"}}],
          correctAnswer: "SM"}}],
]);
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert "read 3 question objects from the entries of the Map 'quest'" in done.err
    assert f"{bank}:10: error[E704]: quest.3: holds code, not a value: `broken`" in done.err
    # a key too long to read is shown by its place
    assert f"{bank}:6: error[E703]: quest[0].correctAnswer: the answer 'Pascal'" in done.err
    assert long_id not in done.err
    assert [q[1:3] for q in _questions(tmp_path / "out")] == [
        ("Which cache is shared per SM?", ["*L1", "L3"]),
        ("Which unit runs a warp?", ["*SM", "ALU"])]


def test_frozen_sets_and_parsed_json_are_their_literals(tmp_path, cli):
    frozen = _write(tmp_path, "frozen.js", """const bank = Object.freeze([
  {prompt: "Which file system is journaled?", choices: ["ext4", "FAT32"], answer: 0},
]);
const more = new Set([
  {prompt: "Which signal cannot be caught?", choices: ["SIGKILL", "SIGTERM"], answer: 0},
]);
""")
    parsed = _write(tmp_path, "parsed.js", "window.bank = JSON.parse(`[\n"
                    '  {"prompt": "Which shell is the default on Debian?", '
                    '"choices": ["dash", "zsh"], "answer": 0}\n]`);\n')
    done = _run(cli, tmp_path, str(frozen), str(parsed))
    assert done.status == 0, done.err
    assert sorted(q[1] for q in _questions(tmp_path / "out")) == [
        "Which file system is journaled?", "Which shell is the default on Debian?",
        "Which signal cannot be caught?"]


def test_a_bank_inside_an_app_object_with_methods_is_found(tmp_path, cli):
    bank = _write(tmp_path, "app.js", """new Vue({
  el: "#app",
  data: {
    questions: [
      {text: "Which tool traces system calls?", options: ["strace", "grep"], answer: 0},
      {text: "Which tool lists open files?", options: ["lsof", "cat"], answer: 0},
    ],
  },
  methods: { next() { this.index += 1; } },
});
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [q[1] for q in _questions(tmp_path / "out")] == [
        "Which tool traces system calls?", "Which tool lists open files?"]


def test_a_template_of_a_literal_dollar_brace_is_text(tmp_path, cli):
    bank = _write(tmp_path, "tpl.ts", """export const bank = [
  {question: `What does ${"${user.name}"} print in the page?`, options: ["the name", "nothing"],
   answer: 0},
  {question: `What is ${count}?`, options: ["a", "b"], answer: 0},
];
""")
    done = _run(cli, tmp_path, str(bank))
    assert f"{bank}:4: error[E704]: bank[1]: holds code, not a value: `${{count}}`" in done.err
    assert [q[1] for q in _questions(tmp_path / "out")] == [
        "What does ${user.name} print in the page?"]


# --- hand-written JavaScript: one element at a time ---------------------------------------------

def test_elements_assigned_one_at_a_time_are_a_list(tmp_path, cli):
    bank = _write(tmp_path, "quiz.js", """var q = new Array();
q[0] = { question: "Which tag makes a list item?", choices: ["li", "ul"], answer: 0 };
q[1] = { question: "Which tag makes a table row?", choices: ["td", "tr"], answer: 1 };
q[1] = { question: "Which tag makes a table row?", choices: ["td", "tr"], answer: 1 };
q[3] = { question: "Which attribute names a link's target?", choices: ["href"], answer: 0 };
function start() { show(q[0]); }
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert "from the elements assigned one at a time to 'q' ([0] = {…})" in done.err
    assert f"{bank}:4: warning[W705]: q[1] is assigned twice (lines 3 and 4)" in done.err
    assert f"{bank}:5: error[E702]: q[3].choices: not a list of at least two choices" \
        in done.err  # its own index
    assert [q[1:3] for q in _questions(tmp_path / "out")] == [
        ("Which tag makes a list item?", ["*li", "ul"]),
        ("Which tag makes a table row?", ["td", "*tr"])]


def test_elements_pushed_inside_functions_are_a_list(tmp_path, cli):
    bank = _write(tmp_path, "load.js", """const questions = [
  { question: "Which key opens a shell's history search?", options: ["Ctrl+R", "Ctrl+Z"],
    answer: 0 },
];
function load() {
  questions.push({ question: "Which command changes a file's owner?",
                   options: ["chown", "chmod"], answer: 0 },
                 { question: "Which command counts lines?", options: ["wc -l", "cut"],
                   answer: 0 });
}
const more = () => { questions.push(extra, { question: "Which command prints the kernel?",
                                             options: ["uname -r", "pwd"], answer: 0 }); };
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert "from the elements added one at a time to 'questions' (.push({…}))" in done.err
    assert f"{bank}:11: error[E704]: questions[3]: holds code, not a value: `extra`" \
        in done.err
    assert [q[1] for q in _questions(tmp_path / "out")] == [
        "Which key opens a shell's history search?", "Which command changes a file's owner?",
        "Which command counts lines?", "Which command prints the kernel?"]


# --- entities and labels written into the texts ----------------------------------------------

@pytest.mark.parametrize("written, clean", [
    ("Which&nbsp;one?", "Which one?"),
    ("It&apos;s &quot;it&quot;", "It's \"it\""),
    ("AT&amp;T", "AT&T"),
    ("caf&eacute; &ndash; &#8364;5 &#x2192;", "café – €5 →"),
    ("x &lt; 5 but &lt;div&gt; stays", "x < 5 but &lt;div&gt; stays"),
    ("&amp;lt; is how &lt; is written", "&amp;lt; is how < is written"),
    ("&#42;not emphasis&#42; and &#35; no heading", "&#42;not emphasis&#42; and &#35; no heading"),
    ("code `&nbsp;` keeps it, ``a ` &amp; b`` too", "code `&nbsp;` keeps it, ``a ` &amp; b`` too"),
    ("```\n&amp;\n```\n&amp;", "```\n&amp;\n```\n&"),
    ("&unknown; &#0; &#xD800; stay", "&unknown; &#0; &#xD800; stay"),
])
def test_entities_a_page_shows_as_characters_are_those_characters(written, clean):
    assert clean_text(written) == clean


def test_labels_and_entities_written_into_choices_come_out_clean(tmp_path, cli):
    bank = _write(tmp_path, "ide.js", """var quiz = [
  { q: "Which editor is Microsoft&apos;s?", a: ["A. &nbsp;Visual Studio", "B. &nbsp;Xcode"],
    correct: 0 },
  { q: "Which one is a &quot;build tool&quot;?", a: ["a) make", "b) vim", "c) less"],
    correct: 0 },
  { q: "Which of these start alike?", a: ["A. first", "C. second"], correct: 0 },
];
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert f"{bank}:2: warning[W704]: the choices of 2 questions start with their own " \
        "letters ('A. …' first), which the card shows itself: left out of the texts" in done.err
    assert [q[1:3] for q in _questions(tmp_path / "out")] == [
        ("Which editor is Microsoft's?", ["*Visual Studio", "Xcode"]),
        ('Which one is a "build tool"?', ["*make", "vim", "less"]),
        ("Which of these start alike?", ["*A. first", "C. second"])]  # not A, B: text


# --- XML that is no Moodle export ----------------------------------------------------------

XML_BANK = """<?xml version="1.0" encoding="UTF-8"?>
<bank title="Storage">
  <question answer="B">
    <prompt>Which RAID level
      mirrors two disks?</prompt>
    <option>RAID 0</option>
    <option>RAID 1</option>
    <explanation>Mirroring is level 1.</explanation>
  </question>
  <question>
    <prompt>Which file system is <b>copy-on-write</b>?</prompt>
    <option>ext2</option>
    <option correct="yes">Btrfs</option>
  </question>
  <question answer="A">
    <prompt>Which one has one option only?</prompt>
    <option>alone</option>
  </question>
</bank>
"""


def test_xml_records_are_read_by_their_shape(tmp_path, cli):
    bank = _write(tmp_path, "storage.xml", XML_BANK)
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:3: warning[W704]: read 3 <question> elements: prompt 'prompt'; " \
        "choices 'option'" in done.err
    assert f"{bank}:17: error[E702]: <question> 3, option: not a list of at least two " \
        "choices" in done.err
    assert _questions(tmp_path / "out") == [
        ("Storage", "Which RAID level\nmirrors two disks?", ["RAID 0", "*RAID 1"],
         "Mirroring is level 1."),
        ("Storage", "Which file system is **copy-on-write**?", ["ext2", "*Btrfs"], "")]


def test_xml_records_take_map_and_name_the_element(tmp_path, cli):
    bank = _write(tmp_path, "net.txt", """<questions>
  <question text="Which port is DNS's?" key="2" why="DNS listens on 53.">
    <option>80</option><option>53</option>
  </question>
  <question text="Which port is NTP's?" key="9" why="NTP listens on 123.">
    <option>123</option><option>161</option>
  </question>
</questions>
""")
    done = cli("import", str(bank), "--map", "key=answer1", "--map", "why=explanation",
               "--out", str(tmp_path / "out"))
    assert done.status == 1
    assert f"{bank}:5: error[E703]: <question> 2, key: the answer '9' names none of the 2 " \
        "choices" in done.err
    assert _questions(tmp_path / "out") == [
        ("Net", "Which port is DNS's?", ["80", "*53"], "DNS listens on 53.")]


@pytest.mark.parametrize("text, line, says", [
    ("<questions/>", 1, "not a Moodle XML bank (its root is <questions>, not <quiz>), and no "
     "repeated element in it holds questions"),
    ('<!DOCTYPE q [<!ENTITY a "aaaa">]>\n<questions><question text="&a;"/></questions>', 1,
     "it declares an entity ('a')"),
    ("<questions>\n" + "<q>" * 200 + "</q>" * 200 + "</questions>", 2,
     "elements nested more than 64 deep"),
], ids=["no records", "an entity", "too deep"])
def test_hostile_or_empty_xml_records_are_refused_at_their_line(tmp_path, cli, text, line,
                                                                  says):
    bank = _write(tmp_path, "bank.xml", text)
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:{line}: error[E701]: {says}" in done.err
    assert "internal error" not in done.err


# --- linear in the input --------------------------------------------------------------------

def _keyed_json(n: int) -> str:
    return json.dumps({"bank": {str(k): {"q": f"Which is {k}?", "options": [f"{k}", "x &amp; y"],
                                         "answer": 0} for k in range(n)}})


def _assigned_js(n: int) -> str:
    return "var q = [];\n" + "".join(
        f'q[{k}] = {{q: "Which is {k}?", options: ["A. {k}", "B. x&nbsp;y"], answer: 0}};\n'
        for k in range(n))


def _mapped_js(n: int) -> str:
    return "const m = new Map([\n" + "".join(
        f'  ["id{k}", {{q: "Which is {k}?", options: ["{k}", "x"], answer: 0}}],\n'
        for k in range(n)) + "]);\n"


def _xml(n: int) -> str:
    return "<bank>\n" + "".join(
        f'<question answer="0"><prompt>Which is {k}?</prompt><option>{k}</option>'
        "<option>x</option></question>\n" for k in range(n)) + "</bank>\n"


@pytest.mark.parametrize("what, call", [
    ("an object keyed by number", lambda n: json_bank.read(_keyed_json(n), "b.json")),
    ("elements assigned one at a time", lambda n: typescript.read(_assigned_js(n), "b.js")),
    ("a Map's entries", lambda n: typescript.read(_mapped_js(n), "b.js")),
    ("XML records", lambda n: moodle_xml.read(_xml(n), "b.xml")),
    ("entities and code spans", lambda n: clean_text("``a`&nbsp;&amp;b" * n)),
    ("backtick runs never closed", lambda n: clean_text("&amp;" + "".join(
        "`" * (k % 50 + 1) + "a" for k in range(n)))),
])
def test_finding_records_is_linear(what, call):
    short = least_cpu(lambda: call(1_000))
    long = least_cpu(lambda: call(4_000))
    assert long < 8 * max(short, 0.02), (what, short, long)


# --- end to end: into a real collection ---------------------------------------------------------

@pytest.mark.anki
def test_hand_written_javascript_a_map_and_xml_arrive_in_anki(tmp_path, cli):
    handwritten = _write(tmp_path, "in/kernel.js", """var q = [];
q[0] = { question: "Which call creates a process?", options: ["A. &nbsp;fork", "B. &nbsp;exit"],
         answer: 0, why: "fork() copies the caller&apos;s process." };
q[1] = { question: "Which call replaces a process image?", options: ["A. &nbsp;wait",
         "B. &nbsp;execve"], answer: 1, why: "" };
""")
    mapped = _write(tmp_path, "in/memory.js", """export const memory = new Map([
  ["m1", {question: "Which unit translates addresses?", options: [{label: "a", text: "MMU"},
          {label: "b", text: "FPU"}], correctAnswer: "MMU"}],
  ["m2", {question: "Which fault loads a page?", options: [{label: "a", text: "page fault"},
          {label: "b", text: "bus error"}], correctAnswer: "page fault"}],
]);
""")
    storage = _write(tmp_path, "in/storage.xml", XML_BANK)
    done = cli("import", str(handwritten), str(mapped), str(storage), "--out",
               str(tmp_path / "src"))
    assert done.status == 1  # the XML's one-option question
    _, decks = built_and_imported(tmp_path, source="src")
    cards = {_squeezed(prompt): (choices, why) for each in decks.values()
             for prompt, choices, why in map(as_read, each)}
    assert sorted(cards) == sorted(map(_squeezed, [
        "Which call creates a process?", "Which call replaces a process image?",
        "Which unit translates addresses?", "Which fault loads a page?",
        "Which RAID level mirrors two disks?", "Which file system is copy-on-write?"]))
    fork = cards[_squeezed("Which call creates a process?")]
    assert sorted(fork[0]) == ["*fork", "exit"]
    assert fork[1] == "fork() copies the caller's process."
    assert sorted(cards[_squeezed("Which call replaces a process image?")][0]) == [
        "*execve", "wait"]
    assert sorted(cards[_squeezed("Which fault loads a page?")][0]) == [
        "*page fault", "bus error"]
    assert sorted(cards[_squeezed("Which RAID level mirrors two disks?")][0]) == [
        "*RAID 1", "RAID 0"]


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)
