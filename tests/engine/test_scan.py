from __future__ import annotations

import os

from qmem.engine.scan import scan


def touch(root, rel, text="x"):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def rels(root, patterns, exclude=()):
    files, warnings = scan(str(root), list(patterns), list(exclude))
    return [f.rel for f in files], warnings


def test_default_patterns_pick_memory_files_only(tmp_path):
    for rel in ["MEMORY.md", "memory/2026-01-01.md", "memory/deep/x.md", "README.md", "src/a.md", "memory/a.txt"]:
        touch(tmp_path, rel)
    found, _ = rels(tmp_path, ["MEMORY.md", "memory/**/*.md"])
    assert found == ["MEMORY.md", "memory/2026-01-01.md", "memory/deep/x.md"]


def test_excludes_hidden_folders_and_node_modules(tmp_path):
    for rel in ["a.md", "archive/old.md", "archive/sub/x.md", ".git/x.md", "node_modules/p/readme.md", "b/c.md"]:
        touch(tmp_path, rel)
    found, _ = rels(tmp_path, ["**/*.md"], ["archive/**"])
    assert found == ["a.md", "b/c.md"]


def test_symlinks_inside_are_followed_outside_refused_and_loops_end(tmp_path):
    root = tmp_path / "root"
    touch(root, "notes/a.md")
    touch(tmp_path, "outside/secret.md")
    os.symlink(root / "notes", root / "alias")
    os.symlink(tmp_path / "outside", root / "out")
    os.symlink(tmp_path / "outside" / "secret.md", root / "s.md")
    os.symlink(root, root / "notes" / "loop")
    found, warnings = rels(root, ["**/*.md"])
    assert "notes/a.md" in found and "alias/a.md" not in found  # one real folder, one path
    assert not any("secret" in f for f in found)
    assert any("out/" in w and "outside" in w for w in warnings)
    assert any(w.startswith("s.md:") for w in warnings)


def test_missing_root_is_a_warning(tmp_path):
    found, warnings = rels(tmp_path / "nope", ["**/*.md"])
    assert found == [] and "missing" in warnings[0]


def test_stat_fields(tmp_path):
    touch(tmp_path, "a.md", "hello")
    files, _ = scan(str(tmp_path), ["*.md"], [])
    assert files[0].size == 5 and files[0].mtime_ns == os.stat(tmp_path / "a.md").st_mtime_ns
    assert files[0].abs.endswith("a.md")


def test_tree_branch_indexes_are_not_indexed(tmp_path):
    for rel in ["memory/domains/infra/_index.md", "memory/domains/infra/backup.md", "memory/_index.md"]:
        touch(tmp_path, rel)
    found, _ = rels(tmp_path, ["memory/**/*.md"])
    assert found == ["memory/_index.md", "memory/domains/infra/backup.md"]


def test_a_symlink_loop_is_skipped_with_a_warning(tmp_path):
    """Links that lead only to each other (ELOOP) anywhere in the tree: skipped, said once each."""
    touch(tmp_path, "MEMORY.md")
    touch(tmp_path, "memory/deep/a.md")
    os.symlink("b", tmp_path / "memory" / "a")
    os.symlink("a", tmp_path / "memory" / "b")
    os.symlink("self", tmp_path / "memory" / "deep" / "self")
    found, warnings = rels(tmp_path, ["MEMORY.md", "memory/**/*.md"])
    assert found == ["MEMORY.md", "memory/deep/a.md"]
    assert sorted(w.split(":")[0] for w in warnings) == ["memory/a", "memory/b", "memory/deep/self"], warnings
    assert all("symbolic links" in w and "skipped" in w for w in warnings)


def test_every_command_that_scans_survives_a_symlink_loop(tmp_path, cli):
    ws = tmp_path / "ws"
    touch(ws, "MEMORY.md", "# Memory\n\n- [K] the loop test fact\n")
    touch(ws, "memory/2026-03-01.md", "# 2026-03-01\n\n- [E] a day\n")
    os.symlink("y", ws / "memory" / "x")
    os.symlink("x", ws / "memory" / "y")
    for args in (("collection", "create", "main", str(ws)), ("index",), ("status",), ("maintain", "-w", str(ws)),
                 ("doctor", "-w", str(ws))):
        result = cli(*args)
        assert result.code == 0, (args, result)
        assert "internal error" not in result.err
    assert "the loop test fact" in cli("search", "loop", "test").out
