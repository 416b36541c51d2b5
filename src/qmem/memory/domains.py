"""Deterministic domain classification of MEMORY.md sections (no LLM).

Each section goes to the domain whose keywords it mentions most, looking at the heading
first and, only when the heading matches nothing, at the first paragraph. Ties go to the
domain listed first in the table. An explicit tag wins over keywords:
`## [infra] Backup plan` (a domain name, or a prefix of one of at least three letters) or
`## Backup plan <!-- domain: infrastructure -->` (any name: a new domain if unknown).
"""

from __future__ import annotations

import re

from ..errors import ConfigError

GENERAL = "general"

# Order matters: it breaks ties.
DEFAULT_DOMAINS: dict[str, list[str]] = {
    "identity": ["identity", "personal", "family", "personality", "preferences", "network",
                 "professional network", "身份", "个人", "家庭", "偏好", "性格", "人脉"],
    "business": ["business", "revenue", "company", "seo", "events", "product", "brand", "pricing",
                 "clients", "公司", "业务", "收入", "客户", "产品", "品牌", "定价"],
    "infrastructure": ["infrastructure", "services", "cron", "voice", "api", "issues", "quirks", "config",
                       "tools", "服务器", "配置", "部署", "接口", "工具", "定时", "服务"],
    "community": ["community", "directory", "meetup", "group", "社区", "群", "聚会"],
    "agents": ["agent", "task", "sub-agent", "monitoring", "代理", "任务", "监控", "智能体"],
    "legal": ["legal", "non-compete", "contract", "compliance", "法律", "合同", "合规"],
    "dates": ["dates", "remember", "anniversary", "birthday", "日期", "生日", "纪念日"],
    "security": ["security", "secret", "key", "password", "credential", "leak", "安全", "密钥", "密码",
                 "私钥", "泄露"],
}

_COMMENT_TAG = re.compile(r"<!--\s*domain\s*:\s*([^\s>]+)\s*-->", re.IGNORECASE)
_BRACKET_TAG = re.compile(r"\[([A-Za-z][A-Za-z0-9_-]{1,30})\]")
_SLUG = re.compile(r"[^a-z0-9\u4e00-\u9fff-]+")


def domain_slug(name: str) -> str:
    return _SLUG.sub("-", name.strip().lower()).strip("-") or GENERAL


def load_table(tree_config: dict[str, object], config_file: str = "") -> dict[str, list[str]]:
    """The keyword table: the defaults, extended (or replaced) by `[tree.domains]`."""
    custom = tree_config.get("domains", {})
    if not isinstance(custom, dict):
        raise ConfigError(f"config {config_file}: tree.domains: expected a table of keyword lists")
    mode = tree_config.get("domains_mode", "extend")
    if mode not in ("extend", "replace"):
        raise ConfigError(f"config {config_file}: tree.domains_mode: expected 'extend' or 'replace'")
    table = {} if mode == "replace" else {k: list(v) for k, v in DEFAULT_DOMAINS.items()}
    for name, words in custom.items():
        if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
            raise ConfigError(f"config {config_file}: tree.domains.{name}: expected a list of keywords")
        table.setdefault(domain_slug(name), []).extend(w.lower() for w in words)
    return table


def _hits(text: str, keywords: list[str]) -> int:
    """How many distinct keywords `text` mentions (whole words for Latin, substrings for CJK)."""
    count = 0
    for word in keywords:
        if word.isascii():
            if re.search(rf"(?<![a-z0-9]){re.escape(word)}s?(?![a-z0-9])", text):
                count += 1
        elif word in text:
            count += 1
    return count


def explicit_domain(heading: str, table: dict[str, list[str]]) -> str | None:
    comment = _COMMENT_TAG.search(heading)
    if comment:
        return domain_slug(comment.group(1))
    for tag in _BRACKET_TAG.findall(heading):
        tag = tag.lower()
        if tag in table:
            return tag
        if len(tag) >= 3:
            matches = [name for name in table if name.startswith(tag)]
            if len(matches) == 1:
                return matches[0]
    return None


def best_domain(text: str, table: dict[str, list[str]]) -> str | None:
    lowered = text.lower()
    best, best_hits = None, 0
    for name, keywords in table.items():  # table order breaks ties: only a strictly better score wins
        hits = _hits(lowered, keywords)
        if hits > best_hits:
            best, best_hits = name, hits
    return best


def classify(heading: str, first_paragraph: str, table: dict[str, list[str]]) -> str:
    """The domain of a section (see the module docstring for the rule)."""
    return (explicit_domain(heading, table) or best_domain(heading, table)
            or best_domain(first_paragraph, table) or GENERAL)
