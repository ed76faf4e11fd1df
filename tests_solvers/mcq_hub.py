"""A local Hugging Face Hub cache holding one dataset, as ``hf download`` leaves it, for the
MCQ tests that read a Hub id offline."""

from __future__ import annotations

import shutil
from pathlib import Path

REVISION = "0123456789abcdef0123456789abcdef01234567"


def fake_hub_cache(cache: Path, repo_id: str, parquet: Path) -> Path:
    """``cache`` (for ``HF_HUB_CACHE``) with ``repo_id``'s main revision holding ``parquet``
    as its one test shard (or, when ``parquet`` is a folder, that folder's tree)."""
    repo = cache / f"datasets--{repo_id.replace('/', '--')}"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(REVISION)
    if parquet.is_dir():
        shutil.copytree(parquet, repo / "snapshots" / REVISION)
        return cache
    shard = repo / "snapshots" / REVISION / "data" / "test-00000-of-00001.parquet"
    shard.parent.mkdir(parents=True)
    shutil.copy(parquet, shard)
    return cache
