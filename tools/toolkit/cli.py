# Command-line basics for the tools that also run on the MicroPython unix port (which has no
# argparse): --help prints the tool's description, a mistake is one line on stderr and exit
# status 2, never a traceback.
if __name__ == "__main__":      # run by mistake: say what it is instead of a traceback
    import sys
    sys.stderr.write("tools/toolkit/cli.py is a module the tools import, not a tool "
                     "(tools/README.md lists the tools)\n")
    sys.exit(2)

import sys


def fail(prog, message, status=2):
    """One line on stderr, then exit."""
    sys.stderr.write("%s: %s\n" % (prog, message))
    sys.exit(status)


def wants_help(argv):
    return "-h" in argv or "--help" in argv


def no_arguments(prog, doc, argv=None):
    """For a tool that takes no arguments: --help prints doc; anything else is refused."""
    args = sys.argv[1:] if argv is None else argv
    if wants_help(args):
        # MicroPython drops docstrings: then point at the file (as it was run).
        print((doc or "%s: see the comment at the top of %s" % (prog, sys.argv[0])).strip())
        sys.exit(0)
    if args:
        fail(prog, "takes no arguments, got %r (see --help)" % args[0])
