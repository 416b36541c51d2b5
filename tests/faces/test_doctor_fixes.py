"""Every fix `qmem doctor` prints is run here, as printed, and the problem is gone afterwards."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest

from qmem.base import config, layout


@pytest.fixture
def indexed(cli, workspace, monkeypatch):
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    assert cli("collection", "create", "main", str(workspace)).code == 0
    return workspace


def report(cli) -> dict:
    return json.loads(cli("doctor", "--json").out)


def run_fix(cli, fix: str) -> None:
    """A fix as a person would run it: a qmem command, a shell line, or the config edit named."""
    step = fix.split(" (", 1)[0]
    if ", or " in step:  # "restore the folder, or qmem collection remove main": the command
        step = step.rsplit(", or ", 1)[1]
    if step.startswith("set "):  # set KEY = VALUE in the [TABLE] table of FILE
        import tomlkit

        words = step.split()
        key, value, table, path = words[1], int(words[3]), words[6].strip("[]"), " ".join(words[9:])
        with open(path, encoding="utf-8") as handle:
            doc = tomlkit.parse(handle.read())
        doc.setdefault(table, tomlkit.table())[key] = value
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(tomlkit.dumps(doc))
        return
    if step.startswith("qmem ") and "&&" not in step:
        result = cli(*shlex.split(step)[1:])
        assert result.code == 0, (fix, result)
        return
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    done = subprocess.run(["bash", "-c", step], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (fix, done.stderr)


def fix_everything(cli, expect: str) -> None:
    before = report(cli)
    found = [p for p in before["problems"] if expect in p["message"]]
    assert found, before["problems"]
    for problem in found:
        run_fix(cli, problem["fix"])
    after = report(cli)
    assert after["ok"], after["problems"]
    assert cli("doctor", "-q").code == 0


def test_a_binary_file_is_reported_as_skipped_and_its_fix_works(cli, indexed):
    (indexed / "memory" / "photo.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00 not text")
    assert cli("index", "-q").code == 0
    st = report(cli)
    assert all(p["check"] != "stale" for p in st["problems"])  # skipped, not stale forever
    fix_everything(cli, "photo.md is not indexed: binary")
    assert (indexed / "memory" / "photo.md.binary").exists()  # moved aside, every byte kept


def test_a_latin1_file_is_converted_by_its_fix_and_then_found(cli, indexed):
    (indexed / "memory" / "notes-latin1.md").write_bytes("# Café\n\n- the crème brûlée recipe\n".encode("latin-1"))
    assert cli("index", "-q").code == 0
    assert "stale" not in [p["check"] for p in report(cli)["problems"]]
    fix_everything(cli, "notes-latin1.md is not indexed: not UTF-8")
    assert "notes-latin1.md" in cli("search", "brûlée", "--files").out


def test_a_utf16_file_is_converted_by_its_fix(cli, indexed):
    (indexed / "memory" / "notes-utf16.md").write_bytes("# Notes\n\n- the quokka fact\n".encode("utf-16"))
    assert cli("index", "-q").code == 0
    fix_everything(cli, "notes-utf16.md is not indexed")
    assert "notes-utf16.md" in cli("search", "quokka", "--files").out


def test_a_file_over_the_size_limit_is_skipped_and_moved_aside_by_its_fix(cli, indexed):
    from qmem.engine.reading import MAX_FILE_BYTES

    with open(indexed / "memory" / "huge.md", "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: no 16 MiB written
    assert cli("index", "-q").code == 0
    fix_everything(cli, "huge.md is not indexed: larger than")


def test_a_garbled_owner_record_is_not_an_orphan_and_index_rewrites_it(cli, indexed):
    cfg = config.load()
    with open(os.path.join(cfg.data_dir, layout.OWNER), "w") as handle:
        handle.write("{garbled")
    problems = report(cli)["problems"]
    assert not any("rm -rf" in p["fix"] for p in problems), problems  # never: the folder in use
    fix_everything(cli, "owner.json is unreadable")
    assert layout.owner_of(cfg.data_dir) == os.path.realpath(cfg.file)


def test_a_large_session_buffer_over_the_boot_budget_is_cleared_by_its_fix(cli, indexed):
    (indexed / "SESSION-STATE.md").write_text("working notes " * 3000, encoding="utf-8")
    fix_everything(cli, "over its 1500-token budget")
    assert any(n.startswith("session-state-") for n in os.listdir(indexed / "memory" / "archive"))


def test_a_large_flat_memory_over_the_boot_budget_is_migrated_by_its_fix(cli, indexed):
    sections = "".join(f"\n## Topic {i}\n\n" + f"- fact {i} about the project and its many parts\n" * 40
                       for i in range(12))
    (indexed / "MEMORY.md").write_text("# Memory\n" + sections, encoding="utf-8")
    assert cli("index", "-q").code == 0
    problem = next(p for p in report(cli)["problems"] if p["check"] == "boot")
    assert problem["fix"].startswith("qmem tree migrate")
    fix_everything(cli, "over its 1500-token budget")


def test_a_memory_that_migrating_cannot_shrink_gets_a_budget_that_holds_it(cli, indexed):
    # ~500 tokens: below the size `tree migrate` takes on (a tree gains little), over a 300-token budget
    (indexed / "MEMORY.md").write_text("# Memory\n\n" + "- a standing rule that is always loaded\n" * 50,
                                       encoding="utf-8")
    path = os.environ["QMEM_CONFIG"]
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("[memory]\nboot_budget = 300\n\n" + text)
    assert cli("index", "-q").code == 0
    problem = next(p for p in report(cli)["problems"] if p["check"] == "boot")
    assert "tree migrate" not in problem["fix"]
    fix_everything(cli, "over its 300-token budget")


def test_a_missing_root_and_a_stale_file_are_fixed_as_printed(cli, indexed, tmp_path):
    other = tmp_path / "other"
    (other / "memory").mkdir(parents=True)
    (other / "MEMORY.md").write_text("# other\n- x\n", encoding="utf-8")
    assert cli("collection", "create", "other", str(other)).code == 0
    (indexed / "memory" / "2026-03-09.md").write_text("# 2026-03-09\n- [E] new\n", encoding="utf-8")
    import shutil

    shutil.rmtree(other)
    fix_everything(cli, "")
