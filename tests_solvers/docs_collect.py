"""Collect many pytest command lines quickly: import once, then fork a child per command.

Each ``pytest --collect-only`` of the benchmark spends most of its CPU importing (scipy,
pytest's plugins, the project's plugins) before it collects anything. The documented commands
are dozens, so ``tests_solvers/test_docs_commands.py`` sends them here as JSON on stdin
(``[{"args": [...], "env": {...}}, ...]``): this process imports what every collection needs,
then runs each command in a forked child (``python -m pytest``, output to a file), two at a time,
and prints ``[{"returncode": rc, "output": text}, ...]``. A child starts from the imported but
never-run modules, so each collection is as fresh as a new process.

    python -m tests_solvers.docs_collect < commands.json
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from tests_solvers.warm_python import REPO, private_stdout, run_module_here, warm_imports

PARALLEL_CHILDREN = 2


def _child(args: list[str], env: dict[str, str], output: Path) -> None:
    """Run one collection in this forked process (``warm_python.run_module_here``) and leave
    with its exit code at once: no shutdown, whose clean-ups belong to the parent (its
    temporary folder holds the other children's output)."""
    code = 3
    try:
        run_module_here("pytest", args, str(REPO), {**os.environ, **env}, str(output), None)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def collect_all(commands: list[dict]) -> list[dict]:
    import gc

    warm_imports()
    gc.freeze()  # see warm_python.serve
    results: list[dict | None] = [None] * len(commands)
    running: dict[int, tuple[int, Path]] = {}
    with tempfile.TemporaryDirectory() as folder:
        pending = list(enumerate(commands))
        while pending or running:
            while pending and len(running) < PARALLEL_CHILDREN:
                index, command = pending.pop(0)
                output = Path(folder) / f"{index}.out"
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:
                    _child(command["args"], command["env"], output)
                running[pid] = (index, output)
            pid, status = os.wait()
            index, output = running.pop(pid)
            text = output.read_text(errors="replace") if output.exists() else ""
            results[index] = {"returncode": os.waitstatus_to_exitcode(status), "output": text}
    return results  # type: ignore[return-value]


if __name__ == "__main__":
    out = private_stdout()  # only the results reach the caller's stdout
    out.write(json.dumps(collect_all(json.load(sys.stdin))).encode())
    out.flush()
