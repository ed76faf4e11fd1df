"""Output paths are checked before the first request, so a run never spends its budget and
then fails to write (``--run-dir``, ``--baseline-save``, ``reports build --out``).

Permissions are not predicted from mode bits (root ignores them; a read-only mount does not
show in them): the check makes the directory, writes and removes a probe file in it, and
removes again the folders it made, so checking leaves nothing behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def directory_problem(directory: Path) -> str | None:
    """Why files cannot be written into ``directory``, or None."""
    if directory.exists() and not directory.is_dir():
        return f"{directory} is a file, not a directory"
    made = [d for d in (directory, *directory.parents) if not d.exists()]
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(dir=directory, prefix=".eartest-probe-")
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        return f"cannot write into {directory} ({exc.strerror or exc})"
    finally:
        for folder in made:  # deepest first
            try:
                folder.rmdir()
            except OSError:
                break
    return None


def file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written as a file, or None."""
    if path.is_dir():
        return f"{path} is a directory, not a file"
    return directory_problem(path.parent)
