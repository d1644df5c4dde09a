# How tools/ is laid out, checked from its source: the scripts a user runs sit at the top of
# tools/ (test_tools_cli.py runs each with --help), the modules they share live in packages, and
# no module imports itself round a circle (an import cycle makes the result depend on which
# module is imported first, and half-initialised modules fail far from the cause).
# Imports are read with ast, so lazy imports inside functions count too; code that the tools
# send to another interpreter as a string (the emulated Pico's scripts) is not Python here.
import ast
import os
import subprocess
import sys

import pytest

import micropython_env

TOOLS_DIR = os.path.join(micropython_env.ROOT, "tools")
SKIP_DIRS = {"node_modules", "__pycache__"}


def tool_modules():
    """{dotted name relative to tools/: file} for every Python file under tools/."""
    found = {}
    for folder, dirs, files in os.walk(TOOLS_DIR):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        rel = os.path.relpath(folder, TOOLS_DIR)
        parts = [] if rel == "." else rel.split(os.sep)
        for name in files:
            if name.endswith(".py"):
                stem = name[:-3]
                dotted = ".".join(parts + ([] if stem == "__init__" else [stem]))
                found[dotted] = os.path.join(folder, name)
    return found


def is_package(folder):
    return os.path.exists(os.path.join(folder, "__init__.py"))


def imported_names(path, dotted):
    """Dotted names `path` imports, as absolute names (relative imports resolved)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    package = dotted if path.endswith("__init__.py") else dotted.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".") if package else []
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            yield base
            for alias in node.names:
                yield base + "." + alias.name if base else alias.name


def import_graph():
    """{module: set of tools/ modules it imports}. A name is looked up where Python would find
    it: in a script's own folder (sys.path[0], for scripts outside packages), then in tools/
    (every tool puts it on sys.path). Importing a.b also runs a/__init__.py; a module's own
    packages are left out (they are always imported before it)."""
    modules = tool_modules()
    graph = {}
    for dotted, path in modules.items():
        folder = os.path.dirname(path)
        local = "" if is_package(folder) else os.path.relpath(folder, TOOLS_DIR)
        prefixes = [local.replace(os.sep, ".") + "."] if local not in ("", ".") else []
        edges = set()
        for name in imported_names(path, dotted):
            for prefix in prefixes + [""]:
                parts = (prefix + name).split(".")
                hits = [".".join(parts[:i]) for i in range(1, len(parts) + 1)
                        if ".".join(parts[:i]) in modules]
                if hits:
                    edges.update(hits)
                    break
        parts = dotted.split(".")
        edges.difference_update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        graph[dotted] = edges
    return graph


def find_cycle(graph):
    """One import cycle as a list of modules (first == last), or None."""
    state = {}          # 1: on the current path, 2: done
    path = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_graph_sees_the_imports_the_tools_make():
    graph = import_graph()
    assert "rp2040.pico" in graph["rp2040.board"]
    assert "vboard.decode" in graph["rp2040.pico"]
    assert {"vboard", "vboard.decode"} <= graph["sim"]    # a package's __init__ runs first
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_among_tools():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)
