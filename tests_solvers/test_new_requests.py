"""Counting new requests (issue 27, defect 15 and the xdist follow-up): each request this run
sent counts once, replays of earlier runs and refused inputs not at all."""

from __future__ import annotations

from fixtures.running.asking import TurnRecord
from solvers.new_requests import new_request_turns, request_identity


def turn(request_hash: str = "r1", cached: bool = False, finish_reason: str = "stop",
         repeat_index: int = 0, sample_index: int = 0) -> dict:
    return {"request_hash": request_hash, "cached": cached, "finish_reason": finish_reason,
            "repeat_index": repeat_index, "sample_index": sample_index}


def test_a_repeated_request_counts_once_and_replays_not_at_all():
    turns = [turn("r1"), turn("r2"), turn("r2"), turn("r2"), turn("r3", cached=True),
             turn("r4", finish_reason="unsupported")]
    assert [t["request_hash"] for t in new_request_turns(turns)] == ["r1", "r2"]


def test_repeats_and_samples_of_one_request_are_separate_requests():
    turns = [turn("r1"), turn("r1", repeat_index=1), turn("r1", sample_index=1),
             turn("r1", repeat_index=1)]
    assert len(new_request_turns(turns)) == 3


def test_a_request_two_trials_share_counts_once_across_them():
    seen: set = set()
    first = new_request_turns([turn("r1"), turn("r2")], seen)
    second = new_request_turns([turn("r2"), turn("r3")], seen)
    assert (len(first), len(second)) == (2, 1)


def test_turns_of_older_records_without_a_repeat_index_each_count():
    """Records written before turns carried their repeat index marked repeats cached already:
    their uncached turns were each sent, so each counts as it did."""
    old = [{"request_hash": "r1", "cached": False, "finish_reason": "stop"}] * 2
    assert request_identity(old[0]) is None
    assert len(new_request_turns(old)) == 2


def test_turn_records_carry_what_names_their_request():
    record = TurnRecord(round=0, purpose="answer", prompt_hash="p", request_hash="r",
                        text="", finish_reason="stop", input_tokens=1, output_tokens=1,
                        latency_s=0.0, cached=False, repeat_index=2, sample_index=1)
    assert request_identity(record) == ("r", 2, 1)
    assert new_request_turns([record, record]) == [record]
