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


# --- command lines suggested to the user -------------------------------------------------------
# tools/start.py runs another tool for the user; what that tool suggests must be start.py's
# command line, with start.py's names for the tool's options. start.py says so in RUN_AS:
# {"argv": its own arguments, "tool": "sim.py", "names": {"--port": "--http-port"}} (JSON).
RUN_AS = "BARRAGOON_RUN_AS"


def run_as_env(argv, tool, names):
    """The environment entry start.py gives the tool it runs (tool: its file name)."""
    import json
    return {RUN_AS: json.dumps({"argv": list(argv), "tool": tool, "names": dict(names)})}


def _run_as():
    import json
    import os
    try:
        return json.loads(os.environ.get(RUN_AS, "") or "null")
    except ValueError:
        return None


def option(name):
    """What the user types for this tool's option `name`: the name itself, or when start.py
    runs this tool, start.py's name for it, else this tool's own command with it."""
    r = _run_as()
    if not r:
        return name
    return r.get("names", {}).get(name) or "python tools/%s %s" % (r.get("tool"), name)


def again(argv, changes):
    """The command line to run again with changes ({option: value}) to its options, as the
    user ran it: this tool's, or start.py's when start.py runs it (its own arguments, its
    names). Each option changed is dropped with its value where it was and appended new."""
    import os
    r = _run_as()
    if r:
        tool, args, names = "tools/start.py", list(r.get("argv", [])), r.get("names", {})
    else:
        tool, args, names = "tools/" + os.path.basename(sys.argv[0]), list(argv), {}
    for opt, value in changes.items():
        name = names.get(opt, opt)
        out = []
        skip = False
        for a in args:
            if skip:
                skip = False
            elif a == name:
                skip = True                # its value follows
            elif not a.startswith(name + "="):
                out.append(a)
        args = out + [name, str(value)]
    return " ".join(["python", tool] + [_quoted(a) for a in args])


def _quoted(a):
    if a and all(c.isalnum() or c in "-_./=:," for c in a):
        return a
    return "'" + a.replace("'", "'\\''") + "'"

