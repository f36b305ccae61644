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

import math
from collections.abc import Mapping

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.importing.bank import Reading, title_from_name
from nca_anki.importing.containers import Places, read_records
from nca_anki.importing.json_bank import DEPTH, Code, code_text, decode

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
        else:  # a ${…} in a template: text only if it holds a string or a number
            parts.append(_constant(child))
    joined = "".join(parts)
    # "\\uD83D\\uDE00" is one character written as its UTF-16 halves; a half alone is no
    # character at all.
    return joined.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _constant(node) -> str:
    """The text of a ``${…}`` that holds a string or number literal (``${"${x}"}``, as an
    author writes a template's own ``${`` in one), as the template makes it."""
    inner = [c for c in node.named_children if c.type != "comment"]
    if len(inner) == 1 and inner[0].type == "string":
        return _string(inner[0])
    if len(inner) == 1 and inner[0].type == "number":
        number = _Values.number(inner[0])
        if isinstance(number, int) and abs(number) < 10 ** 21:
            return str(number)
        if isinstance(number, float) and math.isfinite(number) and abs(number) < 1e21:
            return str(int(number)) if number.is_integer() else repr(number)
    raise _NotLiteral(node)


class _Values:
    """Python values of literal nodes, the line each value starts on, by its path, and
    how each container that is no array or object was written (a Map's entries)."""

    def __init__(self, source: bytes, parameters: dict[str, list[str]] | None = None) -> None:
        self.source = source
        self.parameters = parameters or {}  # the names a function declared here gives
        self.lines: dict[tuple[object, ...], int] = {}
        self.forms: dict[tuple[object, ...], str] = {}
        self.keys: dict[tuple[object, ...], list[object]] = {}

    def line(self, path: tuple[object, ...]) -> int:
        """The line of ``path``, or of the nearest value holding it (inside a
        ``JSON.parse('…')``, the text's; a value on its holder's line is not kept)."""
        while path and path not in self.lines:
            path = path[:-1]
        return self.lines.get(path, 1)

    def at(self, path: tuple[object, ...], line: int) -> None:
        """Keep ``path``'s line, unless it is the line of the value holding it: most
        values of a bank sit on their question's line, and a path and its line for each
        were the largest part of the values' memory (issue 46)."""
        if not path or self.line(path[:-1]) != line:
            self.lines[path] = line

    def value(self, node, path: tuple[object, ...]) -> object:
        node = _unwrap(node)
        if len(path) > DEPTH:
            raise _TooDeep(node)
        self.at(path, _line(node))
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
            return self.properties(node, path)
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
        if kind in ("new_expression", "call_expression"):
            return self.call(node, path)
        if kind in _FUNCTIONS and (given := _data(node)) is not None:
            return self.given(given, path)  # a function that returns data: the data
        raise _NotLiteral(node)

    def given(self, data, path: tuple[object, ...]) -> object:
        """The value of what ``_data`` found: one literal, or the literals joined."""
        return self.joined(data, path) if isinstance(data, list) else self.value(data, path)

    def properties(self, node, path: tuple[object, ...]) -> dict[str, object]:
        """An object literal's properties; one that is not ``key: value`` (a method,
        ``{questions}``, a spread) stands as its code under its name, so an object that
        holds a bank beside methods (an app's ``data``) is still searched, and a question
        holding one is named at its line."""
        obj: dict[str, object] = {}
        for child in node.named_children:
            if child.type == "comment":
                continue
            if child.type != "pair":
                named = child.child_by_field_name("name")
                key = (named or child).text.decode("utf-8", "replace")
                if child.type == "method_definition" and (given := _data(child)) is not None:
                    obj[key] = self.given(given, (*path, key))  # data() { return {…} }
                    continue
                self.at((*path, key), _line(child))
                obj[key] = Code(line=_line(child), text=child.text.decode("utf-8", "replace"))
                continue
            key = self.key(child.child_by_field_name("key"))
            obj[key] = self.element(child.child_by_field_name("value"), (*path, key))
        return obj

    def call(self, node, path: tuple[object, ...]) -> object:
        """The data a call or constructor holds, as the program gets it: ``new Map([[key,
        {…}], …])`` its entries by key, ``JSON.parse('…')`` the JSON, ``new Array(a, b)``
        and ``Array.of`` a list of them, any other call of one array or object
        (``Object.freeze([…])``, ``new Set([…])``) that array or object."""
        callee = _callee(node)
        arguments = _arguments(node)
        if arguments is None:
            raise _NotLiteral(node)
        if callee == "Map" and len(arguments) == 1 and arguments[0].type == "array":
            self.forms[path] = "the entries of the Map {0}"
            return self.entries(arguments[0], path)
        if callee == "JSON.parse" and len(arguments) == 1 and \
                arguments[0].type in ("string", "template_string"):
            try:
                return decode(_string(arguments[0]))
            except ValueError:
                raise _NotLiteral(node) from None
        if callee in ("Array", "Array.of") and not (
                len(arguments) == 1 and arguments[0].type == "number"):
            return [self.element(a, (*path, k)) for k, a in enumerate(arguments)]
        if callee == "Array":  # new Array(10): ten empty places
            return []
        if len(arguments) == 1 and arguments[0].type in ("array", "object"):
            return self.value(arguments[0], path)
        if _positional(node):  # new Question("Which…?", ["a", "b"], 1): its arguments
            names = self.parameters.get(callee, [])
            if len(names) >= len(arguments):  # by the names the file's function gives them
                return {n: self.element(a, (*path, n)) for n, a in zip(names, arguments)}
            if len(path) > 1:
                new = "new " if node.type == "new_expression" else ""
                self.forms.setdefault(path[:-1], f"the arguments of each {new}"
                                      f"{clip(callee, 30)}(…) in {{0}}")
            return [self.element(a, (*path, k)) for k, a in enumerate(arguments)]
        carried = _carried(node, keeping=True)
        if carried and carried != [node]:
            return self.given(carried[0] if len(carried) == 1 else carried, path)
        raise _NotLiteral(node)

    def entries(self, node, path: tuple[object, ...]) -> dict[str, object]:
        """A Map's entries (``[key, value]`` pairs) by key, as a Map keeps them (a key
        set again keeps its first place, and its last value); an entry that is not a pair
        with a literal key stands as its code, under its number."""
        out: dict[str, object] = {}
        for k, entry in enumerate(c for c in node.named_children if c.type != "comment"):
            pair = _unwrap(entry)
            parts = [c for c in pair.named_children if c.type != "comment"] \
                if pair.type == "array" else []
            key = _key_of(parts[0]) if len(parts) == 2 else None
            if key is None:
                key = str(k + 1) if str(k + 1) not in out else f"entry {k + 1}"
                self.at((*path, key), _line(entry))
                out[key] = Code(line=_line(entry), text=entry.text.decode("utf-8", "replace"))
                continue
            out[key] = self.element(parts[1], (*path, key))
        return out

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

    def joined(self, nodes: list, path: tuple[object, ...]) -> object:
        """The value of ``[…].concat([…])``: the elements of every array in ``nodes``, in
        order, as one list; if one of them is no array, each value apart, by number."""
        arrays = [_unwrap(n) for n in nodes]
        if not all(n is not None and n.type == "array" for n in arrays):
            return [self.element(n, (*path, k)) for k, n in enumerate(nodes)]
        self.at(path, _line(arrays[0]))
        out: list[object] = []
        for array in arrays:
            for child in array.named_children:
                if child.type == "spread_element":
                    out.append(Code(line=_line(child), text=child.text.decode("utf-8",
                                                                                "replace")))
                elif child.type != "comment":
                    out.append(self.element(child, (*path, len(out))))
        return out

    def element(self, node, path: tuple[object, ...]) -> object:
        """An element or a property's value: one that is not a literal stands as its code,
        so the rest is still read, and json_bank.py names it where it is used."""
        try:
            return self.value(node, path)
        except _NotLiteral as exc:
            self.lines[path] = _line(node)
            return Code(line=_line(exc.node), text=exc.node.text.decode("utf-8", "replace"))


def _callee(node) -> str:
    """What a call or ``new`` calls, as written, without spaces ("Map", "Object.freeze")."""
    called = node.child_by_field_name("constructor" if node.type == "new_expression"
                                      else "function")
    return "".join(called.text.decode("utf-8", "replace").split()) if called else ""


def _arguments(node):
    """A call's arguments (unwrapped, comments left out), or None if one is spread."""
    given = node.child_by_field_name("arguments")
    if given is None:  # "new Map" without parentheses
        return [] if node.type == "new_expression" else None
    found = [_unwrap(a) for a in given.named_children if a.type != "comment"]
    return None if any(a is None or a.type == "spread_element" for a in found) else found


def _key_of(node) -> str | None:
    """A Map entry's key as text, if it is a literal string or number."""
    node = _unwrap(node)
    if node is not None and node.type == "number":
        return node.text.decode("utf-8")
    if node is not None and node.type in ("string", "template_string"):
        try:
            return _string(node)
        except _NotLiteral:
            return None
    return None


_LITERALS = ("string", "template_string", "number", "true", "false", "null")


def _positional(node) -> bool:
    """Whether a call is one question written by position: three arguments or more,
    each a literal (a text, a number, a truth, or an array of these), one a text
    (``new Question("Which…?", ["a", "b"], 1)``, ``addQuestion("Which…?", "a", "b",
    "B")``)."""
    arguments = _arguments(node) if node.type in ("new_expression",
                                                  "call_expression") else None
    if not arguments or len(arguments) < 3 or not any(
            a.type in ("string", "template_string") for a in arguments):
        return False
    return all(_literal(a) or a.type == "array" and all(
        _literal(_unwrap(c)) for c in a.named_children if c.type != "comment")
        for a in arguments)


def _literal(node) -> bool:
    if node is None:
        return False
    if node.type == "unary_expression" and node.child_count == 2:
        return node.children[1].type == "number"
    return node.type in _LITERALS and not (node.type == "template_string" and any(
        c.type == "template_substitution" for c in node.named_children))


def _holds_data(node) -> bool:
    """Whether a value may hold a bank: an array or object literal, or a call of one
    (``new Map([…])``, ``Object.freeze({…})``, ``JSON.parse('…')``), or a question
    written as a call's arguments (``_positional``)."""
    if node is None:
        return False
    if node.type in ("array", "object"):
        return True
    if node.type not in ("new_expression", "call_expression"):
        return False
    if _positional(node):
        return True
    called = node.child_by_field_name("function")
    if called is not None and called.type == "member_expression" and _unwrap(
            called.child_by_field_name("object")).type in ("array", "object", "call_expression",
                                                           "new_expression"):
        return False  # [a].concat([b]): a call on data, not a wrapper of it (_carried)
    arguments = _arguments(node)
    if not arguments or len(arguments) != 1:
        return False
    if _callee(node) == "JSON.parse":
        return arguments[0].type in ("string", "template_string")
    return arguments[0].type in ("array", "object")


def _parameters(root) -> dict[str, list[str]]:
    """The parameters' names of each function and class declared at the file's top level
    (``function Question(text, choices, answer)``, a class's constructor, ``const f =
    (q, a) => …``), by its name; one whose parameters are not all plain names is left
    out."""
    found: dict[str, list[str]] = {}
    for node in root.named_children:
        if node.type == "export_statement" and node.child_by_field_name("declaration"):
            node = node.child_by_field_name("declaration")
        named = [(node.child_by_field_name("name"), node)] if node.type in (
            "function_declaration", "class_declaration") else [
            (d.child_by_field_name("name"), d.child_by_field_name("value"))
            for d in node.named_children if d.type == "variable_declarator"] if node.type in (
            "lexical_declaration", "variable_declaration") else []
        for name, value in named:
            if name is None or value is None:
                continue
            if value.type == "class_declaration":
                body = value.child_by_field_name("body")
                value = next((m for m in (body.named_children if body else ())
                              if m.type == "method_definition" and (
                                  n := m.child_by_field_name("name")) is not None
                              and n.text == b"constructor"), None)
            given = value.child_by_field_name("parameters") if value is not None else None
            names = [_parameter(p) for p in given.named_children
                     if p.type != "comment"] if given is not None else []
            plain = [n for n in names if n]
            if plain and len(plain) == len(names):
                found[name.text.decode("utf-8", "replace")] = plain
    return found


def _parameter(node) -> str | None:
    pattern = node.child_by_field_name("pattern") if node.type in (
        "required_parameter", "optional_parameter") else node
    return pattern.text.decode("utf-8", "replace") if pattern is not None and \
        pattern.type == "identifier" else None


def _declared(root):
    """(name, value node) of each declaration, default export or assignment whose value
    may hold a bank (``_holds_data``), in the file's order; and the elements added to a
    variable one at a time, by its name: (the index written, or None for a ``push``, the
    value node) of each ``q[0] = {…}`` and ``q.push({…}, …)``, in the file's order."""
    found: list[tuple[str, object]] = []
    added: dict[str, list[tuple[int | str | None, object]]] = {}
    calls: dict[str, list[tuple[bool, object]]] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "expression_statement" and node.named_children and _called(
                call := _unwrap(node.named_children[0])):
            # addQuestion("Which…?", "a", "b", "B"); on each line: the calls are the bank
            calls.setdefault(f"{_callee(call)}()", []).append((_positional(call), call))
            continue
        named = _named_value(node)
        if named is not None:
            found.append(named)
            continue
        if node.type == "assignment_expression" and _assigned(node, added):
            continue
        if node.type == "call_expression" and _pushed(node, added):
            continue
        stack.extend(reversed(node.children))
    for name, made in calls.items():
        if any(literal for literal, _ in made):  # one not all literal is named as code
            added.setdefault(name, []).extend((None, call) for _, call in made)
    return found, added


def _called(node) -> bool:
    """Whether a statement's call may be one question written as its arguments: three
    arguments or more, one a text (``_positional`` if all are literals); not a push."""
    if node is None or node.type != "call_expression":
        return False
    arguments = _arguments(node) or []
    return len(arguments) >= 3 and not _callee(node).endswith(".push") and any(
        a.type in ("string", "template_string") for a in arguments)


def _named_value(node) -> tuple[str, object] | None:
    """(name, value) if ``node`` declares, exports or assigns a value that may hold a
    bank, or is such a value standing alone as a statement (a bare ``[…]``)."""
    if node.type == "variable_declarator":
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
    elif node.type == "export_statement":
        name, value = "default", node.child_by_field_name("value")
    elif node.type in _DECLARED_FUNCTIONS:  # function questions() { return […]; }
        name, value = node.child_by_field_name("name"), node
    elif node.type == "assignment_expression":  # module.exports = …, window.quiz = …
        name, value = node.child_by_field_name("left"), node.child_by_field_name("right")
        if name is not None and name.type == "subscript_expression":
            return None  # q[0] = {…}: an element (_assigned)
    elif node.type == "expression_statement" and node.named_children:
        # a bare [ … ] or ({ … }) alone, or a call of one (new Vue({data: …})); not a push
        value = _unwrap(node.named_children[0])
        if value is None or value.type == "call_expression" and _callee(value).endswith(
                ".push"):
            return None
        name = f"line {_line(value)}"
    else:
        return None
    data = _data(value)
    if name is None or data is None:
        return None
    return (name if isinstance(name, str) else name.text.decode("utf-8")), data


_DECLARED_FUNCTIONS = ("function_declaration", "generator_function_declaration")
_FUNCTIONS = (*_DECLARED_FUNCTIONS, "arrow_function", "function_expression",
              "function", "generator_function", "method_definition")
_HOPS = 8  # functions that return functions, looked through at most


def _data(value):
    """The literal data a value is, or gives: the array or object literal itself, or a
    call of one (``_holds_data``); the literals a chain of calls is made on or of
    (``_carried``: a list if several); what a function returns when its body ends by
    returning data (``() => […]``, ``function f() { …; return […]; }``, ``data() {
    return {…} }``). None if it is none of these."""
    value = _unwrap(value)
    for _ in range(_HOPS):
        if value is None or value.type not in _FUNCTIONS:
            break
        value = _unwrap(_returned(value))
    if value is None:
        return None
    if _holds_data(value):
        return value
    carried = _carried(value)
    return None if not carried else carried[0] if len(carried) == 1 else carried


def _returned(node):
    """The expression a function gives back at the end of its body: an arrow's
    expression, or the value of the ``return`` its block ends with; None if neither."""
    body = node.child_by_field_name("body")
    if body is None or body.type != "statement_block":
        return body
    last = next((c for c in reversed(body.named_children) if c.type != "comment"), None)
    if last is None or last.type != "return_statement" or not last.named_children:
        return None
    return last.named_children[0]


# Calls that give a new array of the elements of the one they are called on (or whose
# order they change), whatever their arguments: ``[…].map(f)`` gives f's of the same
# records, which is what the bank holds as written.
_CARRYING = 64  # calls in one chain looked through at most


# Of those, the calls that keep the values as written (shuffled or sorted): any other
# (``["a", "b"].map(f)``) may change them, which only records' shape survives.
_KEEPING = frozenset(("sort", "toSorted", "reverse", "toReversed", "concat", "slice"))


def _carried(node, keeping: bool = False) -> list:
    """The array and object literals a value is built from when it is a call on them or
    of them: the receiver of ``[…].map(f)``, ``.filter(…)``, ``.slice(…)``,
    ``.concat([…])`` (and the arrays given to it), any call's argument that holds data
    (``shuffle([…])``), through a chain of such calls; [] if there is none. With
    ``keeping`` (a value inside a literal), a call that may change the values
    (``options: ["a", "b"].map(f)``: f's texts) is read only on an array of records, whose
    shape the reading finds whatever f renames. A function given to a call is not
    looked into: it is no data."""
    found = []
    changed = False
    stack = [node]
    looked = 0
    while stack and looked < _CARRYING:
        node = _unwrap(stack.pop())
        looked += 1
        if node is None:
            continue
        if node.type == "await_expression" and node.named_children:
            stack.append(node.named_children[0])
        elif _holds_data(node):
            found.append(node)
        elif node.type == "call_expression":
            called = node.child_by_field_name("function")
            arguments = _arguments(node) or []
            stack.extend(reversed(arguments))
            if called is not None and called.type == "member_expression":
                method = called.child_by_field_name("property")
                changed = changed or method is None or method.text.decode() not in _KEEPING
                stack.append(called.child_by_field_name("object"))
    if keeping and changed and not all(_records(n) for n in found):
        return []
    return found


def _records(node) -> bool:
    """Whether ``node`` is an array literal of object literals (a list of records)."""
    items = [_unwrap(c) for c in node.named_children if c.type != "comment"] \
        if node.type == "array" else []
    return bool(items) and all(c is not None and c.type == "object" for c in items)


def _assigned(node, added) -> bool:
    """Note ``q[0] = {…}`` (an element assigned by its index) in ``added``."""
    left = node.child_by_field_name("left")
    value = _unwrap(node.child_by_field_name("right"))
    if left is None or left.type != "subscript_expression" or not _holds_data(value):
        return False
    target, index = left.child_by_field_name("object"), left.child_by_field_name("index")
    if target is None:
        return False
    written: int | str | None = None
    if index is not None and index.type == "number" and index.text.isdigit():
        written = int(index.text)
    elif index is not None and index.type == "string":
        try:
            text = _string(index)
        except _NotLiteral:
            text = None
        written = int(text) if text is not None and text.isdecimal() and text.isascii() \
            else text
    added.setdefault(target.text.decode("utf-8"), []).append((written, value))
    return True


def _pushed(node, added) -> bool:
    """Note ``q.push({…}, …)`` (elements added at the end) in ``added``."""
    called = node.child_by_field_name("function")
    given = node.child_by_field_name("arguments")
    if called is None or called.type != "member_expression" or given is None:
        return False
    what = called.child_by_field_name("property")
    target = called.child_by_field_name("object")
    values = [a for a in given.named_children if a.type != "comment"]
    if what is None or what.text != b"push" or target is None or not any(
            _holds_data(_unwrap(a)) for a in values):
        return False
    added.setdefault(target.text.decode("utf-8"), []).extend((None, a) for a in values)
    return True


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
    values = _Values(source, _parameters(root))
    declared: dict[str, object] = {}
    problems: list[Diagnostic] = []
    found, added = _declared(root)
    try:
        for name, node in found:
            declared[name] = values.joined(node, (name,)) if isinstance(node, list) else \
                values.element(node, (name,))
        for name, nodes in added.items():
            if name.endswith("()"):
                values.forms[(name,)] = "each call of {0}"
            declared[name] = _with_added(values, name, declared.get(name), nodes, (path,
                                                                                 problems))
    except _TooDeep as exc:
        return Reading((), (error("E701", path, _line(exc.node), (
            f"nested more than {DEPTH} levels deep; no bank needs that: nothing in the "
            "file was converted")),))
    del root, found, added  # the syntax tree: every value is read out of it now
    values.forms.setdefault((), "the values declared in the file, each one a question")
    sections, said = read_records(declared, path=path, line_of=values.line,
                                  overrides=overrides or {},
                                  default_title=title_from_name(path), is_code=code_text,
                                  places=Places(values.keys, values.forms))
    problems += said
    if not sections and not any(d.is_error for d in problems):
        problems.append(error("E701", path, 1, _none_found(list(declared))))
    return Reading(sections, tuple(problems))


def _none_found(names: list[str]) -> str:
    """Why nothing was converted: no array or object at all, or the ones found (``names``)
    hold nothing read as a question."""
    if not names:
        return ("no array or object of questions found (as in `export const questions = "
                "[{question, options, correct, explanation}]`); nothing in the file was "
                "converted")
    shown = ", ".join(f"'{clip(n, 30)}'" for n in names[:3]) + (
        f" and {len(names) - 3} more" if len(names) > 3 else "")
    return (f"found {shown} but it holds no questions (no object with a prompt and "
            "choices, as in {question, options, correct}); else name the keys with --map "
            "KEY=ROLE; nothing in the file was converted")


def _with_added(values: _Values, name: str, base: object,
                added: list[tuple[int | str | None, object]],
                said: tuple[str, list[Diagnostic]]) -> object:
    """The variable ``name`` as the program builds it: its declared value ``base`` with
    the elements ``added`` one at a time (``q[3] = {…}`` at index 3, ``q.push({…})`` at
    the end; ``q["x"] = {…}`` into an object), each keeping its place as written. An
    index assigned twice keeps its second value, as the program does, and is said."""
    path, problems = said
    if isinstance(base, dict) or (base is None and all(isinstance(i, str) for i, _ in added)):
        out = dict(base) if isinstance(base, dict) else {}
        for index, node in added:
            key = str(len(out)) if index is None else str(index)
            out[key] = values.element(node, (name, key))
        values.forms.setdefault((name,), "the properties set one at a time on {0}")
        return out
    items: dict[int, object] = dict(enumerate(base)) if isinstance(base, list) else {}
    lines: dict[int, int] = {}
    end = len(items)
    for index, node in added:
        at = index if isinstance(index, int) else end
        if at in lines:
            problems.append(warning("W705", path, _line(node), (
                f"{clip(name, 40)}[{at}] is assigned twice (lines {lines[at]} and "
                f"{_line(node)}); the program keeps the second, and so does the import: "
                "delete one")))
        items[at], lines[at] = values.element(node, (name, at)), _line(node)
        end = max(end, at + 1)
    order = sorted(items)
    if order != list(range(len(order))):
        values.keys[(name,)] = list(order)
    values.forms.setdefault((name,), "the elements assigned one at a time to {0} ([0] = {{…}})"
                            if any(isinstance(i, int) for i, _ in added) else
                            "the elements added one at a time to {0} (.push({{…}}))")
    return [items[k] for k in order]
