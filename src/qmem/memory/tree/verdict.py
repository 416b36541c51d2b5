"""A section's verdict (its domain and the evidence that chose it) and the domains the classifier
names in code. Shared by `domains` and `dated`."""

from __future__ import annotations

GENERAL = "general"
ACCOUNTS = "accounts"
PRIVATE = "private"
ARCHIVE = "archive"
RULES = "rules"
PROJECTS = "projects"
HEADING_WEIGHT = 3


class Verdict:
    """A section's domain and the evidence that chose it."""

    __slots__ = ("confident", "cues", "domain", "pin_reason", "pinned", "scores", "secrets", "support")

    def __init__(self, domain: str) -> None:
        self.domain = domain
        self.scores: dict[str, float] = {}
        self.cues: list[str] = []  # "heading: api key (+6)" … for the chosen domain
        self.secrets: list[tuple[int, str]] = []  # (line in the section, kind)
        self.pinned = False
        self.pin_reason = ""
        self.confident = True
        self.support: dict[str, int] = {}  # pieces of body evidence per domain (an unconfident verdict's)

    def to_dict(self) -> dict[str, object]:
        return {"domain": self.domain, "cues": self.cues, "pinned": self.pinned, "pin_reason": self.pin_reason,
                "secrets": [f"line {n}: {kind}" for n, kind in self.secrets], "confident": self.confident}
