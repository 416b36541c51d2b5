"""`qmem maintain`: the one command for cron — janitor, distill, tree reindex, index refresh."""

from __future__ import annotations

from datetime import date

from ..base.errors import QmemError
from . import distill as distill_mod
from . import janitor as janitor_mod
from .tree import grow as tree_mod
from .workspace import Workspace


class MaintainReport:
    def __init__(self) -> None:
        self.janitor: janitor_mod.JanitorReport | None = None
        self.distill: distill_mod.DistillReport | None = None
        self.tree: tree_mod.TreeResult | None = None
        self.refreshed: list[str] = []
        self.warnings: list[str] = []

    def to_dict(self) -> dict[str, object]:
        return {
            "janitor": self.janitor.to_dict() if self.janitor else None,
            "distill": self.distill.to_dict() if self.distill else None,
            "tree": self.tree.to_dict() if self.tree else None,
            "refreshed": self.refreshed,
            "warnings": self.warnings,
        }


def maintain(ws: Workspace, cfg: object, *, today: date | None = None, days: int = 3) -> MaintainReport:
    """Every step runs even if an earlier one had nothing to do; problems become warnings."""
    ws.require_memory()
    memory_config = cfg.extra.get("memory", {})  # type: ignore[attr-defined]
    tree_config = cfg.extra.get("tree", {})  # type: ignore[attr-defined]
    report = MaintainReport()
    report.janitor = janitor_mod.janitor(ws, today=today)
    report.warnings.extend(report.janitor.problems)
    report.distill = distill_mod.distill(ws, days=days, today=today, memory_config=memory_config,
                                         config_file=cfg.file)  # type: ignore[attr-defined]
    report.warnings.extend(report.distill.warnings)
    if ws.has_tree:
        try:
            configured = (tree_config or {}).get("root_budget")
            budget = int(configured) if configured else None  # None: what migrate used
            report.tree = tree_mod.reindex(ws, root_budget=budget, tree_config=tree_config,
                                           config_file=cfg.file)  # type: ignore[attr-defined]
        except QmemError as exc:
            report.warnings.append(f"tree reindex: {exc}")
    result = tree_mod.TreeResult("maintain", ws.root)
    tree_mod.refresh_collections(cfg, ws, result)
    report.refreshed = result.refreshed
    report.warnings.extend(result.warnings)
    return report
