"""Mutation testing of the firmware: do the tests notice a small plausible bug?

    python tools/mutants.py firmware/storage.py --tests host_tests/test_storage.py
    python tools/mutants.py firmware/recorder.py --tests test_recorder --max 10
    python tools/mutants.py firmware/app.py --list          the mutants it would make

Makes small plausible bugs (mutants) in a firmware module, one at a time, in a scratch copy
of the repository (firmware/, host_tests/, tools/), runs the named test modules against each
and prints, per mutant, KILLED (a test failed: the bug is caught) or SURVIVED (every test
passed: a gap in the tests, or a change that makes no difference), with file:line, what was
changed, the code before and after, and the seconds it took. Nothing in this checkout is
changed.

The mutants: a negated comparison (== and !=, < and >=, in and not in, ...), a boundary moved
by one (< and <=, > and >=), a changed constant (a number one up, True and False swapped), a
dropped condition (`a and b` becomes `a`, an if without else always runs) and a swapped branch
(an if with an else, or `x if c else y`, takes the other way). Sites are taken evenly spread
over the module, at most --max of them (--line picks lines).

Options:
  --tests T [T ...]   test modules to run (host_tests/test_x.py, test_x.py or test_x); required
                      unless --list
  --max N             mutants per module, spread over it (default 20; 0: every site)
  --line L[,L...]     only the sites on these lines
  --runtime R         cpython, micropython or both (default: both, as the test command runs)
  --timeout S         seconds one test run may take before the mutant counts as killed (a
                      hang: default 900)
  --list              print the mutants and stop
  --keep DIR          make the scratch copy in DIR and keep it (default: a temporary folder,
                      removed at the end)
"""
import argparse
import ast
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COPIED = ("firmware", "host_tests", "tools")
SKIP_DIRS = ("node_modules", "__pycache__", ".pytest_cache", "build")
PROG = "mutants.py"

NEGATE = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
          ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In,
          ast.Is: ast.IsNot, ast.IsNot: ast.Is}
BOUNDARY = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}


class Mutant:
    def __init__(self, path, node, kind, new):
        self.path = path
        self.line = node.lineno
        self.span = (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
        self.kind = kind
        self.new = new                     # the replacement text of the node's span

    def label(self, source_lines):
        old = _span_text(source_lines, self.span)
        return "%s:%d %s: %s -> %s" % (os.path.relpath(self.path, ROOT), self.line, self.kind,
                                       _short(old), _short(self.new))


def _short(text, n=48):
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 3] + "..."


def _span_text(lines, span):
    # lines: the source as bytes lines (AST columns count UTF-8 bytes)
    l0, c0, l1, c1 = span
    if l0 == l1:
        return lines[l0 - 1][c0:c1].decode()
    parts = [lines[l0 - 1][c0:]] + lines[l0:l1 - 1] + [lines[l1 - 1][:c1]]
    return b"".join(parts).decode()


def _docstrings(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body and \
                isinstance(node.body[0], ast.Expr) and \
                isinstance(node.body[0].value, ast.Constant):
            out.add(id(node.body[0].value))
    return out


def mutants_of(path):
    """Every mutant of the module at path, in the order of its lines."""
    with open(path, "rb") as f:
        source = f.read()
    tree = ast.parse(source)
    docs = _docstrings(tree)
    out = []

    def add(node, kind, new_node):
        out.append(Mutant(path, node, kind, ast.unparse(new_node)))

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            op = type(node.ops[0])
            if op in NEGATE:
                add(node, "negated comparison",
                    ast.Compare(node.left, [NEGATE[op]()], node.comparators))
            if op in BOUNDARY:
                add(node, "boundary moved by one",
                    ast.Compare(node.left, [BOUNDARY[op]()], node.comparators))
        elif isinstance(node, ast.Constant) and id(node) not in docs:
            v = node.value
            if v is True or v is False:
                add(node, "changed constant", ast.Constant(not v))
            elif type(v) is int:
                add(node, "changed constant", ast.Constant(v + 1))
        elif isinstance(node, ast.BoolOp) and len(node.values) >= 2:
            rest = node.values[:-1]
            kept = rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)
            add(node, "dropped condition", kept)
        elif isinstance(node, ast.IfExp):
            add(node, "swapped branch", ast.IfExp(node.test, node.orelse, node.body))
        elif isinstance(node, ast.If):
            test = node.test
            if node.orelse:
                add(test, "swapped branch", ast.UnaryOp(ast.Not(), test))
            else:
                add(test, "dropped condition", ast.Constant(True))
    out.sort(key=lambda m: (m.span[0], m.span[1]))
    return out


def apply(source, mutant):
    """The source (bytes) with the mutant's span replaced."""
    lines = source.splitlines(True)
    l0, c0, l1, c1 = mutant.span
    new = mutant.new.encode()
    if l1 > l0 or "\n" in mutant.new:
        new = b"(" + new + b")"
    head = b"".join(lines[:l0 - 1]) + lines[l0 - 1][:c0]
    tail = lines[l1 - 1][c1:] + b"".join(lines[l1:])
    return head + new + tail


def spread(items, n):
    """n of items, evenly spread (all of them when n is 0 or more than there are)."""
    if not n or n >= len(items):
        return list(items)
    return [items[(2 * i + 1) * len(items) // (2 * n)] for i in range(n)]


def copy_tree(dest):
    for name in COPIED:
        shutil.copytree(os.path.join(ROOT, name), os.path.join(dest, name), symlinks=True,
                        ignore=shutil.ignore_patterns(*SKIP_DIRS))
    link = os.path.join(ROOT, "tools", "rp2040", "node_modules")
    if os.path.exists(link):               # (the emulated Pico's packages: not copied)
        os.symlink(os.path.realpath(link), os.path.join(dest, "tools", "rp2040", "node_modules"))


def test_path(name):
    """host_tests/test_x.py for test_x.py, test_x or a path; None when there is none."""
    base = os.path.basename(name)
    if not base.endswith(".py"):
        base += ".py"
    path = os.path.join(ROOT, "host_tests", base)
    return ("host_tests/" + base) if os.path.isfile(path) else None


def run_tests(scratch, tests, runtime, timeout):
    """(killed, seconds, the last lines of pytest's output)."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider"]
    if runtime != "both":
        cmd += ["-k", "not " + ("micropython" if runtime == "cpython" else "cpython")]
    cmd += tests
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return True, time.time() - t0, "timeout"
    tail = (p.stdout + p.stderr).strip().splitlines()[-1:] or [""]
    if p.returncode not in (0, 1):         # (5: nothing collected, 2-4: pytest's own errors)
        raise RuntimeError("the tests did not run: %s" % tail[0])
    return p.returncode == 1, time.time() - t0, tail[0]


def _stop(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    ap = argparse.ArgumentParser(prog=PROG, usage="%(prog)s MODULE [MODULE ...] --tests T "
                                 "[T ...] [options]", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 add_help=True)
    ap.add_argument("modules", nargs="+", metavar="MODULE", help="firmware modules to mutate")
    ap.add_argument("--tests", nargs="+", default=[], metavar="T")
    ap.add_argument("--max", type=int, default=20, metavar="N")
    ap.add_argument("--line", default="", metavar="L[,L...]")
    ap.add_argument("--runtime", choices=("both", "cpython", "micropython"), default="both")
    ap.add_argument("--timeout", type=float, default=900, metavar="S")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--keep", metavar="DIR")
    a = ap.parse_args(argv)
    if a.max < 0:
        ap.error("--max must be 0 or more")
    try:
        lines = set(int(x) for x in a.line.split(",") if x.strip())
    except ValueError:
        ap.error("--line takes line numbers, e.g. --line 120,131")
    paths = []
    for m in a.modules:
        path = os.path.abspath(m)
        if not os.path.isfile(path) or not path.endswith(".py"):
            ap.error("%s is not a Python file" % m)
        if not path.startswith(os.path.join(ROOT, "firmware") + os.sep):
            ap.error("%s is not in firmware/ (the tests run against firmware/)" % m)
        paths.append(path)
    tests = []
    for t in a.tests:
        p = test_path(t)
        if p is None:
            ap.error("no test module %s in host_tests/" % t)
        tests.append(p)
    if not tests and not a.list:
        ap.error("name the test modules to run: --tests host_tests/test_x.py ...")
    plan = []
    for path in paths:
        found = mutants_of(path)
        if lines:
            found = [m for m in found if m.line in lines]
        plan += spread(found, a.max)
    sources = {}
    for path in paths:
        with open(path, "rb") as f:
            sources[path] = f.read()
    if a.list:
        for m in plan:
            print(m.label(sources[m.path].splitlines()))
        print("%d mutants" % len(plan))
        return 0
    signal.signal(signal.SIGTERM, _stop)  # (a kill cleans up as Ctrl-C does)
    scratch = a.keep or tempfile.mkdtemp(prefix="mutants-")
    if a.keep:
        if os.path.exists(scratch) and os.listdir(scratch):
            ap.error("--keep %s: the folder is not empty" % scratch)
        os.makedirs(scratch, exist_ok=True)
    results = []
    try:
        copy_tree(scratch)
        killed, secs, tail = run_tests(scratch, tests, a.runtime, a.timeout)
        if killed:
            print("%s: the tests fail without any mutant (%s): fix them first"
                  % (PROG, tail), file=sys.stderr)
            return 2
        print("unmutated: the tests pass (%.1f s)" % secs)
        for m in plan:
            rel = os.path.relpath(m.path, ROOT)
            target = os.path.join(scratch, rel)
            text = apply(sources[m.path], m)
            label = m.label(sources[m.path].splitlines())
            try:
                compile(text, rel, "exec")
            except SyntaxError:
                print("INVALID  %s" % label)
                continue
            with open(target, "wb") as f:
                f.write(text)
            try:
                killed, secs, tail = run_tests(scratch, tests, a.runtime, a.timeout)
            finally:
                with open(target, "wb") as f:
                    f.write(sources[m.path])
            results.append((killed, label))
            print("%-8s %s  (%.1f s)" % ("KILLED" if killed else "SURVIVED", label, secs),
                  flush=True)
    except RuntimeError as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("%s: stopped" % PROG, file=sys.stderr)
        return 130
    finally:
        if not a.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    k = sum(1 for r in results if r[0])
    print("%d mutants: %d killed, %d survived%s" % (
        len(results), k, len(results) - k,
        " (%.0f %% killed)" % (100.0 * k / len(results)) if results else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
