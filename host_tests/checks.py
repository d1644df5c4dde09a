# Assertion helpers usable on CPython and on MicroPython (no pytest imports here), so that one
# test module runs unchanged on both runtimes.


def raises(exc_type, fn, *args):
    """Call fn(*args); it must raise exc_type. Returns the exception's message."""
    try:
        fn(*args)
    except exc_type as e:
        return str(e)
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc_type.__name__))


def scratch_root():
    """Where the scratch directories go: $BARRAGOON_SCRATCH, which conftest.py sets to a new
    directory for each test session (the MicroPython runs inherit it), so that test runs of
    several checkouts at once do not clear each other's files; /tmp outside pytest."""
    import os
    return os.getenv("BARRAGOON_SCRATCH") or "/tmp"


def scratch_dir(name):
    """An empty directory <scratch_root>/barragoon_<name>_<runtime>/ (trailing slash)."""
    import os
    import sys
    d = "%s/barragoon_%s_%s" % (scratch_root(), name, sys.implementation.name)
    try:
        os.mkdir(d)
    except OSError:
        _empty(d)
    return d + "/"


def _empty(d):
    import os
    for f in os.listdir(d):
        p = d + "/" + f
        try:
            os.remove(p)
        except OSError:                       # a directory (the board's log/)
            _empty(p)
            os.rmdir(p)


def read_file(path, mode="r"):
    """The file's contents (mode "rb": bytes), or None when there is none."""
    try:
        f = open(path, mode)
    except OSError:
        return None
    try:
        return f.read()
    finally:
        f.close()
