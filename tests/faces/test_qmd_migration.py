"""A qmd user's first hour: qmd's own config (two collections) is found, listed, imported in
one command and searched through `qmem-qmd`, scores in qmd's range; `ls`, `multi-get` and
`mcp` answer as qmd's do."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from qmem.faces.qmd import qmd_score
from qmem.faces.qmd_config import config_path, globs, read

from ..conftest import subprocess_env

QMD_YAML = """\
collections:
  notes:
    path: {notes}
    pattern: "**/*.md"
    context:
      /: Personal notes
  work:
    path: {work}
    pattern: "**/*.{{md,markdown}}"
    ignore:
      - "drafts/**"
    includeByDefault: false
"""


def qmd(*args: str, cwd: str | None = None) -> subprocess.CompletedProcess:
    exe = os.path.join(os.path.dirname(sys.executable), "qmem-qmd")
    return subprocess.run([exe, *args], env=subprocess_env(), capture_output=True, text=True, timeout=180, cwd=cwd)


@pytest.fixture
def qmd_user(tmp_path):
    """A home where qmd 2.x kept two collections in ~/.config/qmd/index.yml."""
    notes, work = tmp_path / "notes", tmp_path / "work"
    (notes / "ideas").mkdir(parents=True)
    (notes / "ideas" / "keyboard.md").write_text("# Keyboards\n\nThe split keyboard uses Colemak.\n", encoding="utf-8")
    (notes / "wallet.md").write_text("# 钱包\n\n私钥泄露，钱包被盗。\n", encoding="utf-8")
    (work / "drafts").mkdir(parents=True)
    (work / "runbook.markdown").write_text("# Runbook\n\nRestart the ingest worker with systemctl.\n", encoding="utf-8")
    (work / "drafts" / "secret.md").write_text("# Draft\n\nColemak draft not to index.\n", encoding="utf-8")
    home = os.environ["HOME"]
    qmd_dir = os.path.join(os.environ["XDG_CONFIG_HOME"], "qmd")
    os.makedirs(qmd_dir)
    with open(os.path.join(qmd_dir, "index.yml"), "w", encoding="utf-8") as handle:
        handle.write(QMD_YAML.format(notes=notes, work=work))
    assert config_path(cwd=home) == os.path.join(qmd_dir, "index.yml")
    return notes, work


def test_qmd_collections_are_listed_imported_and_searchable(qmd_user):
    notes, work = qmd_user
    before = qmd("search", "colemak")
    assert before.returncode == 2 and "qmem-qmd collection import" in before.stderr and "notes, work" in before.stderr
    listed = qmd("collection", "list", "--json")
    assert [(r["name"], r["source"]) for r in json.loads(listed.stdout)] == [("notes", "qmd"), ("work", "qmd")]
    assert "2 of qmd's collections" in listed.stderr and "qmem-qmd collection import" in listed.stderr
    imported = qmd("collection", "import")
    assert imported.returncode == 0, imported
    assert f"imported notes: {notes} (**/*.md) — 2 files" in imported.stdout
    assert f"imported work: {work} (**/*.md, **/*.markdown) — 1 files" in imported.stdout
    assert json.loads(qmd("collection", "list", "--json").stdout)[0]["source"] == "qmem"
    assert qmd("collection", "list").stderr == ""  # nothing left to import
    hits = json.loads(qmd("search", "colemak", "--json").stdout)
    assert [h["file"] for h in hits] == ["qmd://notes/ideas/keyboard.md"]  # drafts/** stayed out, as in qmd
    assert 0 < hits[0]["score"] < 1
    assert json.loads(qmd("search", "私钥 泄露", "--json").stdout)[0]["file"] == "qmd://notes/wallet.md"
    assert json.loads(qmd("search", "ingest worker", "--json", "-c", "work").stdout)[0]["file"] == \
        "qmd://work/runbook.markdown"
    again = qmd("collection", "import")
    assert again.returncode == 0 and "notes: already in qmem" in again.stdout


def test_min_score_keeps_qmds_meaning(qmd_user):
    assert qmd("collection", "import").returncode == 0
    hits = json.loads(qmd("search", "colemak keyboard", "--json").stdout)
    top = hits[0]["score"]
    assert json.loads(qmd("search", "colemak keyboard", "--json", "--min-score", str(top - 0.01)).stdout)
    assert json.loads(qmd("search", "colemak keyboard", "--json", "--min-score", str(min(top + 0.01, 0.999))).stdout) == []
    text = qmd("search", "colemak").stdout
    assert f"Score: {top * 100:3.0f}%" in text or "Score:" in text


def test_the_score_mapping_is_qmds():
    assert qmd_score(1.0, "bm25") == 0.5 and abs(qmd_score(2.85, "bm25") - 0.7403) < 1e-3
    assert qmd_score(0.0, "bm25") == 0.0 and qmd_score(-0.2, "vector") == 0.0 and qmd_score(0.83, "vector") == 0.83
    scores = [qmd_score(s, "bm25") for s in (0.1, 1, 3, 10, 40)]
    assert scores == sorted(scores) and all(0 < s < 1 for s in scores)


def test_masks_as_qmd_splits_them():
    assert globs("**/*.{md,markdown}, notes/*.md") == ["**/*.md", "**/*.markdown", "notes/*.md"]
    assert globs("a{b,c{d,e}}f") == ["abf", "acdf", "acef"]


def test_a_project_local_qmd_config_wins(tmp_path, qmd_user):
    project = tmp_path / "project"
    (project / ".qmd").mkdir(parents=True)
    (project / "docs").mkdir()
    (project / ".qmd" / "index.yaml").write_text("collections:\n  docs:\n    path: docs\n", encoding="utf-8")
    assert config_path(cwd=str(project / "docs")) == str(project / ".qmd" / "index.yaml")
    assert [(c.name, c.path) for c in read(str(project / ".qmd" / "index.yaml"))] == [("docs", str(project / "docs"))]


def test_ls_and_multi_get(qmd_user):
    assert qmd("collection", "import").returncode == 0
    assert qmd("ls").stdout.splitlines()[2:] == ["  qmd://notes/  (2 files)", "  qmd://work/  (1 files)"]
    files = qmd("ls", "notes/ideas").stdout.splitlines()
    assert len(files) == 1 and files[0].endswith("qmd://notes/ideas/keyboard.md")
    docs = json.loads(qmd("multi-get", "notes/**/*.md", "--json").stdout)
    assert [d["file"] for d in docs] == ["qmd://notes/ideas/keyboard.md", "qmd://notes/wallet.md"]
    assert docs[0]["title"] == "Keyboards" and docs[0]["body"].startswith("1: # Keyboards")
    listed = json.loads(qmd("multi-get", "wallet.md,work/runbook.markdown", "--json", "--no-line-numbers").stdout)
    assert [d["file"] for d in listed] == ["qmd://notes/wallet.md", "qmd://work/runbook.markdown"]
    assert listed[0]["body"].startswith("# 钱包")
    big = json.loads(qmd("multi-get", "**/*.md", "--json", "--max-bytes", "10").stdout)
    assert all(d.get("skipped") and "qmem-qmd get" in d["reason"] for d in big)
    text = qmd("multi-get", "*/wallet.md", "-l", "1").stdout
    assert "File: qmd://notes/wallet.md" in text and "[... truncated" in text
    missing = qmd("multi-get", "nothing/*.md")
    assert missing.returncode == 2 and "No files matched pattern" in missing.stderr


def test_mcp_serves_qmems_tools(qmd_user):
    pytest.importorskip("mcp")
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    assert qmd("collection", "import").returncode == 0
    notes, _ = qmd_user

    async def use() -> dict:
        exe = os.path.join(os.path.dirname(sys.executable), "qmem-qmd")
        params = StdioServerParameters(command=exe, args=["mcp"], env=subprocess_env())
        with open(os.devnull, "w", encoding="utf-8") as errlog:
            async with stdio_client(params, errlog=errlog) as (read_, write):
                async with ClientSession(read_, write) as session:
                    await session.initialize()
                    return (await session.call_tool("memory_search", {"query": "colemak"})).structured_content

    assert asyncio.run(use())["results"][0]["path"] == "ideas/keyboard.md"
