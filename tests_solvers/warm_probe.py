"""``python -m tests_solvers.warm_probe``: a command that shows what process it ran in, for
``test_warm_python.py``. Prints a JSON line (its parent, argv, working folder, a variable, and
whether an earlier probe's mark is visible), then writes ``stderr`` text, sleeps and exits as
told."""

import json
import os
import sys
import time

if __name__ == "__main__":
    mark_seen = hasattr(json, "warm_probe_mark")
    json.warm_probe_mark = True  # a later probe in a warm child must not see this
    print(json.dumps({"parent": os.getppid(), "argv": sys.argv[1:], "cwd": os.getcwd(),
                      "variable": os.environ.get("WARM_PROBE"), "mark_seen": mark_seen,
                      "no_bytecode": sys.dont_write_bytecode}))
    print("to stderr\r\nsecond line", file=sys.stderr)
    time.sleep(float(os.environ.get("WARM_PROBE_SLEEP_S", "0")))
    sys.exit(int(os.environ.get("WARM_PROBE_EXIT", "0")))
