"""TypeScript and JavaScript banks -> questions: the files prep repositories keep their
questions in, ``export const questions = [{question, options, correct, explanation}, …]``.

The file is parsed by tree-sitter's TypeScript grammar (a maintained parser, also of
plain JavaScript); nothing in it is run. Every declaration, ``export default`` or
``module.exports =`` whose value is an array or object literal that holds questions is
read by its shape (importing/shape.py), as JSON is. ``window.quiz = […]``, any other
assignment of a literal, and a bare array or object standing alone as a statement count
too. Literal
values only: strings ('…', "…", and `…` without ``${…}``), numbers, true, false, null,
arrays and objects. A question holding anything else (a variable, a call, a spread, a
``${…}``) is not converted, and is named at its line.
"""

from __future__ import annotations

from collections.abc import Mapping

from nca_anki.diagnostics import error
from nca_anki.importing.bank import Reading, title_from_name
from nca_anki.importing.json_bank import DEPTH, Code, code_text
from nca_anki.importing.shape import Structured

# What a value may be wrapped in and still be a literal: `[…] as const`, `satisfies T`,
# parentheses, a non-null `!`.
_WRAPPERS = ("as_expression", "satisfies_expression", "parenthesized_expression",
             "non_null_expression")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class _NotLiteral(Exception):
    def __init__(self, node) -> None:
        self.node = node


class _TooDeep(Exception):
    def __init__(self, node) -> None:
        self.node = node


def _parser():
    import tree_sitter_typescript
    from tree_sitter import Language, Parser
    return Parser(Language(tree_sitter_typescript.language_typescript()))


def _line(node) -> int:
    return node.start_point[0] + 1


def _unwrap(node):
    while node is not None and node.type in _WRAPPERS:
        node = node.named_children[0] if node.named_children else None
    return node


def _escape(text: str) -> str:
    """A JavaScript escape sequence's character (or none, for a line continuation)."""
    body = text[1:]
    if body.startswith(("\n", "\r", "\u2028", "\u2029")):
        return ""
    if body[0] in _ESCAPES and not body[1:]:
        return _ESCAPES[body[0]]
    if body[0] in "xu" and len(body) > 1:
        try:
            return chr(int(body[1:].strip("{}"), 16))
        except ValueError:  # not hex, or past U+10FFFF: as written
            return text
    return body  # \' \" \\ \` and any other character stand for themselves


def _string(node) -> str:
    """A string or template literal's text, its escapes read as JavaScript reads them."""
    parts = []
    for child in node.named_children:
        if child.type == "string_fragment":
            parts.append(child.text.decode("utf-8"))
        elif child.type == "escape_sequence":
            parts.append(_escape(child.text.decode("utf-8")))
        else:  # a ${…} in a template
            raise _NotLiteral(child)
    joined = "".join(parts)
    # "\\uD83D\\uDE00" is one character written as its UTF-16 halves; a half alone is no
    # character at all.
    return joined.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


class _Values:
    """Python values of literal nodes, and the line each value starts on, by its path."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.lines: dict[tuple[object, ...], int] = {}

    def value(self, node, path: tuple[object, ...]) -> object:
        node = _unwrap(node)
        if len(path) > DEPTH:
            raise _TooDeep(node)
        self.lines[path] = _line(node)
        kind = node.type
        if kind == "array":
            out: list[object] = []
            for child in node.named_children:
                if child.type == "comment":
                    continue
                if child.type == "spread_element":
                    raise _NotLiteral(child)
                out.append(self.element(child, (*path, len(out))))
            return out
        if kind == "object":
            obj: dict[str, object] = {}
            for child in node.named_children:
                if child.type == "comment":
                    continue
                if child.type != "pair":
                    raise _NotLiteral(child)
                key = self.key(child.child_by_field_name("key"))
                obj[key] = self.element(child.child_by_field_name("value"), (*path, key))
            return obj
        if kind in ("string", "template_string"):
            return _string(node)
        if kind == "number":
            return self.number(node)
        if kind == "unary_expression" and node.child_count == 2 and \
                node.children[0].type in ("-", "+") and node.children[1].type == "number":
            number = self.number(node.children[1])
            return -number if node.children[0].type == "-" else number
        if kind in ("true", "false"):
            return kind == "true"
        if kind in ("null", "undefined"):
            return None
        raise _NotLiteral(node)

    def key(self, node) -> str:
        if node.type in ("property_identifier", "number"):
            return node.text.decode("utf-8")
        if node.type == "string":
            return _string(node)
        raise _NotLiteral(node)

    @staticmethod
    def number(node) -> int | float:
        text = node.text.decode("utf-8").replace("_", "")
        try:
            return int(text, 0)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                raise _NotLiteral(node) from None

    def element(self, node, path: tuple[object, ...]) -> object:
        """An element or a property's value: one that is not a literal stands as its code,
        so the rest is still read, and json_bank.py names it where it is used."""
        try:
            return self.value(node, path)
        except _NotLiteral as exc:
            self.lines[path] = _line(node)
            return Code(line=_line(exc.node), text=exc.node.text.decode("utf-8", "replace"))


def _declared(root):
    """(name, value node) of each declaration, default export or module.exports whose
    value is an array or object literal, in the file's order."""
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "variable_declarator":
            value = _unwrap(node.child_by_field_name("value"))
            name = node.child_by_field_name("name")
            if value is not None and value.type in ("array", "object") and name is not None:
                found.append((name.text.decode("utf-8"), value))
            continue
        if node.type == "export_statement":
            value = _unwrap(node.child_by_field_name("value"))
            if value is not None and value.type in ("array", "object"):
                found.append(("default", value))
                continue
        if node.type == "assignment_expression":  # module.exports = …, window.quiz = …
            left = node.child_by_field_name("left")
            value = _unwrap(node.child_by_field_name("right"))
            if left is not None and value is not None and value.type in ("array", "object"):
                found.append((left.text.decode("utf-8"), value))
                continue
        if node.type == "expression_statement" and node.named_children:
            value = _unwrap(node.named_children[0])  # a bare [ … ] or ({ … }) alone
            if value is not None and value.type in ("array", "object"):
                found.append((f"line {_line(value)}", value))
                continue
        stack.extend(reversed(node.children))
    return found


def _first_error(node):
    """The first node tree-sitter could not parse (an ERROR, or a token it had to
    assume missing)."""
    if node.type == "ERROR" or node.is_missing:
        return node
    for child in node.children:
        if child.has_error or child.is_missing:
            found = _first_error(child)
            if found is not None:
                return found
    return None


def read(text: str, path: str, overrides: Mapping[str, str] | None = None) -> Reading:
    source = text.encode("utf-8")
    try:
        parser = _parser()
    except ImportError as exc:  # an environment set up before the importer needed it
        return Reading((), (error("E701", path, 0, (
            f"cannot be read: {exc.name or 'tree_sitter'} is not installed; run the "
            "README's install command (pip install -e .) again")),))
    root = parser.parse(source).root_node
    if root.has_error:
        bad = _first_error(root) or root
        row, column = bad.start_point
        line_start = source.rfind(b"\n", 0, bad.start_byte) + 1
        column = len(source[line_start:bad.start_byte].decode("utf-8", "replace")) + 1
        if bad.is_missing:
            what = f"near column {column}: `{bad.type}` is missing"
        elif bad.end_byte >= len(source.rstrip()):
            what = (f"from column {column} to the end of the file: a bracket, brace or "
                    "quote opened there is not closed")
        else:
            near = bad.text.decode("utf-8", "replace").split("\n")[0][:40]
            what = (f"near `{near}` (column {column}): a comma, bracket or quote may be "
                    "missing just before it")
        return Reading((), (error("E701", path, row + 1, (
            f"not valid TypeScript or JavaScript {what}; nothing in the file was "
            "converted")),))
    values = _Values(source)
    declared: dict[str, object] = {}
    for name, node in _declared(root):
        try:
            declared[name] = values.element(node, (name,))
        except _TooDeep as exc:
            return Reading((), (error("E701", path, _line(exc.node), (
                f"nested more than {DEPTH} levels deep; no bank needs that: nothing in the "
                "file was converted")),))
    reader = Structured(path, lambda where: values.lines.get(where, 1), overrides or {})
    found = reader.read(declared, default_title=title_from_name(path), is_code=code_text)
    if not found and not any(d.is_error for d in reader.problems):
        return Reading((), (*reader.problems, error("E701", path, 1, (
            "no array or object of questions found (as in `export const questions = "
            "[{question, options, correct, explanation}]`); nothing in the file was "
            "converted"))))
    return Reading(found, tuple(reader.problems))
