"""The user's own word on where a section goes: `[tree.place]` in the config.

    [tree.place]
    "Deploy notes" = "infrastructure"
    "Lin's garden" = "garden"          # a new domain: a slug, as new [tree.domains] names are

qmem classifies from cues and a careful reader agrees with it about half the time on real files.
An agent or a person who has read a section can say where it belongs; this module reads that
and applies it to a plan's sections, before the file-wide steps that only touch weak verdicts.

What still wins over a place, with a warning (privacy and the root are not the place's to undo):
- a section holding a secret stays in the domain its secret put it in (`accounts`), and one whose
  heading marks it confidential stays in `private`: a place cannot make them public by accident;
- a section pinned explicitly (`[pin]`, `[P0]`, `[tree] pinned`) stays pinned (in the root, or filed
  as rules the root points to when it does not fit). A section
  pinned only because its wording reads as rules is filed where the place says.
A key that matches no section is a warning (a typo, or a heading edited since); a value that is
not a domain name is a config error.
"""

from __future__ import annotations

from ...base.errors import ConfigError
from .headings import domain_slug
from .units import Part, bare_title
from .verdict import Verdict

PLACED = "placed by [tree.place]"


def places(tree_config: dict[str, object], table: dict[str, list[str]], config_file: str = "") -> dict[str, str]:
    """`[tree.place]` checked: heading → domain. A domain is one the cue table knows or a new
    one written as its own slug (`headings.domain_slug`: what a `[tree.domains]` name becomes),
    so the folder it names is the name the user wrote."""
    raw = tree_config.get("place", {})
    where = f"config {config_file}: tree.place" if config_file else "config: tree.place"
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: expected a table of \"heading\" = \"domain\"")
    out: dict[str, str] = {}
    for heading, domain in raw.items():
        if not str(heading).strip():
            raise ConfigError(f"{where}: an empty heading")
        problem = domain_name_problem(domain, table) if isinstance(domain, str) else "expected a domain name"
        if problem:
            raise ConfigError(f"{where}.{heading!r}: {problem}")
        out[str(heading)] = domain
    return out


def domain_name_problem(domain: str, table: dict[str, list[str]]) -> str:
    """Why `domain` cannot name a domain folder ("" when it can): a known domain, or a slug."""
    if domain in table:
        return ""
    slug = domain_slug(domain)
    if not domain.strip() or slug != domain or domain.startswith((".", "-", "_")):
        return (f"{domain!r} is not a known domain nor a domain name (lowercase words joined by '-'"
                + (f", such as {slug!r}" if slug and slug != "general" else "") + ")")
    return ""


def matches(key: str, title: str) -> bool:
    """Does the `[tree.place]` key name this heading: as written, or its words without tags and
    comments in any case (as `[tree] pinned` titles match)?"""
    return key.strip() == title.strip() or bare_title(key).casefold() == bare_title(title).casefold()


def apply(parts: list[Part], wanted: dict[str, str]) -> tuple[list[str], list[str]]:
    """File each section a key names in its domain. Returns (warnings, keys that matched no
    section). Sections are a plan's, each with its verdict."""
    warnings: list[str] = []
    used: set[str] = set()
    for part in parts:
        if not part.heading or not isinstance(part.verdict, Verdict):
            continue
        key = next((k for k in wanted if matches(k, part.title)), None)
        if key is None:
            continue
        used.add(key)
        domain, verdict = wanted[key], part.verdict
        if verdict.domain == domain and not part.pinned:
            verdict.cues = [PLACED] + verdict.cues
            continue
        kept = _kept_because(part, verdict)
        if kept:
            warnings.append(f"[tree.place] {key!r} = {domain!r} not applied: {kept}")
            continue
        part.pinned = verdict.pinned = False
        verdict.pin_reason = ""
        part.domain = verdict.domain = domain
        verdict.confident = True
        verdict.cues = [PLACED]
    return warnings, [k for k in wanted if k not in used]


def _kept_because(part: Part, verdict: Verdict) -> str:
    """Why a section stays where it is whatever the place says ("" when the place applies)."""
    if verdict.secrets:
        return (f"the section holds a secret ({verdict.secrets[0][1]} on its line {verdict.secrets[0][0] + 1}); "
                f"it stays in {verdict.domain}")
    if verdict.cues[:1] == ["heading marks it confidential"]:
        return f"its heading marks it confidential; it stays in {verdict.domain}"
    if part.pinned and verdict.pin_reason.startswith(("tagged", "listed")):
        return f"it is pinned ({verdict.pin_reason}), and a pin outranks a place"
    return ""
