"""MCQ sets as the Hub serves them: Parquet with the media embedded, a ``save_to_disk``
folder, a Hub id already in the local cache; they run like the CSV form."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixtures.mcq.loading import load_dataset
from fixtures.mcq.spec import McqDatasetError
from fixtures.mcq.synthetic import make_synthetic, write_parquet
from tests_solvers.mcq_hub import fake_hub_cache


def _fields(item) -> tuple:
    return (item.item_id, item.question, item.options, item.answer_index, item.categories,
            item.subcategories, item.genre, item.option_kinds, item.agreement,
            item.odd_question, Path(item.media_path).read_bytes())


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The synthetic sets as CSV, as Parquet, and MuChoMusic in a fake local Hub cache."""
    base = tmp_path_factory.mktemp("mcq_parquet")
    muchomusic, wildscore = make_synthetic(base / "csv")
    forms = {"muchomusic_csv": muchomusic, "wildscore_csv": wildscore,
             "muchomusic_parquet": write_parquet(muchomusic, base / "pq" / "muchomusic.parquet"),
             "wildscore_parquet": write_parquet(wildscore, base / "pq" / "wildscore.parquet")}
    forms["hub"] = fake_hub_cache(base / "hub", "synth/muchomusic", forms["muchomusic_parquet"])
    return forms


def test_parquet_with_embedded_media_loads_as_the_csv_does(forms):
    for layout in ("muchomusic", "wildscore"):
        csv, parquet = (load_dataset(forms[f"{layout}_{form}"]) for form in ("csv", "parquet"))
        assert parquet.name == csv.name == layout
        assert [_fields(i) for i in parquet.items] == [_fields(i) for i in csv.items]
        # cached under a hash name: the file name gives nothing away
        assert all(Path(i.media_path).name.startswith("s") for i in parquet.items)


def test_a_saved_dataset_folder_loads_too(forms, tmp_path):
    import datasets

    saved = datasets.Dataset.from_parquet(str(forms["muchomusic_parquet"]))
    saved = saved.cast_column("audio", datasets.Audio(decode=False))
    datasets.DatasetDict({"test": saved}).save_to_disk(str(tmp_path / "muchomusic"))
    loaded = load_dataset(tmp_path / "muchomusic")
    assert loaded.name == "muchomusic"
    assert [_fields(i) for i in loaded.items] == [
        _fields(i) for i in load_dataset(forms["muchomusic_csv"]).items]


def test_a_hub_id_not_in_the_local_cache_is_one_clear_error(tmp_path, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(McqDatasetError, match="not in|no Hugging Face dataset") as raised:
        load_dataset("lmms-lab/muchomusic")
    assert "never downloads" in str(raised.value)


def test_the_parquet_form_asks_exactly_what_the_csv_form_asks(forms):
    """Same trial ids, truth and request hash (media by content): every backend, the oracle
    and chance included, answers both forms alike (run end to end in test_mcq_partial)."""
    from fixtures.backends.base import GenerationSettings
    from fixtures.mcq.trial import McqTrial, build_mcq_request

    def asked(path: Path) -> list[tuple]:
        items = load_dataset(path).items
        trials = [McqTrial("m", condition, 1, repeat, item, 0, items) for item in items
                  for condition in ("audio", "no-audio") for repeat in (0, 1)]
        return [(t.trial_id, t.correct_letter,
                 build_mcq_request(t, GenerationSettings()).request_hash()) for t in trials]

    assert asked(forms["muchomusic_parquet"]) == asked(forms["muchomusic_csv"])


def test_parquet_rows_without_embedded_media_are_skipped_like_missing_files(tmp_path):
    from fixtures.mcq.synthetic import remove_media

    sets = make_synthetic(tmp_path / "partial")
    for path in sets:
        remove_media(path, 0.3)
        parquet = write_parquet(path, tmp_path / "pq" / f"{path.parent.name}.parquet")
        with pytest.raises(McqDatasetError, match="4 of 12 questions have no media file"):
            load_dataset(parquet, missing="error")
        loaded = load_dataset(parquet, missing="skip")
        assert loaded.coverage("audio" if loaded.layout == "muchomusic" else "image") == (8, 12)
        csv = load_dataset(path, missing="skip")
        assert [(i.item_id, bool(i.media_path)) for i in loaded.items] == [
            (i.item_id, bool(i.media_path)) for i in csv.items]
