"""Talking to an OpenSearch cluster: where it is and how to log in (`Settings`, from the
config's [backend] table), the official client built from them, and requests made under a
policy: a search tries briefly (short timeout, one retry, an overall deadline of a few
seconds), a refresh tries hard (long timeout, several retries); both back off with jitter,
so a fleet does not retry in step. A circuit breaker per cluster stops a long-lived process
(the MCP server) from waiting on a cluster that keeps failing. Bulk items that fail for a
passing reason are sent again, never dropped; what still fails says so in one line.
"""

from __future__ import annotations

import random
import time

from ...base.errors import BackendError, BackendUnavailableError, ConfigError

_RETRY_STATUS = {429, 502, 503, 504}


class Policy:
    """How hard one kind of request tries: per-try timeout, retries after the first try,
    back-off before the first retry (doubled each time up to `cap`, with jitter), and the
    deadline of the whole request in seconds (0: none)."""

    __slots__ = ("timeout", "retries", "backoff", "cap", "deadline")

    def __init__(self, timeout: float, retries: int, backoff: float, cap: float, deadline: float = 0.0) -> None:
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.cap = cap
        self.deadline = deadline


class Settings:
    """Where the cluster is and how to talk to it; built from the config's [backend] table."""

    __slots__ = ("url", "index", "auth", "username", "password_env", "api_key_env", "verify_tls",
                 "ca_certs", "client_cert", "client_key", "shards", "replicas", "search_type", "timeout",
                 "retries", "backoff", "refresh", "search_timeout", "search_retries", "search_deadline",
                 "breaker_failures", "breaker_cooldown")

    def __init__(self, url: str = "http://localhost:9200", index: str = "qmem", auth: str = "none",
                 username: str = "", password_env: str = "QMEM_OPENSEARCH_PASSWORD",
                 api_key_env: str = "QMEM_OPENSEARCH_API_KEY", verify_tls: bool = True,
                 ca_certs: str = "", client_cert: str = "", client_key: str = "", shards: int = 1,
                 replicas: int = 1, search_type: str = "dfs_query_then_fetch", timeout: float = 30.0,
                 retries: int = 5, backoff: float = 0.5, refresh: bool = True, search_timeout: float = 2.0,
                 search_retries: int = 1, search_deadline: float = 4.0, breaker_failures: int = 3,
                 breaker_cooldown: float = 30.0) -> None:
        self.url = url
        self.index = index
        self.auth = auth  # "none", "basic" (username + password from password_env), "api_key", "cert"
        self.username = username
        self.password_env = password_env
        self.api_key_env = api_key_env
        self.verify_tls = verify_tls
        self.ca_certs = ca_certs
        self.client_cert = client_cert  # auth = "cert": a PEM certificate and its key
        self.client_key = client_key
        self.shards = shards  # of each scope's index (created by qmem opensearch setup, or a first write)
        self.replicas = replicas
        self.search_type = search_type
        self.timeout = timeout  # a refresh's requests
        self.retries = retries  # per request, after the first try
        self.backoff = backoff  # seconds before the first retry, doubled each time (max 8 s), jittered
        self.refresh = refresh  # a commit returns once its writes are searchable (refresh=wait_for)
        self.search_timeout = search_timeout  # a search's requests: brief, once retried, a deadline
        self.search_retries = search_retries
        self.search_deadline = search_deadline
        self.breaker_failures = breaker_failures  # failed requests in a row that open the breaker
        self.breaker_cooldown = breaker_cooldown  # seconds it stays open before one trial request

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Settings:
        known = {k: v for k, v in data.items() if k in cls.__slots__}
        # `known` holds only parameter names (__slots__), values validated by base/backend_config.py;
        # mypy cannot match a dict's values to the keyword parameters
        return cls(**known)  # type: ignore[arg-type]

    def write_policy(self) -> Policy:
        return Policy(self.timeout, self.retries, self.backoff, 8.0)

    def read_policy(self) -> Policy:
        return Policy(self.search_timeout, self.search_retries, min(self.backoff, 0.2), 1.0, self.search_deadline)


def make_client(settings: Settings):
    """The official client, with credentials read from the environment at call time."""
    import os

    try:
        from opensearchpy import OpenSearch
    except ImportError:
        from ...base.install import install_hint

        raise ConfigError(f"the OpenSearch backend needs its client: {install_hint('opensearch')}") from None
    kwargs: dict = {
        "hosts": [settings.url],
        "verify_certs": settings.verify_tls,
        "ssl_show_warn": settings.verify_tls,
        "timeout": settings.timeout,
        "max_retries": 0,  # retries are ours: counted, backed off, and reported
        "retry_on_timeout": False,
    }
    if settings.ca_certs:
        kwargs["ca_certs"] = settings.ca_certs
    if settings.auth == "basic":
        password = os.environ.get(settings.password_env)
        if not settings.username or password is None:
            raise ConfigError(f"backend.auth = \"basic\" needs backend.username and the password in ${settings.password_env}")
        kwargs["http_auth"] = (settings.username, password)
    elif settings.auth == "api_key":
        key = os.environ.get(settings.api_key_env)
        if not key:
            raise ConfigError(f"backend.auth = \"api_key\" needs the key in ${settings.api_key_env}")
        kwargs["headers"] = {"Authorization": f"ApiKey {key}"}
    elif settings.auth == "cert":
        if not settings.client_cert or not settings.client_key:
            raise ConfigError("backend.auth = \"cert\" needs backend.client_cert and backend.client_key (PEM files)")
        kwargs["client_cert"] = settings.client_cert
        kwargs["client_key"] = settings.client_key
    return OpenSearch(**kwargs)


class Breaker:
    """Consecutive failures of one cluster seen by this process. After `limit` in a row it
    opens: requests fail at once, naming the last failure, until `cooldown` seconds pass;
    then one request is let through, and its outcome closes or re-opens it."""

    def __init__(self, limit: int, cooldown: float, clock=time.monotonic) -> None:
        self.limit = limit
        self.cooldown = cooldown
        self.clock = clock
        self.failures = 0
        self.opened_at: float | None = None
        self.last = ""

    def check(self, url: str) -> None:
        if self.opened_at is None:
            return
        waited = self.clock() - self.opened_at
        if waited < self.cooldown:
            raise BackendUnavailableError(
                f"OpenSearch at {url}: {self.failures} requests in a row failed (last: {self.last}); "
                f"not asking again for {self.cooldown - waited:.0f}s"
            )
        self.opened_at = None  # half open: this request is the trial

    def success(self) -> None:
        self.failures = 0
        self.opened_at = None

    def failure(self, why: str) -> None:
        self.failures += 1
        self.last = why
        if self.limit and self.failures >= self.limit:
            self.opened_at = self.clock()


_BREAKERS: dict[str, Breaker] = {}


def breaker_for(settings: Settings) -> Breaker:
    """This process's breaker for the cluster at `settings.url` (shared by every client of it)."""
    found = _BREAKERS.get(settings.url)
    if found is None:
        found = _BREAKERS[settings.url] = Breaker(settings.breaker_failures, settings.breaker_cooldown)
    return found


class ClusterTransport:
    """Requests to the cluster under a policy (the base of OpenSearchBackend: `sleep` and
    `rand` are injectable so tests run without waiting and back-off is reproducible)."""

    def __init__(self, settings: Settings, client=None, sleep=time.sleep, rand=random.random) -> None:
        self.settings = settings
        self.client = client if client is not None else make_client(settings)
        self._sleep = sleep
        self._rand = rand
        self.breaker = breaker_for(settings)

    def _bulk(self, actions: list[tuple[dict, dict | None]], refresh: bool = False) -> None:
        """Send actions; items that failed for a passing reason are sent again, the rest raise.
        `refresh`: the request returns once its writes are searchable (refresh=wait_for)."""
        pending = list(actions)
        policy = self.settings.write_policy()
        params = {"refresh": "wait_for"} if refresh else {}
        refusal = ""
        for attempt in range(policy.retries + 1):
            lines: list[dict] = []
            for meta, doc in pending:
                lines.append(meta)
                if doc is not None:
                    lines.append(doc)
            result = self._call(lambda t: self.client.bulk(body=lines, request_timeout=t, **params))
            items = result.get("items", [])
            if len(items) != len(pending):
                raise BackendError(f"OpenSearch at {self.settings.url} answered {len(items)} items for a bulk "
                                   f"request of {len(pending)}")
            if not result.get("errors"):
                return
            retry: list[tuple[dict, dict | None]] = []
            for action, item in zip(pending, items):
                op, outcome = next(iter(item.items()))
                status = outcome.get("status", 500)
                if status < 300 or (op == "delete" and status == 404):
                    continue
                error = outcome.get("error", {})
                reason = error.get("reason", error) if isinstance(error, dict) else error
                if status in _RETRY_STATUS or status >= 500:
                    retry.append(action)
                    refusal = f"{status} {reason}"
                    continue
                where = f" in {outcome['_index']}" if outcome.get("_index") else ""
                refused = BackendError(f"OpenSearch refused a {op} of {outcome.get('_id')}{where}: {status} {reason}"
                                       f"{_hint(status, self.settings)}")
                refused.status = status
                raise refused
            if not retry:
                return
            pending = retry
            if attempt < policy.retries:
                self._pause(attempt, policy)
        raise BackendUnavailableError(
            f"OpenSearch at {self.settings.url} kept refusing {len(pending)} bulk item(s) after "
            f"{policy.retries} retries ({refusal[:160] + ('…' if len(refusal) > 160 else '')}); nothing was lost, run the refresh again"
        )

    def _pause(self, attempt: int, policy: Policy, left: float | None = None) -> None:
        """Back off before retry `attempt + 1`: the doubled delay, between half and all of it
        (jitter), never past the deadline."""
        delay = min(policy.backoff * (2 ** attempt), policy.cap) * (0.5 + 0.5 * self._rand())
        if left is not None:
            delay = min(delay, max(0.0, left))
        self._sleep(delay)

    def _call(self, request, ok: set | frozenset = frozenset(), policy: Policy | None = None):
        """One request under `policy` (the write policy by default): `request(timeout)` is
        tried, and retried with back-off on connection errors, timeouts, 429 and 5xx, within
        the policy's deadline. A status in `ok` (or a (status, error type) pair such as
        (400, "resource_already_exists_exception")) returns None; another refusal raises
        BackendError with the cluster's reason and the status as `.status`."""
        from opensearchpy.exceptions import ConnectionError as OSConnectionError
        from opensearchpy.exceptions import TransportError

        policy = policy or self.settings.write_policy()
        start = time.monotonic()
        last = ""
        tries = 0
        for attempt in range(policy.retries + 1):
            if attempt == 0 or policy.deadline:  # a search stops trying once the breaker opens; a
                self.breaker.check(self.settings.url)  # refresh rides out its own retries
            timeout = policy.timeout
            if policy.deadline:
                left = policy.deadline - (time.monotonic() - start)
                if left <= 0.05:
                    break
                timeout = min(timeout, left)
            tries += 1
            try:
                response = request(timeout)
            except OSConnectionError as exc:  # ConnectionTimeout is one of these
                last = f"cannot reach it ({_connection_reason(exc)})"
            except TransportError as exc:
                status = exc.status_code if isinstance(exc.status_code, int) else 0
                if status in ok or (status, exc.error) in ok:
                    self.breaker.success()
                    return None
                if status not in _RETRY_STATUS and status < 500:
                    self.breaker.success()  # it answered: the cluster is there
                    refused = BackendError(f"OpenSearch at {self.settings.url}: {status} {exc.error}: "
                                           f"{_reason(exc)}{_hint(status, self.settings)}")
                    refused.status = status
                    raise refused from None
                last = f"{status} {exc.error}"
            else:
                self.breaker.success()
                return response
            self.breaker.failure(last)
            if attempt < policy.retries:
                left_now = policy.deadline - (time.monotonic() - start) if policy.deadline else None
                self._pause(attempt, policy, left_now)
        within = f" within {policy.deadline:g}s" if policy.deadline else ""
        then = "try again later" if policy.deadline else "what was not finished is redone by the next refresh"
        raise BackendUnavailableError(
            f"OpenSearch at {self.settings.url}: {last or 'no answer'}, after {tries} tries{within}; {then}"
        )


def _connection_reason(exc: Exception) -> str:
    name = exc.__class__.__name__
    return "timed out" if name == "ConnectionTimeout" else name


def _hint(status: int, settings: Settings) -> str:
    """What a refusal most likely means for a qmem user, appended to the cluster's reason."""
    if status == 401:
        if settings.auth == "api_key":
            return " (API keys need OpenSearch 3.7 or later; on 2.x use auth = \"basic\" or \"cert\")"
        return " (the cluster did not accept these credentials)"
    if status == 403:
        return (" (this user may not do that: a scope it may not read in [scopes] see, or a collection "
                "written into a scope it does not own; see `qmem opensearch setup`)")
    return ""


def _reason(exc: Exception) -> str:
    info = getattr(exc, "info", None)
    if isinstance(info, dict):
        error = info.get("error")
        if isinstance(error, dict):
            cause = error.get("root_cause")
            if isinstance(cause, list) and cause and isinstance(cause[0], dict) and cause[0].get("reason"):
                return str(cause[0]["reason"])
            return str(error.get("reason", error))
        if isinstance(error, str):
            return error
    return str(getattr(exc, "error", exc))
