"""Each config owns its index data; several configs may share one data root (issue 10, finding 1)."""

from __future__ import annotations

import json
import os
import random
import time

import pytest

from qmem.engine import catalog, search, sync
from qmem.base import config, layout

from ..helpers import index_snapshot


def make_root(path, word: str) -> str:
    (path / "memory").mkdir(parents=True)
    (path / "MEMORY.md").write_text(f"# Memory\n## Notes\n- [K] {word} lives here\n", encoding="utf-8")
    (path / "memory" / "2026-01-02.md").write_text(f"# 2026-01-02\n- [E] {word} event\n", encoding="utf-8")
    past = time.time() - 60  # older than the racy window: an unchanged file is not re-read
    for file in (path / "MEMORY.md", path / "memory" / "2026-01-02.md"):
        os.utime(file, (past, past))
    return str(path)


def found(cfg_file: str, word: str) -> set[str]:
    cfg = config.load(cfg_file)
    if not cfg.collections:
        return set()
    return {h.collection for h in search.search(cfg, word)}


class Agent:
    """One config file and its steps: create x, create z, rename x→y, remove z, index."""

    def __init__(self, tmp_path, name: str, word: str) -> None:
        self.file = str(tmp_path / name / "collections.toml")
        self.word = word
        self.roots = {c: make_root(tmp_path / f"{name}-{c}", word) for c in ("x", "z")}
        self.main = "x"  # the collection that must stay searchable
        self.steps = [self.create_x, self.create_z, self.rename, self.remove_z, self.index]

    def cfg(self):
        return config.load(self.file)

    def create_x(self):
        catalog.create(self.cfg(), "x", self.roots["x"])

    def create_z(self):
        catalog.create(self.cfg(), "z", self.roots["z"])

    def rename(self):
        catalog.rename(self.cfg(), "x", "y")
        self.main = "y"

    def remove_z(self):
        catalog.remove(self.cfg(), "z")

    def index(self):
        sync.refresh(self.cfg())

    def expected(self) -> set[str]:
        return set(self.cfg().collections)


def interleavings(rng: random.Random, n: int, k: int) -> list[list[int]]:
    """`k` orders of two agents' `n` steps each: both blocks, strict alternation, random ones."""
    orders = [[0] * n + [1] * n, [1] * n + [0] * n, [0, 1] * n, [1, 0] * n]
    while len(orders) < k:
        order = [0] * n + [1] * n
        rng.shuffle(order)
        if order not in orders:
            orders.append(order)
    return orders


@pytest.mark.parametrize("order", interleavings(random.Random(10), 5, 8))
def test_two_configs_sharing_a_data_folder_never_remove_each_others_index(tmp_path, order):
    # Both agents name their collections alike (x, z → y) over different roots and words.
    agents = [Agent(tmp_path, "agent-a", "alpha"), Agent(tmp_path, "agent-b", "bravo")]
    position = [0, 0]
    for who in order:
        agent, other_folder = agents[who], agents[1 - who].cfg().data_dir
        untouched = files_under(other_folder)
        agent.steps[position[who]]()
        position[who] += 1
        assert files_under(other_folder) == untouched  # one config's step never writes in the other's folder
        for other in agents:
            if position[agents.index(other)] == 0:
                continue
            assert found(other.file, other.word) == other.expected(), (order, position)
            assert found(other.file, agents[1 - agents.index(other)].word) == set()  # never the other's


def test_the_issue_scenario_through_the_cli(cli, tmp_path):
    a, b = str(tmp_path / "a" / "collections.toml"), str(tmp_path / "b" / "collections.toml")
    ra, rb = make_root(tmp_path / "ra", "alpha"), make_root(tmp_path / "rb", "bravo")
    assert cli("--config", a, "collection", "create", "a", ra).code == 0
    created = cli("--config", b, "collection", "create", "b", rb)
    assert created.code == 0 and "no longer configured" not in created.out + created.err
    for file, word, coll in ((a, "alpha", "a"), (b, "bravo", "b")):
        result = cli("--config", file, "search", word, "--json")
        assert result.code == 0 and {h["collection"] for h in json.loads(result.out)} == {coll}
    assert cli("--config", a, "index").code == 0 and cli("--config", b, "index", "--full").code == 0
    assert json.loads(cli("--config", a, "search", "alpha", "--json").out)


def test_data_folders_name_their_config_and_tell_orphans(tmp_path):
    a, b = Agent(tmp_path, "agent-a", "alpha"), Agent(tmp_path, "agent-b", "bravo")
    a.create_x()
    b.create_x()
    root = a.cfg().data_root
    folders = layout.data_folders(root, sizes=True)
    assert {f.config for f in folders} == {os.path.realpath(a.file), os.path.realpath(b.file)}
    assert all(f.config_exists and not f.orphan and not f.legacy and f.bytes > 0 for f in folders)
    os.unlink(b.file)
    orphans = [f for f in layout.data_folders(root) if f.orphan]
    assert [f.config for f in orphans] == [os.path.realpath(b.file)]
    assert orphans[0].path == b.cfg().data_dir
    assert found(a.file, "alpha") == {"x"}


def legacy_build(agent: Agent) -> list[tuple]:
    """What qmem before per-config folders left: the index straight in `<root>/v1`."""
    old = agent.cfg()
    old.data_dir = old.data_root
    sync.refresh(old)
    return index_snapshot(old.data_root)


def files_under(path: str) -> dict[str, tuple[int, int]]:
    out = {}
    for folder, _, names in os.walk(path):
        for name in names:
            st = os.stat(os.path.join(folder, name))
            out[os.path.relpath(os.path.join(folder, name), path)] = (st.st_size, st.st_mtime_ns)
    return out


def test_legacy_shared_folder_is_reused_by_each_config_and_never_removed(tmp_path, monkeypatch):
    a, b = Agent(tmp_path, "agent-a", "alpha"), Agent(tmp_path, "agent-b", "bravo")
    for agent in (a, b):
        config.add_collection(agent.cfg(), config.Collection(f"{agent.word}-notes", agent.roots["x"]))
    legacy_build(a)
    both = legacy_build(b)  # in the old layout, b's refresh purged a's collection: one shared index
    assert {row[0] for row in both} == {"bravo-notes"}
    legacy = os.path.join(a.cfg().data_root, f"v{layout.SCHEMA_VERSION}")
    before = files_under(legacy)
    reads = []
    real = sync.read_sections
    monkeypatch.setattr(sync, "read_sections", lambda info, *a: reads.append(info.rel) or real(info, *a))
    report = sync.refresh(b.cfg())
    assert report.adopted_from == legacy and reads == []  # linked, not rebuilt
    assert report.adopted == ["tantivy", "manifests"]
    assert found(b.file, "bravo") == {"bravo-notes"}
    report = sync.refresh(a.cfg())  # nothing of a's in the shared folder any more: built afresh
    assert report.adopted_from == "" and found(a.file, "alpha") == {"alpha-notes"}
    assert files_under(legacy) == before  # the legacy folder is never changed or removed
    assert [f.legacy for f in layout.data_folders(a.cfg().data_root)] == [False, False, True]
    assert index_snapshot(b.cfg().data_dir) == both


def test_legacy_folder_of_an_older_schema_gives_its_vectors_only(tmp_path):
    a = Agent(tmp_path, "agent-a", "alpha")
    cfg = a.cfg()
    config.add_collection(cfg, config.Collection("notes", a.roots["x"]))
    old = os.path.join(cfg.data_root, "v1")  # what qmem with schema 1 and one shared folder left
    for name, root in (("notes", a.roots["x"]), ("someone-elses", a.roots["z"])):
        os.makedirs(os.path.join(old, "vectors", name))
        write_json(os.path.join(old, "manifests", f"{name}.json"), {"v": 1, "root": root, "files": {}})
        write_json(os.path.join(old, "vectors", name, "meta.json"), {"model": "m", "dim": 2, "gen": 1})
    write_json(os.path.join(old, "tantivy", "meta.json"), {"segments": []})  # schema 1: not reusable
    before = files_under(old)
    report = sync.refresh(a.cfg())
    assert report.adopted_from == old and report.adopted == ["vectors/notes"]
    ours = os.path.join(layout.version_dir(a.cfg().data_dir), "vectors", "notes", "meta.json")
    assert os.path.samefile(ours, os.path.join(old, "vectors", "notes", "meta.json"))  # linked, not re-embedded
    assert report.collections[0].added == 2  # the index itself is rebuilt from the Markdown
    assert found(a.file, "alpha") == {"notes"}
    assert files_under(old) == before
    assert not os.path.exists(os.path.join(layout.version_dir(a.cfg().data_dir), "vectors", "someone-elses"))


def write_json(path: str, data: object) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle)
