"""A collection's patterns and excludes: which paths they take, and where a scan must walk.

Globs are a pure function of a path and the rules, so `scan` asks them only of paths no
earlier scan judged, and `qmem get` and the refresh ask them of one path; the regexes (and
`re`) are compiled on first use. `scan` walks the folders these rules name.
"""

from __future__ import annotations

from ..base.fsutil import glob_to_regex

TYPE_CHECKING = False
if TYPE_CHECKING:  # `re` is imported when the patterns are first compiled, not at start-up
    import re

_GLOB_CHARS = set("*?[")
GENERATED_INDEX = "/_index.md"


class Matcher:
    """Compiled include/exclude globs for paths relative to a root, compiled on first use (a
    scan whose paths are all known needs no glob match: see `scan_columns`)."""

    def __init__(self, patterns: list[str], exclude: list[str]) -> None:
        self.patterns, self.excludes = patterns, exclude
        self.bases = _walk_bases(patterns)
        self._compiled = False
        self._wanted: re.Pattern[str] | None = None  # set once compiled
        self._exclude: re.Pattern[str] | None = None

    def _compile(self) -> None:
        import re

        patterns, exclude = self.patterns, self.excludes
        include = "|".join(f"(?:{glob_to_regex(p)})" for p in patterns)
        excluded = "|".join(f"(?:{glob_to_regex(p)})" for p in exclude)
        self._exclude = re.compile(excluded) if exclude else None
        # One regex call per file: included and not excluded.
        self._wanted = re.compile(f"(?!(?:{excluded})\\Z)(?:{include})" if exclude else include) if patterns else None
        self._compiled = True

    def wants(self, rel: str) -> bool:
        if not self._compiled:
            self._compile()
        if self._wanted is None or not self._wanted.fullmatch(rel):
            return False
        # the bonsai tree's branch indexes repeat their leaves' first lines
        return not (rel.endswith(GENERATED_INDEX) and "domains/" in rel)

    def prunes(self, rel_dir: str) -> bool:
        """True when everything under `rel_dir` is excluded (`archive/**`)."""
        if not self.excludes:
            return False
        if not self._compiled:
            self._compile()
        return self._exclude is not None and self._exclude.fullmatch(rel_dir + "/") is not None


def _walk_bases(patterns: list[str]) -> list[tuple[str, int | None]]:
    """Where to walk and how deep: `memory/**/*.md` walks `memory/` fully, `*.md` only the
    root's own files, and a literal `MEMORY.md` is one folder listing of the root."""
    depth_by_base: dict[str, int | None] = {}
    for pattern in patterns:
        parts = pattern.split("/")
        literal: list[str] = []
        for part in parts[:-1]:
            if _GLOB_CHARS & set(part):
                break
            literal.append(part)
        rest = parts[len(literal):]
        depth = None if any("**" in part for part in rest) else len(rest) - 1
        base = "/".join(literal)
        if base in depth_by_base:
            old = depth_by_base[base]
            depth = None if old is None or depth is None else max(old, depth)
        depth_by_base[base] = depth
    kept: list[tuple[str, int | None]] = []
    for base in sorted(depth_by_base, key=len):
        covered = any(
            d is None and (b == "" or base.startswith(b + "/")) for b, d in kept
        )
        if not covered:
            kept.append((base, depth_by_base[base]))
    return kept
