"""A collection's change mark (backends/opensearch/marks.py): a refresh that finds nothing to do
reads one mark instead of every file record, and never trusts a state another writer changed.

Runs on the `cluster` fixture (a real cluster when QMEM_OPENSEARCH_URL is set, else osmem-server).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from qmem.backends.opensearch import marks as marks_mod

from .test_opensearch_flows import expected_state

pytest.importorskip("opensearchpy")


def machine(cluster, tmp_path: Path, name: str, root: Path) -> str:
    """A config of its own (its own data folder: another machine) writing collection `main`."""
    path = tmp_path / f"{name}.toml"
    path.write_text(cluster.backend_toml(retries=1) + '[scopes]\nown = "agent:alice"\n'
                    f'[collections.main]\npath = "{root}"\n', encoding="utf-8")
    return str(path)


def record_reads(log: list[tuple[str, str]]) -> int:
    return sum(1 for method, path in log if path.endswith("/_search"))


def test_a_refresh_with_nothing_to_do_reads_the_mark_and_no_record(cluster, ws, tmp_path, cli, requests_sent):
    one = machine(cluster, tmp_path, "one", ws)
    assert cli("--config", one, "index").code == 0  # the first index: nothing to trust yet
    assert cli("--config", one, "index").code == 0  # reads every record once, with the mark unchanged
    requests_sent.clear()
    assert cli("--config", one, "index").code == 0
    assert record_reads(requests_sent) == 0, requests_sent
    assert len(requests_sent) <= 3, requests_sent  # the scope's mapping, the mark
    assert cluster.backend().stored_hashes("agent:alice", "main") == expected_state(ws)


def test_a_commit_by_another_machine_makes_the_next_refresh_read_again(cluster, ws, tmp_path, cli, requests_sent):
    """Two folders with the same files write one collection. After the other machine changes a
    file's record, this machine's next refresh reads the records again (the mark's token moved),
    re-hashes that file, and sends its own copy back, as it did before marks."""
    other = tmp_path / "other"
    shutil.copytree(ws, other)
    mine, theirs = machine(cluster, tmp_path, "mine", ws), machine(cluster, tmp_path, "theirs", other)
    for config in (mine, mine, theirs):
        assert cli("--config", config, "index").code == 0
    assert cli("--config", mine, "index").code == 0  # trusts again after the other's first refresh
    requests_sent.clear()
    assert cli("--config", mine, "index").code == 0
    assert record_reads(requests_sent) == 0, requests_sent
    (other / "MEMORY.md").write_text((other / "MEMORY.md").read_text(encoding="utf-8") + "\nnarwhal\n",
                                     encoding="utf-8")
    assert cli("--config", theirs, "index").code == 0
    assert cluster.backend().stored_hashes("agent:alice", "main")["MEMORY.md"] == expected_state(other)["MEMORY.md"]
    requests_sent.clear()
    assert cli("--config", mine, "index").code == 0
    assert record_reads(requests_sent) >= 1, requests_sent
    assert cluster.backend().stored_hashes("agent:alice", "main") == expected_state(ws)


def test_a_remember_keeps_the_trust_of_an_unchanged_collection(cluster, ws, tmp_path, cli, requests_sent, monkeypatch):
    """A commit that went from the trusted state with no other writer in between (here the one
    `remember` makes) leaves a state to trust: the next refresh still reads no record."""
    config = machine(cluster, tmp_path, "one", ws)
    monkeypatch.setenv("QMEM_WORKSPACE", str(ws))
    for _ in range(2):
        assert cli("--config", config, "index").code == 0
    assert cli("--config", config, "remember", "The narwhal migration runs on Tuesdays").code == 0
    requests_sent.clear()
    assert cli("--config", config, "index").code == 0
    assert record_reads(requests_sent) == 0, requests_sent
    assert cluster.backend().stored_hashes("agent:alice", "main") == expected_state(ws)


def test_a_mark_left_open_is_read_around_and_reset_when_stale(cluster, ws, tmp_path, cli, requests_sent, monkeypatch):
    """A writer killed between open and close leaves the mark open: refreshes read every record
    while it is, and the next writer after STALE_MINUTES resets the count."""
    config = machine(cluster, tmp_path, "one", ws)
    for _ in range(2):
        assert cli("--config", config, "index").code == 0
    killed = cluster.backend()
    killed.marks.open("agent:alice", "main", None)  # and never closes: the writer died
    for _ in range(2):
        requests_sent.clear()
        assert cli("--config", config, "index").code == 0
        assert record_reads(requests_sent) >= 1, requests_sent
    assert killed.marks.read("agent:alice", "main").open == 1
    later = marks_mod.minutes() + marks_mod.STALE_MINUTES + 1
    monkeypatch.setattr(marks_mod, "minutes", lambda: later)
    (ws / "memory" / "new.md").write_text("# New\n\nbeluga\n", encoding="utf-8")
    assert cli("--config", config, "index").code == 0  # a writer: resets the stale count, then closes
    assert killed.marks.read("agent:alice", "main").open == 0
    assert cli("--config", config, "index").code == 0
    requests_sent.clear()
    assert cli("--config", config, "index").code == 0
    assert record_reads(requests_sent) == 0, requests_sent


def test_trust_ends_after_its_time_and_with_another_cluster(cluster, ws, tmp_path, cli, requests_sent, monkeypatch):
    """Every record is read again at least every TRUST_SECONDS (a writer of an older qmem moves
    no mark), and a trust recorded for one cluster or index is not used for another."""
    config = machine(cluster, tmp_path, "one", ws)
    for _ in range(2):
        assert cli("--config", config, "index").code == 0
    monkeypatch.setattr(marks_mod, "TRUST_SECONDS", 0)
    requests_sent.clear()
    assert cli("--config", config, "index").code == 0
    assert record_reads(requests_sent) >= 1, requests_sent
    monkeypatch.setattr(marks_mod, "TRUST_SECONDS", 3600)
    assert cli("--config", config, "index").code == 0  # read in full again: trusted from now
    from qmem.base import config as config_mod
    from qmem.base.layout import marks_path

    path = marks_path(config_mod.load(config, required=True).data_dir)
    assert marks_mod.TrustFile(path, cluster.url, cluster.index).get("agent:alice", "main") is not None
    assert marks_mod.TrustFile(path, "http://elsewhere:9200", cluster.index).get("agent:alice", "main") is None
    assert marks_mod.TrustFile(path, cluster.url, "another").get("agent:alice", "main") is None



def test_concurrent_opens_and_closes_never_lose_a_count(cluster):
    """Compare-and-set on the mark: two writers interleaving open, open, close, close end with
    the mark closed, and neither close is trusted (each saw the other)."""
    a, b = cluster.backend(), cluster.backend()
    a.ensure_scope("agent:alice")
    first, chain_a = a.marks.open("agent:alice", "c", None)
    second, chain_b = b.marks.open("agent:alice", "c", None)
    assert not chain_a and not chain_b
    assert b.marks.read("agent:alice", "c").open == 2
    assert a.marks.close("agent:alice", "c", first, True) is None  # its state was changed by b
    assert b.marks.close("agent:alice", "c", second, True) is None
    final = a.marks.read("agent:alice", "c")
    assert final.open == 0 and final.token not in (first.token, second.token)


def test_the_mark_is_never_a_file_or_a_hit(cluster, ws, tmp_path, cli):
    config = machine(cluster, tmp_path, "one", ws)
    assert cli("--config", config, "index").code == 0
    backend = cluster.backend()
    assert backend.marks.read("agent:alice", "main") is not None
    assert backend.stored_hashes("agent:alice", "main") == expected_state(ws)
    assert all(doc["path"][0] for doc in backend.sections("agent:alice", "main"))
    backend.delete_collection("agent:alice", "main")
    assert backend.marks.read("agent:alice", "main") is None


def test_a_commit_that_fails_leaves_the_mark_open(cluster, ws, tmp_path, cli, requests_sent, monkeypatch):
    """A bulk refused partway: the writes before it are searchable only at the cluster's next
    refresh, so the mark stays open (as a killed writer leaves it) and refreshes read in full."""
    from qmem.backends.opensearch import backend as osb
    from qmem.base.errors import BackendUnavailableError

    from .test_opensearch_flows import push

    config = machine(cluster, tmp_path, "one", ws)
    for _ in range(2):
        assert cli("--config", config, "index").code == 0
    (ws / "memory" / "new.md").write_text("# New\n\nbeluga\n", encoding="utf-8")
    writer = cluster.backend()
    real, calls = writer.client.bulk, []

    def failing_bulk(*args, **kwargs):
        calls.append(1)
        if len(calls) > 1:
            raise BackendUnavailableError("the cluster went away")
        return real(*args, **kwargs)

    monkeypatch.setattr(writer.client, "bulk", failing_bulk)
    monkeypatch.setattr(osb.OpenSearchBackend, "_pause", lambda self, *a: None)
    with pytest.raises(BackendUnavailableError):
        push(writer, "agent:alice", "main", ws)
    assert writer.marks.read("agent:alice", "main").open == 1
    requests_sent.clear()
    assert cli("--config", config, "index").code == 0  # reads in full, sends new.md again
    assert record_reads(requests_sent) >= 1, requests_sent
    assert cluster.backend().stored_hashes("agent:alice", "main") == expected_state(ws)


def test_a_leaked_count_goes_stale_an_hour_after_it_opened_even_on_a_busy_collection(
        cluster, ws, tmp_path, cli, requests_sent, monkeypatch):
    """The time a mark keeps is when it last opened from closed: other writers' opens and closes
    while a killed writer's count is left do not renew it, so an hour after the leak the next
    writer resets the count, however busy the collection was meanwhile."""
    config = machine(cluster, tmp_path, "one", ws)
    for _ in range(2):
        assert cli("--config", config, "index").code == 0
    start = marks_mod.minutes()
    clock = {"now": start}
    monkeypatch.setattr(marks_mod, "minutes", lambda: clock["now"])
    cluster.backend().marks.open("agent:alice", "main", None)  # a writer that dies
    for n, at in enumerate((20, 40, 59)):  # a busy collection: commits every 20 minutes
        clock["now"] = start + at
        (ws / "memory" / f"busy{n}.md").write_text(f"# Busy {n}\n\nnarwhal {n}\n", encoding="utf-8")
        assert cli("--config", config, "index").code == 0
        assert cluster.backend().marks.read("agent:alice", "main").open == 1  # still the leaked count
    clock["now"] = start + marks_mod.STALE_MINUTES + 1
    (ws / "memory" / "late.md").write_text("# Late\n\nbeluga\n", encoding="utf-8")
    assert cli("--config", config, "index").code == 0  # resets the stale count, then closes
    assert cluster.backend().marks.read("agent:alice", "main").open == 0
    assert cli("--config", config, "index").code == 0
    requests_sent.clear()
    assert cli("--config", config, "index").code == 0
    assert record_reads(requests_sent) == 0, requests_sent


def test_a_collection_delete_that_fails_leaves_the_mark_open(cluster, ws, tmp_path, cli, monkeypatch):
    """A delete_by_query that keeps failing: its deletes may not be searchable yet, so the mark
    stays open (as after a failed commit) and nobody trusts a read of the collection meanwhile."""
    from qmem.backends.opensearch import backend as osb
    from qmem.base.errors import BackendUnavailableError

    config = machine(cluster, tmp_path, "one", ws)
    assert cli("--config", config, "index").code == 0
    deleting = cluster.backend()
    monkeypatch.setattr(osb.OpenSearchBackend, "_pause", lambda self, *a: None)
    monkeypatch.setattr(deleting.client, "delete_by_query",
                        lambda **kw: {"failures": [{"cause": "shard went away"}], "deleted": 0})
    with pytest.raises(BackendUnavailableError, match="left documents behind"):
        deleting.delete_collection("agent:alice", "main")
    assert deleting.marks.read("agent:alice", "main").open == 1
