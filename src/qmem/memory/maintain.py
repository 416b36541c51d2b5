"""`qmem maintain`: the one command for cron — janitor, distill, tree reindex, index refresh."""

from __future__ import annotations

from datetime import date

from ..base.errors import ConfigError, QmemError
from . import distill as distill_mod
from . import janitor as janitor_mod
from .tree import grow as tree_mod
from .workspace import Workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..base.config import Config


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


def maintain(ws: Workspace, cfg: Config, *, today: date | None = None, days: int = 3) -> MaintainReport:
    """Every step runs even if an earlier one had nothing to do; problems become warnings."""
    ws.require_memory()
    memory_config = cfg.table("memory")
    tree_config = cfg.table("tree")
    report = MaintainReport()
    report.janitor = janitor_mod.janitor(ws, today=today)
    report.warnings.extend(report.janitor.problems)
    report.distill = distill_mod.distill(ws, days=days, today=today, memory_config=memory_config,
                                         config_file=cfg.file)
    report.warnings.extend(report.distill.warnings)
    if ws.has_tree:
        try:
            configured = tree_config.get("root_budget") or None  # None (or 0): what migrate used
            if configured is not None and not isinstance(configured, (int, float, str)):
                raise ConfigError("config: tree.root_budget: expected a number of tokens")
            budget = int(configured) if configured is not None else None
            report.tree = tree_mod.reindex(ws, root_budget=budget, tree_config=tree_config,
                                           config_file=cfg.file)
        except QmemError as exc:
            report.warnings.append(f"tree reindex: {exc}")
    result = tree_mod.TreeResult("maintain", ws.root)
    tree_mod.refresh_collections(cfg, ws, result)
    report.refreshed = result.refreshed
    report.warnings.extend(result.warnings)
    return report
