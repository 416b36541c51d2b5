"""A deterministic synthetic agent workspace: daily logs and topic files, English and Chinese.

    python bench/corpus.py OUT_DIR --sections 100000

Same seed and size, same bytes. About one file in five is Chinese; entries carry type and
lifecycle tags; headings go down to level 4. Words follow a Zipf-like distribution, so
BM25 sees realistic document frequencies.
"""

from __future__ import annotations

import argparse
import os
import random
from itertools import accumulate
from datetime import date, timedelta

SECTIONS_PER_FILE = 10
_SYLLABLES = ["ka", "to", "ri", "an", "el", "mo", "su", "ve", "ni", "or", "ta", "lu", "pe", "chi", "zo", "ban",
              "dra", "qu", "ex", "ly", "ter", "on", "is", "ma", "ge", "ro", "ul", "fi", "ne", "sa"]
_REAL = ["deploy", "wallet", "backup", "cron", "rsync", "token", "gateway", "migration", "latency", "cache",
         "server", "config", "agent", "memory", "search", "index", "python", "docker", "postgres", "nginx",
         "user", "prefers", "decimals", "encoding", "windows", "powershell", "key", "secret", "api", "error"]
_HAN = ("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所"
        "民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日"
        "私钥钱包部署备份编码数据库网关缓存延迟迁移服务器配置用户偏好密码安全接口任务监控")
_TYPES = "PEKBS!"


def _vocabulary(rng: random.Random, size: int = 20000) -> list[str]:
    words = list(_REAL)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


class Generator:
    def __init__(self, seed: int = 42) -> None:
        self.rng = random.Random(seed)
        self.words = _vocabulary(self.rng)
        # Zipf-like weights: the k-th word is ~1/k as likely as the first.
        # Cumulative once: `choices(weights=...)` would re-add 20,000 weights on every call (same draws).
        self.cum_weights = list(accumulate(1.0 / (k + 1) for k in range(len(self.words))))

    def english(self, n: int) -> str:
        return " ".join(self.rng.choices(self.words, cum_weights=self.cum_weights, k=n))

    def chinese(self, n: int) -> str:
        return "".join(self.rng.choice(_HAN) for _ in range(n))

    def text(self, chinese: bool, n: int) -> str:
        if chinese:
            mixed = self.chinese(n) if self.rng.random() < 0.7 else f"{self.chinese(n // 2)} {self.english(3)} {self.chinese(n // 2)}"
            return mixed
        return self.english(n)

    def entry(self, chinese: bool) -> str:
        tag = f"[{self.rng.choice(_TYPES)}]"
        life = ""
        roll = self.rng.random()
        if roll < 0.1:
            life = " [P0]"
        elif roll < 0.25:
            life = f" [P1|expire:2027-{self.rng.randint(1, 12):02d}-{self.rng.randint(1, 28):02d}]"
        return f"- {tag}{life} {self.text(chinese, self.rng.randint(6, 18))}"

    def section(self, level: int, chinese: bool) -> list[str]:
        lines = [f"{'#' * level} {self.text(chinese, self.rng.randint(2, 5))}"]
        for _ in range(self.rng.randint(2, 6)):
            lines.append(self.entry(chinese) if self.rng.random() < 0.7 else self.text(chinese, self.rng.randint(10, 30)))
        if self.rng.random() < 0.05:
            lines += ["```bash", "# a comment, not a heading", f"rsync -avP {self.english(2)}", "```"]
        return lines

    def file(self, title: str, chinese: bool, sections: int) -> str:
        lines = [f"# {title}", ""]
        for k in range(sections):
            level = 2 if k == 0 else self.rng.choice([2, 2, 3, 3, 4])
            lines += self.section(level, chinese) + [""]
        return "\n".join(lines)


def generate(out: str, sections: int, seed: int = 42, per_file: int = SECTIONS_PER_FILE) -> list[str]:
    """Write the workspace under `out`; returns the relative paths written."""
    gen = Generator(seed)
    files = max(1, sections // per_file)
    first_day = date(2020, 1, 1)
    written = []
    os.makedirs(os.path.join(out, "memory", "topics"), exist_ok=True)
    for i in range(files):
        chinese = i % 5 == 4
        if i % 3 == 2:
            rel = f"memory/topics/topic-{i:06d}.md"
            title = gen.text(chinese, 3)
        else:
            day = first_day + timedelta(days=i)
            rel = f"memory/{day.isoformat()}.md" if day.year < 2200 else f"memory/log-{i:06d}.md"
            title = day.isoformat()
        with open(os.path.join(out, rel), "w", encoding="utf-8") as handle:
            handle.write(gen.file(title, chinese, per_file))
        written.append(rel)
    with open(os.path.join(out, "MEMORY.md"), "w", encoding="utf-8") as handle:
        handle.write(gen.file("Memory", False, 5))
    written.append("MEMORY.md")
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--sections", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--per-file", type=int, default=SECTIONS_PER_FILE, help="sections per file")
    args = parser.parse_args()
    paths = generate(args.out, args.sections, args.seed, args.per_file)
    print(f"wrote {len(paths)} files to {args.out}")


if __name__ == "__main__":
    main()
