"""How the OpenSearch client behaves when the cluster does not: the read policy (brief, one
retry, a deadline), the write policy, jitter, the circuit breaker, exact refusals. Sockets
here are real (a closed port, a port that accepts and never answers); clocks and sleeps are
injected where a test counts time instead of spending it."""

from __future__ import annotations

import socket
import threading

import pytest

from qmem.backends.opensearch import backend as osb
from qmem.backends.opensearch import client as osc
from qmem.base.errors import BackendError, BackendUnavailableError
from qmem.text import query

pytest.importorskip("opensearchpy")


class SilentServer:
    """Accepts connections and never answers: a hung node, a black-holed load balancer."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted.append(conn)

    def close(self) -> None:
        for conn in self.accepted:
            conn.close()
        self.sock.close()


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_a_search_against_a_silent_node_gives_up_within_its_deadline():
    """The read policy: two tries of at most search_timeout each, within search_deadline (the
    write path's 5 retries of 30 s took 196.7 s to fail before)."""
    server = SilentServer()
    try:
        backend = osb.OpenSearchBackend(osb.Settings(url=server.url, search_timeout=0.5, search_deadline=3))
        backend._checked.add("shared")
        with pytest.raises(BackendUnavailableError, match=r"after 2 tries within 3s") as failure:
            backend.search(query.parse("wallet"), ["shared"], 5)
        assert "timed out" in str(failure.value)
        assert len(server.accepted) == 2
    finally:
        server.close()


def test_a_search_against_a_closed_port_tries_twice_and_says_so():
    backend = osb.OpenSearchBackend(osb.Settings(url=closed_port()), sleep=lambda _s: None)
    with pytest.raises(BackendUnavailableError, match=r"cannot reach it \(ConnectionError\), after 2 tries"):
        backend.search(query.parse("wallet"), ["shared"], 5)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_breaker_opens_after_failures_in_a_row_and_lets_one_through_after_its_cooldown():
    clock = Clock()
    breaker = osc.Breaker(3, 30.0, clock)
    for _ in range(2):
        breaker.failure("cannot reach it")
        breaker.check("u")  # still closed
    breaker.failure("cannot reach it")
    with pytest.raises(BackendUnavailableError, match=r"3 requests in a row failed \(last: cannot reach it\); "
                                                      r"not asking again for 30s"):
        breaker.check("u")
    clock.now += 29
    with pytest.raises(BackendUnavailableError):
        breaker.check("u")
    clock.now += 2
    breaker.check("u")  # half open: one trial
    breaker.failure("still down")  # ... which fails: open again at once
    with pytest.raises(BackendUnavailableError, match="still down"):
        breaker.check("u")
    clock.now += 31
    breaker.check("u")
    breaker.success()
    breaker.check("u")
    assert breaker.failures == 0


def test_a_long_lived_process_stops_waiting_on_a_dead_cluster():
    """The MCP server's searches share one breaker per cluster: after three failed tries the
    next search fails at once, without a request."""
    url = closed_port()
    backend = osb.OpenSearchBackend(osb.Settings(url=url, breaker_failures=3), sleep=lambda _s: None)
    attempts = []
    real = backend.client.search

    def counted(*args, **kwargs):
        attempts.append(1)
        return real(*args, **kwargs)

    backend.client.search = counted
    for _ in range(2):  # 2 tries each: the breaker opens during the second search
        with pytest.raises(BackendUnavailableError):
            backend.search(query.parse("wallet"), ["shared"], 5)
    assert len(attempts) == 3  # the third failure opened it: the fourth try was never made
    with pytest.raises(BackendUnavailableError, match="not asking again"):
        osb.OpenSearchBackend(osb.Settings(url=url)).search(query.parse("x"), ["shared"], 5)
    assert len(attempts) == 3


@pytest.mark.parametrize("rand,expected", [(0.0, [0.25, 0.5, 1.0]), (1.0, [0.5, 1.0, 2.0])])
def test_back_off_doubles_with_jitter(rand, expected):
    pauses: list[float] = []
    transport = osc.ClusterTransport(osc.Settings(url=closed_port(), retries=3, breaker_failures=0),
                                     sleep=pauses.append, rand=lambda: rand)

    def refuse(_timeout):
        from opensearchpy.exceptions import ConnectionError as OSConnectionError

        raise OSConnectionError("N/A", "refused", None)

    with pytest.raises(BackendUnavailableError, match="after 4 tries"):
        transport._call(refuse)
    assert pauses == expected


def test_refusals_say_what_the_cluster_said_and_what_it_means():
    from opensearchpy.exceptions import AuthenticationException, AuthorizationException, RequestError

    transport = osc.ClusterTransport(osc.Settings(url="http://127.0.0.1:1", auth="none"))
    info = {"error": {"root_cause": [{"type": "security_exception", "reason": "no permissions for [indices:data/"
                                      "read/search] and User [name=alice]"}], "type": "security_exception"}}

    def raiser(exc):
        def request(_timeout):
            raise exc
        return request

    with pytest.raises(BackendError, match=r"403 security_exception: no permissions for \[indices:data/read/search\] "
                                           r"and User \[name=alice\] \(this user may not do that") as refused:
        transport._call(raiser(AuthorizationException(403, "security_exception", info)))
    assert refused.value.status == 403 and "\n" not in str(refused.value)
    keyed = osc.ClusterTransport(osc.Settings(url="http://127.0.0.1:1", auth="none"))
    keyed.settings.auth = "api_key"
    with pytest.raises(BackendError, match="API keys need OpenSearch 3.7"):
        keyed._call(raiser(AuthenticationException(401, "Unauthorized", {})))
    exists = {"error": {"type": "resource_already_exists_exception", "reason": "index [x] already exists"}}
    assert transport._call(raiser(RequestError(400, "resource_already_exists_exception", exists)),
                           ok={(400, "resource_already_exists_exception")}) is None
    bad = {"error": {"type": "illegal_argument_exception", "reason": "unknown setting [index.foo]"}}
    with pytest.raises(BackendError, match=r"400 illegal_argument_exception: unknown setting \[index.foo\]"):
        transport._call(raiser(RequestError(400, "illegal_argument_exception", bad)),
                        ok={(400, "resource_already_exists_exception")})


class AnswerClient:
    """Answers every search and count with a fixed page (a cluster where a shard failed)."""

    def __init__(self, page: dict) -> None:
        self.page = page

    def search(self, **_kw):
        return self.page

    def count(self, **_kw):
        return {"count": 3, **self.page}


@pytest.mark.parametrize("shards,timed_out,reason", [
    ({"total": 3, "successful": 2, "failed": 1, "failures": [{"reason": {"reason": "node left"}}]}, False,
     r"1 of 3 shards failed \(node left\)"),
    ({"total": 3, "successful": 3, "failed": 0}, True, "timed out before every shard answered"),
    ({"total": 3, "successful": 2, "skipped": 0, "failed": 0}, False, "1 of 3 shards have no copy"),  # as 2.19.4 answers
])
def test_an_answer_missing_a_shard_is_refused_not_shown_as_complete(shards, timed_out, reason):
    page = {"_shards": shards, "timed_out": timed_out, "hits": {"hits": [{"_score": 1.0, "_source": {"path": "a.md"}}]}}
    backend = osb.OpenSearchBackend(osb.Settings(), client=AnswerClient(page), sleep=lambda _s: None)
    for ask in (lambda: backend.search(query.parse("wallet"), ["shared"], 5),
                lambda: backend.count({"match_all": {}}, ["shared"])):
        with pytest.raises(BackendUnavailableError, match=reason) as refused:
            ask()
        assert refused.value.exit_code == 69 and "partial answer is not shown as complete" in str(refused.value)
    whole = dict(page, _shards={"total": 3, "successful": 3, "failed": 0}, timed_out=False)
    backend = osb.OpenSearchBackend(osb.Settings(), client=AnswerClient(whole), sleep=lambda _s: None)
    assert len(backend.search(query.parse("wallet"), ["shared"], 5)) == 1
