"""A harder Chinese memory: many people's look-alike messages pooled in one daily log, short factual questions.

    python bench/zh_group.py [--out bench/results] [--work DIR] [-k 10] [--show] [--seed N]

The workspace is generated deterministically (seeded): 28 daily logs `memory/YYYY-MM-DD.md`, each
`# YYYY-MM-DD` then 30-75 chat messages `- [HH:MM] 名字: 消息` from ~40 people in one group. Every
person states a few facts of kinds that everybody else states too (a pet's name, a purchase and
its price, a trip, a restaurant, a book, a doctor's verdict, a child's age, a hometown, where
they work out...). Some facts are answers to another member's question, so the line that holds
the answer does not hold the question's words (`阿杰: 小王你家猫叫啥？` / `小王: 叫团子，三岁了`).
Around them: reactions that repeat a value without its owner (`团子这名字好可爱`), people who
only want the same thing (`我也想养猫`), and everyday chatter made of the questions' common
words (我, 今天, 了, 去, 吃, 买). Questions are short and name the person:
`小王的猫叫什么名字？`, `阿杰的耳机多少钱？`, `李姐去哪儿旅游了？` (each with its evidence line).

It is a check, not a tuning target: it stands for the shape of a held-out benchmark that the
project never sees (messages of many people in one log; a bigram BM25 over single messages
beats section ranking there), so a change that only helps here is suspect.
With --seed N (another seed) it writes a twin of the same shape: tune on a twin, report the default.

Measured: recall_any@5 / @k = the evidence line is among the lines shown in the snippets of the
top 5 / k hits (qmem), or among the top 5 / k' messages (baseline: bm25s over single message
lines, character bigrams + ASCII words, k' chosen so the baseline shows as many characters as
qmem's top k hits), and the mean characters of a hit.
"""

from __future__ import annotations

import os
import random
import sys
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import generated_set, write_results  # noqa: E402

SEED = 20261201
START = date(2025, 9, 1)
DAYS = 28

PEOPLE = ["小王", "小李", "阿杰", "李姐", "老周", "陈老师", "小美", "阿强", "张姐", "大刘", "小赵", "孙哥", "阿芳", "老杨",
          "小何", "胖虎", "丽丽", "阿明", "黄姐", "小吴", "老郑", "婷婷", "阿涛", "小徐", "马哥", "欣欣", "老林", "小罗",
          "阿伟", "静静", "小冯", "老唐", "阿珍", "小高", "老于", "佳佳", "阿飞", "小蒋", "老钱", "萌萌"]
ANIMALS = ["猫", "狗", "兔子", "仓鼠"]
PET_NAMES = ["团子", "年糕", "豆豆", "可乐", "布丁", "旺财", "雪球", "花卷", "汤圆", "咖啡", "奶茶", "芝麻", "土豆", "米粒",
             "元宝", "橘子", "毛毛", "乐乐", "馒头", "果冻"]
SHOPS = ["京东", "淘宝", "优衣库", "宜家", "小米之家", "迪卡侬", "楼下超市", "拼多多", "苹果店", "万达广场", "盒马", "山姆"]
ITEMS = ["耳机", "跑鞋", "羽绒服", "台灯", "电饭煲", "空气炸锅", "吸尘器", "双肩包", "保温杯", "机械键盘", "电动牙刷",
         "行李箱", "投影仪", "显示器", "咖啡机", "加湿器"]
CITIES = ["成都", "西安", "大理", "厦门", "青岛", "三亚", "桂林", "重庆", "长沙", "哈尔滨", "苏州", "昆明", "拉萨", "洛阳",
          "敦煌", "北海"]
RESTAURANTS = ["蜀香阁", "老北京涮肉坊", "潮汕牛肉火锅", "一碗兰州拉面", "东京寿司屋", "湘里人家", "巷子口烧烤",
               "外婆家", "绿茶餐厅", "阿婆糖水铺", "海底捞", "西贝莜面村", "太二酸菜鱼", "南京大牌档"]
DISHES = ["毛血旺", "羊肉片", "牛肉丸", "牛肉面", "三文鱼", "剁椒鱼头", "烤羊排", "东坡肉", "番茄锅", "杨枝甘露", "酸菜鱼",
          "烤鸭", "小龙虾", "盐水鸭"]
BOOKS = ["三体", "活着", "百年孤独", "人类简史", "小王子", "平凡的世界", "围城", "解忧杂货店", "置身事内", "额尔古纳河右岸",
         "长安的荔枝", "明朝那些事儿", "鼠疫", "挪威的森林"]
DEPTS = [("牙科", ["要补两颗牙", "智齿得拔掉", "牙龈有点发炎"]), ("眼科", ["近视又深了五十度", "是干眼症", "要配散光镜"]),
         ("皮肤科", ["是湿疹要涂药膏", "是过敏起的疹子", "少熬夜就好"]), ("骨科", ["膝盖是轻微劳损", "腰椎间盘有点突出", "脚踝韧带拉伤"]),
         ("耳鼻喉科", ["是过敏性鼻炎", "扁桃体发炎了", "是慢性咽炎"]), ("消化科", ["是轻度胃炎", "要少吃辣", "肠胃功能紊乱"])]
DISTRICTS = ["朝阳区", "海淀区", "西湖区", "南山区", "浦东新区", "天河区", "武侯区", "江北区", "鼓楼区", "滨江区", "徐汇区",
             "福田区"]
HOMETOWNS = ["湖南衡阳", "四川绵阳", "山东潍坊", "河南洛阳", "江西赣州", "广西柳州", "湖北宜昌", "安徽芜湖", "河北保定",
             "福建泉州", "浙江温州", "辽宁鞍山", "云南曲靖", "陕西宝鸡"]
SPORTS = [("羽毛球", ["体育馆", "学校操场", "公司楼下的球馆", "社区活动中心"]), ("篮球", ["体育公园", "小区球场", "大学城球场"]),
          ("游泳", ["游泳馆", "健身房的泳池", "市民中心"]), ("瑜伽", ["瑜伽馆", "健身房", "家里"]),
          ("网球", ["网球中心", "江边球场", "酒店球场"])]
CARS = ["比亚迪", "特斯拉", "大众", "丰田", "理想", "蔚来", "本田", "吉利", "小鹏", "五菱"]
WEEKDAYS = "一二三四五六日"
CHATTER = [
    "今天好累啊，终于下班了", "早上地铁挤死了", "中午吃什么好呢", "哈哈哈笑死我了", "周末有人一起出去玩吗", "我也是",
    "明天见", "这天气太热了", "又下雨了，忘带伞", "刚开完会，脑子都是懵的", "晚安各位", "早上好", "今天去超市买了点菜",
    "晚上吃了火锅，撑了", "最近老是失眠", "有没有好看的电视剧推荐", "刚跑完步，舒服", "今天又加班了", "好想放假",
    "下午喝了杯咖啡还是困", "楼下新开了一家店", "我今天去医院排了好久的队", "周末在家躺了一天", "外卖又迟到了",
    "今天买了好多东西", "这个月花钱太多了", "朋友圈看到你们都去玩了", "快递到了，开心", "今天心情不错", "你们吃了吗",
    "我家孩子今天考试", "刚看完一部电影，还行", "晚上去哪儿吃饭", "堵车堵了一个小时", "给爸妈打了个电话", "终于周五了",
    "收拾了一下午房间", "有人知道附近哪里修手机吗", "今天去公园走了走", "最近在减肥，晚饭不吃了",
]


def day_of(i: int) -> date:
    return START + timedelta(days=i)


class _Log:
    """The messages of each day, with the facts' places kept for the labels."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.days: list[list[str]] = [[] for _ in range(DAYS)]
        self.fixed: list[list[int]] = [[] for _ in range(DAYS)]  # messages that must stay in order (exchanges)

    def add(self, day: int, *messages: str) -> list[tuple[int, int]]:
        """Append messages (an exchange stays together and in order); their (day, index)."""
        out = []
        for text in messages:
            self.days[day].append(text)
            out.append((day, len(self.days[day]) - 1))
        if len(messages) > 1:
            self.fixed[day].extend(k for _, k in out)
        return out


def _facts(rng: random.Random) -> list[tuple[str, str, list[tuple[str, str]], str, list[str]]]:
    """Per fact: (person, kind, messages [(speaker, text)] with the answer in the last one, its key,
    questions). Each (person, kind) once, so every question has one answer."""
    facts = []
    kinds = ["pet", "buy", "trip", "meal", "book", "doctor", "work", "kid", "home", "sport", "car"]
    for person in PEOPLE:
        mine = rng.sample(kinds, rng.randrange(3, 6))
        for kind in mine:
            other = rng.choice([p for p in PEOPLE if p != person])
            asked = rng.random() < 0.35  # the fact is the reply to someone's question
            if kind == "pet":
                animal, name = rng.choice(ANIMALS), rng.choice(PET_NAMES)
                say = f"我家{animal}叫{name}，{rng.randrange(1, 9)}岁了"
                ask = f"{person}你家{animal}叫啥来着？"
                reply = f"叫{name}，{rng.choice(['特别粘人', '天天拆家', '胖了好多', '很乖'])}"
                qs = [f"{person}的{animal}叫什么名字？"]
            elif kind == "buy":
                item, shop, price = rng.choice(ITEMS), rng.choice(SHOPS), rng.randrange(39, 2999)
                say = f"在{shop}买了个{item}，花了{price}块"
                ask = f"{person}你那个{item}多少钱买的？"
                reply = f"{price}块，{shop}上买的"
                qs = [f"{person}的{item}多少钱？", f"{person}在哪里买的{item}？"]
            elif kind == "trip":
                city = rng.choice(CITIES)
                say = f"国庆去{city}玩了五天，{rng.choice(['人超多', '吃得很好', '风景绝了', '累但值得'])}"
                ask = f"{person}国庆去哪儿玩了？"
                reply = f"去了{city}，{rng.choice(['人超多', '吃得很好', '风景绝了'])}"
                qs = [f"{person}国庆去哪里旅游了？"]
            elif kind == "meal":
                rest, dish = rng.choice(RESTAURANTS), rng.choice(DISHES)
                say = f"昨天在{rest}吃的{dish}，真不错"
                ask = f"{person}上次说好吃的{dish}是哪家？"
                reply = f"{rest}，{rng.choice(['要排队', '不贵', '离地铁近'])}"
                qs = [f"{person}在哪家店吃的{dish}？"]
            elif kind == "book":
                book = rng.choice(BOOKS)
                say = f"最近在读《{book}》，{rng.choice(['停不下来', '有点难啃', '很治愈'])}"
                ask = f"{person}最近在看什么书？"
                reply = f"《{book}》，{rng.choice(['推荐', '还没看完', '朋友送的'])}"
                qs = [f"{person}最近在读哪本书？"]
            elif kind == "doctor":
                dept, verdicts = rng.choice(DEPTS)
                verdict = rng.choice(verdicts)
                say = f"今天去医院看了{dept}，医生说{verdict}"
                ask = f"{person}去{dept}看了怎么样？"
                reply = f"医生说{verdict}"
                qs = [f"医生说{person}的{dept}问题是什么？"]
            elif kind == "work":
                district = rng.choice(DISTRICTS)
                say = f"我们公司搬到{district}了，通勤多了半小时"
                ask = f"{person}你们公司现在在哪？"
                reply = f"{district}，通勤多了半小时"
                qs = [f"{person}的公司在哪个区？"]
            elif kind == "kid":
                age, child = rng.randrange(3, 15), rng.choice(["女儿", "儿子"])
                say = f"我{child}今年{age}岁了，越来越不好管"
                ask = f"{person}你{child}多大了？"
                reply = f"{age}岁了，越来越不好管"
                qs = [f"{person}的{child}几岁了？"]
            elif kind == "home":
                town = rng.choice(HOMETOWNS)
                say = f"我老家是{town}的，过年才回去"
                ask = f"{person}老家是哪里的？"
                reply = f"{town}，过年才回去"
                qs = [f"{person}是哪里人？"]
            elif kind == "sport":
                sport, places = rng.choice(SPORTS)
                place, wd = rng.choice(places), WEEKDAYS[rng.randrange(7)]
                say = f"我每周{wd}晚上去{place}打{sport}" if sport in ("羽毛球", "篮球", "网球") else f"我每周{wd}去{place}练{sport}"
                ask = f"{person}你{sport}在哪儿练的？"
                reply = f"{place}，每周{wd}"
                qs = [f"{person}在哪里{'打' if sport in ('羽毛球', '篮球', '网球') else '练'}{sport}？"]
            else:
                brand = rng.choice(CARS)
                say = f"提了辆{brand}的新车，开着挺顺"
                ask = f"{person}你新车什么牌子？"
                reply = f"{brand}的，开着挺顺"
                qs = [f"{person}买了什么牌子的车？"]
            messages = [(other, ask), (person, reply)] if asked else [(person, say)]
            facts.append((person, kind, messages, f"{person}/{kind}", qs))
    return facts


def _echoes(rng: random.Random, facts: list) -> list[tuple[str, str]]:
    """Messages that repeat a fact's value or kind without its owner's fact: the look-alikes."""
    out = []
    for person, kind, messages, _, _ in facts:
        other = rng.choice([p for p in PEOPLE if p != person])
        last = messages[-1][1]
        if kind == "pet":
            out.append((other, rng.choice(["我也想养只猫", "我家狗今天又拆家了", "你们家宠物都叫什么名字", "养宠物好费钱"])))
        elif kind == "buy":
            out.append((other, rng.choice([f"我也想买个{rng.choice(ITEMS)}", f"{rng.choice(SHOPS)}最近打折吗", "最近买东西太多了"])))
        elif kind == "trip":
            out.append((other, f"我也想去{rng.choice(CITIES)}玩"))
        elif kind == "meal":
            out.append((other, f"路过{rng.choice(RESTAURANTS)}，排队的人好多"))
        elif kind == "book":
            out.append((other, f"《{rng.choice(BOOKS)}》我看过，还不错"))
        elif kind == "doctor":
            out.append((other, f"我也该去看看{rng.choice(DEPTS)[0]}了"))
        elif kind == "kid":
            out.append((other, "孩子真的越来越不好管"))
        elif kind == "sport":
            out.append((other, f"周末有人一起打{rng.choice(['羽毛球', '篮球', '网球'])}吗"))
        elif kind == "car":
            out.append((other, f"{rng.choice(CARS)}的车怎么样？想换车了"))
        if rng.random() < 0.5 and "，" in last:  # a reaction repeating the value
            value = last.split("，")[0].replace("叫", "").replace("去了", "")
            out.append((rng.choice(PEOPLE), f"{value}听着不错"))
    return out


def generate(root: str, seed: int = SEED) -> list[dict]:
    """Write the workspace under `root`; return the questions with their evidence lines."""
    rng = random.Random(seed)
    log = _Log(rng)
    facts = _facts(rng)
    placed: list[tuple[tuple[int, int], list[str]]] = []
    for _person, _kind, messages, _key, qs in facts:
        day = rng.randrange(DAYS)
        spots = log.add(day, *(f"{speaker}: {text}" for speaker, text in messages))
        placed.append((spots[-1], qs))
    for speaker, text in _echoes(rng, facts):
        log.add(rng.randrange(DAYS), f"{speaker}: {text}")
    for d in range(DAYS):
        for _ in range(rng.randrange(18, 40)):
            log.add(d, f"{rng.choice(PEOPLE)}: {rng.choice(CHATTER)}")
    # shuffle each day, keeping an exchange's messages together and in order
    position: dict[tuple[int, int], int] = {}
    os.makedirs(os.path.join(root, "memory"), exist_ok=True)
    for d in range(DAYS):
        groups: list[list[int]] = []
        fixed = set(log.fixed[d])
        k = 0
        while k < len(log.days[d]):
            if k in fixed and k + 1 < len(log.days[d]) and k + 1 in fixed:
                groups.append([k, k + 1])
                k += 2
            else:
                groups.append([k])
                k += 1
        rng.shuffle(groups)
        order = [k for group in groups for k in group]
        lines = [f"# {day_of(d).isoformat()}", ""]
        minute = 8 * 60
        for n, k in enumerate(order):
            minute = min(23 * 60 + 59, minute + rng.randrange(1, 20))
            lines.append(f"- [{minute // 60:02d}:{minute % 60:02d}] {log.days[d][k]}")
            position[(d, k)] = 3 + n  # `# date`, blank, then one line per message
        with open(os.path.join(root, "memory", f"{day_of(d).isoformat()}.md"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
    cases = []
    for (d, k), qs in placed:
        where = f"memory/{day_of(d).isoformat()}.md:{position[(d, k)]}"
        cases.extend({"question": q, "evidence": [where]} for q in qs)
    return cases


def bigrams(text: str) -> list[str]:
    """Character bigrams of CJK runs, lowercased ASCII words (as the reference baselines)."""
    out: list[str] = []
    run: list[str] = []
    word: list[str] = []

    def close() -> None:
        if len(run) == 1:
            out.append(run[0])
        out.extend(a + b for a, b in zip(run, run[1:]))
        run.clear()
        if word:
            out.append("".join(word).lower())
            word.clear()

    for ch in text:
        if "\u4e00" <= ch <= "\u9fff":
            if word:
                out.append("".join(word).lower())
                word.clear()
            run.append(ch)
        elif ch.isascii() and ch.isalnum():
            if run:
                close()
            word.append(ch)
        else:
            close()
    close()
    return out


def messages(root: str) -> list[tuple[str, str]]:
    """(path:line, text) of every message line, the text without its `- [HH:MM] ` lead."""
    out = []
    for name in sorted(os.listdir(os.path.join(root, "memory"))):
        with open(os.path.join(root, "memory", name), encoding="utf-8") as handle:
            for n, line in enumerate(handle.read().split("\n"), 1):
                if line.startswith("- ["):
                    out.append((f"memory/{name}:{n}", line.split("] ", 1)[1]))
    return out


def baseline(root: str, cases: list[dict], ks: list[int]) -> tuple[dict[int, float], float]:
    """bm25s (lucene, k1=1.2, b=0.75) over single messages: recall_any at each k, mean characters a hit."""
    import bm25s

    docs = messages(root)
    retriever = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
    retriever.index([bigrams(text) for _, text in docs], show_progress=False)
    found = {k: 0 for k in ks}
    for case in cases:
        ids, _ = retriever.retrieve([bigrams(case["question"])], k=max(ks), show_progress=False)
        for k in ks:
            found[k] += bool(set(case["evidence"]) & {docs[i][0] for i in ids[0][:k]})
    size = sum(len(text) + 10 for _, text in docs) / len(docs)  # + the `- [HH:MM] ` lead shown with it
    return {k: found[k] / len(cases) for k in ks}, size


def qmem_recall(root: str, cases: list[dict], k: int, show: bool = False) -> tuple[float, float, float]:
    """recall_any@5 and @k of the evidence line among the shown snippet lines; mean characters a hit."""
    from qmem.base import config
    from qmem.engine import search, sync

    cfg = config.load()
    if "group" not in cfg.collections:
        config.add_collection(cfg, config.Collection("group", root, ["**/*.md"]))
        cfg = config.load()
    sync.refresh(cfg)
    at5 = at_k = 0
    sizes: list[int] = []
    for case in cases:
        hits = search.search(cfg, case["question"], search.SearchOptions(limit=k, snippet_lines=cfg.snippet_lines))
        shown = [{f"{h.path}:{n}" for n in h.snippet.numbers if n is not None} for h in hits]
        sizes.extend(len(h.snippet.text) for h in hits)
        evidence = set(case["evidence"])
        at5 += bool(evidence & set().union(*shown[:5]))
        at_k += bool(evidence & set().union(*shown))
        if show and not evidence & set().union(*shown):
            print("miss", case["question"], case["evidence"], [f"{h.path}:{h.line}" for h in hits[:3]])
    return at5 / len(cases), at_k / len(cases), sum(sizes) / max(1, len(sizes))


def main() -> None:
    args, root, cases = generated_set(__doc__, "qmem-zh-group-", generate, SEED)
    at5, at_k, size = qmem_recall(root, cases, args.k, show=args.show)
    try:
        _, per_hit = baseline(root, cases, [1])
        k5, kk = max(5, round(5 * size / per_hit)), max(args.k, round(args.k * size / per_hit))
        base, _ = baseline(root, cases, [5, args.k, k5, kk])
    except ImportError:
        base, k5, kk = {}, 0, 0
    cells = (f"{base[5]:.3f} | {base[args.k]:.3f} | {base[k5]:.3f} (k={k5}) | {base[kk]:.3f} (k={kk})" if base
             else "- | - | - | -")
    text = (f"| data set | questions | qmem any@5 | qmem any@{args.k} | chars a hit | bigram any@5 | bigram any@{args.k} "
            f"| bigram, chars of qmem's 5 | bigram, chars of qmem's {args.k} |\n|---|---|---|---|---|---|---|---|---|\n"
            f"| zh group chat (bench/zh_group.py) | {len(cases)} | {at5:.3f} | {at_k:.3f} | {size:.0f} | {cells} |\n")
    write_results(args.out, "zh_group", text, {"questions": len(cases), "qmem_any@5": at5, f"qmem_any@{args.k}": at_k,
                                               "snippet_chars": size, "bm25s_bigram": base, "k5": k5, "kk": kk})


if __name__ == "__main__":
    main()
