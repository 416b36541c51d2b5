"""The cue tables of every language past the first ones (`cues.py`), as steps that `cues.py`
applies in this order: "cues" adds words per domain and language (`cues._extend`: a word the domain
lists already is not listed again), "languages" sets a language's words of a domain, "rules",
"instructions" and "topicless" extend those lists, "emoji" the emoji table. The order is kept as the
lists grew, so the tables (and every tie they break) stay what they were. Data only.

The steps are kept by what they are for: `cues_langs.py` first (the base tables in more languages,
`cues_world.py`'s twelve among them), then `cues_classes.py` (kinds of notes no table named, in
every language). Their names are re-exported here, where callers have always found them.
"""

from __future__ import annotations

from .cues_classes import KNOWN_ISSUES  # noqa: F401 - re-exported for agentic.py
from .cues_classes import STEPS as CLASSES
from .cues_langs import KO_ES, MORE  # noqa: F401 - re-exported for callers of this module
from .cues_langs import STEPS as LANGUAGES

STEPS: list[tuple[str, dict | list]] = LANGUAGES + CLASSES  # (kind, value): see above
