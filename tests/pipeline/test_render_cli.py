"""What the renderer refuses stops the build: the command exits 1 and names the line."""

from __future__ import annotations


def errors(text: str) -> list[str]:
    return [line for line in text.splitlines() if ": error[" in line]


def test_a_missing_image_fails_the_build_at_its_line(project, cli):
    (project / "source" / "images-1.txt").write_text(
        "Images 1 — Questions and Answers\n"
        "Question 1: Which layer is shown?\n"
        "- ![a convolution](conv.png) (Correct answer)\n"
        "- A pooling layer\n"
        "Correct answer: ![a convolution](conv.png)\n"
        "It slides filters over the input.\n", encoding="utf-8")
    run = cli("--check")
    assert run.status == 1
    assert errors(run.err) == [
        "source/images-1.txt:3: error[E122]: Question 1's choice A: image 'conv.png' not found "
        "(looked for source/conv.png); the path is relative to this question file"]


def test_a_front_without_a_field_fails_the_build(project, cli):
    front = project / "templates" / "front.html"
    front.write_text(front.read_text(encoding="utf-8").replace('{{ field("Prompt") }}', "")
                     .replace('{{ field("Choices") }}', ""), encoding="utf-8")
    run = cli("--check")
    assert run.status == 1
    assert errors(run.err) == [
        'templates/front.html: error[E402]: the front shows no field: every card would say "The '
        'front of this card is blank"; place one with {{ field("Prompt") }}']
