"""Shared fixtures: every test gets its own HOME, config and data folder."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "workspace"
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point HOME, XDG_* and qmem's own overrides at a temp folder."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("QMEM_CONFIG", str(tmp_path / "config" / "collections.toml"))
    monkeypatch.setenv("QMEM_DATA", str(tmp_path / "data"))
    for name in ("NO_COLOR", "FORCE_COLOR", "QMEM_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of the bundled sample workspace (English and Chinese entries)."""
    dest = tmp_path / "ws"
    shutil.copytree(SAMPLE, dest)
    return dest


@pytest.fixture
def cfg(workspace: Path):
    """A config with the sample workspace as collection `main`, indexed."""
    from qmem.engine import catalog
    from qmem.base import config

    c = config.load()
    catalog.create(c, "main", str(workspace))
    return config.load()


class CliResult:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code = code
        self.out = out
        self.err = err

    def __repr__(self) -> str:
        return f"CliResult(code={self.code}, out={self.out!r}, err={self.err!r})"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Run `qmem ARGS...` in-process (fast path and Typer app alike); returns code/out/err."""
    from qmem.__main__ import main

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


def subprocess_env() -> dict[str, str]:
    """The environment for `python -m qmem` children: the test's own (isolated) settings.

    Children run this interpreter, so they use the same installed qmem as the tests."""
    return dict(os.environ)


PYTHON = sys.executable
