"""What every command's `--help` shares, applied in one place to the click command tree Typer
builds: examples at the end, arguments shown by name in capitals (`QUERY`, `NAME`, never
`{text}`), and `-q/--quiet` with one meaning on every command that writes or maintains
something: nothing on stdout unless it was asked for (`--json`); errors still go to stderr
and the exit code is unchanged. `tests/faces/test_help.py` checks every example parses.
"""

from __future__ import annotations

import contextlib
import functools
import os

from typer.core import TyperArgument, TyperOption

from .options import QUIET_HELP

# command path → examples (a `# comment` after the command is shown, not run)
EXAMPLES: dict[str, list[str]] = {
    "": ["qmem collection create main ~/agent   # index a workspace",
         "qmem search \"私钥 泄露\" --json -n 5",
         "qmem doctor                          # what is wrong, and the fix"],
    "index": ["qmem index                    # refresh every collection (incremental)",
              "qmem index main --full        # rebuild one from scratch",
              "qmem index -q --wait 60       # for cron: silent unless something is wrong"],
    "update": ["qmem update", "qmem update main -q"],
    "search": ["qmem search \"私钥 泄露\"",
               "qmem search USDC decimals --type knowledge --since 30d --json",
               "qmem search rsync -c main --files -n 3"],
    "get": ["qmem get MEMORY.md#security", "qmem get memory/2026-02-28.md:7:3", "qmem get memory/knowledge.md --json"],
    "eval": ["qmem eval fixture.jsonl", "qmem eval fixture.jsonl -k 5 --mode hybrid --json"],
    "status": ["qmem status", "qmem status main --json"],
    "boot": ["qmem boot", "qmem boot ~/agent --budget 800", "qmem boot --scope shared --json"],
    "remember": ["qmem remember \"BSC USDC has 18 decimals\" --type K --ref knowledge.md#bsc",
                 "qmem remember \"the gate code changed\" --type event --expire 30d",
                 "qmem remember \"BSC USDC has 18 decimals (BNB chain)\" --replace memory/2026-02-28.md:5@29cc093e"],
    "forget": ["qmem forget memory/2026-02-28.md:5@29cc093e   # the ref remember printed",
               "qmem forget \"gate code\" --all          # every entry holding these words"],
    "flush": ["qmem flush --from notes.txt", "qmem flush --from - --date 2026-02-28 --json   # notes on stdin"],
    "distill": ["qmem distill --dry-run", "qmem distill --days 7 -q"],
    "janitor": ["qmem janitor --dry-run", "qmem janitor --today 2027-06-01 --json"],
    "maintain": ["qmem maintain -q                      # the nightly cron line",
                 "qmem maintain -w ~/agent --json"],
    "protocol": ["qmem protocol -w ~/agent >> ~/agent/AGENTS.md",
                 "qmem protocol --skill -w ~/.openclaw/workspace > ~/.openclaw/workspace/skills/qmem-memory/SKILL.md"],
    "embed": ["qmem embed", "qmem embed main --model minilm-onnx"],
    "vsearch": ["qmem vsearch \"how do I copy big files\"", "qmem vsearch \"钱包 被盗\" -n 3 --json"],
    "query": ["qmem query \"resume a big copy over ssh\"", "qmem query USDC decimals -c main --md"],
    "doctor": ["qmem doctor                 # one line per check; exit 1 lists each problem and its fix",
               "qmem doctor -q              # for cron: silent when all is well",
               "qmem doctor --json"],
    "mcp": ["qmem mcp --print-config claude -w ~/agent   # the line that adds it to Claude Code",
            "qmem mcp -w ~/agent", "qmem mcp --http --port 8765"],
    "completion": ["qmem completion bash > ~/.local/share/bash-completion/completions/qmem",
                   "qmem completion zsh >> ~/.zshrc",
                   "qmem completion fish > ~/.config/fish/completions/qmem.fish"],
    "collection": ["qmem collection create main ~/agent", "qmem collection list --json"],
    "collection create": ["qmem collection create main ~/agent",
                          "qmem collection create notes ~/notes -p '**/*.md' -x 'archive/**'"],
    "collection add": ["qmem collection add ~/agent --name main --mask '**/*.md'",
                       "qmem collection add ~/notes --name notes --no-index"],
    "collection list": ["qmem collection list", "qmem collection list --json"],
    "collection show": ["qmem collection show main", "qmem collection show main --json"],
    "collection remove": ["qmem collection remove old-notes", "qmem collection remove old-notes -q"],
    "collection rename": ["qmem collection rename main agent", "qmem collection rename main agent --json"],
    "tree": ["qmem tree migrate --dry-run", "qmem tree stats"],
    "opensearch": ["qmem opensearch setup deployment.toml",
                   "qmem opensearch setup deployment.toml --apply"],
    "opensearch setup": ["qmem opensearch setup deployment.toml   # print the plan",
                         "qmem opensearch setup deployment.toml --apply",
                         "qmem opensearch setup deployment.toml --json"],
    "tree migrate": ["qmem tree migrate --dry-run", "qmem tree migrate ~/agent --root-budget 300"],
    "tree reindex": ["qmem tree reindex", "qmem tree reindex ~/agent --json"],
    "tree rollback": ["qmem tree rollback", "qmem tree rollback ~/agent --force"],
    "tree move": ["qmem tree move \"Personal profile\" people --dry-run",
                  "qmem tree move memory/domains/notes/notes.md accounts -w ~/agent --json"],
    "tree review": ["qmem tree review", "qmem tree review -w ~/agent --json"],
    "tree stats": ["qmem tree stats", "qmem tree stats ~/agent --json"],
    "state": ["qmem state show", "qmem state append \"next: run the tests\""],
    "state show": ["qmem state show", "qmem state show --json"],
    "state set": ["qmem state set \"migrating the backup cron; next: update MEMORY.md\"",
                  "qmem state set - < notes.txt"],
    "state append": ["qmem state append \"next: run the tests\"", "qmem state append - --json < notes.txt"],
    "state clear": ["qmem state clear", "qmem state clear --json"],
}

# commands that write or maintain something take -q (index, maintain and doctor have their own)
QUIET = {"update", "remember", "forget", "flush", "distill", "janitor", "embed", "collection create",
         "collection add", "collection remove", "collection rename", "tree migrate", "tree reindex",
         "tree rollback", "state set", "state append", "state clear"}

# argument name → how help shows it
METAVARS = {"names": "NAME", "spec": "TARGET", "what": "ENTRY"}


class _Argument(TyperArgument):
    """An argument shown as `NAME` / `[NAME]...`, not Typer's `{name}`."""

    def make_metavar(self, ctx: object, *, usage: bool = False) -> str:
        var = self.metavar or METAVARS.get(self.name or "", (self.name or "").upper())
        if self.nargs != 1:
            var += "..."
        return f"[{var}]" if usage and not self.required else var


def epilog(lines: list[str]) -> str:
    """`Examples:` and one example a line (`\\b` keeps click from rewrapping them)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def polish(command, path: str = ""):  # Typer's click Command
    """Examples, argument names and -q on every command under `command` (changed in place)."""
    if path in EXAMPLES:
        command.epilog = epilog(EXAMPLES[path])
    for param in command.params:
        if isinstance(param, TyperArgument):
            param.__class__ = _Argument
    if path in QUIET and not any(p.name == "quiet" for p in command.params):
        _add_quiet(command)
    for name, sub in getattr(command, "commands", {}).items():
        polish(sub, f"{path} {name}".strip())
    return command


def _add_quiet(command) -> None:
    command.params.append(TyperOption(param_decls=["--quiet", "-q"], is_flag=True, default=False, help=QUIET_HELP))
    inner = command.callback

    @functools.wraps(inner)
    def quiet_run(*args: object, quiet: bool = False, **kwargs: object) -> object:
        if not quiet or kwargs.get("as_json"):
            return inner(*args, **kwargs)
        with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
            return inner(*args, **kwargs)

    command.callback = quiet_run
