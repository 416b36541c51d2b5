"""How well `qmem tree review`'s weak flag points at qmem's misses, on the labelled fixtures.

    PYTHONPATH=src python bench/tree_review.py

For every `##` section of tests/fixtures/tree/*.md (labels.json: the domain a reader expects),
planned as migrate plans it with the default settings, not counting what review never lists
(pinned sections, and ones a secret, a tag or a confidential heading decided): how many qmem
files wrongly, how many review flags weak, how many of the wrong ones it flags, and how often the
reader's domain is review's first alternative or among its alternatives. Reported for the files
the cue tables were tuned on ("tune") and the rest ("unseen": holdout, fresh, final, last), and
per kind of weakness. The fixtures are composed files, easier than real ones.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from qmem.memory.tree import grow as tree  # noqa: E402 - after the path
from qmem.memory.tree import review  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "tree"


def measure() -> tuple[Counter, Counter]:
    labels = json.loads((FIXTURES / "labels.json").read_text(encoding="utf-8"))
    unseen = {name for group in ("holdout", "fresh", "final", "last") for name in labels[group]}
    counts: Counter = Counter()
    kinds: Counter = Counter()
    for name, rows in labels["files"].items():
        the_plan = tree.plan((FIXTURES / name).read_text(encoding="utf-8"), {})
        for part, (_, want) in zip(the_plan.parts, rows):
            verdict = part.verdict
            if want == "pinned" or review.decided(part, verdict):
                continue
            wrong, weak = part.domain != want, review.weakness(verdict, 2.0)
            alternatives = [alt["domain"] for alt in review.alternatives(verdict)]
            for group in ("unseen" if name in unseen else "tune", "all"):
                counts[group, "n"] += 1
                counts[group, "wrong"] += wrong
                counts[group, "weak"] += bool(weak)
                counts[group, "caught"] += bool(weak) and wrong
                counts[group, "first"] += bool(weak) and wrong and alternatives[:1] == [want]
                counts[group, "among"] += bool(weak) and wrong and want in alternatives
            if weak:
                kinds[weak.split(":")[0], "n"] += 1
                kinds[weak.split(":")[0], "wrong"] += wrong
    return counts, kinds


def main() -> int:
    counts, kinds = measure()
    for group in ("tune", "unseen", "all"):
        n, wrong, weak, caught = (counts[group, k] for k in ("n", "wrong", "weak", "caught"))
        print(f"{group}: {n} sections, {wrong} filed wrong; {weak} flagged ({weak / n:.0%}), {caught} of them wrong; "
              f"{caught}/{wrong} of the wrong ones flagged; the reader's domain first alternative "
              f"{counts[group, 'first']}/{caught}, among them {counts[group, 'among']}/{caught}")
    for kind in sorted({k for k, _ in kinds}):
        print(f"  {kind}: {kinds[kind, 'n']} flagged, {kinds[kind, 'wrong']} wrong")
    return 0


if __name__ == "__main__":
    sys.exit(main())
