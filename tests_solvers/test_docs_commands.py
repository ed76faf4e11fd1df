"""Every command in README.md and docs/*.md runs as written, and every relative link resolves
(issue 15). A newcomer copies commands from the docs; a stale option or an empty ``-m`` slice
there is a bug like any other.

The rules a doc author must know:

- **What is a command.** The lines of fenced code blocks marked ``sh``, ``bash``, ``shell``,
  ``console`` or unmarked, and of indented (four-space) blocks, joined across a trailing
  backslash, with a trailing ``# comment`` dropped. A line is a command when its first word
  (after ``VAR=value`` prefixes) is ``pytest``, ``python``, ``make`` or their ``.venv/bin/``
  forms; other lines (CSV rows, JSON, ``text`` blocks) are data and are not checked.
- **Placeholders.** A word in angle brackets (``<model>``, ``<manifest.csv>``, ``<run_dir>``)
  stands for the reader's own value. The placeholders in ``STAND_INS`` are replaced by a real
  value (``<model>`` by ``oracle``, the MCQ files by the synthetic sets). An option whose value
  holds any other placeholder is dropped from the checked command once ``--help`` is seen to
  list the option; a placeholder anywhere else fails the check.
- **pytest commands** run with ``--collect-only -q`` (``-n`` set to 0, third-party plugins other
  than xdist not loaded; dummy API keys, and collecting sends nothing): they must exit 0 and
  collect at least one test, so an option that does not exist, a bad value, or a ``-m``/``-k``
  expression selecting nothing fails. A command without ``--pitch-sample`` is collected with
  ``--pitch-sample 2``: two items per pitch experiment keep every experiment, notation and
  marker, so only a ``-k`` naming one pitch item could differ (give it its own sample).
- **python -m MODULE [SUBCOMMAND]** and **python benchmarks/SCRIPT.py**: ``--help`` of the
  module, subcommand or script must exit 0 and list every ``--option`` the command uses.
  ``python -m fixtures.mcq make-synthetic`` is also run for real (it makes the MCQ stand-ins).
- **make TARGET**: ``make -n TARGET`` must succeed.
- **Links**: every relative link in README.md and docs/*.md names an existing file, and an
  ``#anchor`` into a Markdown file names one of its headings.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests_solvers import PYTEST

REPO = Path(__file__).resolve().parent.parent
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

COMMAND_WORDS = {"pytest", "python", "make"}
SHELL_FENCES = {"", "sh", "bash", "shell", "console"}
PLACEHOLDER = re.compile(r"<[^<>\s]+>")
# Collecting loads only the plugins a documented command can lean on (xdist for -n): importing
# every installed plugin (hypothesis alone takes a second) would double the time of each check.
COLLECT_PLUGINS = ["-p", "xdist.plugin", "-p", "no:cacheprovider"]
DUMMY_KEYS = {"GEMINI_API_KEY": "docs-test-dummy", "OPENAI_API_KEY": "docs-test-dummy"}


@dataclass(frozen=True)
class DocCommand:
    where: str  # "docs/models.md:42"
    text: str


ASSIGNMENT = re.compile(r"[A-Z_][A-Z0-9_]*=\S*")


def _is_command(words: list[str]) -> bool:
    """Its first word after ``VAR=value`` prefixes is pytest, python or make (or .venv/bin/)."""
    rest = [w for w in words if not ASSIGNMENT.fullmatch(w)]
    return bool(rest) and rest[0].removeprefix(".venv/bin/") in COMMAND_WORDS


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of every line inside a shell fence or an indented block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, fence, previous_blank = [], None, True
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped[3:].strip().lower()
        elif fence is not None:
            if fence in SHELL_FENCES:
                found.append((number, line))
        elif line.startswith("    ") and (previous_blank or found and found[-1][0] == number - 1):
            found.append((number, line[4:]))
        previous_blank = not stripped
    return found


def doc_commands() -> list[DocCommand]:
    commands = []
    for path in DOCS:
        pending: tuple[int, str] | None = None
        for number, line in _code_lines(path):
            start, text = pending if pending else (number, "")
            text += " " + line.strip()
            if text.endswith("\\"):
                pending = (start, text[:-1])
                continue
            pending = None
            text = re.sub(r"\s+#\s.*$", "", text).strip()
            try:
                words = shlex.split(text)
            except ValueError:
                words = text.split()
            if _is_command(words):
                commands.append(DocCommand(f"{path.relative_to(REPO)}:{start}", text))
    return commands


COMMANDS = doc_commands()


def _env(assignments: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")}
    return {**env, **DUMMY_KEYS, "COLUMNS": "200", **assignments}


def _run(argv: list[str], env: dict[str, str],
         timeout_s: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=timeout_s)


@functools.cache
def _help_options(argv: tuple[str, ...]) -> frozenset[str]:
    result = _run([*argv, "--help"], _env({}))
    assert result.returncode == 0, f"{' '.join(argv)} --help failed:\n{result.stderr[-2000:]}"
    return frozenset(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", result.stdout))


def _pytest_help() -> frozenset[str]:
    return _help_options((sys.executable, "-m", "pytest", "-p", "no:cacheprovider"))


@pytest.fixture(scope="module")
def stand_ins(tmp_path_factory) -> dict[str, str]:
    """Real values for the placeholders a reader fills in; the MCQ sets are made by the
    documented command itself, the MUSE checkout is a generated replica of its layout."""
    from tests_solvers.muse_replica import write_replica

    checkout = write_replica(tmp_path_factory.mktemp("muse") / "MUSE_music_benchmark")
    out = tmp_path_factory.mktemp("mcq")
    result = _run([sys.executable, "-m", "fixtures.mcq", "make-synthetic", str(out)], _env({}))
    assert result.returncode == 0, result.stderr[-2000:]
    return {
        "<model>": "oracle",
        "<muchomusic.csv>": str(out / "muchomusic" / "muchomusic.csv"),
        "<wildscore.csv>": str(out / "wildscore" / "data.csv"),
        "<muse_checkout>": str(checkout),
    }


_SHELL_OPERATORS = frozenset({"|", "||", "&&", ";", ">", ">>", "2>&1", "&"})


def _split(command: DocCommand) -> tuple[dict[str, str], list[str]]:
    """The environment and words of the command's first stage (``... -q | cat`` runs ``... -q``:
    what the pipe feeds is the shell's business, not eartest's)."""
    words = shlex.split(command.text)
    for index, word in enumerate(words):
        if word in _SHELL_OPERATORS:
            words = words[:index]
            break
    env = {}
    while words and ASSIGNMENT.fullmatch(words[0]):
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    return env, words


def _fill_placeholders(words: list[str], stand_ins: dict[str, str], where: str) -> list[str]:
    """Stand-ins replace known placeholders; an option holding another one is dropped."""
    kept: list[str] = []
    skip_next = False
    for index, word in enumerate(words):
        if skip_next:
            skip_next = False
            continue
        filled = PLACEHOLDER.sub(lambda m: stand_ins.get(m.group(0), m.group(0)), word)
        if not PLACEHOLDER.search(filled):
            kept.append(filled)
            continue
        option = word.split("=", 1)[0] if word.startswith("--") else (
            words[index - 1] if index and words[index - 1].startswith("--") else None)
        assert option, f"{where}: placeholder {word!r} is not the value of an option"
        assert option in _pytest_help(), f"{where}: {option} is not an option (pytest --help)"
        if word.startswith("--"):
            continue
        kept.pop()  # the option whose value this is
    return kept


def _collect_args(command: DocCommand, args: list[str], stand_ins: dict[str, str]) -> list[str]:
    """The command's pytest arguments as collected: placeholders filled, ``-n 0``, ``-q`` once."""
    args = [a for a in _fill_placeholders(args, stand_ins, command.where) if a != "-q"]
    for index, word in enumerate(args[:-1]):
        if word == "-n":
            args[index + 1] = "0"  # collecting needs no workers
    if not any(a.startswith(("--pitch-sample", "--stimuli-manifest")) for a in args):
        args += ["--pitch-sample", "2"]  # every experiment, notation and marker, 1/60 the time
    return [*COLLECT_PLUGINS, *args, "--collect-only", "-q"]


def collect(jobs: list[tuple[DocCommand, list[str], dict[str, str]]]) -> list[str | None]:
    """Collect every (command, pytest args, env) in one forking helper process
    (``tests_solvers/docs_collect.py``); per job, what is wrong with it or None."""
    payload = json.dumps([{"args": args, "env": env} for _, args, env in jobs])
    result = subprocess.run([sys.executable, "-m", "tests_solvers.docs_collect"], input=payload,
                            cwd=REPO, env=_env({"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    problems = []
    for (command, _, _), outcome in zip(jobs, json.loads(result.stdout), strict=True):
        tail = outcome["output"][-1500:].strip()
        counted = re.search(r"(\d+)(?:/\d+)? tests? collected", outcome["output"])
        if outcome["returncode"] == pytest.ExitCode.NO_TESTS_COLLECTED or (
                outcome["returncode"] == 0 and not (counted and int(counted.group(1)) > 0)):
            problems.append(f"{command.where}: `{command.text}` selects no test:\n{tail}")
        elif outcome["returncode"] != 0:
            problems.append(f"{command.where}: `{command.text}` does not collect:\n{tail}")
        else:
            problems.append(None)
    return problems


def _check_help(command: DocCommand, env: dict[str, str], target: list[str],
                rest: list[str]) -> None:
    """``--help`` of the module / subcommand / script lists every option the command uses."""
    if rest and re.fullmatch(r"[a-z][a-z-]*", rest[0]):
        target = [*target, rest[0]]
    listed = _help_options(tuple(target))
    for word in rest:
        option = word.split("=", 1)[0]
        if option.startswith("--"):
            assert option in listed, f"{command.where}: {' '.join(target)} has no {option}"


def _pytest_args(command: DocCommand) -> list[str] | None:
    """The arguments after ``pytest`` / ``python -m pytest``, or None for another program."""
    words = _split(command)[1]
    if words[0] in ("pytest", ".venv/bin/pytest"):
        return words[1:]
    if words[0] in ("python", ".venv/bin/python") and words[1:3] == ["-m", "pytest"]:
        return words[3:]
    return None


PYTEST_COMMANDS = [c for c in COMMANDS if _pytest_args(c) is not None]
OTHER_COMMANDS = [c for c in COMMANDS if _pytest_args(c) is None]


def test_every_documented_pytest_command_collects(stand_ins) -> None:
    """One test for all of them: they share one forking collector (see docs_collect.py)."""
    jobs = [(c, _collect_args(c, _pytest_args(c), stand_ins), _split(c)[0])
            for c in PYTEST_COMMANDS]
    problems = [p for p in collect(jobs) if p]
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("command", OTHER_COMMANDS, ids=[c.where for c in OTHER_COMMANDS])
def test_every_other_documented_command_runs_as_written(command: DocCommand) -> None:
    env, words = _split(command)
    program = words[0]
    if program == "make":
        assert len(words) >= 2, f"{command.where}: say which make target"
        result = _run(["make", "-n", *words[1:]], _env(env))
        assert result.returncode == 0, f"{command.where}: {result.stderr[-1000:]}"
    elif program in ("python", ".venv/bin/python"):
        if words[1] == "-m":
            _check_help(command, env, [sys.executable, "-m", words[2]], words[3:])
        else:
            script = REPO / words[1]
            assert script.is_file(), f"{command.where}: no script {words[1]}"
            _check_help(command, env, [sys.executable, str(script)], words[2:])
    else:
        pytest.fail(f"{command.where}: no rule checks {program!r}")


def test_the_docs_hold_commands_of_every_kind() -> None:
    """The extraction itself works: a broken parser that finds nothing would pass every check."""
    programs = {_split(c)[1][0] for c in COMMANDS}
    assert {"pytest", "make", "python"} <= programs | {p.split("/")[-1] for p in programs}
    assert len(COMMANDS) >= 30
    readme = [c for c in COMMANDS if c.where.startswith("README.md:")]
    assert any(c.text.startswith("make bench") for c in readme)


def test_a_missing_option_an_empty_slice_or_a_bad_value_is_caught(stand_ins) -> None:
    cases = {
        "pytest bench/test_chord.py --model oracle --no-such-option": "does not collect",
        'pytest bench/test_chord.py --model oracle -m "syncopation"': "selects no test",
        "pytest bench/test_chord.py --model oracle --modality smell": "does not collect",
        "pytest bench/test_chord.py --model <model> -n 2": None,
    }
    commands = [DocCommand(f"example:{i}", text) for i, text in enumerate(cases)]
    jobs = [(c, _collect_args(c, _pytest_args(c), stand_ins), {}) for c in commands]
    for problem, expected in zip(collect(jobs), cases.values(), strict=True):
        assert (problem is None) if expected is None else (expected in (problem or "")), problem


# -- links --------------------------------------------------------------------------------------
def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text))


def _anchors(path: Path) -> set[str]:
    return {_slug(line.lstrip("#")) for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


def doc_links() -> list[tuple[str, str]]:
    links = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = match.group(1)
            if not re.match(r"[a-z]+:", target):
                line = text.count("\n", 0, match.start()) + 1
                links.append((f"{path.relative_to(REPO)}:{line}", target))
    return links


def link_problem(source: Path, target: str) -> str | None:
    """What is wrong with a relative link from ``source`` to ``target``, or None."""
    file_part, _, anchor = target.partition("#")
    resolved = (source.parent / file_part).resolve() if file_part else source
    if not resolved.exists():
        return f"link to {target} names no file"
    if anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
        return f"{resolved.name} has no heading #{anchor}"
    return None


@pytest.mark.parametrize("where,target", doc_links())
def test_every_relative_link_resolves(where: str, target: str) -> None:
    problem = link_problem(REPO / where.split(":")[0], target)
    assert problem is None, f"{where}: {problem}"


def test_a_broken_link_or_anchor_is_caught() -> None:
    index = REPO / "docs" / "index.md"
    assert link_problem(index, "tasks.md#items") is None
    assert "names no file" in link_problem(index, "no-such-page.md")
    assert "no heading" in link_problem(index, "tasks.md#no-such-heading")
    assert "names no file" in link_problem(REPO / "README.md", "architecture.md")


def test_the_readme_stays_a_five_minute_read() -> None:
    """Issue 15: under 150 lines, the two commands first, the manual in docs/."""
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 150, f"README.md has {len(lines)} lines: move detail to docs/"
    assert [line.split("#")[0].strip() for line in lines[2:4]] == ["make bench", "make test"]
    assert "(docs/index.md)" in "\n".join(lines)


def _eartest_options() -> set[str]:
    """The options of the ``eartest ...`` groups of ``pytest --help``."""
    result = _run([*PYTEST, "-p", "no:cacheprovider", "--help"], _env({}))
    sections = re.split(r"\n(?=\S)", result.stdout)
    ours = "\n".join(s for s in sections if s.startswith("eartest "))
    return set(re.findall(r"^\s{2}(--[a-z][a-z0-9-]*)", ours, flags=re.MULTILINE))


def test_options_page_lists_exactly_the_options_pytest_help_lists() -> None:
    options = _eartest_options()
    assert len(options) > 40, sorted(options)
    page = (REPO / "docs" / "options.md").read_text(encoding="utf-8")
    first_cells = [line.split("|")[1] for line in page.splitlines() if line.startswith("| `--")]
    documented = {name for cell in first_cells for name in re.findall(r"--[a-z][a-z0-9-]*", cell)}
    assert options - documented == set(), "options missing from docs/options.md"
    assert documented - options == set(), "docs/options.md names options pytest does not have"
