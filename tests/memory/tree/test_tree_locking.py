"""Tree commands take the writers' lock (issue 27 finding 9, issue 23 item 2).

Each case holds a tree command just after it read MEMORY.md while another writer corrects an
entry there through `rewrite_locked` (the lock remember --replace, forget, janitor and distill
take). Without the lock the tree command then writes from its stale read and the correction is
lost; with it the writer waits and corrects the file the tree command wrote.
"""

from __future__ import annotations

import threading
import time

import pytest

from qmem.base.writes import rewrite_locked
from qmem.memory import forget as forget_mod
from qmem.memory.tree import files as files_mod
from qmem.memory.tree import grow as tree
from qmem.memory.tree import move as move_mod
from qmem.memory.tree import rollback as rollback_mod

from .test_tree_invariants import make_ws

DAY = "2026-03-01"
TEXT = ("# Memory\n\n## [pin] Rules\n- [K] the deploy window is Tuesday\n\n"
        + "".join(f"## Servers {n}\n" + "- [K] vps-{n} runs nginx and postgres behind the firewall\n" * 20
                  for n in range(4)))


def race(monkeypatch, module, name: str, command, writer) -> tuple[object, BaseException | None]:
    """Run `command()`; when it reaches `module.name`, start `writer()` in a thread and give it
    time to finish (a writer that does not wait for the lock finishes at once)."""
    real = getattr(module, name)
    done = threading.Event()
    errors: list[BaseException] = []

    def run_writer() -> None:
        try:
            writer()
        except BaseException as exc:  # reported by the test
            errors.append(exc)
        done.set()

    def held(*args, **kwargs):
        out = real(*args, **kwargs)
        thread = threading.Thread(target=run_writer)
        thread.start()
        done.wait(0.5)  # a writer that ignores the lock is done by now
        return out

    monkeypatch.setattr(module, name, held)
    result = command()
    monkeypatch.setattr(module, name, real)
    assert done.wait(15)
    return result, errors[0] if errors else None


def correct(ws) -> None:
    assert rewrite_locked(ws.memory_md, lambda text: text.replace("Tuesday", "Thursday"))


def test_reindex_holds_the_lock(tmp_path, monkeypatch):
    ws = make_ws(tmp_path, TEXT)
    tree.migrate(ws, day=DAY)
    with open(ws.memory_md, "a", encoding="utf-8") as handle:
        handle.write("\n## Added by hand\n- [K] the backup runs at 3am\n")  # reindex will rewrite the root
    result, error = race(monkeypatch, tree, "scan_branches", lambda: tree.reindex(ws, day=DAY), lambda: correct(ws))
    assert error is None and "MEMORY.md" in result.written
    root = open(ws.memory_md, encoding="utf-8").read()
    assert "Thursday" in root and "Tuesday" not in root  # the correction survived the rewrite
    assert "## Added by hand" not in root  # and reindex still did its job


def test_migrate_holds_the_lock(tmp_path, monkeypatch):
    ws = make_ws(tmp_path, TEXT)
    result, error = race(monkeypatch, tree, "plan", lambda: tree.migrate(ws, day=DAY), lambda: correct(ws))
    assert error is None and result.changed
    root = open(ws.memory_md, encoding="utf-8").read()
    assert "Thursday" in root and "Tuesday" not in root and "## Domains" in root


def test_move_holds_the_lock(tmp_path, monkeypatch):
    ws = make_ws(tmp_path, TEXT)
    tree.migrate(ws, day=DAY)
    leaf = next(rel for rel in move_mod.leaves(ws) if rel.endswith("servers-0.md"))
    result, error = race(monkeypatch, tree, "scan_branches", lambda: move_mod.move(ws, leaf, "projects", day=DAY),
                         lambda: correct(ws))
    assert error is None and "MEMORY.md" in result.written  # the root's domain list gained projects
    root = open(ws.memory_md, encoding="utf-8").read()
    assert "Thursday" in root and "Tuesday" not in root  # the correction survived the rewrite
    assert "**projects**" in root.split("## Domains", 1)[1]  # and the move still did its job


def test_rollback_holds_the_lock(tmp_path, monkeypatch):
    ws = make_ws(tmp_path, TEXT)
    tree.migrate(ws, day=DAY)
    result, error = race(monkeypatch, rollback_mod, "root_was_edited", lambda: tree.rollback(ws), lambda: correct(ws))
    assert error is None and result.changed
    restored = open(ws.memory_md, encoding="utf-8").read()
    assert "Thursday" in restored and "## Domains" not in restored


def test_forget_during_reindex_is_not_undone(tmp_path, monkeypatch):
    ws = make_ws(tmp_path, TEXT)
    tree.migrate(ws, day=DAY)
    with open(ws.memory_md, "a", encoding="utf-8") as handle:
        handle.write("\n## Added by hand\n- [K] the backup runs at 3am\n")

    def forget() -> None:
        forget_mod.forget(ws, "deploy window", all_matches=True)

    _, error = race(monkeypatch, tree, "scan_branches", lambda: tree.reindex(ws, day=DAY), forget)
    assert error is None
    assert "deploy window" not in open(ws.memory_md, encoding="utf-8").read()  # forgotten stays forgotten


def test_a_busy_lock_is_a_one_line_refusal(tmp_path, monkeypatch):
    ws = make_ws(tmp_path, TEXT)
    tree.migrate(ws, day=DAY)
    monkeypatch.setattr(files_mod, "LOCK_TIMEOUT", 0.2)

    def slow(text: str) -> None:
        time.sleep(0.6)

    holder = threading.Thread(target=rewrite_locked, args=(ws.memory_md, slow))
    holder.start()
    time.sleep(0.1)
    with pytest.raises(tree.TreeError, match="locked by another writer"):
        tree.reindex(ws, day=DAY)
    holder.join()
