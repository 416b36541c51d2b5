"""A refresh that finds nothing changed (a timer's `qmem index -q`) imports neither Tantivy nor
json/re/enum, and the seal that spares it opening the index never hides a damaged one."""

from __future__ import annotations

import ast
import json
import os
import subprocess

import pytest

from qmem.backends.tantivy import index, writer
from qmem.base import layout
from qmem.engine import sync

from ..conftest import PYTHON, subprocess_env
from ..helpers import index_snapshot
from .test_self_heal import DAMAGE, segment_file

NOT_ON_A_NO_OP = ["tantivy", "qmem.backends.tantivy.index", "qmem.backends.tantivy.searcher", "json", "re", "enum", "qmem.text.markdown", "typer", "collections.abc"]
PROBE = """
import sys
from qmem.__main__ import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stderr.write("\\nLOADED=" + repr(sorted(m for m in NAMES if m in sys.modules)))
""".replace("NAMES", repr(NOT_ON_A_NO_OP))


def seal_path(cfg) -> str:
    return os.path.join(layout.version_dir(cfg.data_dir), "tantivy.seal")


def test_a_no_op_refresh_imports_no_tantivy_json_or_re(cfg, cli):
    assert cli("index", "-q").code == 0  # the first no-op after a build inspects the index and seals it
    assert os.path.exists(seal_path(cfg))
    proc = subprocess.run([PYTHON, "-c", PROBE, "index", "-q"], capture_output=True, text=True, env=subprocess_env())
    assert ast.literal_eval(proc.stderr.rsplit("LOADED=", 1)[1]) == [], proc.stderr


def test_a_change_is_still_found_by_a_lean_refresh(cfg, cli, workspace):
    cli("index", "-q")
    with open(workspace / "memory" / "2026-02-28.md", "a", encoding="utf-8") as handle:
        handle.write("- [E] a new line 新\n")
    report = json.loads(cli("index", "--json").out)["collections"][0]
    assert (report["changed"], report["added"], report["deleted"]) == (1, 0, 0)
    assert not os.path.exists(seal_path(cfg)) or writer._signature(layout.tantivy_dir(cfg.data_dir)) != \
        _sealed_signature(cfg)  # the commit changed the folder: the seal no longer vouches


def _sealed_signature(cfg) -> tuple:
    import marshal

    with open(seal_path(cfg), "rb") as handle:
        return marshal.loads(handle.read())[1]


def test_the_seal_answers_only_for_the_folder_it_saw(cfg, monkeypatch):
    sync.refresh(cfg)  # inspects and seals
    docs = index.inspect(cfg.data_dir)[1]
    calls: list[str] = []
    real = index.inspect
    monkeypatch.setattr(index, "inspect", lambda data_dir: calls.append(data_dir) or real(data_dir))
    assert writer.inspect(cfg.data_dir) == (None, docs) and calls == []  # sealed: not opened
    # The same bytes written back, the mtime put back: only the ctime tells, and it is enough.
    path = segment_file(cfg, ".store")
    st = os.stat(path)
    with open(path, "r+b") as handle:
        first = handle.read(1)
        handle.seek(0)
        handle.write(first)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert writer.inspect(cfg.data_dir) == (None, docs) and calls == [cfg.data_dir]
    assert writer.inspect(cfg.data_dir) == (None, docs) and len(calls) == 1  # sealed again
    with open(os.path.join(layout.tantivy_dir(cfg.data_dir), "stray.txt"), "w") as handle:
        handle.write("x")  # any file more
    writer.inspect(cfg.data_dir)
    assert len(calls) == 2


@pytest.mark.parametrize("seal", [b"", b"junk", b"\xe9\x03\x00\x00\x00"])
def test_a_damaged_seal_means_inspecting_again(cfg, seal):
    sync.refresh(cfg)
    docs = index.inspect(cfg.data_dir)[1]
    with open(seal_path(cfg), "wb") as handle:
        handle.write(seal)
    assert writer.inspect(cfg.data_dir) == (None, docs)


@pytest.mark.parametrize("damage", [d for d in sorted(DAMAGE) if "manifest" not in d])
def test_a_sealed_index_that_is_damaged_is_rebuilt(cfg, cli, damage):
    assert cli("index", "-q").code == 0  # sealed
    expected = index_snapshot(cfg.data_dir)
    DAMAGE[damage](cfg)
    result = cli("index", "--json")
    assert result.code == 0, result
    assert json.loads(result.out)["healed"] or damage == "deleted tantivy folder"
    assert index_snapshot(cfg.data_dir) == expected


def _rewrite_manifest(cfg, change) -> None:
    import marshal

    from qmem.engine import manifest

    path = manifest.manifest_path(cfg.data_dir, "main")
    with open(path, "rb") as handle:
        raw = marshal.loads(handle.read())
    change(raw)
    with open(path, "wb") as handle:
        handle.write(marshal.dumps(raw))


def test_a_version_2_manifest_is_read_and_rewritten_once(cfg, monkeypatch):
    """v2 kept its number columns as int64 arrays: read as they are (nothing re-read or
    rebuilt), rewritten in the current format by the next refresh."""
    import marshal
    from array import array

    from qmem.engine import manifest

    def to_v2(raw: dict) -> None:
        raw["v"] = 2
        for key in ("sizes", "mtimes", "sections"):
            raw[key] = array("q", marshal.loads(raw[key])).tobytes()
        del raw["rejected"], raw["folders"]

    sync.refresh(cfg)
    before = manifest.load(cfg.data_dir, "main").files
    _rewrite_manifest(cfg, to_v2)
    old = manifest.load(cfg.data_dir, "main")
    assert old.outdated and old.files == before
    reads: list[str] = []
    monkeypatch.setattr(sync, "read_sections", lambda info, *a: reads.append(info.rel))
    report = sync.refresh(cfg)
    assert not report.healed and not report.committed and reads == []
    assert report.collections[0].unchanged == len(before)
    stored = manifest.load(cfg.data_dir, "main")
    assert not stored.outdated and stored.files == before


@pytest.mark.parametrize("blob", [b"", b"\xff", b"[\x01\x00\x00\x00\xe9"])
def test_a_damaged_stat_column_means_hashing_every_file_again(cfg, blob):
    from qmem.engine import manifest

    sync.refresh(cfg)
    expected = index_snapshot(cfg.data_dir)
    count = len(manifest.load(cfg.data_dir, "main").files)
    _rewrite_manifest(cfg, lambda raw: raw.__setitem__("mtimes", blob))
    report = sync.refresh(cfg)
    c = report.collections[0]
    assert (c.unchanged, c.changed, c.added, c.deleted, report.healed) == (count, 0, 0, 0, "")
    assert index_snapshot(cfg.data_dir) == expected


def test_version_folders_are_v_and_ascii_digits():
    assert [n for n in ("v3", "v12", "v", "va", "v3a", "v٣", "x3", "v 3") if layout._is_version(n)] == ["v3", "v12"]


@pytest.mark.parametrize("column", [[1, "x"], [1.5, 1], [-1, 2], [1], "ab", None])
def test_a_damaged_section_column_reads_as_no_manifest(cfg, column):
    import marshal

    from qmem.engine import manifest

    sync.refresh(cfg)
    def damage(raw: dict) -> None:
        raw.update(count=2, paths="a.md\0b.md", digests="x\0y", sizes=marshal.dumps([1, 2], 2),
                   mtimes=marshal.dumps([3, 4], 2), sections=marshal.dumps(column, 2))

    _rewrite_manifest(cfg, damage)
    assert manifest.load(cfg.data_dir, "main").files == {}
    column = [0, 7]  # the same, whole: read
    _rewrite_manifest(cfg, damage)
    assert manifest.load(cfg.data_dir, "main").files == {"a.md": [1, 3, "x", 0], "b.md": [2, 4, "y", 7]}


def test_status_counts_what_changed_with_the_refresh_scan(cfg, cli, workspace):
    """`qmem status` scans like the refresh (known paths, one column comparison when nothing
    changed) and still counts each kind of change."""
    cli("index", "-q")
    status = json.loads(cli("status", "--json").out)["collections"][0]
    assert (status["new"], status["changed"], status["deleted"], status["stale"]) == (0, 0, 0, 0)
    files = status["files"]
    with open(workspace / "memory" / "2026-02-28.md", "a", encoding="utf-8") as handle:
        handle.write("- [E] more\n")
    (workspace / "memory" / "new.md").write_text("# new\n- [K] x\n", encoding="utf-8")
    os.unlink(workspace / "MEMORY.md")
    (workspace / "memory" / "skip.txt").write_text("not a note", encoding="utf-8")
    status = json.loads(cli("status", "--json").out)["collections"][0]
    assert (status["new"], status["changed"], status["deleted"], status["files"]) == (1, 1, 1, files)
