"""The report a researcher reads: headline first, every trial a click away, models side by side.

One small real run (the listener and the chance model on two items per core task) feeds every
test here: its ``report.html`` is opened in headless Chromium and driven as a reader would (a
Table 1 cell, then a trial), and its records, split by model into two run directories, are
merged by ``python -m reports build`` and compared by ``python -m reports compare``, whose
p-values the comparison view must repeat exactly.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from reports.html.compare import failed_by_all
from reports.html.trials import DATA_FILE, FILES_DIR, TRIAL_FIELDS
from reports.run.prompt_store import PROMPTS_FILE, load_prompts
from reports.tables.accuracy import load_records
from tests_solvers import CORE_BENCH, PYTEST
from tests_solvers.test_report_html import EVIL, SUBSET, Browser, chromium_path

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def listener_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run_dir = tmp_path_factory.mktemp("viewer") / "run"
    cmd = [*PYTEST, *CORE_BENCH, "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
           "--model", "listener,chance", "-k", SUBSET, "--run-dir", str(run_dir)]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-3000:]
    return run_dir


@pytest.fixture
def browser(tmp_path):
    chrome = Browser(chromium_path(), tmp_path / "profile", height=1200)
    yield chrome
    chrome.close()


def _wait_for(browser: Browser, expression: str, timeout_s: float = 10.0) -> object:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = browser.evaluate(expression)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"never true: {expression}")


# --- What the run leaves for the viewer --------------------------------------------------------


def test_every_trial_finds_its_prompt_once_stored(listener_run):
    df = load_records(listener_run)
    texts, prompts = load_prompts([listener_run])
    assert set(df["prompt_hash"]) <= set(prompts)
    lines = (listener_run / PROMPTS_FILE).read_text(encoding="utf-8").splitlines()
    ids = [json.loads(line).get("text_id") for line in lines]
    hashes = [json.loads(line).get("prompt_hash") for line in lines]
    ids, hashes = [i for i in ids if i], [h for h in hashes if h]
    assert len(ids) == len(set(ids)) and len(hashes) == len(set(hashes))  # each once
    # two models, one prompt: the listener's and the chance model's trials share it
    assert len(hashes) == df["prompt_hash"].nunique() < len(df)
    audio = prompts[df[df["modality"] == "audio"]["prompt_hash"].iloc[0]]
    media = [p for turn in audio["turns"] for p in turn["parts"] if "media" in p]
    assert media and media[0]["media"] == "audio/wav" and len(media[0]["sha256"]) == 64
    assert all(text_id in texts for turn in audio["turns"] for p in turn["parts"]
               for text_id in [p.get("text")] if text_id)
    assert "trials.jsonl" != PROMPTS_FILE and "You are" in texts[audio["system"]]


def test_report_folder_is_self_contained(listener_run):
    page = (listener_run / "report.html").read_text(encoding="utf-8")
    folder = listener_run / FILES_DIR
    script = (folder / DATA_FILE).read_text(encoding="utf-8")
    for text in (page, script, (folder / "report.js").read_text(encoding="utf-8")):
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text, re.IGNORECASE)
    assert "script-src 'self'" in page and "default-src 'none'" in page
    data = json.loads(script.removeprefix("window.EARTEST_TRIALS = ").rstrip().rstrip(";"))
    assert data["fields"] == list(TRIAL_FIELDS)
    assert len(data["rows"]) == len(load_records(listener_run))
    assert '"path"' not in script  # the machine's cache paths stay out of the report
    for relative in data["media"].values():
        target = listener_run / relative
        assert target.is_file() and target.read_bytes()[:4] == b"RIFF", relative
    # headline first, run metadata last and collapsed
    order = [page.index(f'<section id="{name}">') for name in ("summary", "table-1", "trials",
                                                               "run")]
    assert order == sorted(order)
    assert '<details class="run">' in page


# --- In a real browser -------------------------------------------------------------------------


def test_cell_to_trials_to_audio_reply_and_verdict(listener_run, browser):
    df = load_records(listener_run)
    browser.open((listener_run / "report.html").as_uri())
    assert browser.problems() == []
    assert _wait_for(browser, "document.getElementById('trial-count').textContent"
                     f".startsWith('{len(df)} of')")
    # Table 1's cell for the listener, chord, audio, zero-shot, standalone
    cell = {"model": "listener", "task": "chord", "modality": "audio", "shot": "zero",
            "strategy": "standalone"}
    expected = df[(df[list(cell)] == pd.Series(cell)).all(axis=1)]
    link = browser.evaluate(
        "(() => { const a = Array.from(document.querySelectorAll('#table-1 a.cell')).find(a =>"
        " ['model=listener', 'task=chord', 'modality=audio', 'shot=zero',"
        " 'strategy=standalone'].every(p => a.getAttribute('href').includes(p)));"
        " a.click(); return a.textContent; })()")
    assert str(link).startswith("100.0 [") and f"n={len(expected)}" in str(link)
    listed = _wait_for(browser, "(() => { const rows = document.querySelectorAll("
                       "'#trial-list tbody tr'); return rows.length && Array.from(rows, r =>"
                       " r.cells[0].textContent); })()")
    assert sorted(listed) == sorted(expected["trial_id"])
    assert "match the filters" in str(browser.evaluate(
        "document.getElementById('trial-count').textContent"))
    browser.evaluate("document.querySelector('#trial-list tbody a').click()")
    view = json.loads(str(_wait_for(browser, "(() => { const v = document.getElementById("
                                    "'trial-view'); if (v.hidden) return ''; return "
                                    "JSON.stringify({audio: Array.from(v.querySelectorAll("
                                    "'audio'), a => a.getAttribute('src')), replies: Array.from("
                                    "v.querySelectorAll('pre.raw-reply'), p => p.textContent),"
                                    " text: v.innerText}); })()")))
    record = expected[expected["trial_id"] == listed[0]].iloc[0]
    assert len(view["audio"]) == 1 and (listener_run / view["audio"][0]).is_file()
    assert view["replies"] == [turn["text"] for turn in record["turns"]]
    assert "verdict\ncorrect" in view["text"] and "System instruction" in view["text"]
    # the player plays: the WAV loads from the report's folder under its security policy
    browser.evaluate("document.querySelector('#trial-view audio').load()")
    duration = _wait_for(browser, "document.querySelector('#trial-view audio').duration")
    assert 0.5 < float(duration) < 60
    assert browser.problems() == []


def test_filters_narrow_the_list_to_wrong_answers(listener_run, browser):
    df = load_records(listener_run)
    browser.open((listener_run / "report.html").as_uri() + "#trials?model=chance&verdict=wrong")
    count = _wait_for(browser, "(() => { const t = document.getElementById('trial-count')"
                      ".textContent; return t.includes('match') && t; })()")
    wrong = df[(df["model"] == "chance") & ~df["correct"].astype(bool)]
    assert str(count).startswith(f"{len(wrong)} of {len(df)}")
    assert browser.evaluate("document.querySelector('select[data-filter=verdict]').value") \
        == "wrong"
    assert browser.problems() == []


# --- Models side by side -----------------------------------------------------------------------


def _split_by_model(run_dir: Path, base: Path) -> list[Path]:
    """The run's records as two runs, one per model; the chance model's first reply is
    replaced by markup, which the trial view must show as text."""
    lines = (run_dir / "trials.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(next(line for line in lines if json.loads(line)["model"] == "chance"))
    first["turns"][0]["text"] = EVIL
    lines = [json.dumps(first) if json.loads(line)["test_id"] == first["test_id"] else line
             for line in lines]
    dirs = []
    for model in ("listener", "chance"):
        target = base / model
        target.mkdir()
        mine = [line for line in lines if json.loads(line)["model"] == model]
        (target / "trials.jsonl").write_text("\n".join(mine) + "\n", encoding="utf-8")
        (target / PROMPTS_FILE).write_bytes((run_dir / PROMPTS_FILE).read_bytes())
        dirs.append(target)
    return dirs


def _compare_rows(text: str) -> list[tuple[str, ...]]:
    """(task, modality, shot, strategy, n, b, c, p) of each row ``reports compare`` prints."""
    rows = []
    for line in text.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if "->" in cells[0] and cells[0] != "model A -> B":
            rows.append((*cells[1:6], cells[9], cells[10], cells[11]))
    return rows


def _html_rows(page: str) -> list[tuple[str, ...]]:
    table = re.search(r'<table class="data compare">(.*?)</table>', page, re.DOTALL).group(1)
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.split("<tbody>")[1], re.DOTALL):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c))
                 for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.DOTALL)]
        rows.append((*cells[:5], cells[8], cells[9], cells[10]))
    return rows


def test_two_model_build_repeats_the_p_values_of_compare(listener_run, tmp_path, browser):
    run_a, run_b = _split_by_model(listener_run, tmp_path)
    run = [sys.executable, "-m", "reports"]
    compared = subprocess.run([*run, "compare", str(run_a), str(run_b)], cwd=REPO,
                              capture_output=True, text=True, timeout=120, check=True).stdout
    out = tmp_path / "merged"
    subprocess.run([*run, "build", str(run_a), str(run_b), "--out", str(out)], cwd=REPO,
                   capture_output=True, text=True, timeout=300, check=True)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<h3>listener → chance</h3>" in page
    expected, shown = _compare_rows(compared), _html_rows(page)
    assert len(expected) > 10 and shown == expected
    assert any(p == "<.001" for *_, p in shown)  # the pooled rows: a real difference
    assert (out / PROMPTS_FILE).is_file() and (out / FILES_DIR / DATA_FILE).is_file()
    # the merged page in a browser: the comparison drawn, a reply of markup shown as text
    browser.open((out / "report.html").as_uri() + "#trials?model=chance")
    assert browser.evaluate("document.querySelectorAll('#compare td.p-value').length") \
        == len(expected)
    _wait_for(browser, "document.querySelectorAll('#trial-list tbody a').length")
    browser.evaluate("document.querySelector('#trial-list tbody a').click()")
    reply = _wait_for(browser, "(() => { const p = document.querySelector("
                      "'#trial-view pre.raw-reply'); return p && p.textContent; })()")
    assert reply == EVIL
    assert browser.evaluate("document.querySelectorAll('#trial-view script').length") == 0
    assert browser.problems() == []


def test_items_every_model_fails_are_the_hard_core():
    rows = []
    for model in ("a", "b"):
        for item, right in (("x1", [False, False]), ("x2", [model == "a", False])):
            for n, correct in enumerate(right):
                rows.append({"model": model, "task": "chord", "item_id": item,
                             "trial_id": f"{item}/{n}", "correct": correct,
                             "parsed_answer": "A", "error_class": None})
    rows.append({"model": "a", "task": "chord", "item_id": "x3", "trial_id": "x3/0",
                 "correct": False, "parsed_answer": "A", "error_class": None})
    hard = failed_by_all(pd.DataFrame(rows))
    # x2: model a got it right once; x3: model b never ran it
    assert list(hard["item_id"]) == ["x1"] and list(hard["trials"]) == [4]


# --- Confusion matrices ------------------------------------------------------------------------


def test_confusion_matrices_count_every_counted_chord_answer(listener_run):
    df = load_records(listener_run)
    page = (listener_run / "report.html").read_text(encoding="utf-8")
    section = page.split('<section id="confusion">')[1].split("</section>")[0]
    tables = re.findall(r"<h4>(.*?)</h4>\s*<table class=\"data confusion\">(.*?)</table>",
                        section, re.DOTALL)
    titles = [html.unescape(title) for title, _ in tables]
    assert "chance — chord" in titles and "listener — syncopation" in titles
    body = dict(zip(titles, (t for _, t in tables), strict=True))["chance — chord"]
    counts = [int(n) for n in re.findall(r"<a class=\"cell\"[^>]*>(\d+)</a>", body)]
    chance_chord = df[(df["model"] == "chance") & (df["task"] == "chord")]
    assert sum(counts) == len(chance_chord)
    assert "diminished" in body  # rows are named by the truth label
    diagonal = [int(n) for n in re.findall(r'<td class="diag"><a[^>]*>(\d+)</a>', body)]
    assert sum(diagonal) == int(chance_chord["correct"].astype(bool).sum())


# --- prompts.jsonl -----------------------------------------------------------------------------


def test_prompt_writer_stores_each_text_once_and_the_reader_skips_damage(tmp_path):
    from reports.run.prompt_store import PromptWriter, compact, text_id

    listing = "note_on 60 0.0 s\n" * 50
    views = {
        f"h{n}": {"system": "You are an expert.", "turns": [
            {"role": "user", "parts": [{"text": listing},
                                       {"media": "audio/wav", "sha256": "ab" * 32,
                                        "path": "/gone.wav"}]}]}
        for n in range(3)
    }
    sent: set[str] = set()
    first, again = compact(views, sent), compact({"h0": views["h0"]}, sent)
    assert len(first["texts"]) == 2 and again["texts"] == {}  # each text travels once
    writer = PromptWriter(lambda: tmp_path)
    writer.write(first)
    writer.write(again)  # a second trial with the same prompt
    writer.write(compact(views, set()))  # another worker sends the same texts
    writer.close()
    lines = (tmp_path / PROMPTS_FILE).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 + 3  # two texts, three prompts
    with (tmp_path / PROMPTS_FILE).open("a", encoding="utf-8") as handle:
        handle.write('{"prompt_hash": "h9", "system": \n')  # a line cut by a crash
    texts, prompts = load_prompts([tmp_path, tmp_path / "no-such-run"])
    assert set(prompts) == {"h0", "h1", "h2"}
    part = prompts["h1"]["turns"][0]["parts"]
    assert texts[part[0]["text"]] == listing and part[0]["text"] == text_id(listing)
    assert part[1] == {"media": "audio/wav", "sha256": "ab" * 32, "path": "/gone.wav"}


def test_a_run_without_prompts_still_gets_its_trials_view(listener_run, tmp_path):
    from reports.html.trials import write_trial_files

    df = load_records(listener_run)
    written = write_trial_files(df, tmp_path)  # no prompts.jsonl, as in older runs
    data = written[f"{FILES_DIR}/{DATA_FILE}"].read_text(encoding="utf-8")
    payload = json.loads(data.removeprefix("window.EARTEST_TRIALS = ").rstrip().rstrip(";"))
    assert len(payload["rows"]) == len(df) and payload["prompts"] == {} == payload["media"]


def test_linked_table_links_trial_cells_only():
    from reports.html.grid import LINK_AXES, linked_table_html

    columns = pd.MultiIndex.from_tuples([("chord", "<m>"), ("chord", "chance")],
                                        names=["model", "notation"])
    table = pd.DataFrame([["50.0 n=2", "25.0"], ["", "x"]], columns=columns,
                         index=pd.Index(["a1", "Chance"], name="experiment"))
    table.attrs[LINK_AXES] = {"index": ("experiment",), "columns": ("model", "notation")}
    page = linked_table_html(table)
    links = re.findall(r'<a class="cell" href="([^"]+)">([^<]*)</a>', page)
    # one link: the chance column and the chance row are no trials, an empty cell is nothing
    assert links == [("#trials?experiment=a1&amp;model=chord&amp;notation=%3Cm%3E", "50.0 n=2")]
    assert "<m>" not in page and "&lt;m&gt;" in page
    assert '<th colspan="2">chord</th>' in page


def test_headline_gives_accuracy_against_chance_and_the_audio_midi_gap(listener_run):
    df = load_records(listener_run)
    page = (listener_run / "report.html").read_text(encoding="utf-8")
    summary = page.split('<section id="summary">')[1].split("</section>")[0]
    blocks = dict(re.findall(r"<h3>(\w+)</h3>(.*?)</div>", summary, re.DOTALL))
    assert list(blocks) == ["listener", "chance"]
    for model, block in blocks.items():
        for task in ("syncopation", "transposition", "chord"):
            mine = df[(df["model"] == model) & (df["task"] == task)]
            audio = mine[mine["modality"] == "audio"]["correct"].astype(bool).mean()
            midi = mine[mine["modality"] == "midi"]["correct"].astype(bool).mean()
            link = html.escape(f"#trials?model={model}&task={task}")
            overall = 100 * mine["correct"].astype(bool).mean()
            assert f'href="{link}">{overall:.1f} [' in block, (model, task)
            assert f"gap <strong>{100 * (audio - midi):+.1f}</strong>" in block
    assert blocks["listener"].count("above chance") == 3
    assert "below chance" not in blocks["chance"]
