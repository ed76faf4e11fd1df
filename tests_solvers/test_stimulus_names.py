"""A stimulus's file name gives nothing away: an opaque content hash, one per distinct clip."""

from __future__ import annotations

import re

import pytest

from fixtures.tasks.catalog import TASK_NAMES, items_for
from fixtures.tasks.spec import Item

ALL_ITEMS = [item for task in TASK_NAMES for item in items_for(task)]
NOTE_NAMES = (
    "C", "C#", "Db", "D", "D#", "Eb", "E", "F", "F#", "Gb", "G", "G#", "Ab", "A", "A#", "Bb", "B",
)


# --- Stimulus names ------------------------------------------------------------------------------


def test_stimulus_names_are_unique_per_clip() -> None:
    by_name: dict[str, str] = {}
    for item in ALL_ITEMS:
        for clip in item.clips:
            name = clip.stimulus_name
            previous = by_name.setdefault(name, clip.spec_hash())
            assert previous == clip.spec_hash(), f"{name} names two different clips"
    clips = [c for i in ALL_ITEMS for c in i.clips]
    assert len(by_name) == len({c.spec_hash() for c in clips}) == len(clips)


@pytest.mark.parametrize("item", ALL_ITEMS, ids=lambda i: i.item_id)
def test_stimulus_name_reveals_nothing_of_the_label(item: Item) -> None:
    words = set(re.findall(r"[a-z]+", item.label.lower())) | {
        "sync", "syncopation", "trans", "chord", "yes", "no", "same", "diff", "maj", "min",
        "dim", "dom", "fewshot", "test", "piano", "guitar",
    }
    for clip in item.clips:
        name = clip.stimulus_name
        assert re.fullmatch(r"s[0-9a-f]{10}", name), name  # an opaque content hash
        assert item.item_id not in name
        assert not any(word in name for word in words if len(word) > 2), (name, item.label)
        # No note name as a token (case-sensitive: note names are capitalised).
        tokens = re.split(r"[^A-Za-z#]+", name)
        assert not any(token in NOTE_NAMES for token in tokens), name
