"""Talking to an OpenSearch cluster: where it is and how to log in (`Settings`, from the
config's [backend] table), the official client built from them, and requests that are retried
with back-off on connection errors, timeouts, 429 and 5xx. Bulk items that fail for a passing
reason are sent again, never dropped; what still fails says so in one line.
"""

from __future__ import annotations

import time

from ...base.errors import BackendError, BackendUnavailableError, ConfigError

_RETRY_STATUS = {429, 502, 503, 504}


class Settings:
    """Where the cluster is and how to talk to it; built from the config's [backend] table."""

    __slots__ = ("url", "index", "auth", "username", "password_env", "api_key_env", "verify_tls",
                 "ca_certs", "shards", "replicas", "search_type", "timeout", "retries", "backoff",
                 "refresh")

    def __init__(self, url: str = "http://localhost:9200", index: str = "qmem", auth: str = "none",
                 username: str = "", password_env: str = "QMEM_OPENSEARCH_PASSWORD",
                 api_key_env: str = "QMEM_OPENSEARCH_API_KEY", verify_tls: bool = True,
                 ca_certs: str = "", shards: int = 3, replicas: int = 1,
                 search_type: str = "dfs_query_then_fetch", timeout: float = 30.0, retries: int = 5,
                 backoff: float = 0.5, refresh: bool = True) -> None:
        self.url = url
        self.index = index
        self.auth = auth  # "none", "basic" (username + password from password_env), "api_key"
        self.username = username
        self.password_env = password_env
        self.api_key_env = api_key_env
        self.verify_tls = verify_tls
        self.ca_certs = ca_certs
        self.shards = shards
        self.replicas = replicas
        self.search_type = search_type
        self.timeout = timeout
        self.retries = retries  # per request, after the first try
        self.backoff = backoff  # seconds before the first retry, doubled each time (max 8 s)
        self.refresh = refresh  # refresh the indices after a commit: searchable when it returns

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Settings:
        known = {k: v for k, v in data.items() if k in cls.__slots__}
        return cls(**known)  # type: ignore[arg-type]

    @property
    def files_index(self) -> str:
        return f"{self.index}-files"


def make_client(settings: Settings):  # opensearchpy.OpenSearch
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
    return OpenSearch(**kwargs)


class ClusterTransport:
    """Requests to the cluster, retried (the base of OpenSearchBackend: `sleep` is injectable
    so tests run without waiting)."""

    def __init__(self, settings: Settings, client=None, sleep=time.sleep) -> None:
        self.settings = settings
        self.client = client if client is not None else make_client(settings)
        self._sleep = sleep

    def _bulk(self, actions: list[tuple[dict, dict | None]]) -> None:
        """Send actions; items that failed for a passing reason are sent again, the rest raise."""
        pending = list(actions)
        for attempt in range(self.settings.retries + 1):
            lines: list[dict] = []
            for meta, doc in pending:
                lines.append(meta)
                if doc is not None:
                    lines.append(doc)
            result = self._call(lambda: self.client.bulk(body=lines))
            if not result.get("errors"):
                return
            retry: list[tuple[dict, dict | None]] = []
            for action, item in zip(pending, result["items"]):
                op, outcome = next(iter(item.items()))
                status = outcome.get("status", 500)
                if status < 300 or (op == "delete" and status == 404):
                    continue
                if status in _RETRY_STATUS or status >= 500:
                    retry.append(action)
                    continue
                error = outcome.get("error", {})
                reason = error.get("reason", error) if isinstance(error, dict) else error
                raise BackendError(f"OpenSearch refused a {op} of {outcome.get('_id')}: {status} {reason}")
            if not retry:
                return
            pending = retry
            if attempt < self.settings.retries:
                self._pause(attempt)
        raise BackendUnavailableError(
            f"OpenSearch at {self.settings.url} kept refusing {len(pending)} bulk item(s) after "
            f"{self.settings.retries} retries; nothing was lost, run the refresh again"
        )

    def _pause(self, attempt: int) -> None:
        self._sleep(min(self.settings.backoff * (2 ** attempt), 8.0))

    def _call(self, request, ok: set[int] | frozenset = frozenset()):
        """One request, retried with back-off on connection errors, timeouts, 429 and 5xx."""
        from opensearchpy.exceptions import ConnectionError as OSConnectionError
        from opensearchpy.exceptions import TransportError

        last = ""
        for attempt in range(self.settings.retries + 1):
            try:
                return request()
            except OSConnectionError as exc:
                last = f"cannot reach it ({exc.__class__.__name__})"
            except TransportError as exc:
                status = exc.status_code if isinstance(exc.status_code, int) else 0
                if status in ok:
                    return None
                if status not in _RETRY_STATUS and status < 500:
                    raise BackendError(f"OpenSearch at {self.settings.url}: {status} {exc.error}: "
                                       f"{_reason(exc)}") from None
                last = f"{status} {exc.error}"
            if attempt < self.settings.retries:
                self._pause(attempt)
        raise BackendUnavailableError(
            f"OpenSearch at {self.settings.url}: {last}, still after {self.settings.retries} retries; "
            "what was not finished is redone by the next refresh"
        )


def _reason(exc: Exception) -> str:
    info = getattr(exc, "info", None)
    if isinstance(info, dict):
        error = info.get("error")
        if isinstance(error, dict):
            return str(error.get("reason", error))
    return str(getattr(exc, "error", exc))
