"""CI runs every test: the default run (what docs/contributing.md tells a contributor to type)
leaves out the slow tests, and .ci/run runs that command and then the slow tests as a step of
their own. A test marked slow that no step ran, or a documented command CI does not run, fails here."""

from __future__ import annotations

import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ci_pytest_runs() -> list[list[str]]:
    """The argument lists of every `python -m pytest` line in .ci/run (not the live suites' function)."""
    runs = []
    for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("python -m pytest "):
            runs.append(shlex.split(line, comments=True)[3:])
    return runs


def documented_command() -> list[str]:
    for line in (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8").splitlines():
        if "as CI runs it" in line:
            return shlex.split(line.split("#")[0])[3:]
    raise AssertionError("docs/contributing.md names no test command 'as CI runs it'")


def test_the_default_run_leaves_out_the_slow_tests():
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]["addopts"]
    words = shlex.split(addopts)
    assert words[words.index("-m") + 1] == "not slow"


def test_ci_runs_the_documented_command_and_then_the_slow_tests():
    runs = [[w for w in run if w != "-q"] for run in ci_pytest_runs()]
    command = documented_command()
    assert "-m" not in command  # the default selection: addopts' "not slow"
    assert runs[:2] == [command, command + ["-m", "slow"]]


def collected(*args: str) -> set[str]:
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly", *args],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    return {line for line in out.stdout.splitlines() if "::" in line}


def test_the_default_run_leaves_out_the_data_set_runs_and_the_long_walks():
    """What the slow step (-m slow) runs: the default collection holds none of it."""
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly",
                          "tests/quality/test_quality.py", "tests/memory/test_writers_random_walks.py"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    default = {line for line in out.stdout.splitlines() if "::" in line}
    assert "tests/memory/test_writers_random_walks.py::test_random_walks_never_lose_a_line[first]" in default
    assert not [name for name in default if name.startswith("tests/quality/test_quality.py::")
                or name.endswith("::test_random_walks_never_lose_a_line[rest]")]


def test_ci_runs_ruff_over_every_python_folder():
    lines = [line.split() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert ["ruff", "check", "src", "tests", "bench", "scripts"] in lines


def test_ci_runs_the_mypy_ratchet():
    lines = [line.split() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert ["python", "scripts/check_types.py"] in lines


def test_the_ruff_config_catches_the_mistakes_it_selects(tmp_path):
    """The project's rule set, run on a planted file: an unused import (F), a loop variable a
    closure binds late (B023), a stale noqa (RUF100)."""
    planted = tmp_path / "planted.py"
    planted.write_text('import os\n\n\ndef later():\n    return [lambda: i for i in range(3)]\n\n\n'
                       'X = 1  # noqa: E501\n', encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--config", str(ROOT / "pyproject.toml"),
                          "--output-format", "concise", "--no-cache", str(planted)],
                         capture_output=True, text=True, timeout=120)
    codes = {line.split(": ")[1].split()[0] for line in out.stdout.splitlines() if line.startswith(str(planted))}
    assert out.returncode == 1 and codes == {"F401", "B023", "RUF100"}, out.stdout + out.stderr
