"""Issue 10 finding 10: every format reports the best-matching line, not the window's first line
or the heading; the section's range stays in JSON. Plus --explain and --budget on the CLI."""

from __future__ import annotations

import json


def _log(workspace):
    lines = ["# 2026-03-01", ""] + [f"- note {i}: nothing to see here" for i in range(12)]
    lines[9] = "- the pangolin vaccine appointment is on Friday"
    (workspace / "memory" / "2026-03-01.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 10  # file line of the evidence


def test_every_format_reports_the_best_matching_line(cli, workspace):
    line = _log(workspace)
    assert cli("collection", "create", "main", str(workspace)).code == 0
    query = ("search", "pangolin vaccine", "-n", "1")
    hit = json.loads(cli(*query, "--json").out)[0]
    assert hit["line"] == line and hit["line_start"] == 1 and hit["line_end"] >= 14
    assert hit["snippet_line"] <= line
    assert cli(*query).out.splitlines()[0].startswith(f"memory/2026-03-01.md:{line} ")
    assert cli(*query, "--files").out.strip() == f"{workspace / 'memory' / '2026-03-01.md'}:{line}"
    assert f"`memory/2026-03-01.md:{line}`" in cli(*query, "--md").out
    result = json.loads(cli(*query, "--format", "openclaw").out)["results"][0]
    assert result["startLine"] == line and result["citation"].startswith(f"memory/2026-03-01.md#L{line}-")


def test_explain_and_budget_on_the_command_line(cli, workspace):
    _log(workspace)
    assert cli("collection", "create", "main", str(workspace)).code == 0
    hit = json.loads(cli("search", "pangolin vaccine on 2026-03-01", "--json", "--explain", "--now", "2026-03-05").out)[0]
    assert set(hit["explain"]["units"]) >= {"pangolin", "vaccin"} and hit["explain"]["date_prior"]["factor"] == 2
    assert "window" in hit["explain"]
    text = cli("search", "pangolin", "--explain").out
    assert "? bm25" in text and "? window: best entry L10" in text
    few = json.loads(cli("search", "note pangolin USDC decimals", "--json", "--budget", "60").out)
    many = json.loads(cli("search", "note pangolin USDC decimals", "--json").out)
    assert 1 <= len(few) < len(many)
    assert cli("search", "x", "--budget", "0").code == 2
    assert cli("search", "x", "--when", "whenever").code == 2
