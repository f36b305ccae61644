"""``build_decks.py import`` (nca_anki/importing/): a sample bank in each format, written in
that format's own conventions (tests/fixtures/import/), converted, built and imported
into a real Anki collection, where every question, choice, mark and explanation must
arrive; and what an author meets when the input does not fit."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from anki_client import html_to_text
from conftest import REPO, as_read, built_and_imported

SAMPLES = REPO / "tests" / "fixtures" / "import"

# What each sample holds, read off the sample by hand: (prompt, choices with a "*" before
# each correct one, explanation), as a learner reads them on the card.
EXPECTED = {
    "markdown": {"NCA::CUDA Programming": [
        ("What does this kernel launch configure? vectorAdd<<<blocks, 256>>>(a, b, c, n);",
         ["256 blocks of blocks threads each", "*blocks blocks of 256 threads each",
          "256 streams, one per thread", "a grid of 256 × 256 threads"],
         "Explanation: The first launch parameter is the grid size, the second the block "
         "size. See the CUDA C++ Programming Guide ."),
        ("Which two commands list the GPUs a machine has? (Choose two.)",
         ["*nvidia-smi -L", "nvcc --version", "*nvidia-smi --query-gpu=name --format=csv",
          "lsmod | grep nouveau"], ""),
        ("Which memory is fastest for data the threads of one block share? Memory Scope On "
         "chip Global every thread no Shared one block yes",
         ["Global memory", "*Shared memory", "Pinned host memory"],
         "Explanation Shared memory sits on the SM, next to the cores; global memory is "
         "device DRAM."),
        ("What does cudaMemcpy(d, h, n, cudaMemcpyHostToDevice) do?",
         ["*Copies n bytes from host memory h to device memory d",
          "Copies n elements from d back to h", "Allocates n bytes of device memory at d"], ""),
        ("How many threads does the launch in this diagram run in all?",
         ["16", "32", "*64", "4"], "Four blocks of 16 threads each: 64."),
    ]},
    "json": {
        "NCA::Prep Bank": [
            ('Which dtype does torch.autocast(device_type="cuda") use for matrix multiplies '
             "by default?",
             ["torch.float32", "*torch.float16", "torch.bfloat16", "torch.int8"],
             "On CUDA, autocast's default is torch.float16 ; pass dtype=torch.bfloat16 for "
             "bf16."),
            ("Which two split one model's layers or tensors across GPUs?",
             ["*Tensor parallelism", "Dropout", "*Pipeline parallelism", "Label smoothing"],
             "Tensor parallelism splits each layer's matrices; pipeline parallelism gives each "
             "GPU a stage of layers."),
            ("Which numeric format has the widest dynamic range? Format Exponent bits Mantissa "
             "bits FP16 5 10 BF16 8 7 FP8 E4M3 4 3",
             ["FP16", "*BF16", "FP8 E4M3"],
             "The range comes from the exponent: BF16 keeps FP32's 8 exponent bits. See the "
             "BF16 format ."),
        ],
        "NCA::Triton Inference Server": [
            ("Which port does Triton serve HTTP/REST requests on by default?",
             ["*8000", "8001", "8002"], "HTTP is 8000, gRPC 8001 and the metrics endpoint 8002."),
            ("What does this model configuration enable? dynamic_batching { "
             "max_queue_delay_microseconds: 100 }",
             ["*Dynamic batching, waiting at most 100 µs to fill a batch",
              "A fixed batch size of 100", "Request timeouts of 100 ms"],
             "The scheduler groups requests into batches and waits up to "
             "max_queue_delay_microseconds for more."),
        ],
    },
    "typescript": {"NCA::LLM Customization": [
        ("Which method trains a small set of added low-rank matrices and freezes the base "
         "model's weights?",
         ["Full fine-tuning", "*LoRA", "Knowledge distillation", "Pruning"],
         "LoRA adds trainable rank-decomposition matrices to chosen layers; the base weights "
         "stay frozen."),
        ('What does this NeMo configuration change? model: peft: peft_scheme: "lora" '
         "lora_tuning: adapter_dim: 32",
         ["*The rank of the LoRA adapters, to 32", "The number of GPUs, to 32",
          "The batch size, to 32"],
         "adapter_dim is the rank of the low-rank matrices."),
        ("Which two reduce the GPU memory a fine-tuning run needs? (Choose two.)",
         ["*Gradient checkpointing", "A larger batch size", "*QLoRA's 4-bit base weights",
          "Longer sequences"],
         "Checkpointing recomputes activations instead of keeping them; QLoRA stores the "
         "frozen base model in 4 bits."),
    ]},
    "aiken": {"NCA::Gpu Architecture": [
        ("Which NVIDIA GPU architecture first introduced Tensor Cores?",
         ["Pascal", "*Volta", "Maxwell", "Kepler"], ""),
        # Aiken is plain text: Moodle, and the card, show its backquotes as typed.
        ("What does `nvidia-smi` report when run without options?",
         ["*GPU utilisation, memory use and the processes using each GPU",
          "The version of the CUDA compiler", "Only the PCIe topology"], ""),
        ("Which unit of an NVIDIA GPU schedules warps?",
         ["*The streaming multiprocessor (SM)", "The PCIe controller", "The NVLink bridge"], ""),
    ]},
    "gift": {"NCA::AI Infrastructure": [
        ("Which link connects the GPUs inside a DGX server at the highest bandwidth?",
         ["*NVLink with NVSwitch", "PCIe", "10 Gb Ethernet", "InfiniBand"],
         "NVLink and NVSwitch connect every GPU of the server to every other. NVLink with "
         "NVSwitch: GPU-to-GPU, inside the server. InfiniBand: InfiniBand links servers to "
         "each other."),
        ("Which two are NVIDIA networking platforms?",
         ["*Quantum InfiniBand", "*Spectrum-X Ethernet", "NVMe", "SATA"],
         "Quantum (InfiniBand) and Spectrum-X (Ethernet) are NVIDIA's networking lines."),
        ("What does nvidia-smi -q -d TEMPERATURE show?",
         ["*The GPU temperatures and their slowdown and shutdown thresholds",
          "The fan speed only", "The driver version"], ""),
        ("A DGX H100 holds 8 GPUs: true or false?", ["*True", "False"],
         "Eight H100 GPUs, connected by NVSwitch."),
        ("MIG can split one A100 into up to _____ GPU instances.", ["4", "*7", "16"], ""),
    ]},
}
INPUTS = {"markdown": ["cuda-programming.md"], "json": ["prep-bank.json", "triton-server.json"],
          "typescript": ["llm-customization.ts"],
          "aiken": ["gpu-architecture.txt"], "gift": ["ai-infrastructure.gift"]}


def _squeezed(text: str) -> str:
    """Text without white space: html_to_text spaces every tag (highlighted code is a span
    per token), the card does not."""
    return re.sub(r"\s+", "", text)


def _imported(tmp_path: Path, cli, fmt: str, *names: str, extra: tuple[str, ...] = ()):
    """``import --from fmt`` of the samples into tmp_path/source; the run."""
    return cli("import", "--from", fmt, *(str(SAMPLES / n) for n in names), "--out",
               str(tmp_path / "source"), *extra)


def _built_cards(root: Path) -> dict[str, list]:
    """Build root/source with the repository's templates; import every deck into a new
    collection with the real backend; each deck's cards."""
    return built_and_imported(root)[1]


def _as_read(card) -> tuple[str, list[str], str]:
    """A card as the learner reads it: prompt, choices (a "*" before each correct one, in
    the static order), explanation, white space squeezed out."""
    prompt, choices, why = as_read(card)
    return _squeezed(prompt), [_squeezed(c) for c in choices], _squeezed(why)


@pytest.mark.anki
@pytest.mark.parametrize("fmt", ["markdown", "json", "typescript", "aiken", "gift"])
def test_every_question_choice_mark_and_explanation_arrives_in_anki(tmp_path, cli, fmt):
    done = _imported(tmp_path, cli, fmt, *INPUTS[fmt])
    assert done.status == (1 if fmt == "gift" else 0), done.err  # GIFT: a short answer
    decks = _built_cards(tmp_path)
    assert sorted(decks) == sorted(EXPECTED[fmt])
    for deck, expected in EXPECTED[fmt].items():
        arrived = sorted(_as_read(card) for card in decks[deck])
        wanted = sorted((_squeezed(p), [_squeezed(c) for c in cs], _squeezed(e))
                        for p, cs, e in expected)
        # Choices are compared as a set: the build balances where the answers sit.
        assert [(p, sorted(c), e) for p, c, e in arrived] == \
            [(p, sorted(c), e) for p, c, e in wanted]


@pytest.mark.anki
def test_code_tables_links_and_inline_code_arrive_as_markup(tmp_path, cli):
    _imported(tmp_path, cli, "markdown", *INPUTS["markdown"])
    _imported(tmp_path, cli, "json", *INPUTS["json"])
    decks = _built_cards(tmp_path)
    cuda = {html_to_text(c.fields["Prompt"])[:20]: c for c in decks["NCA::CUDA Programming"]}
    launch = cuda["What does this kerne"]
    assert "<pre" in launch.fields["Prompt"] and "vectorAdd" in launch.fields["Prompt"]
    assert '<a href="https://docs.nvidia.com/cuda/cuda-c-programming-guide/"' in \
        launch.fields["Explanation"]
    assert "<table>" in cuda["Which memory is fast"].fields["Prompt"]
    assert "<code>nvidia-smi -L</code>" in cuda["Which two commands l"].fields["Choices"]
    # The diagram was copied beside the question files and travels in the deck.
    diagram = cuda["How many threads doe"].fields["Prompt"]
    assert re.search(r'<img src="nca-[0-9a-f]{16}\.svg" alt="A grid of 2 × 2 blocks, each '
                     r'block 4 × 4 threads">', diagram), diagram
    assert (tmp_path / "source" / "images" / "grid.svg").read_bytes() == \
        (SAMPLES / "images" / "grid.svg").read_bytes()
    prep = {html_to_text(c.fields["Prompt"])[:20]: c for c in decks["NCA::Prep Bank"]}
    assert "<table>" in prep["Which numeric format"].fields["Prompt"]
    assert '<a href="https://en.wikipedia.org/wiki/Bfloat16_floating-point_format"' in \
        prep["Which numeric format"].fields["Explanation"]
    triton = decks["NCA::Triton Inference Server"]
    assert any("<pre" in c.fields["Prompt"] and "dynamic_batching" in c.fields["Prompt"]
               for c in triton)


def test_what_is_not_converted_is_named_at_its_place(tmp_path, cli):
    markdown = _imported(tmp_path / "md", cli, "markdown", *INPUTS["markdown"])
    assert markdown.status == 0
    assert f"{SAMPLES / 'cuda-programming.md'}:3: warning[W701]: text that is no question" \
        in markdown.err
    gift = _imported(tmp_path / "gift", cli, "gift", *INPUTS["gift"])
    assert gift.status == 1  # something was not converted
    assert f"{SAMPLES / 'ai-infrastructure.gift'}:31: error[E702]: a short-answer question" \
        in gift.err
    assert gift.err.splitlines()[-1] == (
        "read 6 questions in 1 file: 5 converted, 1 refused (not a multiple-choice question ×1);"
        f" wrote 1 file in {tmp_path}/gift/source: 1 error, 2 warnings")
    json_run = _imported(tmp_path / "json", cli, "json", *INPUTS["json"])
    # How the bank was read is said once, in full, with what was left out.
    assert ("prep-bank.json:1: warning[W704]: read 3 question objects: prompt 'question'; "
            "choices 'options'; answer 'correct' (or 'answer'), counted from 0 (an answer is 0); "
            "explanation 'explanation'; left out 'id'; else --map KEY=ROLE") in json_run.err


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


@pytest.mark.anki
def test_an_author_s_mistakes_are_reported_and_the_rest_converted(tmp_path, cli):
    bank = _write(tmp_path / "in", "bank.md", """# Networking

#### Q1. Which link is fastest?
- [ ] PCIe
- [ ] Ethernet

#### Q2. Which protocol does RDMA over Converged Ethernet use?
- [x] RoCE
- [ ] iSCSI

Correct answer: RoCE, not iSCSI.

#### Q3. What is NCCL?
- [x] NVIDIA's collective communications library
- [ ] A CUDA compiler

#### Q4. What is NCCL?
- [x] NVIDIA's collective communications library
- [ ] A CUDA compiler
""")
    done = cli("import", "--from", "markdown", str(bank), "--out", str(tmp_path / "source"))
    assert done.status == 1
    err = done.err
    assert f"{bank}:3: error[E703]: marks no choice correct; not converted" in err
    assert (f"{bank}:7: error[E704]: cannot be written as a question file: "
            "its explanation: 'Correct answer: RoCE, not iSCSI.' names none of the question's "
            "choices") in err
    assert f"{bank}:17: error[E704]: repeats the question at line 13 word for word" in err
    assert err.splitlines()[-1].startswith("read 4 questions in 1 file: 1 converted, 3 refused "
                                           "(cannot be written as a question file ×2, no "
                                           "correct answer ×1); wrote 1 file in ")
    assert err.splitlines()[-1].endswith(": 3 errors, 0 warnings")
    written = (tmp_path / "source" / "networking-1.txt").read_text()
    assert written.count("Question ") == 1 and "What is NCCL?" in written
    assert _built_cards(tmp_path)["NCA::Networking"]


ORDERED = """# GPU Basics

1. Which GPU architecture first had Tensor Cores?
   - [ ] Pascal
   - [x] Volta
   - [ ] Maxwell

   Volta (2017) brought them; see the `V100`.

2. What does this print?

   ```python
   print(2 ** 3)
   ```

   - [ ] `6`
   - [x] `8`

3. A numbered note, with no choices under it.

10. Which two are NVIDIA interconnects? (Choose two.)
    - [x] NVLink
    - [ ] SATA
    - [x] NVSwitch
"""


@pytest.mark.anki
def test_questions_written_as_an_ordered_list_are_converted(tmp_path, cli):
    """The other shape of Markdown quiz: each question an item of a numbered list, its
    choices and explanation indented under it."""
    bank = _write(tmp_path / "in", "gpu.md", ORDERED)
    done = cli("import", "--from", "markdown", str(bank), "--out", str(tmp_path / "source"))
    assert done.status == 0, done.err
    note = ORDERED.splitlines().index("3. A numbered note, with no choices under it.") + 1
    assert f"{bank}:{note}: warning[W701]: text that is no question" in done.err
    cards = {_as_read(card)[0]: _as_read(card) for card in
             _built_cards(tmp_path)["NCA::GPU Basics"]}
    assert sorted(cards) == sorted(map(_squeezed, (
        "Which GPU architecture first had Tensor Cores?", "What does this print? print(2 ** 3)",
        "Which two are NVIDIA interconnects? (Choose two.)")))
    first = cards[_squeezed("Which GPU architecture first had Tensor Cores?")]
    assert sorted(first[1]) == sorted(["Pascal", "*Volta", "Maxwell"])
    assert first[2] == _squeezed("Volta (2017) brought them; see the V100.")
    assert sorted(cards[_squeezed("Which two are NVIDIA interconnects? (Choose two.)")][1]) \
        == sorted(["*NVLink", "SATA", "*NVSwitch"])
    written = (tmp_path / "source" / "gpu-basics-1.txt").read_text()
    assert "```python\nprint(2 ** 3)\n```\n- `6`\n- `8` (Correct answer)\n" in written


def test_a_file_already_there_is_never_overwritten(tmp_path, cli):
    target = _write(tmp_path / "source", "cuda-programming-1.txt", "mine")
    done = _imported(tmp_path, cli, "markdown", *INPUTS["markdown"])
    assert done.status == 1
    assert f"{target}: error[E705]: is already there; nothing was written" in done.err
    assert target.read_text() == "mine"
    assert sorted(p.name for p in (tmp_path / "source").iterdir()) == ["cuda-programming-1.txt"]


@pytest.mark.parametrize("points_to", ["a file", "nothing"])
def test_a_link_where_a_file_goes_is_already_there_and_never_written_through(
        tmp_path, cli, points_to):
    """A link at the name of a question file to write, to a file or to nowhere, counts as
    a file already there: nothing is written, through it or over it."""
    outside = tmp_path / "outside.txt"
    if points_to == "a file":
        outside.write_text("not the tool's\n", encoding="utf-8")
    link = tmp_path / "source" / "cuda-programming-1.txt"
    link.parent.mkdir()
    link.symlink_to(outside)
    done = _imported(tmp_path, cli, "markdown", *INPUTS["markdown"])
    assert done.status == 1
    assert f"{link}: error[E705]: is already there; nothing was written" in done.err
    assert link.is_symlink()
    assert (outside.read_text(encoding="utf-8") == "not the tool's\n" if points_to == "a file"
            else not outside.exists())
    assert [p.name for p in link.parent.iterdir()] == ["cuda-programming-1.txt"]


@pytest.mark.anki
def test_inputs_with_one_title_are_the_parts_of_one_topic(tmp_path, cli):
    for k in (1, 2):
        _write(tmp_path / "in", f"part{k}.md", f"""## Deep Learning

#### Q1. Question {k}: which optimizer keeps a running mean of squared gradients?
- [x] Adam
- [ ] SGD without momentum
""")
    done = cli("import", "--from", "markdown", str(tmp_path / "in" / "part1.md"),
               str(tmp_path / "in" / "part2.md"), "--out", str(tmp_path / "source"))
    assert done.status == 0, done.err
    assert sorted(p.name for p in (tmp_path / "source").iterdir()) == [
        "deep-learning-1.txt", "deep-learning-2.txt"]
    assert len(_built_cards(tmp_path)["NCA::Deep Learning"]) == 2
    # --topic puts every input into one topic of that name.
    again = cli("import", "--from", "aiken", str(SAMPLES / "gpu-architecture.txt"), "--out",
                str(tmp_path / "other"), "--topic", "GPU Architecture")
    assert again.status == 0
    assert (tmp_path / "other" / "gpu-architecture-1.txt").read_text().startswith(
        "GPU Architecture 1 — Questions and Answers\n")


def test_broken_inputs_say_where(tmp_path, cli):
    broken = _write(tmp_path / "in", "bank.json", '[{"question": "Q?", "options": ["a" "b"]}]')
    done = cli("import", "--from", "json", str(broken), "--out", str(tmp_path / "source"))
    assert done.status == 1
    assert f"{broken}:1: error[E701]: not valid JSON: Expecting ',' delimiter (column 37)" \
        in done.err
    assert done.err.splitlines()[-1] == "read 0 questions in 1 file: nothing written: 1 error, " \
        "0 warnings"
    assert not (tmp_path / "source").exists()
    missing = cli("import", "--from", "gift", str(tmp_path / "nope.gift"), "--out",
                  str(tmp_path / "source"))
    assert missing.status == 1
    assert "nope.gift: error[E701]: cannot be read: No such file or directory; nothing " \
        "converted" in missing.err
    answers = _write(tmp_path / "in", "wrong.json", """[
  {"question": "Which?", "options": ["a", "b"], "correct": 2},
  {"question": "Which first?", "options": ["a", "b"], "correct": 0},
  {"question": "Which one?", "options": ["a", "b"], "answer": "b"}
]""")
    done = cli("import", "--from", "json", str(answers), "--out", str(tmp_path / "source"))
    assert f"{answers}:2: error[E703]: [0].correct: the answer 2 names none of the 2 " \
        "choices" in done.err
    assert "read 3 questions in 1 file: 2 converted, 1 refused" in done.err


def test_an_answer_written_in_other_digits_is_read_or_named_never_a_crash(tmp_path, cli):
    """"²" is a digit to str.isdigit() and not a number to int(): it ended an import in a
    traceback (exit 3). Decimal digits of any script are an index; other digits are text,
    which here names no choice."""
    answers = _write(tmp_path / "in", "digits.json", """[
  {"question": "Which second?", "options": ["a", "b", "c"], "answer": "²"},
  {"question": "Which third?", "options": ["a", "b", "c"], "answer": "\u0663"}
]""")
    done = cli("import", "--from", "json", str(answers), "--out", str(tmp_path / "source"))
    assert done.status == 1 and "Traceback" not in done.err
    assert f"{answers}:2: error[E703]: [0].answer: the answer '²' names none of the 3 " \
        "choices" in done.err
    assert "read 2 questions in 1 file: 1 converted, 1 refused" in done.err


@pytest.mark.anki
def test_a_typescript_bank_is_read_never_run_and_code_in_it_is_named(tmp_path, cli):
    """Literals only: what is code (a variable, a ${...}, a spread, a call) is named at its
    line, and the questions around it are converted; JavaScript's strings arrive as they
    read, escapes and all."""
    bank = _write(tmp_path / "in", "gpu.js", r"""// CommonJS, as older repositories keep it
const GPU = "H100";
const common = { explanation: "shared" };
module.exports = {
  title: 'GPU Basics',
  questions: [
    { question: 'Which GPU\'s "Tensor Cores" came first?',
      options: ['Volta \u2014 V100', `Pascal`], correct: 0, },
    { question: `Which ${GPU} feature?`, options: ["a", "b"], correct: 1 },
    { question: "Spread?", options: ["a", "b"], correct: 1, ...common },
    { question: "A variable as a choice?", options: [GPU, "b"], correct: 1 },
    { question: "Out of range?", options: ["a", "b"], correct: 2 },
    { question: "A call?", options: ["a", "b"].map(x => x), correct: 0 },
    { question: "Tab\tand \x41 and a line \
continued", options: { A: "x", B: "y" }, answer: "B" },
  ],
};
""")
    done = cli("import", "--from", "typescript", str(bank), "--out", str(tmp_path / "source"))
    assert done.status == 1
    err = done.err.splitlines()
    code = "holds code, not a value"
    assert [line for line in err if ": error[" in line] == [
        f"{bank}:9: error[E704]: module.exports.questions[1]: {code}: `${{GPU}}` (line 9); "
        "write it out as text; not converted",
        f"{bank}:10: error[E704]: module.exports.questions[2]: {code}: `...common` (line 10); "
        "write it out as text; not converted",
        f"{bank}:11: error[E704]: module.exports.questions[3]: {code}: `GPU` (line 11); "
        "write it out as text; not converted",
        f"{bank}:12: error[E703]: module.exports.questions[4].correct: the answer 2 names "
        "none of the 2 choices (an index counted from 0, a letter or a choice's text); not "
        "converted",
        f"{bank}:13: error[E704]: module.exports.questions[5]: {code}: "
        "`[\"a\", \"b\"].map(x => x)` (line 13); write it out as text; not converted"]
    assert err[-1] == ("read 7 questions in 1 file: 2 converted, 5 refused (cannot be written as "
                       "a question file ×4, no correct answer ×1); wrote 1 file in "
                       f"{tmp_path}/source: 5 errors, 1 warning")
    written = (tmp_path / "source" / "gpu-basics-1.txt").read_text()
    assert "Question 1: Which GPU's \"Tensor Cores\" came first?\n- Volta \u2014 V100 " \
        "(Correct answer)\n- Pascal\n" in written
    assert "Question 2: Tab\tand A and a line continued\n- x\n- y (Correct answer)\n" in written
    assert len(_built_cards(tmp_path)["NCA::GPU Basics"]) == 2


@pytest.mark.parametrize("text, says", [
    ('export const questions = [\n  { question: "Q?", options: ["a", "b"] correct: 0 },\n];\n',
     ":2: error[E701]: not valid TypeScript or JavaScript near `correct: 0` (column 41): a "
     "comma, bracket or quote may be missing just before it"),
    ('export default [\n  { question: "Q?", options: ["a", "b"], correct: 0 },\n',
     ":1: error[E701]: not valid TypeScript or JavaScript from column 1 to the end of the "
     "file: a bracket, brace or quote opened there is not closed"),
    ("export const config = { timeout: 30, retries: [1, 2] };\n",
     ":1: error[E701]: found 'config' but it holds no questions"),
    ("const total = 3;\n", ":1: error[E701]: no array or object of questions found"),
], ids=["a missing comma", "not closed", "no bank", "no data"])
def test_a_typescript_file_that_is_no_bank_says_why(tmp_path, cli, text, says):
    bank = _write(tmp_path / "in", "bank.ts", text)
    done = cli("import", "--from", "typescript", str(bank), "--out", str(tmp_path / "source"))
    assert done.status == 1
    assert f"{bank}{says}" in done.err
    assert done.err.splitlines()[-1] == "read 0 questions in 1 file: nothing written: 1 error, " \
        "0 warnings"
    assert not (tmp_path / "source").exists()


@pytest.mark.parametrize("args, says", [
    (("import", "--from", "docx", "x", "--out", "o"), "argument --from: invalid choice"),
    (("import", "x", "--map", "q=questionn", "--out", "o"),
     "argument --map: unknown role 'questionn' in 'q=questionn'"),
    (("import", "x", "--map", "q", "--out", "o"), "argument --map: expected KEY=ROLE, got 'q'"),
    (("import", "--from", "gift", "x", "--out", ""), "error: --out must name a folder"),
])
def test_usage_errors(cli, args, says):
    done = cli(*args)
    assert done.status == 2
    assert says in done.err


def test_help_names_the_command_as_run(cli):
    done = cli("import", "-h")
    assert done.status == 0
    assert done.out.startswith("usage: build_decks.py import [-h] [--from FORMAT] "
                               "[--map KEY=ROLE] --out DIR")
    assert "markdown, json, typescript, yaml, csv, tsv, aiken, gift, moodle-xml, trivia" in \
        " ".join(done.out.split())
    assert "build_decks.py import INPUT... --out DIR [--from FORMAT]" in cli("-h").out


def test_the_output_is_the_same_bytes_every_time(tmp_path, cli):
    for run in ("one", "two"):
        for fmt, names in INPUTS.items():
            _imported(tmp_path / run, cli, fmt, *names)
    one = _tree(tmp_path / "one" / "source")
    two = _tree(tmp_path / "two" / "source")
    assert one == two and len(one) == 7  # six question files and an image


def test_the_samples_are_copied_nowhere(tmp_path, cli):
    """The importer reads its inputs and writes only into --out."""
    copy = tmp_path / "in"
    shutil.copytree(SAMPLES, copy)
    before = _tree(copy)
    cli("import", "--from", "markdown", str(copy / "cuda-programming.md"), "--out",
        str(tmp_path / "source"))
    assert _tree(copy) == before
    assert sorted(_tree(tmp_path / "source")) == ["cuda-programming-1.txt", "images/grid.svg"]


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.anki
def test_choices_that_are_only_code_and_images_from_the_web(tmp_path, cli):
    """Two shapes of the big quiz repositories: a choice that is only a code block (one
    line of code goes inline, more cannot be a question file's choice), and an image on
    the web (cards are studied offline)."""
    bank = _write(tmp_path / "in", "python.md", """## Python

#### Q1. What does this print?

```python
print(list(range(3)))
```

- [ ]

  ```python
  [1, 2, 3]
  ```

- [x]

  ```python
  [0, 1, 2]
  ```

#### Q2. Which two lines define `b`?

- [ ]

  ```python
  a = 1
  b = 2
  ```

- [x] A line that says so

#### Q3. What does ![the logo](https://example.com/logo.png) show?

- [x] A logo
- [ ] A chart
""")
    done = cli("import", "--from", "markdown", str(bank), "--out", str(tmp_path / "source"))
    assert done.status == 1
    assert f"{bank}:21: error[E704]: choice A starts with no line of text (only code below " \
        "it)" in done.err
    # the one-line code block that became inline code, and the web picture become a link
    assert f"warning[W702] converted with a change, 2 times:\n  {bank}:9,32\n" in done.err
    cards = _built_cards(tmp_path)["NCA::Python"]
    assert len(cards) == 2
    code, = [c for c in cards if "<code>[0, 1, 2]</code>" in c.fields["Choices"]]
    assert sorted(_as_read(code)[1]) == ["*[0,1,2]", "[1,2,3]"]
    logo, = [c for c in cards if c is not code]
    assert 'href="https://example.com/logo.png"' in logo.fields["Prompt"]
    assert "<img" not in logo.fields["Prompt"]


def test_a_typescript_bank_without_its_parser_installed_says_what_to_do(monkeypatch):
    import sys

    from nca_anki.importing import typescript
    monkeypatch.setitem(sys.modules, "tree_sitter_typescript", None)  # as if not installed
    problem, = typescript.read("export const questions = [];\n", "bank.ts").problems
    assert str(problem) == ("bank.ts: error[E701]: cannot be read: tree_sitter_typescript is "
                            "not installed; run the README's install command (pip install "
                            "-e .) again")


def test_javascript_escapes_arrive_as_the_characters_they_stand_for():
    from nca_anki.importing import typescript
    bank = ('export const questions = [{question: "Emoji \\uD83D\\uDE00, a lone half \\uD800, '
            '\\u{1F680}, \\x41, \\u00e9, a \\"quote\\" and a \\\\ backslash", options: '
            "['\\'a\\'', `b\\``], correct: 0}];\n")
    reading = typescript.read(bank, "bank.ts")
    assert [d.code for d in reading.problems] == ["W704"]  # how it was read, said once
    item, = reading.sections[0].items
    assert item.prompt == ('Emoji \U0001F600, a lone half \ufffd, \U0001F680, A, \u00e9, a '
                           '"quote" and a \\ backslash')
    assert [c.text for c in item.choices] == ["'a'", "b`"]
