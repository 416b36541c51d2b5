"""A Chinese daily-log memory and natural questions about it; qmem against a bigram BM25.

    python bench/zh_daily.py [--out bench/results] [--work DIR] [-k 10] [--seed N]

The workspace is generated deterministically (seeded): 60 daily logs `memory/YYYY-MM-DD.md`
(`# YYYY-MM-DD` then 14-22 short first-person entries), a `MEMORY.md`, and questions as an
agent asks them (`我上次和小林去吃火锅的那家店叫什么来着？`, `4月3日我跑了多少公里？`,
`上周二我去了哪里？`), each with its labelled evidence line. Most entries are everyday filler
that shares the questions' common words (我, 今天, 了, 去, 吃); facts repeat their people and
places in other entries, so a question is answered by one line among ~1,100.

Measured: recall@k = an evidence line (any line that answers the question) is among the lines shown in the snippets of the top k
hits (qmem; `--now` is the day after the last log), or among the top k lines (baseline: bm25s
over every entry line, character bigrams as tokens, the strongest form of that baseline).
"""

from __future__ import annotations

import os
import random
import sys
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import generated_set, write_results  # noqa: E402

SEED = 20261130
START = date(2026, 3, 2)  # a Monday
DAYS = 60
NOW = START + timedelta(days=DAYS)

PEOPLE = ["小林", "老王", "阿杰", "李姐", "小周", "陈老师", "表哥", "张阿姨", "小美", "赵总", "阿强", "孙医生"]
RESTAURANTS = ["蜀香阁", "老北京涮肉坊", "海底世界火锅", "青禾素食", "金牌烧鹅", "一碗兰州拉面", "东京寿司屋", "阿婆糖水铺",
               "湘里人家", "巷子口烧烤", "云南过桥米线", "潮汕牛肉火锅", "绿茶餐厅", "外婆家"]
DISHES = ["毛血旺", "羊肉片", "番茄锅", "菌菇煲", "烧鹅饭", "牛肉拉面", "三文鱼刺身", "杨枝甘露", "剁椒鱼头", "烤羊排",
          "过桥米线", "手打牛肉丸", "面包诱惑", "东坡肉"]
SHOPS = ["优衣库", "宜家", "楼下超市", "京东", "淘宝", "小米之家", "迪卡侬", "屈臣氏", "苹果店", "花鸟市场"]
ITEMS = [("件", "羽绒服"), ("个", "台灯"), ("双", "跑鞋"), ("个", "充电宝"), ("盆", "绿萝"), ("把", "雨伞"), ("个", "保温杯"),
         ("台", "空气净化器"), ("本", "日历"), ("副", "耳机"), ("个", "双肩包"), ("瓶", "防晒霜"), ("套", "床单"), ("个", "电饭煲")]
BOOKS = ["三体", "活着", "百年孤独", "人类简史", "小王子", "平凡的世界", "围城", "解忧杂货店", "原则", "置身事内", "额尔古纳河右岸"]
MOVIES = ["流浪地球", "你好李焕英", "让子弹飞", "霸王别姬", "寄生虫", "星际穿越", "千与千寻", "海上钢琴师", "疯狂动物城"]
PLACES = ["西湖边", "人民公园", "图书馆", "星巴克", "公司楼下", "地铁站口", "万达广场", "体育馆", "博物馆", "江边步道"]
DEPTS = [("牙科", "有一颗蛀牙要补"), ("眼科", "近视又加深了五十度"), ("皮肤科", "是湿疹要涂药膏"), ("骨科", "膝盖是轻微劳损"),
         ("耳鼻喉科", "是过敏性鼻炎"), ("消化科", "是轻度胃炎要少吃辣")]
SERVICES = [("宽带", "10086"), ("物业", "8876 5432"), ("快递站", "138 0013 8000"), ("健身房", "400 820 1234"),
            ("驾校", "021 6655 7788"), ("房东", "139 1234 5678")]
PETS = ["咪咪", "豆豆", "旺财"]
VACCINES = ["狂犬", "猫三联", "八联"]
PROJECTS = ["年报", "官网改版", "数据迁移", "新人培训", "季度预算", "客户调研"]
FILLER = [
    "早上起晚了，差点迟到。", "今天有点累，早点睡了。", "早上喝了一杯咖啡。", "下午开了两个会，没什么进展。",
    "给妈妈打了个电话，聊了半小时。", "晚上在家做了饭，随便吃了点。", "今天天气不错，心情也好。", "下雨了，没出门。",
    "中午点了外卖。", "刷了一会儿手机，感觉浪费时间。", "洗了衣服，收拾了房间。", "今天写了一天代码。",
    "地铁上人很多。", "晚上看了会儿电视。", "又失眠了，一直到两点才睡着。", "今天去公司加班了。",
    "下班路上买了点水果。", "整理了一下这周的待办。", "和同事吃了午饭。", "今天没什么特别的事。",
    "把周报写完交了。", "早上去楼下跑了一圈。", "中午在公司睡了个午觉。", "晚上和朋友视频聊天。",
    "今天有点感冒，喝了很多热水。", "去超市买了些日用品。", "读了几页书就困了。", "周末计划去爬山。",
]
WEEKDAYS = "一二三四五六日"


def day_of(i: int) -> date:
    return START + timedelta(days=i)


def generate(root: str, seed: int = SEED) -> list[dict]:
    """Write the workspace under `root`; return the questions with their evidence lines."""
    rng = random.Random(seed)
    days: list[list[str]] = [[] for _ in range(DAYS)]
    facts: list[tuple[int, str, list[tuple[str, tuple]]]] = []  # (day, entry, [(question, key)])

    def fact(day: int, entry: str, *questions: tuple[str, tuple]) -> None:
        facts.append((day, entry, list(questions)))

    for n in range(64):  # meals
        d, p = rng.randrange(DAYS), rng.choice(PEOPLE)
        r, dish = RESTAURANTS[n % len(RESTAURANTS)], DISHES[(n // len(RESTAURANTS) + 3 * n) % len(DISHES)]
        fact(d, f"中午和{p}去{r}吃饭，点的{dish}很好吃，下次还来。",
             (f"我和{p}去吃{dish}的那家店叫什么来着？", ("meal", p, dish)),
             rng.choice([(f"上次{dish}特别好吃的那家餐厅是哪家？", ("dish", dish)),
                         (f"我在哪家店吃过很好吃的{dish}？", ("dish", dish))]))
    for n in range(44):  # purchases
        d, shop, (unit, item), price = rng.randrange(DAYS), rng.choice(SHOPS), ITEMS[n % len(ITEMS)], rng.randrange(19, 999)
        fact(d, f"在{shop}买了一{unit}{item}，花了{price}块。",
             rng.choice([(f"我买{item}花了多少钱？", ("item", item)), (f"{item}是在哪里买的？", ("item", item))]),
             (f"我在{shop}买的{item}多少钱呀？", ("shop", shop, item)))
    for n in range(30):  # books and films
        d, p = rng.randrange(DAYS), rng.choice(PEOPLE)
        if n % 2:
            b = BOOKS[n % len(BOOKS)]
            fact(d, f"读完了{p}推荐的《{b}》，后劲很大。", (f"{p}推荐给我的那本书叫什么名字？", ("book", p)))
        else:
            m = MOVIES[n % len(MOVIES)]
            fact(d, f"晚上和{p}去看了《{m}》，哭得稀里哗啦。", (f"我跟{p}一起看的是哪部电影？", ("film", p)))
    for n in range(24):  # doctor visits
        d, (dept, said) = rng.randrange(DAYS), DEPTS[n % len(DEPTS)]
        fact(d, f"去医院看了{dept}，医生说{said}。", rng.choice([(f"看{dept}的时候医生怎么说的？", ("dept", dept)),
                                                          (f"医生说我的{dept}问题是什么？", ("dept", dept))]))
    for _ in range(18):  # appointments
        d, p, place, wd = rng.randrange(DAYS), rng.choice(PEOPLE), rng.choice(PLACES), rng.randrange(7)
        fact(d, f"和{p}约好周{WEEKDAYS[wd]}在{place}见面，别忘了。", (f"我跟{p}约在哪里见面来着？", ("meet", p)))
    for service, phone in SERVICES:  # numbers to remember
        fact(rng.randrange(DAYS), f"记一下：{service}的电话是{phone}。", (f"{service}电话是多少？", ("tel", service)),
             (f"我记下的{service}联系电话呢？", ("tel", service)))
    for n in range(12):  # pets
        d, pet, vac = rng.randrange(DAYS), PETS[n % len(PETS)], VACCINES[n % len(VACCINES)]
        fact(d, f"带{pet}去宠物医院打了{vac}疫苗，花了{rng.randrange(80, 300)}块。", (f"{pet}打的是什么疫苗？", ("pet", pet)))
    for n in range(12):  # work deadlines
        d, proj = rng.randrange(DAYS), PROJECTS[n % len(PROJECTS)]
        due = day_of(min(DAYS - 1, d + rng.randrange(5, 30)))
        fact(d, f"{proj}项目的截止日期改到了{due.month}月{due.day}号。", (f"{proj}项目什么时候截止？", ("due", proj)))
    for d in range(0, DAYS, 3):  # runs: the same words every time, only the day tells them apart
        km = rng.randrange(3, 16)
        day = day_of(d)
        ago = (NOW - day).days
        qs = [(f"{day.month}月{day.day}日我跑了多少公里？", ("run", d))]
        if ago <= 7:
            qs.append((f"{ago}天前我跑了几公里？" if ago > 1 else "昨天跑了几公里？", ("run", d)))
        elif 0 <= (NOW - timedelta(days=NOW.weekday()) - day).days - 1 < 7:  # a day of last calendar week
            qs.append((f"上周{WEEKDAYS[day.weekday()]}我跑步跑了多远？", ("run", d)))
        fact(d, f"晚上跑步{km}公里，配速还行。", *qs)

    # distractors: the same people, places and things in other contexts
    for d in range(DAYS):
        for _ in range(4):
            kind = rng.randrange(4)
            if kind == 0:
                days[d].append(f"和{rng.choice(PEOPLE)}聊了一会儿天。")
            elif kind == 1:
                days[d].append(f"路过{rng.choice(RESTAURANTS)}，排队的人好多。")
            elif kind == 2:
                days[d].append(f"想买{rng.choice(ITEMS)[1]}，还没决定。")
            else:
                days[d].append(f"在{rng.choice(PLACES)}待了一下午。")
    slots: list[tuple[int, int, list[tuple[str, tuple]]]] = []
    for day, entry, questions in facts:
        days[day].append(entry)
        slots.append((day, len(days[day]) - 1, questions))
    order: list[list[int]] = []
    for d in range(DAYS):
        extra = [rng.choice(FILLER) for _ in range(rng.randrange(8, 14))]
        n_fixed = len(days[d])
        days[d].extend(extra)
        perm = list(range(len(days[d])))
        rng.shuffle(perm)
        days[d] = [days[d][k] for k in perm]
        order.append([perm.index(k) for k in range(n_fixed)])

    os.makedirs(os.path.join(root, "memory"), exist_ok=True)
    for d in range(DAYS):
        day = day_of(d)
        minute = 7 * 60
        lines = [f"# {day.isoformat()}", ""]
        for entry in days[d]:
            minute = min(23 * 60 + 59, minute + rng.randrange(10, 60))
            lines.append(f"- {minute // 60:02d}:{minute % 60:02d} {entry}")
        with open(os.path.join(root, "memory", f"{day.isoformat()}.md"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
    with open(os.path.join(root, "MEMORY.md"), "w", encoding="utf-8") as handle:
        handle.write("# 记忆\n\n## 关于我\n\n- 住在杭州，程序员，喜欢跑步和吃辣。\n- 养了一只猫叫咪咪，一只狗叫豆豆。\n"
                     "\n## 习惯\n\n- 每周跑三次步。\n- 周末常和朋友出去吃饭。\n")
    evidence: dict[tuple, list[str]] = {}  # a question's key → every line that answers it
    asked: dict[str, tuple] = {}
    for day, k, questions in slots:
        where = f"memory/{day_of(day).isoformat()}.md:{3 + order[day][k]}"  # `# date`, blank, entries
        for q, key in questions:
            evidence.setdefault(key, []).append(where)
            asked.setdefault(q, key)
    return [{"question": q, "evidence": sorted(set(evidence[key]))} for q, key in asked.items()]


def bigrams(text: str) -> list[str]:
    chars = [c for c in text if not c.isspace()]
    return [a + b for a, b in zip(chars, chars[1:])] or chars


def baseline(root: str, cases: list[dict], k: int) -> float:
    """bm25s over every entry line, character bigrams as tokens."""
    import bm25s

    docs, where = [], []
    for name in sorted(os.listdir(os.path.join(root, "memory"))):
        with open(os.path.join(root, "memory", name), encoding="utf-8") as handle:
            for n, line in enumerate(handle.read().split("\n"), 1):
                if line.strip():
                    docs.append(line)
                    where.append((f"memory/{name}", n))
    retriever = bm25s.BM25()
    retriever.index([bigrams(doc) for doc in docs], show_progress=False)
    found = 0
    for case in cases:
        ids, _ = retriever.retrieve([bigrams(case["question"])], k=k, show_progress=False)
        found += bool(set(case["evidence"]) & {f"{p}:{n}" for p, n in (where[i] for i in ids[0])})
    return found / len(cases)


def qmem_recall(root: str, cases: list[dict], k: int, now: str | None = NOW.isoformat(),
                show: bool = False) -> tuple[float, float]:
    """Recall@k of the evidence line in the shown snippet lines, and mean snippet characters."""
    from qmem.base import config
    from qmem.engine import search, sync

    cfg = config.load()
    if "zh" not in cfg.collections:
        config.add_collection(cfg, config.Collection("zh", root, ["**/*.md"]))
        cfg = config.load()
    sync.refresh(cfg)
    found, sizes = 0, []
    for case in cases:
        options = search.SearchOptions(limit=k, snippet_lines=cfg.snippet_lines)
        if now and "now" in search.SearchOptions.__slots__:
            options.now = now  # type: ignore[attr-defined]
        hits = search.search(cfg, case["question"], options)
        shown = {f"{h.path}:{n}" for h in hits for n in _shown(h.snippet) if n is not None}
        sizes.extend(len(h.snippet.text) for h in hits)
        found += bool(set(case["evidence"]) & shown)
        if show and not set(case["evidence"]) & shown:
            print("miss", case["question"], case["evidence"], [f"{h.path}:{h.line}" for h in hits[:3]])
    return found / len(cases), sum(sizes) / max(1, len(sizes))


def _shown(snippet) -> list:  # also a Snippet of qmem before `numbers` (for the "before" row)
    return getattr(snippet, "numbers", None) or list(range(snippet.line, snippet.line + len(snippet.lines)))


def main() -> None:
    args, root, cases = generated_set(__doc__, "qmem-zh-daily-", generate, SEED)
    ours, size = qmem_recall(root, cases, args.k, show=args.show)
    base = baseline(root, cases, args.k)
    text = (f"| data set | questions | qmem recall@{args.k} | snippet chars | bm25s bigram lines recall@{args.k} |\n"
            f"|---|---|---|---|---|\n| zh daily logs (bench/zh_daily.py) | {len(cases)} | {ours:.3f} | {size:.0f} | {base:.3f} |\n")
    write_results(args.out, "zh_daily", text, {"questions": len(cases), "qmem_recall": ours, "snippet_chars": size,
                                               "bm25s_bigram_recall": base, "k": args.k})


if __name__ == "__main__":
    main()
