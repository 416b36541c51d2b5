"""A machine that skips reading the records (backends/opensearch/marks.py) holds a manifest equal
to the cluster's records: whatever other machines do meanwhile, wherever a writer dies, and after
the scope's index is made again.

The invariant, checked after every step: when a machine's next refresh would skip the read (its
trust file's token is the mark's, the mark is closed, the trust is recent), the files its manifest
lists as indexed are exactly the cluster's records of the collection, less the ones another folder
wrote that this one does not have (a refresh that reads leaves those alone too).

Runs on the `cluster` fixture (a real cluster when QMEM_OPENSEARCH_URL is set, else osmem-server).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from .test_opensearch_flows import expected_state

pytest.importorskip("opensearchpy")

SCOPE = "agent:alice"


def machine(cluster, tmp_path: Path, name: str, root: Path) -> str:
    """Another machine (a config and data folder of its own); a refresh while this machine's own
    writer holds its lock exits 75 at once."""
    path = tmp_path / f"{name}.toml"
    path.write_text(cluster.backend_toml(retries=1) + f'[index]\nlock_timeout = 0\n[scopes]\nown = "{SCOPE}"\n'
                    f'[collections.main]\npath = "{root}"\n', encoding="utf-8")
    return str(path)


def _cfg(config: str):
    from qmem.base import config as config_mod

    return config_mod.load(config, required=True)


def would_skip(cluster, config: str) -> bool:
    """Whether this machine's next refresh of `main` skips reading the records."""
    from qmem.backends.opensearch.marks import TrustFile
    from qmem.base.layout import marks_path
    from qmem.engine import manifest as manifests

    cfg = _cfg(config)
    old = manifests.load(cfg.data_dir, "main")
    if not old.files or old.root != cfg.collections["main"].path:
        return False
    state = TrustFile(marks_path(cfg.data_dir), cluster.url, cluster.index).get(SCOPE, "main")
    backend = cluster.backend()
    if state is None or not backend.ensure_scope(SCOPE, create=False):
        return False
    mark = backend.marks.read(SCOPE, "main")
    return mark is not None and mark.closed and mark.token == state[0].token


def disagreement(cluster, config: str) -> dict[str, tuple]:
    """path -> (the manifest's (digest, sections), the cluster's) where they differ; records
    another folder wrote of files this one neither has nor lists are left out (`known_files`)."""
    import os

    from qmem.backends.opensearch.adapters import origin_of
    from qmem.engine import manifest as manifests

    cfg = _cfg(config)
    root = cfg.collections["main"].path
    mine = origin_of(cfg, "main")
    backend = cluster.backend()
    backend.stored_hashes(SCOPE, "main")
    files = manifests.load(cfg.data_dir, "main").files
    held = {path: (h.digest, h.sections) for path, h in backend.records(SCOPE, "main").items()
            if not h.origin or h.origin == mine or path in files or os.path.lexists(os.path.join(root, path))}
    listed = {path: (e[2], e[3]) for path, e in files.items() if manifests.skipped_reason(e) is None}
    return {p: (listed.get(p), held.get(p)) for p in listed.keys() | held.keys() if listed.get(p) != held.get(p)}


def check(cluster, *configs: str, when: str = "") -> None:
    for config in configs:
        if would_skip(cluster, config):
            assert not disagreement(cluster, config), (when, config, disagreement(cluster, config))


def test_a_trust_from_an_index_made_again_is_never_taken_by_a_commit(cluster, ws, tmp_path, cli, monkeypatch):
    """A compare-and-set names the mark's (_seq_no, _primary_term), which count from 0 again in an
    index made again (deleted and re-created, a schema migration re-indexed from the files); the
    trust file outlives it. A `remember` whose open lands on the new index's mark at the same
    numbers must not take it for the state it trusted: this machine's other files are not there."""
    mine = machine(cluster, tmp_path, "mine", ws)
    for _ in range(2):
        assert cli("--config", mine, "index").code == 0
    assert would_skip(cluster, mine)
    from qmem.backends.opensearch.marks import TrustFile
    from qmem.base.layout import marks_path

    trusted = TrustFile(marks_path(_cfg(mine).data_dir), cluster.url, cluster.index).get(SCOPE, "main")[0]
    cluster.drop()  # the scope's index is made again: another machine writes one small file first
    other = tmp_path / "other"
    (other / "memory").mkdir(parents=True)
    (other / "memory" / "note.md").write_text("# Note\n\nsomething else\n", encoding="utf-8")
    assert cli("--config", machine(cluster, tmp_path, "other", other), "index").code == 0
    backend = cluster.backend()
    now = backend.marks.read(SCOPE, "main")
    while now.seq_no < trusted.seq_no:  # later writes of the new index's mark reach the same numbers
        now, _ = backend.marks._change(SCOPE, "main", now, 0)
    if (now.seq_no, now.primary_term) != (trusted.seq_no, trusted.primary_term):
        pytest.skip("this cluster's numbers cannot be made to meet the trusted ones")
    monkeypatch.setenv("QMEM_WORKSPACE", str(ws))
    assert cli("--config", mine, "remember", "The narwhal migration runs on Tuesdays").code == 0
    check(cluster, mine, when="after the remember")
    assert cli("--config", mine, "index").code == 0
    check(cluster, mine, when="after the next refresh")
    held = cluster.backend().stored_hashes(SCOPE, "main")
    assert {p: held.get(p) for p in expected_state(ws)} == expected_state(ws)


def _edit(rng: random.Random, root: Path, step: int) -> Path:
    """One change to a folder's files: a file grows, a file is added, or one goes."""
    files = sorted(p for p in root.rglob("*.md") if p.is_file())
    what = rng.choice(["grow", "grow", "add", "drop"] if len(files) > 2 else ["grow", "add"])
    if what == "add":
        path = root / "memory" / f"n{step}-{rng.randrange(1000)}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Note {step}\n\nbeluga {step}\n", encoding="utf-8")
    elif what == "drop":
        path = rng.choice(files)
        path.unlink()
    else:
        path = rng.choice(files)
        path.write_text(path.read_text(encoding="utf-8") + f"\n## Step {step}\n\nnarwhal {step}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", [3, 11])
def test_two_writers_and_a_reader_interleaved_at_random_never_skip_a_change(cluster, ws, tmp_path, cli,
                                                                            monkeypatch, seed):
    """Two folders with the same files write one collection, a third reads (refreshes, never
    edits). Each step edits a folder and refreshes one machine (a refresh, or the commit without
    a read that `remember` makes); at random points inside it (after a read of the mark, so
    between a reader's mark and its pages; a commit's open and close; after any bulk request)
    another machine refreshes. After every step no machine that would
    skip the read disagrees with the cluster, and at the end each writer converges."""
    from qmem.backends.opensearch import backend as osb
    from qmem.backends.opensearch import marks as marks_mod
    from qmem.engine import sync

    rng = random.Random(seed)
    roots = {"a": ws, "b": tmp_path / "b", "r": tmp_path / "r"}
    shutil.copytree(ws, roots["b"])
    shutil.copytree(ws, roots["r"])
    configs = {name: machine(cluster, tmp_path, name, root) for name, root in roots.items()}
    everyone = tuple(configs.values())
    for name in ("a", "b", "r", "a", "b", "r"):
        assert cli("--config", configs[name], "index").code == 0
    depth = [0]

    def interleave(where: str) -> None:
        if depth[0] or rng.random() > 0.35:
            return
        depth[0] += 1
        try:
            name = rng.choice("abr")
            if name != "r" and rng.random() < 0.5:
                _edit(rng, roots[name], 100 + rng.randrange(1000))
            assert cli("--config", configs[name], "index").code in (0, 75)  # 75: that machine is the writer
            check(cluster, *everyone, when=f"{name} refreshed inside a commit, at {where}")
        finally:
            depth[0] -= 1

    def checked(when: str) -> None:
        depth[0] += 1  # nothing runs inside the check's own reads
        try:
            check(cluster, *everyone, when=when)
        finally:
            depth[0] -= 1

    real_put, real_bulk, real_read = marks_mod.Marks._put, osb.OpenSearchBackend._bulk, marks_mod.Marks.read

    def read(self, scope, collection):
        interleave("before a mark read")  # a reader between its pages and its second read
        found = real_read(self, scope, collection)
        interleave("after a mark read")  # a reader between its first read and its pages
        return found

    def put(self, scope, collection, base, open_, since):
        interleave("a close" if open_ == 0 else "")
        done = real_put(self, scope, collection, base, open_, since)
        if done is not None and open_:
            interleave("an open")
        return done

    def bulk(self, actions, refresh=False):
        real_bulk(self, actions, refresh=refresh)
        interleave("a bulk")

    monkeypatch.setattr(marks_mod.Marks, "_put", put)
    monkeypatch.setattr(osb.OpenSearchBackend, "_bulk", bulk)
    monkeypatch.setattr(marks_mod.Marks, "read", read)
    for step in range(10):
        name = rng.choice("abr")
        if name != "r":
            changed = _edit(rng, roots[name], step)
        if name != "r" and changed.exists() and rng.random() < 0.4:
            sync.refresh_files(_cfg(configs[name]), [str(changed)])  # what remember does
        else:
            assert cli("--config", configs[name], "index").code == 0
        checked(f"step {step}: {name}")
    monkeypatch.setattr(marks_mod.Marks, "_put", real_put)
    monkeypatch.setattr(osb.OpenSearchBackend, "_bulk", real_bulk)
    monkeypatch.setattr(marks_mod.Marks, "read", real_read)
    for name in ("a", "b"):
        assert cli("--config", configs[name], "index").code == 0
        held = cluster.backend().stored_hashes(SCOPE, "main")
        want = expected_state(roots[name])
        assert {p: held.get(p) for p in want} == want, name
        check(cluster, *everyone, when=f"the end: {name}")


KILLER = r"""
import os, signal, sys
from qmem.backends.opensearch import backend as osb, marks
point = sys.argv[1]
def die():
    os.kill(os.getpid(), signal.SIGKILL)
real_put, real_bulk, real_commit, real_save = marks.Marks._put, osb.OpenSearchBackend._bulk, \
    osb.OpenSearchBackend.commit, marks.TrustFile.save
bulks = []
def put(self, scope, collection, base, open_, since):
    if point == "before the close" and base is not None and open_ == 0:
        die()
    done = real_put(self, scope, collection, base, open_, since)
    if point == "after the open" and open_:
        die()
    return done
def bulk(self, actions, refresh=False):
    real_bulk(self, actions, refresh=refresh)
    bulks.append(1)
    if point == "between bulks":
        die()
def commit(self):
    real_commit(self)
    if point == "after the close":
        die()
def save(self, states):
    if point == "before the trust file":
        die()
    real_save(self, states)
marks.Marks._put, osb.OpenSearchBackend._bulk, osb.OpenSearchBackend.commit, marks.TrustFile.save = \
    put, bulk, commit, save
from qmem.__main__ import main
main(sys.argv[2:])
"""

POINTS = ["after the open", "between bulks", "before the close", "after the close", "before the trust file"]


def test_a_refresh_killed_at_any_point_leaves_no_machine_skipping_a_change(cluster, ws, tmp_path, cli, monkeypatch):
    """`kill -9` of a refresh at each point of its commit (after the mark's open, between bulk
    requests, after the final records before the close, after the close before the manifests,
    after the manifests before the trust file): no machine then skips the read while it
    disagrees with the cluster, and the next refreshes converge and trust again (a mark left
    open is reset once stale)."""
    import subprocess
    import sys

    from qmem.backends.opensearch import marks as marks_mod

    from ..conftest import subprocess_env

    twin = tmp_path / "twin"
    shutil.copytree(ws, twin)  # another machine with the same (synced) files
    mine, theirs = machine(cluster, tmp_path, "mine", ws), machine(cluster, tmp_path, "theirs", twin)
    for config in (mine, theirs, mine, theirs):
        assert cli("--config", config, "index").code == 0
    later = [0]
    real_minutes = marks_mod.minutes
    monkeypatch.setattr(marks_mod, "minutes", lambda: real_minutes() + later[0])
    for n, point in enumerate(POINTS):
        for root in (ws, twin):
            path = root / "memory" / "2026-02-27.md"
            path.write_text(path.read_text(encoding="utf-8") + f"\n## Killed {n}\n\nnarwhal {n}\n", encoding="utf-8")
        died = subprocess.run([sys.executable, "-c", KILLER, point, "--config", mine, "index"], env=subprocess_env(),
                              capture_output=True, text=True, timeout=60)
        assert died.returncode == -9, (point, died.stderr)
        check(cluster, mine, theirs, when=f"killed {point}")
        later[0] += marks_mod.STALE_MINUTES + 1  # what a killed writer left open is stale by now
        for config in (theirs, mine, theirs, mine):
            assert cli("--config", config, "index").code == 0
            check(cluster, mine, theirs, when=f"after a refresh, killed {point}")
        assert cluster.backend().stored_hashes(SCOPE, "main") == expected_state(ws), point
        assert would_skip(cluster, mine) and would_skip(cluster, theirs), point


def test_a_collection_delete_killed_before_its_mark_goes_leaves_no_machine_skipping(cluster, ws, tmp_path, cli,
                                                                                    monkeypatch):
    """delete_collection removes the records, then what no record covered (a delete_by_query),
    then the mark. Another machine that rewrites the collection just before the delete_by_query
    (and so trusts its own close) loses those writes to it; if the deleting process dies before
    the mark goes, that machine must not skip the read."""
    other = machine(cluster, tmp_path, "other", ws)
    for _ in range(2):
        assert cli("--config", other, "index").code == 0
    deleting = cluster.backend()
    real_dbq = deleting.client.delete_by_query

    def dbq(**kwargs):
        (ws / "memory" / "late.md").write_text("# Late\n\nwritten while the collection goes\n", encoding="utf-8")
        assert cli("--config", other, "index").code == 0  # reads the emptied records, sends its files again
        return real_dbq(**kwargs)

    def killed(scope, collection):
        raise KeyboardInterrupt  # the process dies here

    monkeypatch.setattr(deleting.client, "delete_by_query", dbq)
    monkeypatch.setattr(deleting.marks, "remove", killed)
    with pytest.raises(KeyboardInterrupt):
        deleting.delete_collection(SCOPE, "main")
    check(cluster, other, when="the delete died before the mark went")
    assert cli("--config", other, "index").code == 0
    assert cluster.backend().stored_hashes(SCOPE, "main") == expected_state(ws)


def test_index_full_reads_every_record_whatever_the_mark_says(cluster, ws, tmp_path, cli, requests_sent):
    """`qmem index --full` is the way back from anything, a trust that is wrong included: a qmem
    that predates marks wrote a record of this folder within the hour (its commit moves no mark),
    which a plain refresh may skip for up to TRUST_SECONDS; --full reads the records and removes it."""
    from qmem.backends.opensearch.adapters import origin_of

    config = machine(cluster, tmp_path, "one", ws)
    for _ in range(2):
        assert cli("--config", config, "index").code == 0
    older = cluster.backend()
    older.marks.open = lambda scope, collection, trusted: (None, False)  # an older qmem: no mark
    older.marks.close = lambda scope, collection, mine, chain: None
    older.replace_file(SCOPE, "main", "memory/ghost.md", "0123456789abcdef", [], origin_of(_cfg(config), "main"))
    older.commit()
    assert "memory/ghost.md" in disagreement(cluster, config) and would_skip(cluster, config)
    requests_sent.clear()
    assert cli("--config", config, "index", "--full").code == 0
    assert sum(1 for _, path in requests_sent if path.endswith("/_search")) >= 1, requests_sent
    assert cluster.backend().stored_hashes(SCOPE, "main") == expected_state(ws)
