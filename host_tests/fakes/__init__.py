# Hardware fakes for host tests. fakes.install() must run before any driver module is imported:
# it puts the fakes into sys.modules, which is the reliable way to shadow the MicroPython unix
# port's built-in `machine` (and works the same on CPython). On CPython, where there is no
# `framebuf`, the stand-in of host_tests/shims/framebuf.py is installed (same pixels as
# MicroPython's).
import sys


def install():
    from fakes import machine, neopixel
    sys.modules["machine"] = machine
    sys.modules["neopixel"] = neopixel
    try:
        import framebuf  # noqa: F401  (built into MicroPython)
    except ImportError:
        sys.modules["framebuf"] = _cpython_framebuf()
    return machine


def _cpython_framebuf():
    import importlib.util
    import os
    shim = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "shims", "framebuf.py")
    spec = importlib.util.spec_from_file_location("framebuf", shim)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def reset():
    """Fresh fake hardware for the next test."""
    from fakes import machine, neopixel
    machine.clear()
    neopixel.reset()


def heap_bytes(fn, n=300):
    """Heap bytes used by fn(0) ... fn(n-1) after two warm-up calls, on MicroPython:
    (growth of gc.mem_alloc(), bytes counted by micropython.mem_total() or None). mem_total
    also catches blocks freed again, e.g. call frames of functions with many locals."""
    import gc
    try:
        from micropython import mem_total
    except ImportError:
        mem_total = None
    fn(0)
    fn(1)
    gc.collect()
    t0 = mem_total() if mem_total else 0
    a0 = gc.mem_alloc()
    i = 0
    while i < n:
        fn(i)
        i += 1
    a1 = gc.mem_alloc()
    t1 = mem_total() if mem_total else 0
    return a1 - a0, (t1 - t0 if mem_total else None)
