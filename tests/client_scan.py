"""How the clients' guard reads a client file (tests/test_clients_know_no_game.py): its text split
into what it says in code (names it reads or writes: member access, object keys, string literals,
patterns) and what it only says in prose (comments), per language: JavaScript, Python, JSON, CSS
and HTML. Pure functions of the text; the guard decides what is forbidden."""
from __future__ import annotations

import ast
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
TOKEN = re.compile(r"[A-Za-z0-9_]+")
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}
_REGEX_WORDS = {"return", "typeof", "case", "in", "of", "new", "delete", "void", "throw"}


@dataclass
class Said:
    """What one file says: the names its code uses (member access, keys, arguments), the string
    literals it holds, the patterns (regexes) it matches with, and its whole text for prose."""

    names: set[str] = field(default_factory=set)
    keys: set[str] = field(default_factory=set)  # object keys, CSS classes: attributes as often as data
    strings: list[str] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)
    prose: str = ""


def folded(text: str) -> str:
    """Lower case without diacritics (Prší reads as prsi)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


def _js_segments(text: str) -> list[tuple[str, str]]:
    """(kind, text) runs of a JavaScript module: code, string, template, regex, comment."""
    out: list[tuple[str, str]] = []
    i, n, start, last = 0, len(text), 0, ""

    def flush(upto: int) -> None:
        if upto > start:
            out.append(("code", text[start:upto]))

    while i < n:
        c = text[i]
        if text.startswith("//", i) or text.startswith("/*", i):
            flush(i)
            end = text.find("\n", i) if c + text[i + 1] == "//" else text.find("*/", i + 2) + 2
            end = n if end <= 0 else end
            out.append(("comment", text[i:end]))
            i = start = end
            continue
        if c in "\"'`":
            flush(i)
            j = i + 1
            depth = 0
            while j < n and not (text[j] == c and depth == 0):
                if text[j] == "\\":
                    j += 1
                elif c == "`" and text.startswith("${", j):
                    depth += 1
                elif c == "`" and text[j] == "}" and depth:
                    depth -= 1
                j += 1
            body = text[i + 1:j]
            if c == "`":  # the text parts are strings; the ${...} parts are code
                for k, part in enumerate(re.split(r"\$\{|\}", body)):
                    out.append(("code" if k % 2 else "string", part))
            else:
                out.append(("string", body))
            i = start = j + 1
            last = "x"
            continue
        if c == "/":
            prev = text[start:i].rstrip()
            word = IDENT.findall(prev[-10:])
            before = prev[-1:] if prev else last
            if before in _REGEX_AFTER or (word and prev.endswith(word[-1]) and word[-1] in _REGEX_WORDS):
                flush(i)
                j, in_class = i + 1, False
                while j < n and (text[j] != "/" or in_class):
                    if text[j] == "\\":
                        j += 1
                    elif text[j] == "[":
                        in_class = True
                    elif text[j] == "]":
                        in_class = False
                    j += 1
                out.append(("regex", text[i + 1:j]))
                j += 1
                while j < n and text[j].isalpha():
                    j += 1
                i = start = j
                last = "x"
                continue
        if not c.isspace():
            last = c
        i += 1
    flush(n)
    return out


def _js_code_names(code: str) -> tuple[set[str], set[str]]:
    """(member access ``.x`` / ``?.x`` and shorthand or destructured names ``{ x, y }``: the names
    a module reads from data; object keys ``{ x:`` / ``, x:``: data or DOM attributes)."""
    names = set(re.findall(r"\??\.\s*([A-Za-z_$][\w$]*)", code))
    for inner in re.findall(r"\{([\w$\s,]+)\}", code):  # { a, b } shorthand and destructuring
        names |= set(IDENT.findall(inner))
    return names, set(re.findall(r"[{,]\s*([A-Za-z_$][\w$]*)\s*:(?!:)", code))


def read_js(text: str) -> Said:
    said = Said(prose=text)
    for kind, part in _js_segments(text):
        if kind == "code":
            names, keys = _js_code_names(part)
            said.names |= names
            said.keys |= keys
        elif kind == "string":
            said.strings.append(part)
        elif kind == "regex":
            said.patterns.append(part)
    return said


_LOOKUPS = frozenset(n for n in dir(Mapping) if not n.startswith("_")) | {"__getitem__", "__contains__"}


def _data_strings(tree: ast.AST) -> list[str]:
    """The string constants Python code reads data with or compares data to: a subscript, a dict
    key, a Mapping method's argument (``.get("x")``), a comparison's operand, an element of a
    literal collection (a skip list), a constant's value (``X = "..."``). An argument to any other
    call (``add_parser("play")``, ``Text("...")``) is not a datum."""
    out: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            out.append(node.slice)
        elif isinstance(node, ast.Dict):
            out += [k for k in node.keys if k is not None]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LOOKUPS:
            out += node.args
        elif isinstance(node, ast.Compare):
            out += [node.left, *node.comparators]
        elif isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            out += node.elts
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Constant):
            out.append(node.value)
    strings = []
    for node in out:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                strings.append(sub.value)
    return strings


def read_py(text: str) -> Said:
    """Attributes and keyword arguments are names; the string constants that read or compare data
    are strings; every string constant may be a pattern (``re.compile``)."""
    tree = ast.parse(text)
    said = Said(prose=text, strings=_data_strings(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            said.names.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            said.names.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            said.patterns.append(node.value)
    return said


def read_json(text: str) -> Said:
    """Keys are what the code looks up (each dotted part a name); values are words for people."""
    said = Said(prose=text)

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                said.names |= set(str(k).split("."))
                said.strings.append(str(k))
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            said.strings.append(value)

    walk(json.loads(text))
    return said


def read_markup(text: str) -> Said:
    """CSS and HTML: each part of a class name, attribute value or selector is a key."""
    bare = re.sub(r"/\*.*?\*/|<!--.*?-->", " ", text, flags=re.S)
    return Said(keys=set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", bare)), prose=text)


READERS = {".js": read_js, ".py": read_py, ".json": read_json, ".css": read_markup, ".html": read_markup,
           ".svg": read_markup}
