"""The score images say what the labels say: every core item's engraving, read back two ways.

1. **Sounding read-back.** verovio loads the MEI we generate and exports MIDI from its own
   model of the document (ties merged, durations from note values): onsets, pitches and
   durations must equal the item's construction parameters (slots, pitch lists, rhythm).
2. **Visual read-back.** The document verovio loaded is read the way a musician reads it:
   key signature, printed accidentals that hold for their letter and octave to the barline,
   tied continuations keeping their pitch, drum-staff positions and noteheads. That reading
   must give the same pitches and drums, at the onsets verovio's timemap reports.

Expectations are rebuilt from each item's params, not from ``fixtures.stimuli.notation``.
"""

from __future__ import annotations

import base64
import io
import xml.etree.ElementTree as ET
from collections import Counter

import mido
import numpy as np
import pytest
from PIL import Image

from fixtures.stimuli.cache import sha256_file
from fixtures.stimuli.engrave import load_toolkit, mei_document, png_bytes, score_png_path
from fixtures.tasks import chord as chord_task
from fixtures.tasks.catalog import items_for
from fixtures.tasks.spec import CLOSED_HIHAT_NOTE, KICK_NOTE, SNARE_NOTE, Item

MEI = "{http://www.music-encoding.org/ns/mei}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
STEP_PC = {"c": 0, "d": 2, "e": 4, "f": 5, "g": 7, "a": 9, "b": 11}
SIGN = {"s": 1, "f": -1, "n": 0, "ss": 2, "x": 2, "ff": -2}
SHARPS, FLATS = "fcgdaeb", "beadgcf"
# the drum key the score prompt states: staff position (0 = bottom line) and notehead
DRUM_KEY = {("9", "x"): CLOSED_HIHAT_NOTE, ("5", ""): SNARE_NOTE, ("1", ""): KICK_NOTE}

ITEMS = [item for task in ("syncopation", "transposition", "chord") for item in items_for(task)]
CLIPS = [(item, index) for item in ITEMS for index in range(len(item.clips))]
IDS = [f"{item.item_id}-{index}" for item, index in CLIPS]


def expected_notes(item: Item, index: int) -> Counter:
    """(onset beats, note, written duration beats) the item was built from."""
    params = item.params_dict()
    if item.task == "syncopation":
        hits = [(s, KICK_NOTE) for s in params["kick_slots"]]
        hits += [(s, SNARE_NOTE) for s in params["snare_slots"]]
        hits += [(s, CLOSED_HIHAT_NOTE) for s in range(1, 33)]
        return Counter(((slot - 1) * 0.5, note, 0.5) for slot, note in hits)
    if item.task == "transposition":
        durations = params["durations_beats"]
        onsets = np.concatenate([[0.0], np.cumsum(durations)[:-1]])
        pitches = item.transcription[index]
        return Counter(zip(onsets.tolist(), pitches, durations, strict=True))
    pitches = params["pitches"]
    block = chord_task.BLOCK_BEATS
    notes = [(0.0, p, block) for p in pitches]
    for k, p in enumerate(pitches):
        length = chord_task.ARPEGGIO_NOTE_BEATS * (2 if k == len(pitches) - 1 else 1)
        notes.append((block + k * chord_task.ARPEGGIO_NOTE_BEATS, p, length))
    return Counter(notes)


def sounding_readback(toolkit) -> Counter:
    """Notes of verovio's MIDI export of the loaded document, in beats."""
    midi = mido.MidiFile(file=io.BytesIO(base64.b64decode(toolkit.renderToMIDI())))
    notes, sounding, now = [], {}, 0
    for message in mido.merge_tracks(midi.tracks):
        now += message.time
        if message.type == "note_on" and message.velocity > 0:
            sounding[message.note] = now
        elif message.type in ("note_on", "note_off"):
            start = sounding.pop(message.note)
            # verovio ends each note one tick early (so repeated notes re-strike); round to grid
            length = round((now - start) / midi.ticks_per_beat * 8) / 8
            notes.append((start / midi.ticks_per_beat, message.note, length))
    return Counter(notes)


def _key_alters(keysig: str) -> dict[str, int]:
    if keysig in ("", "0"):
        return {}
    count, kind = int(keysig[:-1]), keysig[-1]
    order = SHARPS if kind == "s" else FLATS
    return {letter: (1 if kind == "s" else -1) for letter in order[:count]}


def visual_readback(toolkit) -> Counter:
    """(onset beats, note) as a reader of the engraved page would name each notehead."""
    root = ET.fromstring(toolkit.getMEI())
    onset = {i: e["qstamp"] for e in toolkit.renderToTimemap() for i in e.get("on", [])}
    keysig = root.find(f".//{MEI}scoreDef").get("keysig", "0")
    tie_ends = {t.get("endid").lstrip("#"): t.get("startid").lstrip("#")
                for t in root.iter(f"{MEI}tie")}
    read_pitch: dict[str, int] = {}
    notes = []
    for measure in root.iter(f"{MEI}measure"):
        held: dict[tuple[str, str], int] = {}
        for note in measure.iter(f"{MEI}note"):
            note_id = note.get(XML_ID)
            if note.get("loc") is not None:
                drum = DRUM_KEY[(note.get("loc"), note.get("head.shape", ""))]
                notes.append((onset[note_id], drum))
                continue
            step, octave = note.get("pname"), note.get("oct")
            if note_id in tie_ends:  # a tied continuation sounds the pitch it continues
                read_pitch[note_id] = read_pitch[tie_ends[note_id]]
                continue
            if note.get("accid"):
                held[(step, octave)] = SIGN[note.get("accid")]
            alter = held.get((step, octave), _key_alters(keysig).get(step, 0))
            pitch = 12 * (int(octave) + 1) + STEP_PC[step] + alter
            read_pitch[note_id] = pitch
            notes.append((onset[note_id], pitch))
    return Counter(notes)


@pytest.mark.parametrize(("item", "index"), CLIPS, ids=IDS)
def test_engraving_reads_back_as_the_item_was_built(item: Item, index: int) -> None:
    toolkit = load_toolkit(mei_document(item.clips[index]))
    want = expected_notes(item, index)
    onsets_and_notes = Counter((onset, note) for onset, note, _ in want.elements())
    assert visual_readback(toolkit) == onsets_and_notes
    if item.task != "syncopation":  # drum positions carry no MIDI pitch in verovio's export
        assert sounding_readback(toolkit) == want


def test_drum_staff_keeps_instruments_apart_and_hi_hats_as_x_heads() -> None:
    root = ET.fromstring(mei_document(items_for("syncopation")[5].clips[0]))
    heads = Counter((n.get("loc"), n.get("head.shape", "")) for n in root.iter(f"{MEI}note"))
    assert set(heads) <= set(DRUM_KEY) and heads[("9", "x")] == 32


def test_scores_show_meter_tempo_and_no_label() -> None:
    for item in (items_for("transposition")[2], items_for("chord")[0]):
        mei = mei_document(item.clips[-1])
        root = ET.fromstring(mei)
        score_def = root.find(f".//{MEI}scoreDef")
        meter = item.clips[-1].meter
        assert (score_def.get("meter.count"), score_def.get("meter.unit")) == tuple(map(str, meter))
        tempo = root.find(f".//{MEI}tempo")
        assert tempo.get("mm") == f"{item.clips[-1].tempo_bpm:g}"
        assert not root.find(f".//{MEI}title").text
        for word in (item.item_id, item.label, "major", "minor", "same", "different"):
            assert word not in mei


def test_the_melodies_carry_a_key_signature_and_chords_explicit_accidentals() -> None:
    melody = ET.fromstring(mei_document(items_for("transposition")[0].clips[0]))
    assert melody.find(f".//{MEI}scoreDef").get("keysig") != "0"
    ab_major = next(i for i in items_for("chord") if i.label == "Ab major")
    chord = ET.fromstring(mei_document(ab_major.clips[0]))
    assert chord.find(f".//{MEI}scoreDef").get("keysig") == "0"
    first = chord.find(f".//{MEI}chord")
    spelled = [(n.get("pname"), n.get("accid")) for n in first.iter(f"{MEI}note")]
    # stacked thirds, not G# C D#, and the doubled root spelled as the root
    assert spelled == [("a", "f"), ("c", None), ("e", "f"), ("a", "f")]


@pytest.mark.parametrize("item", [items_for(t)[1] for t in ("syncopation", "transposition",
                                                              "chord")], ids=lambda i: i.task)
def test_png_is_deterministic_cached_and_looks_like_a_score(item: Item) -> None:
    clip = item.clips[0]
    data = png_bytes(clip)
    assert data == png_bytes(clip)
    path = score_png_path(clip)
    assert path.suffix == ".png" and path.read_bytes() == data
    assert sha256_file(path) == sha256_file(score_png_path(clip))
    image = np.asarray(Image.open(io.BytesIO(data)).convert("L"))
    height, width = image.shape
    assert 600 <= width <= 3000 and 150 <= height <= 800 and width > 2 * height
    ink = (image < 128).mean()
    assert 0.01 < ink < 0.3, ink


def test_every_core_clip_has_a_valid_cached_png() -> None:
    sizes = set()
    for item, index in CLIPS:
        path = score_png_path(item.clips[index])
        assert path.read_bytes().startswith(b"\x89PNG")
        sizes.add(Image.open(path).size)
    assert len(sizes) > 3  # layouts follow the music, not one fixed canvas
