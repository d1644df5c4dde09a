# Runs the test functions of one host_tests module on the MicroPython unix port and prints one
# JSON line per test: {"name": ..., "ok": true/false, "error": "..."}.
# Usage: micropython mp_runner.py <firmware_dir> <host_tests_dir> <module_name>
import sys
import json

firmware_dir, tests_dir, mod_name = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, tests_dir)
sys.path.insert(0, tests_dir + "/../tools")   # vboard: the virtual hardware
sys.path.insert(0, firmware_dir)

try:
    mod = __import__(mod_name)
except Exception as e:
    print(json.dumps({"name": "<import>", "ok": False, "error": "%s: %s" % (type(e).__name__, e)}))
    sys.exit(0)

names = sorted(n for n in dir(mod) if n.startswith("test_"))
for name in names:
    fn = getattr(mod, name)
    try:
        fn()
        print(json.dumps({"name": name, "ok": True, "error": ""}))
    except Exception as e:
        try:
            import io
            buf = io.StringIO()
            sys.print_exception(e, buf)
            msg = buf.getvalue()
        except Exception:
            msg = "%s: %s" % (type(e).__name__, e)
        print(json.dumps({"name": name, "ok": False, "error": msg}))
