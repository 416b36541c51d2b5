"""What a memory writer changes is what the next search sees, on every backend.

`remember`, `forget` and `remember --replace` re-index the files they touched at once
(`sync.refresh_files`, through the backend seam), so an agent that forgets an entry never
finds it again and one that corrects an entry finds only the new wording, without waiting
for the next `qmem index`. Each flow runs on the local Tantivy index and on OpenSearch (the
`cluster` fixture of conftest.py: a real cluster when QMEM_OPENSEARCH_URL is set, else osmem-server).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from qmem.base.layout import tantivy_dir

BACKENDS = ["tantivy", "opensearch"]


@pytest.fixture(params=BACKENDS)
def memory(request, cli, workspace, monkeypatch) -> Path:
    """The sample workspace as collection `main` of a config on the backend under test (for
    OpenSearch: the `cluster` fixture's, a real cluster or osmem-server, see conftest.py)."""
    monkeypatch.setenv("QMEM_WORKSPACE", str(workspace))
    if request.param == "opensearch":
        pytest.importorskip("opensearchpy")
        from qmem.backends.opensearch import backend as osb

        cluster = request.getfixturevalue("cluster")
        monkeypatch.setattr(osb.OpenSearchBackend, "_pause", lambda self, attempt: None)
        config_file = Path(os.environ["QMEM_CONFIG"])
        config_file.parent.mkdir(parents=True, exist_ok=True)
        config_file.write_text(cluster.backend_toml(retries=1) + '[scopes]\nown = "agent:alice"\n', encoding="utf-8")
    assert cli("collection", "create", "main", str(workspace)).code == 0
    if request.param == "opensearch":
        from qmem.base import config

        assert not os.path.exists(tantivy_dir(config.load().data_dir))  # the cluster holds it all
    return workspace


def found(cli, text: str) -> list[tuple[str, str]]:
    """(path, snippet) of each hit of `qmem search TEXT --json`; none is stale (the index holds
    what the files say: a writer re-indexed what it changed)."""
    res = cli("search", text, "--json")
    assert res.code == 0, res
    hits = json.loads(res.out)
    hits = hits["results"] if isinstance(hits, dict) else hits
    assert [hit["path"] for hit in hits if hit["stale"]] == [], hits
    return [(hit["path"], hit["snippet"]) for hit in hits]


def remember(cli, *args: str) -> str:
    """`qmem remember ARGS --json`: the entry's ref, path:LINE@ID (and that it was indexed at once)."""
    res = cli("remember", *args, "--json")
    assert res.code == 0, res
    written = json.loads(res.out)
    assert written.get("indexed", "indexed") == "indexed", written
    assert written["ref"].startswith(f"{written['path']}:{written['line']}@"), written
    return written["ref"]


def test_a_remembered_entry_is_found_at_once(memory, cli):
    assert found(cli, "narwhal") == []
    where = remember(cli, "The narwhal migration runs on Tuesdays", "--type", "K")
    hits = found(cli, "narwhal")
    assert [path for path, _ in hits] == [where.split(":")[0]]
    assert "narwhal migration runs on Tuesdays" in hits[0][1]


def test_a_forgotten_entry_is_never_found_again(memory, cli):
    log = "memory/2026-02-28.md"
    before = found(cli, "nas-01")
    assert any(path == log and "Deployed the nightly backup job" in s for path, s in before), before
    res = cli("forget", f"{log}:4 Deployed the nightly backup job")  # a line and words of its entry
    assert res.code == 0 and "not indexed" not in res.err, res
    after = found(cli, "nas-01")
    assert after and log not in [path for path, _ in after], after  # MEMORY.md still names the host


def test_a_replaced_entry_is_found_only_in_its_new_wording(memory, cli):
    where = remember(cli, "The walrus feeder opens at 9", "--type", "K")
    assert any("walrus feeder opens at 9" in snippet for _, snippet in found(cli, "walrus feeder"))
    res = cli("remember", "The walrus feeder opens at 10 since May", "--type", "K", "--replace", where, "--json")
    assert res.code == 0 and "not indexed" not in res.err, res
    snippets = [snippet for _, snippet in found(cli, "walrus feeder")]
    assert any("opens at 10 since May" in s for s in snippets), snippets
    assert not any("opens at 9" in s for s in snippets), snippets


def indexed_sections(workspace: Path) -> list[tuple[str, int, int]]:
    """(path, first line, body hash) of every section the sample workspace's files give."""
    from qmem.engine.reading import read_sections
    from qmem.engine.scan import scan
    from qmem.text.record import body_hash

    files, _ = scan(str(workspace), ["**/*.md"], [])
    return sorted((info.rel, s.line_start, body_hash(s.body)) for info in files for s in read_sections(info).sections)


def test_the_seam_lists_a_collections_sections_and_says_how_many_it_holds(memory):
    """What `qmem embed` embeds (`Searcher.sections`) and what `qmem doctor` and `qmem status`
    report (`Searcher.health`) come from the backend the config names."""
    from qmem.backends import open_searcher
    from qmem.base import config
    from qmem.faces import doctor

    cfg = config.load()
    searcher = open_searcher(cfg)
    expected = indexed_sections(memory)
    assert sorted((f["path"][0], f["line_start"][0], f["body_hash"][0]) for f in searcher.sections("main")) == expected
    assert searcher.sections("other") == []
    assert searcher.health() == (None, len(expected))
    check = doctor.check_index(cfg)
    assert check.problems == [] and check.detail == f"opens, {len(expected)} sections"
