"""The plan of a bonsai tree: MEMORY.md cut into units (`units.py`), each pinned (kept in the
root) or classified (`domains.py`, then `file_prior.py`: the file's own world) and filed as one or more leaves; the root's pinned core
bounded to a share of the root's budget. Pure functions of text; `grow.py` does the file work.

Pins are bounded: explicit ones (`[pin]`, `[P0]`, `[tree] pinned`) first, then sections read as
rules, each in file order, are kept in the root while the pinned core stays within `pin_share`
(default 0.6) of the root budget; a pinned section that does not fit becomes a leaf of `rules`,
the root names it ("read before acting") and migrate warns with its title. A preamble too long
for the root keeps its title and first lines there and files the rest like a section.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ...base.errors import ConfigError
from ...text.analysis import estimate_tokens
from ..workspace import STATS_END, STATS_START, SUMMARY_END, SUMMARY_START, raw_lines
from .. import shared
from . import domains as domains_mod
from . import file_prior, instructions, place
from .headings import PIN_TAG
from .indexes import (  # noqa: F401 - re-exported: the tree's callers reach them here
    ALSO,
    DOMAINS_HEADING,
    ENTRY,
    INDEX_NAME,
    POINTER,
    ROOT_TITLE,
    Branch,
    Leaf,
    all_leaves,
    branch_index,
    display_name,
    generated_title,
    leaf,
    pointed,
    pointer_line,
    root_index,
    root_separator,
    scan_branches,
    shorten,
    summary_line,
)
from .match import Matcher
from .units import Part, bare_title, label, leaf_slug, split, split_section, units  # noqa: F401 - re-exported

DEFAULT_LEAF_BUDGET = 1200
MIN_LEAF_TOKENS = 120
LEAF_SHARE = 0.15
DEFAULT_PIN_SHARE = 0.6
INDEX_SHARE = 0.1
MIN_INDEX_TOKENS = 100
MAX_INDEX_TOKENS = 1500
PREAMBLE_SHARE = 0.5  # of the root budget: what the text before the first section may keep there
RULES = domains_mod.RULES
MAX_DOMAINS = 16  # a root lists every domain: past this, sections named after themselves are grouped
_QMEM_STARTS = {STATS_START, SUMMARY_START}
_QMEM_ENDS = {STATS_END, SUMMARY_END}


class Plan:
    """What migrate would write: the root's pinned core and the leaves per domain."""

    def __init__(self, preamble: str, parts: list[Part]) -> None:
        self.preamble = preamble
        self.parts = parts
        self.leaf_budget = DEFAULT_LEAF_BUDGET
        self.pin_budget = 0
        self.warnings: list[str] = []  # what [tree.place] could not do
        self.unplaced: list[str] = []  # [tree.place] keys that named no section

    @property
    def pinned(self) -> list[Part]:
        return [p for p in self.parts if p.pinned]

    @property
    def leaves(self) -> list[Part]:
        return [p for p in self.parts if not p.pinned]

    @property
    def overflow(self) -> list[Part]:
        return [p for p in self.parts if p.overflow]

    def by_domain(self) -> dict[str, list[Part]]:
        out: dict[str, list[Part]] = {}
        for part in self.leaves:
            out.setdefault(part.domain, []).append(part)
        return dict(sorted(out.items()))


def pin_reason(title: str, body: str, tree_config: dict[str, object], table: dict[str, list[str]],
               holds_secret: bool = False, matcher_: Matcher | None = None) -> str:
    """Why a section is standing rules the agent reads at every start ("" when it is not):
    tagged `[pin]`/`[P0]`, listed in `[tree] pinned`, or (unless `auto_pin = false`, and never
    for a section holding a secret or marked private) read as instructions by `instructions.instruction`."""
    if PIN_TAG.search(title):
        return "tagged [pin]/[P0]"
    listed = tree_config.get("pinned", []) or []
    if not isinstance(listed, Iterable):
        raise ConfigError("config: tree.pinned: expected a list of section titles")
    pinned_titles = {str(t).strip().lower() for t in listed}
    if bare_title(title).lower() in pinned_titles:
        return "listed in [tree] pinned"
    if tree_config.get("auto_pin", True) is False or holds_secret or shared.confidential(title):
        return ""  # a private section is no rule for every start, whatever orders its heading gives
    return instructions.instruction(title, body, table, matcher_)


def leaf_budget(tree_config: dict[str, object], total_tokens: int) -> int:
    """The most tokens one leaf should hold: `[tree] leaf_budget` (default 1,200), and for a
    smaller file at most LEAF_SHARE of it (never under MIN_LEAF_TOKENS), so that the costliest
    read root → branch → leaf stays a small part of the flat file."""
    value = tree_config.get("leaf_budget", DEFAULT_LEAF_BUDGET) or DEFAULT_LEAF_BUDGET
    if not isinstance(value, (int, float, str)):
        raise ConfigError("config: tree.leaf_budget: expected a number of tokens")
    configured = int(value)
    return min(configured, max(MIN_LEAF_TOKENS, int(total_tokens * LEAF_SHARE)))


def index_budget(total_tokens: int) -> int:
    """The most tokens one domain's `_index.md` should hold: INDEX_SHARE of the flat file (at
    least MIN_INDEX_TOKENS, at most MAX_INDEX_TOKENS); past it, its summaries get shorter."""
    return min(MAX_INDEX_TOKENS, max(MIN_INDEX_TOKENS, int(total_tokens * INDEX_SHARE)))


def pin_share(tree_config: dict[str, object], config_file: str = "") -> float:
    value = tree_config.get("pin_share", DEFAULT_PIN_SHARE)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ConfigError(f"config {config_file}: tree.pin_share: expected a number from 0 to 1")
    return float(value)


def plan(text: str, tree_config: dict[str, object], config_file: str = "", root_budget: int | None = None) -> Plan:
    """Cut, pin, classify and name leaves. Same input, same plan. `root_budget` bounds the
    pinned core (None: no bound, as for text added to an existing root)."""
    table = domains_mod.load_table(tree_config, config_file)
    wanted = place.places(tree_config, table, config_file)
    confidence = domains_mod.confidence_of(tree_config, config_file)
    preamble, parts = units(text)
    if root_budget is not None:
        preamble, parts = _bound_preamble(preamble, parts, int(root_budget * PREAMBLE_SHARE))
    context = domains_mod.Context(table, [p.body for p in parts], confidence)
    for part, found in zip(parts, context.found):
        heading = part.title if part.heading or _labelled(part) else ""
        verdict = part.verdict = domains_mod.explain(heading, part.body, table, context, found)
        if part.heading:
            verdict.pin_reason = pin_reason(part.title, part.body, tree_config, table, bool(verdict.secrets),
                                            context.matcher)
        elif PIN_TAG.search(part.text.split("\n", 1)[0]):
            verdict.pin_reason = "tagged [pin]/[P0]"
        elif not verdict.secrets and tree_config.get("auto_pin", True) is not False:
            verdict.pin_reason = instructions.orders(part.text)  # an entry that gives two orders or more
        part.pinned = verdict.pinned = bool(verdict.pin_reason)
        part.domain = verdict.domain
    placed = place.apply(parts, wanted)  # the user's word, before the steps that revisit weak verdicts
    if not any(p.heading for p in parts):
        _settle_entries(parts, text, table, context)
        parts = _merge_runs(parts, leaf_budget(tree_config, estimate_tokens(text)))
    else:
        file_prior.settle(parts)  # the file's own world, for sections its first verdicts left weak
        _settle_own_domains(parts)
    the_plan = Plan(preamble, parts)
    the_plan.warnings, the_plan.unplaced = placed
    if root_budget is not None:
        core = estimate_tokens(generated_title(preamble) + preamble)
        the_plan.pin_budget = max(0, int(root_budget * pin_share(tree_config, config_file)) - core)
        _bound_pins(the_plan)
    budget = the_plan.leaf_budget = leaf_budget(tree_config, estimate_tokens(text))
    taken: dict[str, set[str]] = {}
    for number, part in enumerate(parts, 1):
        if part.pinned:
            continue
        slug = leaf_slug(part.title) or f"section-{number}"
        used = taken.setdefault(part.domain, {"_index"})
        candidate, n = slug, 1
        while candidate in used:
            n += 1
            candidate = f"{slug}-{n}"
        used.add(candidate)
        part.slug = candidate
        part.files = _leaf_files(part, budget)
    return the_plan


def _verdict(part: Part) -> domains_mod.Verdict:
    """The verdict of a part `plan` has classified (it sets one on every part before the steps
    below read it)."""
    assert isinstance(part.verdict, domains_mod.Verdict), part.title
    return part.verdict


def _labelled(part: Part) -> bool:
    first = next((line for line in part.text.splitlines() if line.strip()), "")
    return bool(label(first))


def _bound_preamble(preamble: str, parts: list[Part], budget: int) -> tuple[str, list[Part]]:
    """A preamble over `budget` keeps its first blocks up to the budget in the root (its `#` title
    and qmem's own blocks, such as distill's stats, always); the rest, cut at a blank line, becomes
    the first unit, titled by the file's title."""
    if estimate_tokens(preamble) <= max(budget, 1):
        return preamble, parts
    lines = raw_lines(preamble)
    kept, size, inside, cut = [], 0, False, 0
    for k, line in enumerate(lines):
        stripped = line.strip()
        inside = (inside or stripped in _QMEM_STARTS) and stripped not in _QMEM_ENDS
        kept.append(line)
        size += estimate_tokens(line)
        if not stripped and not inside:
            cut = k + 1  # a blank line outside qmem's blocks: a place to cut
        if size > budget and cut and not line.lstrip().startswith("# "):
            break
    head = "".join(lines[:cut]) if cut else preamble
    if not any(line.lstrip().startswith("# ") for line in raw_lines(head)) and any(
            line.lstrip().startswith("# ") for line in lines):
        return preamble, parts  # never cut above the title
    rest = preamble[len(head):]
    if not rest.strip():
        return preamble, parts
    title = next((line.lstrip("# ").strip() for line in kept if line.lstrip().startswith("# ")), "") or "Introduction"
    line_no = head.count("\n") + 1
    return head, [Part(title, rest, line_no, heading=False)] + parts


def _settle_entries(parts: list[Part], text: str, table: dict[str, list[str]],
                    context: domains_mod.Context) -> None:
    """Entries of a file without headings: one whose evidence was too thin takes the domain of
    the confident entry before it (else after it); with none confident, the file's own domain."""
    confident = [p for p in parts if isinstance(p.verdict, domains_mod.Verdict) and p.verdict.confident and not p.pinned]
    if not confident:
        whole = domains_mod.explain("", text, table, context)
        fallback = whole.domain if whole.confident else domains_mod.GENERAL
        for part in parts:
            if not part.pinned:
                part.domain = _verdict(part).domain = fallback
                _verdict(part).cues = [f"an entry of a file without headings: the file's domain ({fallback})"]
        return
    for k, part in enumerate(parts):
        if part.pinned or _verdict(part).confident:
            continue
        ranked = sorted(_verdict(part).scores.items(), key=lambda row: -row[1])
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            part.domain = _verdict(part).domain = ranked[0][0]  # an entry is short: a little evidence is some
            _verdict(part).cues = [f"thin evidence, the best there is: {ranked[0][0]} {ranked[0][1]:.2g}"]
            continue
        before = next((p for p in reversed(parts[:k]) if _verdict(p).confident and not p.pinned), None)
        after = next((p for p in parts[k + 1:] if _verdict(p).confident and not p.pinned), None)
        near = before or after
        assert near is not None  # `confident` holds a part other than this one: it is before or after
        part.domain = _verdict(part).domain = near.domain
        _verdict(part).cues = [f"thin evidence: filed with the entry {'before' if near is before else 'after'} it "
                               f"({near.title!r})"]


def _settle_own_domains(parts: list[Part]) -> None:
    """Sections named after their own heading (no clear evidence): three or more that open with the
    same word are a series and share it ("Session 1 …", "Session 2 …" → session); past
    MAX_DOMAINS domains, the smallest such domains join the domain their body leans to, else
    the one of the nearest section before them (else after) filed by evidence (the user put them
    there; another section's own name would group nothing: "oncall" joining "ppl")."""
    own = [p for p in parts if not p.pinned and not _verdict(p).confident]
    series = Counter(p.domain.split("-")[0] for p in own)
    for part in own:
        key = part.domain.split("-")[0]
        if series[key] >= 3 and key != part.domain:
            part.domain = _verdict(part).domain = key
            _verdict(part).cues = [f"one of {series[key]} sections headed {key!r}: a series"] + _verdict(part).cues
    sizes: Counter[str] = Counter()
    for part in parts:
        if not part.pinned:
            sizes[part.domain] += estimate_tokens(part.text)
    named = sorted({p.domain for p in own}, key=lambda d: (sizes[d], d))
    # filed by what they are about: a secret or a confidential mark says nothing of the next section's topic,
    # and closed matter is no home for a live one (never `archive` for want of a better)
    settled = {p.domain for p in parts if not p.pinned and isinstance(p.verdict, domains_mod.Verdict)
               and p.verdict.confident and not p.verdict.secrets
               and p.domain not in (domains_mod.ACCOUNTS, domains_mod.PRIVATE, domains_mod.ARCHIVE)}
    while len(sizes) > MAX_DOMAINS and named:
        gone = named.pop(0)
        for k, part in enumerate(parts):
            if part.pinned or part.domain != gone:
                continue
            ranked = sorted(_verdict(part).scores.items(), key=lambda row: -row[1])
            live = {d for d in sizes if d not in (domains_mod.ACCOUNTS, domains_mod.PRIVATE, domains_mod.ARCHIVE)}
            near = _nearest(parts, k, gone, settled) or _nearest(parts, k, gone, live) or gone
            part.domain = _verdict(part).domain = ranked[0][0] if ranked else near
            _verdict(part).cues = [f"more than {MAX_DOMAINS} domains: joined {part.domain}"] + _verdict(part).cues
            sizes[part.domain] += estimate_tokens(part.text)
        del sizes[gone]


def _nearest(parts: list[Part], k: int, gone: str, among: set[str] | None) -> str | None:
    """The domain of the nearest section before `k` (else after it) that is not pinned, not in
    `gone` and, with `among`, in it."""
    def fits(p: Part) -> bool:
        return not p.pinned and p.domain != gone and (among is None or p.domain in among)
    return next((p.domain for p in reversed(parts[:k]) if fits(p)), None) or \
        next((p.domain for p in parts[k + 1:] if fits(p)), None)


def _merge_runs(parts: list[Part], budget: int) -> list[Part]:
    """Consecutive entries of one domain become one leaf, up to the leaf budget."""
    out: list[Part] = []
    for part in parts:
        last = out[-1] if out else None
        if (last is not None and not part.pinned and not last.pinned and last.domain == part.domain
                and estimate_tokens(last.text) + estimate_tokens(part.text) <= budget):
            last.text += part.text
            continue
        out.append(part)
    return out


def _bound_pins(the_plan: Plan) -> None:
    """Keep pinned sections in the root while they fit the pin budget (explicit pins first, then
    sections read as rules, each in file order); file the others as leaves of `rules`."""
    left = the_plan.pin_budget
    explicit = [p for p in the_plan.parts if p.pinned and _verdict(p).pin_reason.startswith(("tagged", "listed"))]
    guessed = [p for p in the_plan.parts if p.pinned and p not in explicit]
    for part in explicit + guessed:
        cost = estimate_tokens(part.text)
        if cost <= left:
            left -= cost
            continue
        part.pinned = _verdict(part).pinned = False
        part.overflow = True
        part.domain = _verdict(part).domain = RULES
        _verdict(part).cues = [f"{_verdict(part).pin_reason}; ~{cost} tokens did not fit the root's pin share"]


def _leaf_files(part: Part, budget: int) -> list[tuple[str, str]]:
    """One leaf, or, for a section over budget, a folder of small leaves."""
    pieces = split_section(part.text, budget) if part.heading else [("", part.text)]
    if len(pieces) == 1:
        return [(f"{part.domain}/{part.slug}.md", part.text)]
    used, files = {"_index"}, []
    for number, (title, piece) in enumerate(pieces, 1):
        name = (leaf_slug(title) if title else part.slug) or f"part-{number}"
        candidate, n = name, 1
        while candidate in used:
            n += 1
            candidate = f"{name}-{n}"
        used.add(candidate)
        files.append((f"{part.domain}/{part.slug}/{candidate}.md", piece))
    return files


def pinned_core(plan_: Plan) -> str:
    """The root's own text: the preamble verbatim (its `#` title kept; `# Memory Index` when it
    has none), then every pinned section, verbatim."""
    return generated_title(plan_.preamble) + plan_.preamble + "".join(p.text for p in plan_.pinned)


def pointers(plan_: Plan) -> list[str]:
    """The root's line naming the rules that did not fit it (one path per section)."""
    return pointer_line([f"memory/domains/{part.files[0][0]}" if len(part.files) == 1
                         else f"memory/domains/{part.domain}/{part.slug}/" for part in plan_.overflow])


def branches_from_plan(the_plan: Plan) -> list[Branch]:
    """The branches migrate will write, as scan_branches will read them back."""
    branches = []
    for domain, parts in the_plan.by_domain().items():
        branch = Branch(domain)
        for part in sorted(parts, key=lambda p: p.slug):
            if len(part.files) == 1:
                branch.leaves.append(leaf(*part.files[0]))
                continue
            child = Branch(f"{domain}/{part.slug}")
            child.leaves = sorted((leaf(rel, text) for rel, text in part.files), key=lambda item: item.name)
            branch.children.append(child)
        branch.leaves.sort(key=lambda item: item.name)  # as scan_branches reads them: by file name
        branch.children.sort(key=lambda item: item.name)
        branches.append(branch)
    return branches
