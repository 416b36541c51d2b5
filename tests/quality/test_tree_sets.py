"""A judged real set kept as a manifest (bench/tree_sets.py) scores as the set itself did, and names no text."""

from __future__ import annotations

import sys

from ..conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

import tree_real
import tree_sets

MEMORY = "# Memory\n\n## Server notes\n\nThe VPS runs nginx and postgres.\n\n## My sister Ana\n\nAna lives in Porto.\n"


def _gathered(tmp_path):
    src = tmp_path / "set"
    src.mkdir()
    (src / "alice__bot__MEMORY.md").write_text(MEMORY, encoding="utf-8")
    (src / "SOURCES.tsv").write_text("file\trepo\tpath\tcommit\tlanguage\ttokens_est\n"
                                     "alice__bot__MEMORY.md\talice/bot\tMEMORY.md\t" + "a" * 40 + "\ten\t30\n",
                                     encoding="utf-8")
    (src / "reader.tsv").write_text("file\tunit\tright\tacceptable\treason\n"
                                    "alice__bot__MEMORY\tServer notes\tinfrastructure\t\tthe VPS\n"
                                    "alice__bot__MEMORY\tMy sister Ana\tpeople\t\tfamily\n", encoding="utf-8")
    return src


def test_export_keeps_no_heading_or_reason_and_check_finds_changed_bytes(tmp_path):
    src = _gathered(tmp_path)
    manifest = tmp_path / "manifest"
    assert "1 files, 2 judged units" in tree_sets.export(str(src), str(manifest))
    committed = (manifest / "reader.tsv").read_text(encoding="utf-8") + (manifest / "SOURCES.tsv").read_text(encoding="utf-8")
    assert "Server" not in committed and "Ana" not in committed and "the VPS" not in committed
    assert tree_real.unit_key("Server notes") in committed and "alice/bot" in committed

    fetched = tmp_path / "fetched"
    fetched.mkdir()
    (fetched / "alice__bot__MEMORY.md").write_text(MEMORY, encoding="utf-8")
    text, code = tree_sets.check(str(fetched), str(manifest))
    assert code == 0 and "1 of 1 files match" in text
    assert (fetched / "SOURCES.tsv").read_text(encoding="utf-8") == "file\tlanguage\nalice__bot__MEMORY.md\ten\n"

    (fetched / "alice__bot__MEMORY.md").write_text(MEMORY + "\n", encoding="utf-8")
    text, code = tree_sets.check(str(fetched), str(manifest))
    assert code == 1 and "different bytes: alice__bot__MEMORY.md" in text and "0 of 1" in text


def test_a_hashed_table_judges_exactly_as_the_plain_one(tmp_path):
    src = _gathered(tmp_path)
    manifest = tmp_path / "manifest"
    tree_sets.export(str(src), str(manifest))
    _row, sections = tree_real.measure(str(src / "alice__bot__MEMORY.md"), "en")
    plain, plain_scores = tree_real.judge(sections, str(src / "reader.tsv"))
    hashed, hashed_scores = tree_real.judge(sections, str(manifest / "reader.tsv"))
    assert [row[3:8] for row in plain] == [row[3:8] for row in hashed]
    assert plain_scores == hashed_scores and "UNJUDGED" not in {row[6] for row in hashed}
