"""`qmem opensearch …`: the admin's side of a shared OpenSearch cluster (qmem.backends.opensearch.security)."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import emit
from .options import JsonOpt, finish, load

opensearch_app = typer.Typer(
    help="Set up a shared OpenSearch cluster: the indices, roles and role mappings a deployment needs.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def plan_text(plan: dict) -> str:
    """The plan for a person: each user with its roles, each role with what it may do."""
    lines = ["users (create them in the cluster's user store; the mappings name them):"]
    lines += [f"  {user}: {', '.join(roles)}" for user, roles in plan["users"].items()]
    lines.append("indices (one per scope, behind its alias):")
    lines += [f"  {name}  alias {spec['alias']}  scope {spec['scope']}" for name, spec in plan["indices"].items()]
    lines.append("roles:")
    for name, body in plan["roles"].items():
        perm = body["index_permissions"][0]
        lines.append(f"  {name}: {', '.join(perm['allowed_actions'])} on {', '.join(perm['index_patterns'])}")
    return "\n".join(lines)


@opensearch_app.command("setup")
def opensearch_setup(
    ctx: typer.Context,
    deployment: Annotated[str, typer.Argument(metavar="FILE", help="The deployment file: [users.NAME] writes/reads.")],
    apply: Annotated[bool, typer.Option("--apply", help="Create the missing indices and put the roles and role "
                                        "mappings, with the credentials of this config's [backend] (an admin's).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Print (or --apply) the indices, roles and role mappings a deployment needs.

    --apply uses the credentials of this config's [backend]: run it with an admin's config
    (qmem --config admin.toml opensearch setup FILE --apply)."""

    def action() -> None:
        from ...backends.opensearch import security
        from .. import render

        plan, done = security.setup(load(ctx).backend, deployment, apply)
        if as_json:
            emit(render.to_json({"plan": plan, "applied": done}))
            return
        emit(plan_text(plan))
        if apply:
            emit("applied:\n" + "\n".join(f"  {line}" for line in done))

    finish(action)
