# Test collection shared by all host tests.
#
# A module that sets RUNTIMES = ("cpython", "micropython") is pytest-free (it uses checks.py)
# and each of its test functions is collected twice: test_x[cpython] runs in this process,
# test_x[micropython] takes its result from ONE MicroPython unix-port run of the whole module
# (started once per module, not once per test). Tests named in the module's MICROPYTHON_ONLY
# tuple (heap-allocation checks, which mean nothing on CPython) are collected for MicroPython
# only.
import atexit
import json
import os
import shutil
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))   # vboard, micropython_env
import micropython_env  # noqa: E402
import vboard  # noqa: E402

vboard.install_framebuf()   # CPython: the framebuf stand-in

sys.path.insert(0, micropython_env.FIRMWARE)

# Scratch files of this session (checks.scratch_root), removed at its end.
if not os.environ.get("BARRAGOON_SCRATCH"):
    os.environ["BARRAGOON_SCRATCH"] = tempfile.mkdtemp(prefix="barragoon-tests-")
    atexit.register(shutil.rmtree, os.environ["BARRAGOON_SCRATCH"], True)

_mp_results = {}


def _micropython_results(module):
    name = module.__name__.rsplit(".", 1)[-1]
    if name not in _mp_results:
        if micropython_env.find_micropython() is None:
            _mp_results[name] = None
        else:
            proc = micropython_env.run(
                [os.path.join(HERE, "mp_runner.py"),
                 micropython_env.FIRMWARE, HERE, name],
                heap=getattr(module, "MICROPYTHON_HEAP", 4 * 1024 * 1024))
            results = {}
            for line in proc.stdout.splitlines():
                if line.startswith("{"):
                    r = json.loads(line)
                    results[r["name"]] = r
            if not results:
                results["<import>"] = {"ok": False, "error": proc.stdout + proc.stderr}
            _mp_results[name] = results
    return _mp_results[name]


@pytest.fixture(autouse=True)
def runtime(request):
    return getattr(request, "param", "cpython")


# The quick subset (`pytest host_tests -m "not slow"`) leaves out whole modules that boot the
# emulated Pico, drive a browser or fuzz for long: the README states both runs' times.
SLOW_MODULES = ("test_rp2040_", "test_sim_e2e", "test_sim_hints", "test_reference_compare",
                "test_controller_property", "test_watch")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long module, left out of the quick subset")


# The modules that take longest, longest first: they start first, so that with several pytest
# workers the run does not end waiting on one of them.
LONG_FIRST = ("test_rp2040_faults", "test_rp2040_frozen", "test_rp2040_power_cut",
              "test_board_events", "test_rp2040_deploy", "test_rp2040_play", "test_rp2040_soak", "test_rp2040_heap",
              "test_sim_e2e", "test_sim_hints", "test_rp2040_watch", "test_watch",
              "test_rp2040_opponent", "test_rp2040_engine", "test_clock_play",
              "test_sim_opponent", "test_reference_compare", "test_opponent", "test_firmware",
              "test_circuit_faults")


def _module(item):
    return item.module.__name__.rsplit(".", 1)[-1]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _module(item).startswith(SLOW_MODULES):
            item.add_marker(pytest.mark.slow)
    rank = dict((m, i) for i, m in enumerate(LONG_FIRST))
    items.sort(key=lambda item: rank.get(_module(item), len(LONG_FIRST)))   # stable


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    # The whole run uses up to 4 cores (pytest-xdist), each test module on one worker, so a
    # module still starts its interpreters and emulators once. `-n 0` runs in one process.
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return None
    if getattr(config.option, "numprocesses", None) is None and not config.option.collectonly:
        workers = min(4, os.cpu_count() or 1)
        if workers > 1:
            config.option.numprocesses = workers
    if config.option.numprocesses and config.option.dist == "no":
        # (also for an explicit -n: a module's MicroPython run on two workers at once would
        # share its scratch files)
        config.option.dist = "loadfile"
        config.option.loadscopereorder = False             # keep LONG_FIRST's order
    return None


def pytest_generate_tests(metafunc):
    runtimes = getattr(metafunc.module, "RUNTIMES", None)
    if metafunc.function.__name__ in getattr(metafunc.module, "MICROPYTHON_ONLY", ()):
        runtimes = ("micropython",)
    if runtimes and "runtime" in metafunc.fixturenames:
        metafunc.parametrize("runtime", list(runtimes))


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    callspec = getattr(pyfuncitem, "callspec", None)
    if callspec is None or callspec.params.get("runtime") != "micropython":
        return None
    results = _micropython_results(pyfuncitem.module)
    if results is None:
        pytest.skip(micropython_env.missing_reason())
    name = pyfuncitem.originalname
    r = results.get(name)
    if r is None:
        imp = results.get("<import>")
        pytest.fail("MicroPython did not run %s: %s" % (name, imp["error"] if imp else "no result"))
    if not r["ok"]:
        pytest.fail("on MicroPython:\n" + r["error"], pytrace=False)
    return True


def pytest_terminal_summary(terminalreporter):
    # One line per reason, even with -q, for every group of tests that did not run here (no
    # MicroPython unix port, no Node.js or rp2040js, no Chromium, no Pico files, long runs off).
    counts = {}
    for r in terminalreporter.stats.get("skipped", []):
        why = skip_reason(r)
        counts[why] = counts.get(why, 0) + 1
    for why in sorted(counts, key=lambda w: -counts[w]):
        advice = (" (tools/README.md: the MicroPython unix port)" if why.startswith("no MicroPython unix port")
                  and not micropython_env.hidden() else "")
        terminalreporter.write_line("%d skipped: %s%s" % (counts[why], why, advice))


def skip_reason(report):
    """The reason a skipped test gives, without pytest's "Skipped: " prefix."""
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return text[len("Skipped: "):] if text.startswith("Skipped: ") else text
