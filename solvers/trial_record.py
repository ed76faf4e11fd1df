"""The trial record: one typed schema that every task family writes and every report reads.

Every trial leaves one JSON line in ``trials.jsonl``. Its shared fields (ids, axes, truth, the
answer read, the verdict, every raw turn, tokens and cost) mean the same thing in every family,
so the reports can count them without knowing which family wrote them; a family's own fields
(a pitch trial's notation and partial credit, an MCQ trial's condition and option order) sit
in ``details``, typed per family. ``family`` is always present, and ``task_version`` names the
prompts and scoring a trial was judged under, so two runs of "the same" task under different
prompts are never silently pooled.

Pure: no I/O. The writer serialises :meth:`TrialRecord.to_json`; the reader decodes a line and
hands the object to :func:`row_from_json`, which validates it and returns the flat row the
tables read (``details`` spread into columns, as records looked before it existed). Records of
the previous shape (``record_version`` 1) are read as they are, with ``family`` defaulting to
``core`` and ``task_version`` None (unknown); any other version is refused.
"""

from __future__ import annotations

import copy
import re
import types
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields, is_dataclass
from functools import cache
from typing import Any, get_args, get_origin, get_type_hints

RECORD_VERSION = 2
READABLE_VERSIONS = (1, RECORD_VERSION)
V1_REQUIRED = ("model", "task", "modality", "shot", "strategy", "trial_id", "truth",
               "parsed_answer", "correct", "error_class")
"""What a record of version 1 must hold for the tables (its other fields were never checked)."""


class RecordError(ValueError):
    """A record that does not fit the schema; the message names the field."""


# --- Details: what one family records beyond the shared fields ---------------------------------


@dataclass(frozen=True)
class CoreDetails:
    """Core tasks (syncopation, transposition, chord): the LogicLM transcription and repairs."""

    truth_transcription: list
    transcription: list | None  # None: no valid schema (or a strategy without one)
    solver_verdict: str | None
    repair_rounds: int
    repair_errors: list


@dataclass(frozen=True)
class PitchDetails:
    """Pitch experiments: the notation asked for, the item's parameters, partial credit."""

    experiment: str
    notation: str
    params: dict
    partial_credit: dict
    cents_error: float | None
    sequence_f1: float | None


@dataclass(frozen=True)
class McqDetails:
    """Multiple choice: the dataset question, its condition, repeat and the options shown."""

    dataset: str
    layout: str
    condition: str
    examples: int
    example_items: list
    repeat: int
    seed: int
    question: str
    categories: list
    subcategories: list
    presented_options: list
    option_order: list
    named_options: list
    option_kinds: list | None = None  # per presented option: correct or MuChoMusic's distractor
    genre: str | None = None
    annotator_agreement: float | None = None  # share of annotators who chose the answer
    odd_question: float | None = None  # share of annotators who flagged the question as odd
    questions_run: int | None = None  # questions of the dataset this condition ran (media)
    questions_total: int | None = None  # questions in the dataset
    removed_option: str | None = None  # distractor kind left out (IR, CU, IU): the ablation


@dataclass(frozen=True)
class PublishedMuseDetails:
    """MUSE as published: the question's group, prompting variant, examples and coverage."""

    title: str  # the paper's name of the task
    group: str  # "A" or "B": the authors' fixed split
    prompting: str  # "SYSINST" or "CoT"
    examples: int  # solved examples shown before the question
    example_clips: list
    presented_options: list
    items_run: int  # questions of the task this cell ran (the others miss recordings)
    items_total: int


DETAILS: dict[str, type] = {"core": CoreDetails, "pitch": PitchDetails, "mcq": McqDetails,
                            "musepub": PublishedMuseDetails}
"""The details types, by kind. A record's kind is its family's name, or its ``details_kind``
when its family records another's shape (a MUSE trial holds core details), so a family whose
details have a known shape needs no entry here."""
DETAIL_KINDS = tuple(DETAILS)
FAMILY_NAME = re.compile(r"[a-z][a-z0-9_]*")
Details = CoreDetails | PitchDetails | McqDetails | PublishedMuseDetails


# --- The record --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrialRecord:
    """One judged trial. Optional fields (default None) are left out of the file when unset."""

    family: str
    task_version: str
    trial_id: str
    test_id: str
    model: str
    model_id: str
    task: str
    modality: str
    shot: str
    strategy: str
    item_id: str
    control: str  # "real", or the audio-attention control the trial ran under
    truth: str
    truth_label: str
    stimuli: list
    prompt_hash: str
    parsed_answer: str | None
    answer_source: str | None
    answer_via: str | None
    correct: bool
    error_class: str | None
    error_message: str | None
    turns: list
    input_tokens: int
    output_tokens: int
    estimated_cost_usd: float | None
    new_requests: int
    new_cost_usd: float | None
    details: Details
    chance_probability: float | None = None  # a uniform guess's chance (pitch, MCQ)
    control_partner: str | None = None  # the item whose audio a mismatched control played
    rendition: str | None = None  # a non-studio rendition ("live")
    billed_cost_usd: float | None = None  # what providers billed for new requests, when said
    factors: dict | None = None  # the item's scalar generation parameters (reports.tables.factors)
    extractor_model: str | None = None  # the answer extractor's fields, all or none
    extracted_answer: str | None = None
    extractor_turns: list | None = None
    assisted_correct: bool | None = None
    samples: dict | None = None  # --samples K > 1: every sample's outcome (solvers.sampling)
    details_kind: str | None = None  # the details' shape when not the family's own name's
    record_version: int = RECORD_VERSION

    def __post_init__(self) -> None:
        expected = DETAILS[_details_kind(self.family, self.details_kind)]
        if type(self.details) is not expected:
            raise RecordError(f"field 'details': a {self.family} record holds "
                              f"{expected.__name__}, got {type(self.details).__name__}")

    def to_json(self) -> dict:
        """The JSON object written to ``trials.jsonl`` (unset optional fields left out)."""
        data = _plain(self)
        extractor = self.extractor_model is not None
        for name in _OPTIONAL:
            if data[name] is None and not (extractor and name in _EXTRACTION):
                del data[name]
        return data

    def flat(self) -> dict:
        """The row the reports read: the JSON object with ``details`` spread into columns."""
        data = self.to_json()
        details = data.pop("details")
        return {**data, **details}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TrialRecord:
        """Validate a decoded record of the current version; RecordError names the field."""
        values = _checked(cls, data, "")
        kind = DETAILS[_details_kind(values.get("family"), values.get("details_kind"))]
        details = data["details"]
        if not isinstance(details, Mapping):
            raise RecordError(f"field 'details': expected an object, got {_name(details)}")
        values["details"] = kind(**_checked(kind, details, "details."))
        return cls(**values)


def _details_kind(family: object, details_kind: object) -> str:
    """The key of a record's details type in :data:`DETAILS`; RecordError when none fits."""
    if not isinstance(family, str) or not FAMILY_NAME.fullmatch(family):
        raise RecordError(f"field 'family': {family!r} is not a family name")
    kind = details_kind if details_kind is not None else family
    if kind not in DETAILS:
        where = "details_kind" if details_kind is not None else "family"
        raise RecordError(f"field {where!r}: {kind!r} has no details type (one of "
                          f"{', '.join(DETAIL_KINDS)}); a family of another shape names it "
                          "in 'details_kind'")
    return kind


_EXTRACTION = ("extractor_model", "extracted_answer", "extractor_turns", "assisted_correct")
_OPTIONAL = tuple(f.name for f in fields(TrialRecord)
                  if f.default is None and f.name != "record_version")


def row_from_json(data: object) -> dict:
    """The flat row of one decoded JSON line of any readable version.

    Raises
    ------
    RecordError
        For anything but an object, an unknown ``record_version``, or (current version) a
        missing, unknown or mistyped field; the message names the field.
    """
    if not isinstance(data, dict):
        raise RecordError(f"expected a JSON object, got {_name(data)}")
    version = data.get("record_version")
    if version == 1:
        missing = [name for name in V1_REQUIRED if name not in data]
        if missing:
            raise RecordError(f"field {missing[0]!r}: missing (a version 1 record needs "
                              f"{', '.join(V1_REQUIRED)})")
        return {**data, "family": data.get("family") or "core",
                "task_version": data.get("task_version")}
    if version != RECORD_VERSION:
        shown = "missing" if "record_version" not in data else repr(version)
        raise RecordError(f"field 'record_version': {shown}; this eartest reads versions "
                          f"{', '.join(map(str, READABLE_VERSIONS))} (written by another "
                          "eartest version, or not a trial record)")
    return TrialRecord.from_json(data).flat()


# --- Field checks ------------------------------------------------------------------------------


_JSON_LEAVES = (str, int, float, bool, type(None))


def _plain(value: object) -> Any:
    """``dataclasses.asdict`` for a record: dataclasses become dicts, containers are copied,
    and JSON scalars are taken as they are (asdict deep-copies each one: a third of the cost
    of writing a record)."""
    if isinstance(value, _JSON_LEAVES):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {_plain(key): _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        items = [_plain(item) for item in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return copy.deepcopy(value)  # anything else, as asdict does


@cache
def _schema(kind: type) -> tuple[dict[str, Any], dict[str, Any]]:
    """The dataclass ``kind``'s resolved annotations and fields by name, worked out once
    (``get_type_hints`` evaluates every annotation string anew on each call)."""
    return get_type_hints(kind), {f.name: f for f in fields(kind)}


def _checked(kind: type, data: Mapping[str, Any], prefix: str) -> dict:
    """``data``'s values for the dataclass ``kind``, each checked against its annotation."""
    hints, known = _schema(kind)
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise RecordError(f"field '{prefix}{unknown[0]}': unknown to record version "
                          f"{RECORD_VERSION} ({kind.__name__})")
    values = {}
    for name, spec in known.items():
        if name not in data:
            if spec.default is not MISSING:  # has a default: optional
                continue
            raise RecordError(f"field '{prefix}{name}': missing")
        value = data[name]
        if name != "details" and not _fits(value, hints[name]):
            raise RecordError(f"field '{prefix}{name}': expected {_spell(hints[name])}, "
                              f"got {_name(value)} ({str(value)[:40]!r})")
        values[name] = value
    return values


def _fits(value: object, hint: object) -> bool:
    if isinstance(hint, types.UnionType) or get_origin(hint) is not None:
        return any(_fits(value, arm) for arm in get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, hint)  # type: ignore[arg-type]


def _spell(hint: object) -> str:
    if isinstance(hint, types.UnionType):
        return " or ".join(_spell(arm) for arm in get_args(hint))
    return {type(None): "null", list: "a list", dict: "an object"}.get(
        hint, getattr(hint, "__name__", str(hint)))  # type: ignore[arg-type]


def _name(value: object) -> str:
    return {type(None): "null", list: "a list", dict: "an object"}.get(
        type(value), type(value).__name__)
