"""A mixed English / Chinese / Japanese / Korean / emoji corpus for the analyzer parity test.

Built from the shared data sets (SciFact abstracts, CMRC2018 passages) plus hand-written
Japanese, Korean and edge-case lines, mixed by a seeded generator so scripts also meet
without spaces between them ("abc私钥", "ΣΟΦΙΑ東京"). Deterministic for a given data set.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

JAPANESE = [
    "東京都の天気は晴れのち曇り、最高気温は２５度です。",
    "私はカタカナとひらがなを毎日練習しています。",
    "コンピューターのメモリーが足りないので、再起動してください。",
    "鍵を無くしたら、すぐに管理者へ連絡すること。",
    "ｶﾀｶﾅの半角文字とｰ長音記号、そして全角のＡＢＣ１２３。",
    "今日は２０２６年３月１日（日）、会議は午後３時から。",
    "々や〆、〇といった記号的な漢字も混ざる：佐々木さん、〇〇株式会社。",
    "ヴァイオリンとヴィオラの違いを説明できますか？",
    "エラー: 接続が拒否されました (code=ECONNREFUSED)",
    "デプロイ手順 → memory/skills.md#deploy を参照",
    "スケジュールは「来週の火曜日」に変更になりました。",
    "ポケモンGOのイベントは渋谷で開催される予定だ。",
]
KOREAN = [
    "한국어 형태소 분석은 어렵습니다.",
    "서울특별시 강남구 테헤란로 123, 2층",
    "비밀번호를 잊어버렸어요 ㅠㅠ ㅋㅋㅋ",
    "ᄀᄁᄂ 옛한글 ᄫ 자모와 ㄱㄴㄷ 호환 자모",
]
EMOJI = [
    "😀", "👍🏽", "👨‍👩‍👧", "🇯🇵", "1️⃣", "❤️", "🔥🔥", "🚀launch", "ok👌ok", "✅done", "⚠️warning",
    "🧠memory", "©2026", "™", "♥", "★★★", "→", "⇒", "∑x²", "½", "Ⅻ", "Ⓐ", "㈱", "㎞", "🀄",
]
EDGE = [
    "café naïve coöperate façade résumé", "cafe\u0301 nai\u0308ve (decomposed accents)",
    "Straße groß ẞ", "ﬁnance ﬂow (ligatures)", "ＦＵＬＬＷＩＤＴＨ ａｂｃ ０１２",
    "Ελληνικά: αλφάβητο Ωμέγα ΟΔΥΣΣΕΥΣ", "Русский язык: Привет, мир! Ёлка", "العربية: مرحبا بالعالم",
    "עברית: שלום עולם", "हिन्दी भाषा में परीक्षण", "ภาษาไทยไม่มีช่องว่าง", "Tiếng Việt có dấu: người",
    "snake_case and kebab-case and CamelCase", "C++ C# F# .NET node.js", "user's key, don't, it’s",
    "e-mail: alice@example.com https://example.org/a/b?x=1&y=2", "v2.0.1 3.14 1,000,000 10^6 0x1F",
    "#hashtag @mention $PATH %TEMP% ~/notes", "error: refused — connection reset… “quoted”",
    "tab\tseparated\tvalues", "zero\u200bwidth\u200dspace\u2060join", "soft\u00adhyphen", "non\u00a0breaking space",
    "ǅungla ǈubljana ǋego (titlecase digraphs)", "𠀋𡈽𪚲 supplementary Han", "﨑 compatibility ideograph",
    "running runs ran runner easily fairly generously abilities", "organization organizational organize",
    "The quick brown foxes jumped over the lazy dogs' backs", "caresses ponies ties caress cats",
    "consign consigned consigning consignment consist consisted consistency", "knightly knitting knot",
    "dying lying tying skies news innings outing canning herring earring proceed exceed succeed",
    "generate generates generated generating general generally generic gener",
    "communism communist communities community commune", "arsenic arsenal universe universal",
    "a" * 80, "x1y2z3 42 007 ١٢٣ ४२ 〇一二三",
]


def _sentences(path: Path, field: str, sep: str, limit: int) -> list[str]:
    out: list[str] = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            text = json.loads(line)[field]
            out.extend(s.strip() for s in text.split(sep) if s.strip())
            if len(out) >= limit:
                break
    return out[:limit]


def build(data: Path, lines: int = 1200, seed: int = 13) -> list[str]:
    """`lines` lines: every hand-written line once, then seeded mixtures."""
    english = _sentences(data / "beir-scifact" / "corpus.jsonl", "text", ". ", 600)
    chinese = _sentences(data / "cmrc2018-zh" / "corpus.jsonl", "text", "。", 600)
    pools = [english, chinese, JAPANESE, KOREAN, EMOJI, EDGE]
    rng = random.Random(seed)
    out = JAPANESE + KOREAN + EDGE + [" ".join(EMOJI)]
    out += english[:150] + chinese[:150]
    while len(out) < lines:
        parts = [rng.choice(rng.choice(pools)) for _ in range(rng.randint(2, 5))]
        glue = rng.choice([" ", "", " ", "，", "-", "/"])
        out.append(glue.join(parts)[:600].replace("\n", " "))
    return out
