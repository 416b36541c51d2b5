"""The README documents every command and option the CLI has, and its examples are true:
every ```console block is run on the sample workspace and its output compared (paths, times
and durations normalised, numbers within a tolerance); the cron and systemd examples run as
cron and systemd would, with a virtualenv's qmem and a bare PATH."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from qmem.faces.cli.app import command as cli_command

from ..conftest import ROOT, SAMPLE

README = ROOT / "README.md"
DEMO = "/tmp/demo"  # how the README writes the demo folder
_CONSOLE = re.compile(r"^```console( continued)?\n(.*?)^```", re.S | re.M)
_FLOAT = re.compile(r"-?\d+\.\d+")
_NORMAL = [
    (re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}"), "<time>"),
    (re.compile(r"\d{8}-\d{6}(?:-\d+)?"), "<stamp>"),
    (re.compile(r"done in \d+\.\d+s"), "done in <s>"),
    (re.compile(r"memory/archive/\d{4}-\d{2}\.md"), "memory/archive/<month>.md"),
    (re.compile(r"configs/[A-Za-z0-9._-]*-[0-9a-f]{16}"), "configs/<config folder>"),  # keyed by the config's path
]
TOLERANCE = 0.25  # scores and sizes may move this much (relative) before the README must change


def commands(group, prefix=""):
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def test_every_command_and_option_is_in_the_readme():
    readme = README.read_text(encoding="utf-8")
    missing = []
    for name, command in commands(cli_command()):
        if f"qmem {name}" not in readme and f"`{name.split()[-1]}" not in readme:
            missing.append(name)
        for param in command.params:
            if param.param_type_name == "option" and param.name != "help":
                if not any(opt in readme for opt in param.opts):
                    missing.append(f"{name} {param.opts[0]}")
    assert missing == []


# -- the README's console blocks --------------------------------------------------------------------
# A block opts in by its fence: ```console (the output of each `$ ` line follows it). Each block
# starts from a fresh copy of the sample workspace at /tmp/demo/workspace, indexed as collection
# `main` (unless the block itself starts with `qmem collection create`); ```console continued
# goes on from the state the previous block left.

def console_blocks(text: str) -> list[tuple[int, bool, list[tuple[str, str]]]]:
    """(line of the block, continues the previous one, [(command, expected output)]) for every
    ```console block."""
    found = []
    for match in _CONSOLE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        runs: list[tuple[str, list[str]]] = []
        for row in match.group(2).splitlines():
            if row.startswith("$ "):
                runs.append((row[2:], []))
            elif runs:
                runs[-1][1].append(row)
        found.append((line, match.group(1) == " continued", [(cmd, "\n".join(out).strip("\n")) for cmd, out in runs]))
    return found


def normalise(text: str, root: str) -> str:
    text = text.replace(root, DEMO)
    for pattern, repl in _NORMAL:
        text = pattern.sub(repl, text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def same(expected: str, actual: str) -> bool:
    """Equal but for numbers with a decimal point, which may differ by TOLERANCE (relative)."""
    if _FLOAT.sub("#", expected) != _FLOAT.sub("#", actual):
        return False
    for a, b in zip(_FLOAT.findall(expected), _FLOAT.findall(actual)):
        x, y = float(a), float(b)
        if abs(x - y) > TOLERANCE * max(abs(x), abs(y), 0.01):
            return False
    return True


def demo_env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QMEM_", "XDG_"))}
    env.update(HOME=str(root / "home"), QMEM_CONFIG=str(root / "config" / "collections.toml"),
               QMEM_DATA=str(root / "data"), QMEM_WORKSPACE=str(root / "workspace"), NO_COLOR="1", TZ="UTC",
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return env


def _fresh(root: Path, env: dict[str, str], index: bool) -> None:
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(SAMPLE, root / "workspace")
    (root / "home").mkdir()
    if index:
        subprocess.run(["qmem", "collection", "create", "main", str(root / "workspace")], env=env, check=True,
                       capture_output=True)


def run_readme(root: Path, text: str) -> list[tuple[int, str, str, str]]:
    """Run every console block of `text` (see above) with /tmp/demo at `root`; (block line,
    command, expected, actual with `root` written as /tmp/demo) for each command."""
    env = demo_env(root)
    results = []
    for line, continued, runs in console_blocks(text):
        if not continued:
            _fresh(root, env, index=not (runs and runs[0][0].startswith("qmem collection create")))
        for cmd, expected in runs:
            proc = subprocess.run(["bash", "-c", cmd.replace(DEMO, str(root))], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=120)
            actual = (proc.stdout + proc.stderr).replace(str(root), DEMO).strip("\n")
            results.append((line, cmd, expected, "\n".join(row.rstrip() for row in actual.splitlines())))
    return results


def test_readme_console_blocks_tell_the_truth(tmp_path):
    results = [(line, cmd, expected, normalise(actual, DEMO))
               for line, cmd, expected, actual in run_readme(tmp_path / "demo", README.read_text(encoding="utf-8"))]
    assert len(results) >= 30, "the README should show real runs in ```console blocks"
    wrong = [f"README.md:{line}: $ {cmd}\n--- README\n{expected}\n--- actual\n{actual}"
             for line, cmd, expected, actual in results if not same(normalise(expected, DEMO), actual)]
    assert not wrong, "\n\n".join(wrong)


def update_readme(root: Path) -> None:
    """Rewrite every console block's output with what the commands print now (`python -m
    tests.test_docs`): for a change that means to change the output. Review the diff."""
    text = README.read_text(encoding="utf-8")
    actual = iter(run_readme(root, text))

    def block(match: re.Match) -> str:
        rows = []
        for row in match.group(2).splitlines():
            if row.startswith("$ "):
                _, cmd, _, out = next(actual)
                rows += ([""] if rows and out_before[0] else []) + [f"$ {cmd}"] + ([out] if out else [])
                out_before[0] = bool(out)
        return f"```console{match.group(1) or ''}\n" + "\n".join(rows) + "\n```"

    out_before = [False]  # a blank line after a command's output, none between silent commands

    README.write_text(_CONSOLE.sub(block, text), encoding="utf-8")


def test_runs_left_unchecked_are_only_the_vector_tier_ones():
    """A README block that shows a run (`$ `) but is not ```console needs a model the tests do
    not install; anything else must be opted in."""
    text = README.read_text(encoding="utf-8")
    for match in re.finditer(r"^```(\w*)\n(\$ .*?)^```", text, re.S | re.M):
        if match.group(1) != "console":
            assert re.search(r"\$ qmem (query|vsearch|embed)\b", match.group(2)), match.group(2)[:200]


def test_normalising_keeps_what_matters():
    assert same("score 3.3558, 13.2 KB", "score 3.40, 13.9 KB")
    assert not same("score 3.3558", "score 9.1")
    assert not same("4 files", "5 files")
    assert normalise("/x/y/ws at 2026-11-30T02:36:54+0000, done in 0.14s", "/x/y") == \
        "/tmp/demo/ws at <time>, done in <s>"


# -- cron and systemd, as they run them ------------------------------------------------------------

def _block_after(text: str, marker: str, fence: str) -> str:
    start = text.index(f"```{fence}\n", text.index(marker)) + len(fence) + 4
    return text[start:text.index("```", start)]


@pytest.fixture
def venv_home(tmp_path, cli):
    """A HOME with qmem installed in a virtualenv at ~/.venvs/qmem (this test's own, linked) and
    a workspace at ~/agent/workspace indexed in the default config."""
    home = tmp_path / "cronhome"
    (home / ".venvs" / "qmem").mkdir(parents=True)
    os.symlink(os.path.dirname(sys.executable), home / ".venvs" / "qmem" / "bin")
    shutil.copytree(SAMPLE, home / "agent" / "workspace")
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}  # what cron gives a job
    proc = subprocess.run([str(home / ".venvs/qmem/bin/qmem"), "collection", "create", "main",
                           str(home / "agent" / "workspace")], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return home, env


def test_cron_lines_work_for_a_virtualenv_install(venv_home):
    home, env = venv_home
    block = _block_after(README.read_text(encoding="utf-8"), "### `qmem maintain`", "cron")
    lines = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert lines
    for line in lines:
        job = line.split(None, 5)[5]  # after the five schedule fields
        assert "/.venvs/qmem/bin/qmem" in job, f"cron has no virtualenv on its PATH: {job}"
        proc = subprocess.run(["/bin/sh", "-c", job], env=env, capture_output=True, text=True, cwd=home)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), job


def test_systemd_service_works_for_a_virtualenv_install(venv_home):
    home, env = venv_home
    unit = _block_after(README.read_text(encoding="utf-8"), "### `qmem maintain`", "ini")
    service = dict(line.split("=", 1) for line in unit.split("# qmem-maintain.timer")[0].splitlines()
                   if "=" in line and not line.startswith("#"))
    extra = dict(pair.split("=", 1) for pair in service.get("Environment", "").split())
    run_env = {**env, **{k: v.replace("%h", str(home)) for k, v in extra.items()}}
    argv = service["ExecStart"].replace("%h", str(home)).split()
    assert argv[0].endswith("/.venvs/qmem/bin/qmem"), "systemd has no virtualenv on its PATH"
    proc = subprocess.run(argv, env=run_env, capture_output=True, text=True, cwd="/")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        update_readme(Path(scratch) / "demo")
