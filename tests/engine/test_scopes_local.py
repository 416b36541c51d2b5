"""Private memory never crosses agents on the local backend either: each agent's config owns
its own index (its data folder), even when both share one data root and name their
collections alike. (The OpenSearch side: test_opensearch_flows.py.)"""

from __future__ import annotations

from pathlib import Path

from qmem.base import config
from qmem.engine import search, sync


def _agent(tmp_path: Path, name: str, secret: str) -> config.Config:
    ws = tmp_path / f"ws-{name}"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text(f"# Keys\n\n{name} secret wallet 私钥 {secret}\n", encoding="utf-8")
    file = tmp_path / f"{name}.toml"
    file.write_text(f'[scopes]\nown = "agent:{name}"\n[collections.memory]\npath = "{ws}"\n', encoding="utf-8")
    cfg = config.load(str(file))
    sync.refresh(cfg)
    return cfg


def test_two_agents_on_one_machine_never_see_each_other(tmp_path):
    alice = _agent(tmp_path, "alice", "alpha")
    bob = _agent(tmp_path, "bob", "bravo")
    assert alice.data_dir != bob.data_dir and alice.data_root == bob.data_root
    for text in ("secret wallet", "私钥", "alpha bravo", "alice bob"):
        assert {h.abs_path for h in search.search(alice, text)} <= {str(tmp_path / "ws-alice" / "MEMORY.md")}
        assert {h.abs_path for h in search.search(bob, text)} <= {str(tmp_path / "ws-bob" / "MEMORY.md")}
    assert search.search(alice, "bravo") == [] and search.search(bob, "alpha") == []
    assert alice.sees == ["agent:alice", "shared"]
