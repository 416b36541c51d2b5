"""What an OpenSearch deployment of qmem needs from the Security plugin, from one file.

The deployment file (TOML) says who writes and who reads each scope:

    [users.alice]
    writes = ["agent:alice"]            # her own memory: read and written by her only
    reads = ["team:infra", "shared"]    # what else she may search

    [users.bob]
    writes = ["agent:bob", "team:infra"]
    reads = ["shared"]

    [scopes."shared"]                   # optional: a scope's own index settings
    replicas = 2

`plan` turns it into the indices (one per scope, see `layout`), the roles (per scope: one
that reads its index, one that writes it) and the role mappings (users to roles). Nothing
in it lets an agent create, alias or delete an index, put a template or change a setting:
the admin applies the plan (`apply`, with the admin's credentials), agents only read and
write documents of the indices their roles name. Users themselves (passwords, or an LDAP /
OpenID backend) are the cluster's business: a mapping names them by user name.
"""

from __future__ import annotations

from ...base.backend_config import valid_scope
from ...base.errors import BadInputError
from . import layout
from .mapping import SCHEMA_VERSION, scope_index_body

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .client import ClusterTransport, Settings

# Document reads, and what a search needs to check an index's schema.
READ_ACTIONS = ["read", "indices:admin/mappings/get", "indices:admin/aliases/get"]
# Document writes only (index, bulk items, delete, delete_by_query): no index creation, no
# aliases (a user who may alias its own index could hang it under another scope's alias).
WRITE_ACTIONS = ["write"]
READ_CLUSTER = ["cluster_composite_ops_ro"]  # _msearch, _mget, scroll at the cluster level
WRITE_CLUSTER = ["cluster_composite_ops"]  # ... and _bulk
_USER = r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$"
_SCOPE_KEYS = {"shards", "replicas"}


class Deployment:
    """Users and the scopes each writes and reads; per-scope index settings."""

    def __init__(self, users: dict[str, tuple[list[str], list[str]]],
                 scopes: dict[str, dict[str, int]] | None = None) -> None:
        self.users = users  # user -> (scopes written, scopes read besides those)
        self.scopes = scopes or {}

    def all_scopes(self) -> list[str]:
        found = {s for writes, reads in self.users.values() for s in (*writes, *reads)} | set(self.scopes)
        return sorted(found)


def parse_deployment(data: dict, where: str = "the deployment file") -> Deployment:
    """Check a deployment table (as TOML gives it); BadInputError names the first problem."""
    import re

    def fail(key: str, problem: str) -> BadInputError:
        return BadInputError(f"{where}: {key}: {problem}")

    unknown = set(data) - {"users", "scopes"}
    if unknown:
        raise fail(sorted(unknown)[0], "unknown key (known: users, scopes)")
    users: dict[str, tuple[list[str], list[str]]] = {}
    for name, body in (data.get("users") or {}).items():
        if not re.match(_USER, name):
            raise fail(f"users.{name}", "a user name is 1-128 letters, digits, '_', '.', '@' or '-'")
        if not isinstance(body, dict) or set(body) - {"writes", "reads"}:
            raise fail(f"users.{name}", "expected a table with writes and reads (lists of scopes)")
        lists = []
        for key in ("writes", "reads"):
            values = body.get(key, [])
            if not isinstance(values, list) or not all(valid_scope(v) for v in values):
                raise fail(f"users.{name}.{key}", "expected a list of scopes such as \"agent:alice\"")
            lists.append(list(dict.fromkeys(values)))
        users[name] = (lists[0], [s for s in lists[1] if s not in lists[0]])
    if not users:
        raise fail("users", "name at least one user")
    scopes: dict[str, dict[str, int]] = {}
    for scope, body in (data.get("scopes") or {}).items():
        if not valid_scope(scope):
            raise fail(f"scopes.{scope}", "not a scope")
        if not isinstance(body, dict) or set(body) - _SCOPE_KEYS or not all(
                type(v) is int and v >= 0 for v in body.values()):
            raise fail(f"scopes.{scope}", "expected shards and/or replicas (whole numbers)")
        scopes[scope] = dict(body)
    return Deployment(users, scopes)


def load_deployment(path: str) -> Deployment:
    import tomllib

    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise BadInputError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadInputError(f"{path}: not valid TOML ({exc})") from None
    return parse_deployment(data, path)


def role_name(prefix: str, kind: str, scope: str) -> str:
    return f"{prefix}-{kind}-{layout.slug(scope)}"


def plan(deployment: Deployment, settings: Settings) -> dict:
    """Everything the cluster must hold: {"indices": {concrete: {"alias", "body"}}, "roles":
    {name: body}, "rolesmapping": {role: {"users": [...]}}, "users": {user: [roles]}}."""
    prefix = settings.index
    out: dict = {"indices": {}, "roles": {}, "rolesmapping": {}, "users": {}}
    for scope in deployment.all_scopes():
        own = deployment.scopes.get(scope, {})
        name = layout.concrete(prefix, scope, SCHEMA_VERSION)
        out["indices"][name] = {
            "scope": scope,
            "alias": layout.alias(prefix, scope),
            "body": scope_index_body(own.get("shards", settings.shards), own.get("replicas", settings.replicas),
                                     layout.alias(prefix, scope)),
        }
        pats = layout.patterns(prefix, scope)
        out["roles"][role_name(prefix, "read", scope)] = {
            "description": f"qmem: read the memory of scope {scope}",
            "cluster_permissions": READ_CLUSTER,
            "index_permissions": [{"index_patterns": pats, "allowed_actions": READ_ACTIONS}],
        }
        out["roles"][role_name(prefix, "write", scope)] = {
            "description": f"qmem: write the memory of scope {scope}",
            "cluster_permissions": WRITE_CLUSTER,
            "index_permissions": [{"index_patterns": pats, "allowed_actions": WRITE_ACTIONS}],
        }
    for user, (writes, reads) in sorted(deployment.users.items()):
        roles = [role_name(prefix, "write", s) for s in writes]
        roles += [role_name(prefix, "read", s) for s in (*writes, *reads)]
        out["users"][user] = roles
        for role in roles:
            out["rolesmapping"].setdefault(role, {"users": []})["users"].append(user)
    return out


def apply(the_plan: dict, transport: ClusterTransport) -> list[str]:
    """Make the cluster hold the plan (with an admin's credentials): create the indices that
    are missing (with their alias), put every role and role mapping (one PATCH each: the
    plugin reloads its configuration once per request). Returns what was done, one line
    each. Existing indices are left as they are (a schema change is a migration)."""
    client = transport.client
    done: list[str] = []
    for name, spec in the_plan["indices"].items():
        exists = transport._call(lambda t: client.indices.exists(index=spec["alias"], request_timeout=t))
        if exists:
            continue
        transport._call(lambda t: client.indices.create(index=name, body=spec["body"], request_timeout=t),
                        ok={(400, "resource_already_exists_exception")})
        done.append(f"created index {name} (alias {spec['alias']}) for scope {spec['scope']}")
    for kind, what in (("roles", "role"), ("rolesmapping", "role mapping")):
        ops = [{"op": "add", "path": "/" + pointer(name), "value": body} for name, body in the_plan[kind].items()]
        if ops:
            transport._call(lambda t: client.transport.perform_request(
                "PATCH", f"/_plugins/_security/api/{kind}", body=ops, params={"request_timeout": t}))
            done += [f"put {what} {name}" for name in the_plan[kind]]
    return done


def remove(the_plan: dict, transport: ClusterTransport) -> None:
    """Take the plan's roles and role mappings off the cluster (its indices stay: memory is
    never deleted by a set-up command)."""
    client = transport.client
    for kind in ("rolesmapping", "roles"):
        ops = [{"op": "remove", "path": "/" + pointer(name)} for name in the_plan[kind]]
        if ops:
            transport._call(lambda t: client.transport.perform_request(
                "PATCH", f"/_plugins/_security/api/{kind}", body=ops, params={"request_timeout": t}), ok={404})


def pointer(name: str) -> str:
    """A JSON Pointer segment (RFC 6901): `~` and `/` escaped (scope slugs hold `~`)."""
    return name.replace("~", "~0").replace("/", "~1")


def setup(backend: dict, path: str, do_apply: bool) -> tuple[dict, list[str]]:
    """The plan for the deployment file at `path` on the cluster of a config's [backend]
    table (the admin's), and, with `do_apply`, what applying it did."""
    from ...base.errors import ConfigError
    from .client import ClusterTransport, Settings

    if backend.get("kind") != "opensearch":
        raise ConfigError("this config's [backend] is not OpenSearch: run it with the admin's config "
                          "(qmem --config FILE opensearch setup ...)")
    settings = Settings.from_dict(backend)
    the_plan = plan(load_deployment(path), settings)
    if not do_apply:
        return the_plan, []
    return the_plan, apply(the_plan, ClusterTransport(settings))
