"""A memory file over the size qmem reads (16 MiB) is refused or left out in one line at
once, never read whole: boot, doctor, flush, distill, forget, janitor, remember, tree migrate.

Each command runs in a subprocess with a generous hang guard (before, a 17 MiB MEMORY.md kept
doctor busy for minutes); what is asserted is the one-line answer."""

from __future__ import annotations

import subprocess

import pytest

from qmem.base.conventions import MAX_FILE_BYTES

from ..conftest import PYTHON, subprocess_env

DAY = "2026-03-01"
TOO_LARGE = "larger than 16 MiB"


def _big_text(path) -> None:
    line = "- [K] a fact about the project, one of very many written over the years\n"
    block = "\n## Topic\n\n" + line * 200
    with open(path, "w", encoding="utf-8") as handle:
        while handle.tell() <= MAX_FILE_BYTES:
            handle.write(block)


@pytest.fixture
def big(tmp_path):
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    _big_text(ws / "MEMORY.md")
    _big_text(ws / "memory" / f"{DAY}.md")
    return ws


def qmem(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, "-m", "qmem", *args], input=stdin, capture_output=True, text=True,
                          env=subprocess_env(), timeout=240)


@pytest.mark.parametrize("args", [("boot", "{ws}"), ("tree", "migrate", "{ws}", "--dry-run")])
def test_loading_a_memory_md_over_the_limit_is_refused_in_one_line(big, args):
    done = qmem(*[a.format(ws=big) for a in args])
    assert done.returncode == 2, done
    assert len(done.stderr.splitlines()) == 1 and TOO_LARGE in done.stderr, done.stderr


@pytest.mark.parametrize("args, says", [
    (("janitor", "--today", "2026-03-02"), TOO_LARGE),
    (("distill", "--today", DAY), TOO_LARGE),
    (("forget", "a fact about the project"), "not searched: MEMORY.md: " + TOO_LARGE),
    (("remember", "new text", "--replace", "a fact about the project"), "not searched: MEMORY.md"),
])
def test_memory_writers_leave_a_file_over_the_limit_alone_and_say_so(big, args, says):
    before = (big / "MEMORY.md").stat().st_size, (big / "memory" / f"{DAY}.md").stat().st_size
    done = qmem(*args, "-w", str(big))
    assert says in done.stderr, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert ((big / "MEMORY.md").stat().st_size, (big / "memory" / f"{DAY}.md").stat().st_size) == before


def test_remember_and_flush_append_to_a_large_log_and_say_it_is_not_indexed(big):
    done = qmem("remember", "the okapi fact", "-w", str(big), "--date", DAY)
    assert done.returncode == 0, done
    assert done.stdout.startswith(f"memory/{DAY}.md:") and "the okapi fact" in done.stdout
    flushed = qmem("flush", "-w", str(big), "--date", DAY, stdin="- [K] the quokka fact\n")
    assert flushed.returncode == 0, flushed
    tail = (big / "memory" / f"{DAY}.md").read_bytes()[-200:].decode()
    assert tail.endswith("- the okapi fact\n- [K] the quokka fact\n")


def test_doctor_and_status_on_a_workspace_with_large_files(big):
    assert qmem("collection", "create", "main", str(big)).returncode == 0
    import json

    done = qmem("doctor", "-w", str(big), "--json")
    assert done.returncode == 1, done
    problems = json.loads(done.stdout)["problems"]
    assert {p["check"] for p in problems} == {"skipped"}, problems  # not stale, and no boot overflow
    assert all(TOO_LARGE in p["message"] for p in problems)
