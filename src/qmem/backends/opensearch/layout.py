"""Where each scope's memory lives on the cluster: an index of its own per scope.

One index per scope is what the cluster can enforce with stock index permissions: a user
is granted reads on the indices of the scopes it may see and writes on those it owns, so
no request with its credentials (qmem's or a raw HTTP call) reads, overwrites or deletes
another scope's sections; and BM25 statistics stay inside the indices a search names, so
another agent's private writes never move this agent's scores. A field filter over a
shared index can do neither: the filter is the client's promise, and deterministic ids
let any writer of the index overwrite any document in it.

Names: `<prefix>-<scope>` is an alias over the concrete index `<prefix>-<scope>+v<schema>`
(a schema change is a new concrete index filled by `_reindex`, then an alias swap). Index
names are lowercase and refuse `:`, so a scope is spelled with `:` as `~` and a capital
as `^` and its small letter (neither `~` nor `^` can occur in a scope, so no two scopes
share a name); `+` cannot occur in a scope either, so `<alias>+v*` matches only that
scope's own versions.
"""

from __future__ import annotations


def slug(scope: str) -> str:
    """`agent:alice` -> `agent~alice`; `team:Infra` -> `team~^infra` (one-to-one)."""
    out: list[str] = []
    for ch in scope:
        if ch == ":":
            out.append("~")
        elif "A" <= ch <= "Z":
            out.append("^" + ch.lower())
        else:
            out.append(ch)
    return "".join(out)


def alias(prefix: str, scope: str) -> str:
    """What qmem reads and writes for a scope (an alias with one write index)."""
    return f"{prefix}-{slug(scope)}"


def concrete(prefix: str, scope: str, version: int) -> str:
    """The index the alias points at for schema `version`."""
    return f"{alias(prefix, scope)}+v{version}"


def patterns(prefix: str, scope: str) -> list[str]:
    """The index patterns of a scope's roles: its alias and every version of its index."""
    name = alias(prefix, scope)
    return [name, f"{name}+v*"]


def version_of(index: str) -> int | None:
    """The schema version a concrete index name carries, None when it carries none."""
    _, sep, tail = index.rpartition("+v")
    return int(tail) if sep and tail.isdigit() else None
