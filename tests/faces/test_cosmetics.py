"""Issue 16, item 8: counts in the right number, honest token deltas, whole Chinese terms,
and backups that do not pile up."""

from __future__ import annotations

import os

from qmem.base.conventions import plural
from qmem.memory.distill import cjk_terms

SMALL = "# M\n\n## Profile\n\nLin likes tea.\n\n## Preferences\n\nshort answers\n"  # both: identity


def test_plural_rules():
    assert [plural(1, "file"), plural(2, "file"), plural(0, "entry"), plural(1, "entry"), plural(3, "day")] == \
        ["1 file", "2 files", "0 entries", "1 entry", "3 days"]


def test_one_file_is_singular(cli, tmp_path):
    root = tmp_path / "one"
    root.mkdir()
    (root / "MEMORY.md").write_text("# hi\n\nthere\n", encoding="utf-8")
    out = cli("collection", "create", "one", str(root)).out
    assert "one: 1 file, 1 section — 1 added" in out
    assert "1 files" not in cli("status").out
    assert "1 file, 1 section" in cli("collection", "list").out


def test_growing_boot_says_more_not_negative_less(cli, tmp_path):
    ws = tmp_path / "tiny"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text(SMALL, encoding="utf-8")
    out = cli("tree", "migrate", "--force", str(ws)).out
    line = next(row for row in out.splitlines() if row.startswith("boot tokens:"))
    assert "% more" in line and "-" not in line, line
    assert "1 domain;" in out and "1 domains" not in out


def test_chinese_top_terms_are_whole_words():
    terms = cjk_terms(["私钥泄露，钱包被盗", "私钥不要放在服务器上", "服务器配置 rsync", "钱包余额"])
    assert terms["私钥"] == 2 and terms["钱包"] == 2 and terms["服务器"] == 2
    assert terms["私钥泄露"] == 1 and terms["钱包余额"] == 1
    for fragment in ("钥泄", "包被", "服务", "务器"):
        assert fragment not in terms


def test_distill_summary_shows_chinese_terms_not_fragments(cli, tmp_path):
    ws = tmp_path / "zh"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    (ws / "memory" / "2026-02-28.md").write_text(
        "# 2026-02-28\n\n- [!] 私钥泄露以后立刻转移资产\n- [!] 私钥不能发到群里\n- [!] 助记词只写在纸上\n", encoding="utf-8")
    assert cli("distill", "--today", "2026-02-28", "-w", str(ws)).code == 0
    summary = next(line for line in (ws / "memory" / "security.md").read_text(encoding="utf-8").splitlines()
                   if "top terms" in line)
    assert summary.startswith("3 entries · ")
    terms = summary.split("top terms: ")[1].split(", ")
    assert terms[0] == "私钥" and "助记词只写在纸上" in terms
    assert "钥泄" not in terms and "记词" not in terms


def test_backups_do_not_pile_up(cli, tmp_path):
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    memory = ws / "MEMORY.md"
    memory.write_text(SMALL, encoding="utf-8")
    originals = []
    for i in range(6):
        memory.write_text(memory.read_text(encoding="utf-8") + f"- edit {i}\n", encoding="utf-8")
        originals.append(memory.read_bytes())
        res = cli("tree", "migrate", "--force", str(ws))
        assert res.code == 0, res
        if i >= 3:
            assert "older backup moved to memory/archive/backups/" in res.out
        assert cli("tree", "rollback", str(ws)).code == 0
    beside = sorted(n for n in os.listdir(ws) if n.startswith("MEMORY.md.bak"))
    assert len(beside) == 3
    archived = os.listdir(ws / "memory" / "archive" / "backups")
    assert len(archived) == 3
    kept = {p.read_bytes() for p in (ws / "memory" / "archive" / "backups").iterdir()} | \
        {(ws / n).read_bytes() for n in beside}
    assert kept == set(originals)  # every backup survives, beside MEMORY.md or in the archive
