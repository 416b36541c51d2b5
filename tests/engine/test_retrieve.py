from __future__ import annotations

import os

import pytest

from qmem.engine import retrieve
from qmem.base.errors import BadInputError, NotFoundError, UnsafePathError


def test_section_by_anchor_includes_subsections(cfg):
    ex = retrieve.get(cfg, "MEMORY.md#skills")
    assert ex.lines[0] == "## Skills"
    assert any("Rsync" in line for line in ex.lines)
    assert not any(line.startswith("## Security") for line in ex.lines)
    assert ex.heading == "Memory › Skills"


def test_anchor_with_or_without_type_tag(cfg):
    tagged = retrieve.get(cfg, "MEMORY.md#s-windows-ps5-编码地狱")
    bare = retrieve.get(cfg, "MEMORY.md#windows-ps5-编码地狱")
    assert tagged.lines == bare.lines and tagged.lines[0] == "### [S] Windows PS5 编码地狱"
    assert bare.line_start == 11


def test_line_window_and_whole_file(cfg, workspace):
    ex = retrieve.get(cfg, "memory/2026-02-28.md:3:2")
    assert (ex.line_start, ex.line_end) == (3, 4)
    assert ex.lines == (workspace / "memory" / "2026-02-28.md").read_text(encoding="utf-8").splitlines()[2:4]
    whole = retrieve.get(cfg, "memory/2026-02-28.md")
    assert whole.line_start == 1 and whole.line_end == whole.total_lines == 9
    assert retrieve.get(cfg, "memory/2026-02-28.md:8").lines[-1].startswith("- [S]")


def test_traversal_absolute_and_symlinks_are_refused(cfg, workspace, tmp_path):
    (tmp_path / "secret.md").write_text("s")
    os.symlink(tmp_path / "secret.md", workspace / "memory" / "link.md")
    for spec in ["../../etc/passwd", "memory/../../secret.md", "/etc/passwd", "memory/link.md", "~/x.md"]:
        with pytest.raises(UnsafePathError):
            retrieve.get(cfg, spec)


def test_absolute_path_inside_a_root_is_fine(cfg, workspace):
    assert retrieve.get(cfg, str(workspace / "MEMORY.md") + ":1:1").lines == ["# Memory"]


def test_files_outside_the_patterns_are_refused(cfg, workspace):
    (workspace / ".env").write_text("TOKEN=1")
    (workspace / "notes.md").write_text("x")
    with pytest.raises(UnsafePathError, match="not part of collection main"):
        retrieve.get(cfg, ".env")
    with pytest.raises(UnsafePathError):
        retrieve.get(cfg, "notes.md")


def test_unknown_path_and_anchor_name_the_closest(cfg):
    with pytest.raises(NotFoundError, match="closest: memory/knowledge.md"):
        retrieve.get(cfg, "memory/knowlege.md")
    with pytest.raises(NotFoundError, match=r"closest: #security"):
        retrieve.get(cfg, "MEMORY.md#securty")


def test_bad_specs(cfg):
    for spec in ["", "#anchor", "MEMORY.md:0", "MEMORY.md:1:0"]:
        with pytest.raises(BadInputError):
            retrieve.get(cfg, spec)
    with pytest.raises(BadInputError, match="past the end"):
        retrieve.get(cfg, "MEMORY.md:999")


def test_same_path_in_two_collections_needs_c(cfg, tmp_path):
    from qmem.engine import catalog
    from qmem.base import config

    other = tmp_path / "other"
    other.mkdir()
    (other / "MEMORY.md").write_text("# Other\n")
    catalog.create(cfg, "other", str(other), index=False)
    cfg = config.load()
    with pytest.raises(BadInputError, match="several collections"):
        retrieve.get(cfg, "MEMORY.md")
    assert retrieve.get(cfg, "MEMORY.md", ["other"]).lines == ["# Other"]


def test_an_excerpt_takes_its_fields_by_name_and_refuses_a_misspelt_one(cfg):
    """Typed fields (no **fields): a misspelt or missing field is an error, not a silent drop."""
    got = retrieve.get(cfg, "memory/2026-02-28.md:3:2")
    fields = {name: getattr(got, name) for name in retrieve.Excerpt.__slots__}
    assert retrieve.Excerpt(**fields).to_dict() == got.to_dict()
    with pytest.raises(TypeError):
        retrieve.Excerpt(**fields, line_strat=3)
    with pytest.raises(TypeError):
        retrieve.Excerpt(**{k: v for k, v in fields.items() if k != "heading"})
