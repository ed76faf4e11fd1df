"""How even is ``--shard K/N``? The expected cost and trial count of every shard of a selection.

    .venv/bin/python benchmarks/shard_balance.py [--shards 2,3,8,16,64] [-- PYTEST_ARGS...]

Collects the selection once per N (``pytest --collect-only --shard 1/N``; nothing is asked)
and prints, per N, the shards' expected costs (fixtures/plugins/shard.py), their spread
((largest − smallest) / largest) and the trial counts. Arguments after ``--`` choose the
selection, as for a run (default: every family's default trials, ``--model oracle``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fixtures.plugins.shard import SHARD_KEY  # noqa: E402


class _Capture:
    """Keeps the split the shard plugin computed during collection."""

    shard: dict | None = None

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.shard = dict(session.config.stash.get(SHARD_KEY, {}))


def split(count: int, selection: list[str]) -> dict:
    capture = _Capture()
    args = ["bench", "--collect-only", "-q", "-p", "no:randomly", "--shard", f"1/{count}",
            *selection]
    code = pytest.main(args, plugins=[capture])
    if code != 0 or not capture.shard:
        raise SystemExit(f"collection failed (exit {code}): pytest {' '.join(args)}")
    return capture.shard


def main() -> None:
    argv = sys.argv[1:]
    selection = argv[argv.index("--") + 1:] if "--" in argv else ["--model", "oracle"]
    own = argv[:argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shards", default="2,3,8,16,64",
                        help="comma list of shard counts N (default: 2,3,8,16,64)")
    options = parser.parse_args(own)
    rows = []
    for count in (int(n) for n in options.shards.split(",")):
        shard = split(count, selection)
        costs = shard["costs"]
        rows.append(f"| {count} | {shard['selected_trials']:,} | {min(costs):,.1f} – "
                    f"{max(costs):,.1f} | {(max(costs) - min(costs)) / max(costs):.4%} |")
    print(f"selection: {' '.join(selection)}")
    print("| N | trials | expected cost per shard (min – max) | spread |")
    print("|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
