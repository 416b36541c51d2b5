"""The [backend] and [scopes] tables of the config: where sections live, who may see them.

Validated only when the TOML file is read (the config's JSON cache keeps the result), so a
search that loads a cached config never imports this. Secrets never appear in the file: the
backend table names the environment variables that hold them.
"""

from __future__ import annotations

import re

from .conventions import SHARED_SCOPE
from .errors import ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: a config load does not import typing
    from collections.abc import Callable
    from typing import TypeGuard

_SCOPE = r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$"
SCOPE_RULE = "a scope is 1-128 letters, digits, '_', '.', ':', '@' or '-' (e.g. agent:alice, team:infra, shared)"


def _fail(file: str, key: str, problem: str) -> ConfigError:
    return ConfigError(f"config {file}: {key}: {problem}")


def check_scope(file: str, key: str, value: object) -> str:
    if not valid_scope(value):
        raise _fail(file, key, SCOPE_RULE)
    return value


def valid_scope(scope: object) -> TypeGuard[str]:
    """An agent (`agent:alice`), a team (`team:infra`), `shared`, or any name of that shape."""
    return isinstance(scope, str) and bool(re.match(_SCOPE, scope))


def _number(value: object) -> TypeGuard[int | float]:
    """A TOML integer or float (not a boolean)."""
    return type(value) in (int, float)


BACKEND_KINDS = ("tantivy", "opensearch")
SEARCH_TYPES = ("dfs_query_then_fetch", "query_then_fetch")
_ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"
_INDEX_NAME = r"^[a-z0-9][a-z0-9_.-]{0,200}$"
_LOOPBACK = {"127.0.0.1", "localhost", "[::1]"}
_SECRETS = {"password", "api_key", "apikey", "token", "secret", "key"}
# key → (check, what it must be)
_BACKEND_KEYS: dict[str, tuple[Callable[[object], bool], str]] = {
    "kind": (lambda v: v in BACKEND_KINDS, f"one of {', '.join(BACKEND_KINDS)}"),
    "url": (lambda v: isinstance(v, str) and re.match(r"^https?://[^/@\s]+(/.*)?$", v) is not None,
            "http(s)://host:port, without credentials (they come from the environment)"),
    "index": (lambda v: isinstance(v, str) and re.match(_INDEX_NAME, v) is not None,
              "a lowercase index name: letters, digits, '_', '.', '-'"),
    "auth": (lambda v: v in ("none", "basic", "api_key", "cert"), "one of none, basic, api_key, cert"),
    "username": (lambda v: isinstance(v, str), "a string"),
    "password_env": (lambda v: isinstance(v, str) and re.match(_ENV_NAME, v) is not None, "an environment variable name"),
    "api_key_env": (lambda v: isinstance(v, str) and re.match(_ENV_NAME, v) is not None, "an environment variable name"),
    "verify_tls": (lambda v: isinstance(v, bool), "true or false"),
    "ca_certs": (lambda v: isinstance(v, str), "a path to a CA bundle"),
    "client_cert": (lambda v: isinstance(v, str), "a path to a PEM certificate (auth = \"cert\")"),
    "client_key": (lambda v: isinstance(v, str), "a path to the PEM key of client_cert"),
    "shards": (lambda v: type(v) is int and 1 <= v <= 1024, "a whole number from 1 to 1024"),
    "replicas": (lambda v: type(v) is int and 0 <= v <= 16, "a whole number from 0 to 16"),
    "search_type": (lambda v: v in SEARCH_TYPES, f"one of {', '.join(SEARCH_TYPES)}"),
    "timeout": (lambda v: _number(v) and 0 < v <= 3600, "seconds, more than 0"),
    "retries": (lambda v: type(v) is int and 0 <= v <= 20, "a whole number from 0 to 20"),
    "search_timeout": (lambda v: _number(v) and 0 < v <= 600, "seconds, more than 0"),
    "search_retries": (lambda v: type(v) is int and 0 <= v <= 5, "a whole number from 0 to 5"),
    "search_deadline": (lambda v: _number(v) and 0 < v <= 3600, "seconds, more than 0"),
}


def validated_backend(file: str, raw: object) -> dict[str, object]:
    if not isinstance(raw, dict):
        raise _fail(file, "backend", "expected a table")
    for key, value in raw.items():
        if key in _SECRETS:
            raise _fail(file, f"backend.{key}", "secrets never go in the config: put it in an environment "
                        "variable and name that with password_env or api_key_env")
        if key not in _BACKEND_KEYS:
            raise _fail(file, f"backend.{key}", f"unknown key (known: {', '.join(sorted(_BACKEND_KEYS))})")
        check, rule = _BACKEND_KEYS[key]
        if not check(value):
            raise _fail(file, f"backend.{key}", f"expected {rule}, got {value!r}")
    out = {"kind": "tantivy", **raw}
    if out["kind"] == "opensearch":
        if "url" not in out:
            raise _fail(file, "backend.url", "the OpenSearch backend needs the cluster's url")
        if out.get("auth") == "basic" and not out.get("username"):
            raise _fail(file, "backend.username", "auth = \"basic\" needs a username (the password comes from "
                        "the environment variable named by password_env)")
        host = re.sub(r"^https?://(\[[^]]+\]|[^/:]+).*$", r"\1", str(out["url"]))
        if out.get("auth") == "basic" and str(out["url"]).startswith("http://") and host not in _LOOPBACK:
            raise _fail(file, "backend.url", "auth = \"basic\" over plain http sends the password in the clear "
                        "to another machine: use https://")
        if out.get("auth") == "cert" and not (out.get("client_cert") and out.get("client_key")):
            raise _fail(file, "backend.client_cert", "auth = \"cert\" needs client_cert and client_key (PEM files)")
    elif len(out) > 1:
        extra = sorted(k for k in out if k != "kind")[0]
        raise _fail(file, f"backend.{extra}", "only the opensearch backend takes settings")
    return out


def validated_scopes(file: str, raw: object) -> dict[str, object]:
    if not isinstance(raw, dict):
        raise _fail(file, "scopes", "expected a table")
    out: dict[str, object] = {}
    for key, value in raw.items():
        if key == "own":
            if not valid_scope(value):
                raise _fail(file, "scopes.own", SCOPE_RULE)
            out["own"] = value
        elif key == "see":
            values = [value] if isinstance(value, str) else value
            if not isinstance(values, list) or not values or not all(valid_scope(v) for v in values):
                raise _fail(file, "scopes.see", SCOPE_RULE)
            out["see"] = see = list(dict.fromkeys(values))
        else:
            raise _fail(file, f"scopes.{key}", "unknown key (known: own, see)")
    own = out.get("own", SHARED_SCOPE)
    if "see" in out and own not in see:
        raise _fail(file, "scopes.see", f"must include the config's own scope {own!r}")
    return out
