# Assertion helpers usable on CPython and on MicroPython (no pytest imports here), so that one
# test module runs unchanged on both runtimes.


def raises(exc_type, fn, *args):
    """Call fn(*args); it must raise exc_type. Returns the exception's message."""
    try:
        fn(*args)
    except exc_type as e:
        return str(e)
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc_type.__name__))


def scratch_dir(name):
    """An empty directory /tmp/barragoon_<name>_<runtime>/ (path with a trailing slash)."""
    import os
    import sys
    d = "/tmp/barragoon_%s_%s" % (name, sys.implementation.name)
    try:
        os.mkdir(d)
    except OSError:
        for f in os.listdir(d):
            os.remove(d + "/" + f)
    return d + "/"
