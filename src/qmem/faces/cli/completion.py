"""`qmem completion bash|zsh|fish`: a completion script generated from the command tree.

The script is static (commands, subcommands and options are written into it), so a TAB costs
nothing but for collection names, which it asks `qmem __collections` for: a path in
`__main__` that loads the config (from its JSON cache) and prints the names, before any CLI
module is imported. Nothing here is imported on the search path.
"""

from __future__ import annotations

from typing import Annotated, TypedDict

import typer

from .common import emit
from .options import JsonOpt, finish

SHELLS = ("bash", "zsh", "fish")
# commands whose arguments are collection names
NAME_ARGS = {"index", "update", "status", "embed", "collection show", "collection remove", "collection rename"}


class OptionSpec(TypedDict):
    opts: list[str]
    value: bool  # it takes a value
    help: str


class CommandSpec(TypedDict):
    subs: dict[str, str]  # subcommand → its short help
    options: list[OptionSpec]
    names: bool  # its arguments are collection names


def tree_spec(root) -> dict[str, CommandSpec]:  # the polished click command
    """Command path → {subs, options (with whether they take a value), help, names}."""
    spec: dict[str, CommandSpec] = {}

    def walk(cmd, path: str) -> None:
        subs = {n: c for n, c in getattr(cmd, "commands", {}).items() if not getattr(c, "hidden", False)}
        options: list[OptionSpec] = []
        for param in cmd.params:
            if param.param_type_name == "option" and not getattr(param, "hidden", False):
                options.append({"opts": list(param.opts), "value": not param.is_flag, "help": param.help or ""})
        options.append({"opts": ["-h", "--help"], "value": False, "help": "Show the help."})
        spec[path] = {"subs": {n: (c.get_short_help_str(80) or "") for n, c in subs.items()},
                      "options": options, "names": path in NAME_ARGS}
        for name, sub in subs.items():
            walk(sub, f"{path} {name}".strip())

    walk(root, "")
    return spec


def _words(items: list[str]) -> str:
    return " ".join(items)


def bash(spec: dict[str, CommandSpec]) -> str:
    subs = "\n".join(f'        "{p}") echo "{_words(list(s["subs"]))}" ;;' for p, s in spec.items() if s["subs"])
    opts = "\n".join(f'        "{p}") echo "{_words([o for x in s["options"] for o in x["opts"]])}" ;;'
                     for p, s in spec.items())
    valued = sorted({o for s in spec.values() for x in s["options"] if x["value"] for o in x["opts"]})
    names = "|".join(f'"{p}"' for p, s in spec.items() if s["names"])
    return f"""# qmem completion for bash: qmem completion bash > ~/.local/share/bash-completion/completions/qmem
__qmem_subs() {{
    case "$1" in
{subs}
    esac
}}
__qmem_opts() {{
    case "$1" in
{opts}
    esac
}}
__qmem_complete() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" path="" i w
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${{COMP_WORDS[i]}}"
        [[ "$w" == -* ]] && continue
        [[ " $(__qmem_subs "$path") " == *" $w "* ]] && path="${{path:+$path }}$w"
    done
    COMPREPLY=()
    case "$prev" in
        -c|--collection) COMPREPLY=($(compgen -W "$(qmem __collections 2>/dev/null)" -- "$cur")); return ;;
        {"|".join(o for o in valued if o not in ("-c", "--collection"))}) return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(__qmem_opts "$path")" -- "$cur"))
    elif [[ -n "$(__qmem_subs "$path")" ]]; then
        COMPREPLY=($(compgen -W "$(__qmem_subs "$path")" -- "$cur"))
    else
        case "$path" in
            {names or '""'}) COMPREPLY=($(compgen -W "$(qmem __collections 2>/dev/null)" -- "$cur")) ;;
        esac
    fi
}}
complete -o default -F __qmem_complete qmem
"""


def zsh(spec: dict[str, CommandSpec]) -> str:
    body = bash(spec).split("\n", 1)[1]
    return ("# qmem completion for zsh: qmem completion zsh >> ~/.zshrc\n"
            "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n" + body)


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish(spec: dict[str, CommandSpec]) -> str:
    lines = ["# qmem completion for fish: qmem completion fish > ~/.config/fish/completions/qmem.fish"]
    for path, s in spec.items():
        parts = path.split()
        cond = "; and ".join(f"__fish_seen_subcommand_from {p}" for p in parts) or "__fish_use_subcommand"
        if s["subs"]:
            inner = " ".join(s["subs"])
            guard = cond if not parts else f"{cond}; and not __fish_seen_subcommand_from {inner}"
            for name, text in s["subs"].items():
                lines.append(f"complete -c qmem -f -n {_fish_quote(guard)} -a {name} -d {_fish_quote(text)}")
        for option in s["options"]:
            flags = " ".join(f"-s {o[1:]}" if len(o) == 2 else f"-l {o[2:]}" for o in option["opts"])
            extra = " -r" if option["value"] else ""
            if "--collection" in option["opts"]:
                extra += " -f -a '(qmem __collections)'"
            lines.append(f"complete -c qmem -n {_fish_quote(cond)} {flags}{extra} -d {_fish_quote(option['help'][:60])}")
        if s["names"]:
            lines.append(f"complete -c qmem -f -n {_fish_quote(cond)} -a '(qmem __collections)'")
    return "\n".join(lines) + "\n"


def completion_cmd(
    ctx: typer.Context,
    shell: Annotated[str, typer.Argument(metavar="SHELL", help="bash, zsh or fish.")],
    as_json: JsonOpt = False,
) -> None:
    """Print a shell completion script (commands, options, collection names from the config)."""
    def action() -> None:
        from ...base.errors import BadInputError

        if shell not in SHELLS:
            raise BadInputError(f"unknown shell {shell!r}: use bash, zsh or fish")
        spec = tree_spec(ctx.find_root().command)  # the command tree this run was given (app.command())
        if as_json:
            from ..render import to_json

            emit(to_json(spec))
            return
        emit({"bash": bash, "zsh": zsh, "fish": fish}[shell](spec))

    finish(action)


def register(app: typer.Typer) -> None:
    app.command("completion")(completion_cmd)
