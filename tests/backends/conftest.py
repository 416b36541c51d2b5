"""Where the OpenSearch tests send their requests.

With QMEM_OPENSEARCH_URL set (scripts/test-cluster prints one; `source <cluster>/cluster.env`
also sets the CA and the admin's credentials of a --security cluster) the flow tests run on
that real cluster, each in indices of its own, deleted at the end. Without it they run on a
fresh clone of osmem-server, an in-memory OpenSearch-compatible server.
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pytest

from ..conftest import SAMPLE

LIVE_URL = os.environ.get("QMEM_OPENSEARCH_URL")


class Cluster:
    """One test's cluster: its URL, credentials, and the index names the test owns."""

    def __init__(self, url: str, real: bool, index: str) -> None:
        self.url = url
        self.real = real
        self.index = index
        self.user = os.environ.get("QMEM_OPENSEARCH_USER", "admin") if real else ""
        self.password_set = real and bool(os.environ.get("QMEM_OPENSEARCH_PASSWORD"))
        self.ca = os.environ.get("QMEM_OPENSEARCH_CA", "") if real else ""

    def settings(self, url: str | None = None, **kw):  # osb.Settings
        from qmem.backends.opensearch import backend as osb

        base = {"url": url or self.url, "index": self.index, "shards": 2, "replicas": 0, "refresh": True,
                "retries": 2, "ca_certs": self.ca}
        if self.password_set:
            base.update(auth="basic", username=self.user)
        base.update(kw)
        return osb.Settings(**base)

    def backend(self, url: str | None = None, **kw):  # osb.OpenSearchBackend
        from qmem.backends.opensearch import backend as osb

        return osb.OpenSearchBackend(self.settings(url, **kw), sleep=lambda _s: None)

    def backend_toml(self, url: str | None = None, **extra: object) -> str:
        """The config's [backend] table for this cluster (secrets stay in the environment)."""
        lines = ['[backend]', 'kind = "opensearch"', f'url = "{url or self.url}"', f'index = "{self.index}"']
        if self.password_set:
            lines += ['auth = "basic"', f'username = "{self.user}"']
        if self.ca:
            lines.append(f'ca_certs = "{self.ca}"')
        lines += [f"{k} = {v!r}".replace("'", '"') for k, v in extra.items()]
        return "\n".join(lines) + "\n"

    def drop(self) -> None:
        client = self.backend().client
        client.indices.delete(index=f"{self.index}-*", ignore_unavailable=True, expand_wildcards="all")


@pytest.fixture(autouse=True)
def fresh_breakers():
    """Each test starts with the clusters' circuit breakers closed (they live per process)."""
    from qmem.backends.opensearch import client

    client._BREAKERS.clear()
    yield
    client._BREAKERS.clear()


@pytest.fixture
def cluster(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """The real cluster when QMEM_OPENSEARCH_URL is set, else a fresh osmem-server clone."""
    if LIVE_URL:
        target = Cluster(LIVE_URL, True, f"qmem-t-{uuid.uuid4().hex[:10]}")
        yield target
        target.drop()
        return
    pytest.importorskip("osmem_server")
    clone = request.getfixturevalue("osmem_clone")
    yield Cluster(clone.url, False, "qmem")


@pytest.fixture
def requests_sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every request the OpenSearch client sends: (method, path without the query string)."""
    from opensearchpy import transport

    sent: list[tuple[str, str]] = []
    real = transport.Transport.perform_request

    def record(self, method, url, *args, **kwargs):
        sent.append((method, url.split("?")[0]))
        return real(self, method, url, *args, **kwargs)

    monkeypatch.setattr(transport.Transport, "perform_request", record)
    return sent


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A copy of the sample workspace, for a test to change."""
    dest = tmp_path / "ws"
    shutil.copytree(SAMPLE, dest)
    return dest
