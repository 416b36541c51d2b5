"""User text → an engine-neutral query form (terms, phrases, boosts, filters).

Raw agent text is never handed to a query parser (`error: refused`, `user's key`, `C++`, a
lone `"` all raise in one). Instead:
  - words become OR'ed terms, ranked by BM25;
  - a CJK run becomes overlapping two-character phrases, its characters at a low weight and,
    for a short run, a boosted phrase of the whole run, so `私钥被盗` finds `私钥泄露，钱包被盗`
    and one character still works;
  - question words and particles (`what`, `did`, `什么`, `哪`, `呢`) and function words (`the`,
    `of`, `我们`) weigh little, in any collection;
  - a `"quoted phrase"` ranks higher (with `exact`: must match); `-word` and `-"a phrase"` must not.
Each backend compiles the form itself (`backends/tantivy/searcher.py`, `backends/opensearch/query.py`).
"""

from __future__ import annotations

from . import analysis

# Weight of a heading match relative to a body match, in every backend's query. BM25 already
# favours matches in the short heading field through length normalisation; on BEIR SciFact
# (title as heading) 0.5 gave nDCG@10 0.691 against 0.665 at 1.0 and 0.622 at 2.0.
HEADING_WEIGHT = 0.5
WHOLE_RUN_BOOST = 2.0
# A quoted phrase (a title, a name) as one unit: as strong as a short CJK run's whole phrase.
QUOTE_BOOST = WHOLE_RUN_BOOST
# The whole-run phrase only for runs this long (a name, a compound); a long question never matches whole.
WHOLE_RUN_MAX = 4
# Each character of a CJK run as a unit too, weighted low: a question whose bigrams all miss
# (`跟小周` vs `和小周`) still finds the characters, and never comes back empty.
UNIGRAM_BOOST = 0.25
# Question words and particles count this much of a content unit.
QUESTION_WEIGHT = 0.2
QUESTION_WORDS = ("what", "when", "where", "which", "who", "whom", "whose", "why", "how", "did", "does", "do",
                  "can", "could", "would", "should", "tell", "remind", "please", "anything", "something")
QUESTION_CHARS = "什么哪谁几吗呢吧呀啊嘛"
QUESTION_CJK_WORDS = ("怎样", "多少", "来着", "如何", "为何", "是否", "是不是", "有没有", "请问", "告诉")
# Function words weigh as little, whatever the collection: BM25's IDF alone lets `a` or `the`
# outrank the keyword in a small collection where the keyword happens to be the commoner.
# A CJK unit made only of function characters (`我们`, `这个`, `了一`) is one too.
FUNCTION_WORDS = ("a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "with",
                  "from", "into", "about", "as", "than", "then", "so", "is", "are", "was", "were", "be", "been",
                  "being", "am", "i", "me", "my", "mine", "myself", "we", "us", "our", "you", "your", "he", "him",
                  "his", "she", "her", "it", "its", "they", "them", "their", "this", "that", "these", "those",
                  "there", "here", "have", "has", "had", "not", "no", "also", "just", "very", "some", "any")
FUNCTION_CHARS = "的了是在和与也就都把被着过我你他她它们这那有个一不很还又给让对从到为以之而及或"
# Long pasted text would otherwise become thousands of clauses.
MAX_UNITS = 256


# Ordinal time: the question asks for the first or the last time something happened ("the first
# time I went to the museum", "our first conversation", "where do I currently keep it", "上次我们
# 聊了什么", "我第一次去…"). Bare 最近 ("recently") and "previous" (any earlier talk) are none; nor
# are "last week" (a date) or "the first three months" (a span). Word pairs, not a regex: a
# plain search imports no `re`.
_FIRST_WORDS = ("initially", "originally", "earliest")
_FIRST_PAIRS = ("first time", "our first", "at first", "first met", "first talked", "first spoke", "first chatted",
                "first mentioned", "first started", "first got", "first went", "first visited", "first tried",
                "first bought", "first learned")
_FIRST_CJK = ("第一次", "头一次", "首次", "最早", "最初", "起初", "一开始", "刚开始", "当初")
_LAST_WORDS = ("latest", "currently", "current")
_LAST_PAIRS = ("last time", "i last", "we last", "you last", "most recent", "most recently")
_LAST_CJK = ("上次", "上一次", "最后一次", "最近一次", "最近的一次", "最近那次", "最新", "目前")


def ordinal(text: str) -> str:
    """"first" when `text` asks for the earliest time something happened, "last" for the
    latest, else "" (neither, or both)."""
    lower = text.lower()
    words = "".join(ch if ch.isalnum() else " " for ch in lower).split()
    pairs = {f"{a} {b}" for a, b in zip(words, words[1:])}
    found = set(words)
    first = any(w in found for w in _FIRST_WORDS) or any(p in pairs for p in _FIRST_PAIRS) \
        or any(c in lower for c in _FIRST_CJK)
    last = any(w in found for w in _LAST_WORDS) or any(p in pairs for p in _LAST_PAIRS) \
        or any(c in lower for c in _LAST_CJK)
    return "first" if first and not last else "last" if last and not first else ""


# Whose words a question asks about ("你给我推荐过哪部电影？", "what did you suggest", "you told me": the
# assistant's; "我曾经和你分享过…", "I mentioned…": the user's). Chinese: the subject pronoun of the
# question's last clause that has one, after the words that only address the assistant ("你还记得",
# "你能告诉我") are set aside; 我们/咱们 (both) is neither. English: the last of a few word pairs, a
# past tense only ("can you suggest…" asks for something new, not about a reply). See `speaker_side`.
_ZH_ADDRESS = ("你还记得", "你记不记得", "你记得", "你知道", "你能否", "你能不能", "你能", "你可以", "你会不会",
               "请你", "你帮我", "你觉得", "告诉我", "提醒我", "提醒一下我", "帮我", "你们", "我们", "咱们")
_ZH_CLAUSE_ENDS = "，,。？?！!；;：:、\n "
_YOU_DID = ("recommended", "suggested", "mentioned", "said", "told", "gave", "provided", "listed", "shared",
            "offered", "proposed", "explained", "described", "wrote", "made", "named", "included", "referred",
            "specified", "calculated", "advised", "showed", "pointed", "came", "helped", "created", "gave")
_DID_YOU = ("recommend", "suggest", "mention", "say", "tell", "give", "provide", "list", "share", "offer",
            "propose", "explain", "describe", "write", "make", "name", "include", "advise", "show", "create")
_YOUR = ("recommendation", "recommendations", "suggestion", "suggestions", "advice", "answer", "response",
         "explanation", "list", "tips")
_I_DID = ("mentioned", "told", "said", "shared", "wrote", "noted", "asked")
_DID_I = ("mention", "tell", "say", "share", "write", "note", "ask")


def speaker_side(text: str) -> str:
    """"assistant" when `text` asks about what the assistant said or did, "user" for the user's
    own words or deeds, else "" (neither, both, or no speaker said)."""
    if any(_is_cjk_char(ch) for ch in text):
        side = _zh_side(text)
        if side:
            return side
    words = "".join(ch if ch.isalnum() or ch == "'" else " " for ch in text.lower()).split()
    side, at = "", -1
    for k, (a, b) in enumerate(zip(words, words[1:])):
        found = ("assistant" if a == "you" and b in _YOU_DID or a == "your" and b in _YOUR
                 or a == "did" and b == "you" and k + 2 < len(words) and words[k + 2] in _DID_YOU
                 else "user" if a == "i" and b in _I_DID
                 or a == "did" and b == "i" and k + 2 < len(words) and words[k + 2] in _DID_I else "")
        if found and k > at:
            side, at = found, k
    return side


def _is_cjk_char(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


def _zh_side(text: str) -> str:
    """The subject pronoun (你 / 我) of the last clause that has one, addressing words set aside."""
    for word in _ZH_ADDRESS:
        text = text.replace(word, "\u3000" * len(word))
    clauses: list[str] = []
    start = 0
    for k, ch in enumerate(text):
        if ch in _ZH_CLAUSE_ENDS:
            clauses.append(text[start:k])
            start = k + 1
    clauses.append(text[start:])
    for clause in reversed(clauses):
        you, me = clause.find("你"), clause.find("我")
        if you >= 0 or me >= 0:
            return "assistant" if me < 0 or 0 <= you < me else "user"
    return ""


class Unit:
    """A term (one token) or a phrase (several consecutive tokens) with a weight."""

    __slots__ = ("tokens", "boost")

    def __init__(self, tokens: tuple[str, ...], boost: float = 1.0) -> None:
        self.tokens = tokens
        self.boost = boost

    def __repr__(self) -> str:
        return f"Unit({' '.join(self.tokens)!r}, {self.boost:g})"


class QueryForm:
    """What to look for and where; nothing engine-specific."""

    __slots__ = ("should", "must", "must_not", "collections", "types", "since", "until", "path_regex", "date_priors",
                 "date_options", "date_units", "order", "side")

    def __init__(self) -> None:
        self.should: list[Unit] = []
        self.must: list[Unit] = []
        self.must_not: list[tuple[str, ...]] = []
        self.collections: list[str] = []
        self.types: list[str] = []
        self.since = 0  # YYYYMMDD, inclusive
        self.until = 0
        self.path_regex = ""
        self.date_priors: list[tuple[int, int]] = []  # YYYYMMDD ranges named in the question (a boost)
        # Before a search settles `date_priors`: each date named in the question as the ranges it
        # may mean, the likeliest first ("5月2日": this year's, then earlier years'), and the
        # units of the date words taken out of the text (put back when no range holds a section).
        self.date_options: list[list[tuple[int, int]]] = []
        self.date_units: list[Unit] = []
        # "first" / "last": the question asks for the earliest / latest time something happened
        self.order = ""
        # "assistant" / "user": the question asks about that side's words (`speaker_side`)
        self.side = ""

    def has_filters(self) -> bool:
        return bool(self.types or self.since or self.until or self.path_regex)

    def within(self, low: int, high: int) -> QueryForm | None:
        """This form restricted to the days low..high (and to its own date filter); None when
        the two do not overlap."""
        low, high = max(low, self.since or 0), min(high, self.until or 99991231)
        if low > high:
            return None
        other = QueryForm()
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.since, other.until, other.date_priors, other.date_options, other.date_units = low, high, [], [], []
        return other

    def highlight_units(self) -> list[tuple[str, ...]]:
        return [u.tokens for u in self.should] + [u.tokens for u in self.must]


def units_for(text: str) -> list[Unit]:
    """Terms and CJK units for free text (see the module docstring)."""
    units: list[Unit] = []
    run: list[str] = []
    last_end = -1

    def close_run() -> None:
        if len(run) == 1:
            units.append(Unit((run[0],)))
        elif len(run) > 1:
            units.extend(Unit((run[i], run[i + 1])) for i in range(len(run) - 1))
            units.extend(Unit((ch,), UNIGRAM_BOOST) for ch in run)
            if 2 < len(run) <= WHOLE_RUN_MAX:
                units.append(Unit(tuple(run), WHOLE_RUN_BOOST))
        run.clear()

    for tok in analysis.tokens(text):
        if analysis.is_cjk(tok.text):
            if run and tok.char_offset_from != last_end:
                close_run()
            run.append(tok.text)
            last_end = tok.char_offset_to
        else:
            close_run()
            units.append(Unit((tok.text,)))
    close_run()
    for unit in units:
        if is_question_unit(unit.tokens):
            unit.boost *= QUESTION_WEIGHT
    return units


_question_terms: frozenset[str] | None = None


def is_question_unit(tokens: tuple[str, ...]) -> bool:
    """A question word or particle (`what`, `did`, `什么`, `哪`, `呢`), or a CJK unit holding one:
    words every question has and no answer needs; or a function word (`the`, `of`, `我们`)."""
    global _question_terms
    if _question_terms is None:
        _question_terms = frozenset(analysis.terms(" ".join(QUESTION_WORDS + FUNCTION_WORDS)))
    if len(tokens) == 1 and tokens[0] in _question_terms:
        return True
    if analysis.is_cjk(tokens[0]):
        joined = "".join(tokens)
        return (any(ch in QUESTION_CHARS for ch in joined) or any(w in joined for w in QUESTION_CJK_WORDS)
                or all(ch in FUNCTION_CHARS for ch in joined))
    return False


def phrase_tokens(text: str) -> tuple[str, ...]:
    return tuple(analysis.terms(text))


def _dedupe(units: list[Unit]) -> list[Unit]:
    seen: dict[tuple[str, ...], Unit] = {}
    for u in units:
        if u.tokens not in seen:
            seen[u.tokens] = u
    return list(seen.values())[:MAX_UNITS]


def merge_units(units: list[Unit], more: list[Unit]) -> list[Unit]:
    """`units` and then those of `more` they do not hold yet."""
    return _dedupe([*units, *more])


def quoted(text: str) -> list[tuple[int, int, bool, str]]:
    """The `"phrase"` and `-"phrase"` spans of `text` that start it or follow whitespace, as
    (start, end, negated, phrase): what `re.finditer(r'(?:(?<=\\s)|^)(-?)"([^"]*)"', text)`
    finds, without importing `re` on the search path (tests/text/test_lean_parsers.py compares them)."""
    found: list[tuple[int, int, bool, str]] = []
    pos = 0
    while True:
        q = text.find('"', pos)
        if q < 0:
            return found
        if q - 1 >= pos and text[q - 1] == "-" and (q == 1 or text[q - 2].isspace()):
            start = q - 1
        elif q == 0 or text[q - 1].isspace():
            start = q
        else:
            pos = q + 1  # this quote opens nothing; a later one may
            continue
        close = text.find('"', q + 1)
        if close < 0:
            return found  # no quote after this one: nothing later can match either
        found.append((start, close + 1, start < q, text[q + 1:close]))
        pos = close + 1


def parse(text: str, exact: bool = False) -> QueryForm:
    """Build the form for `text`; never raises on any string.

    A quoted phrase ranks higher (a unit of its own, boosted, besides its words): in a
    question such as `what did I think of "The Name of the Wind"?` the quotes mark a title,
    and a title written a little differently must not make the answer vanish. With `exact`
    (the user asked for it: `qmem search --exact`) each quoted phrase must appear as written.
    `-"phrase"` always excludes."""
    form = QueryForm()
    text = "".join(ch if ch.isprintable() or ch in "\t\n" else " " for ch in text)
    rest: list[str] = []
    boosted: list[Unit] = []
    pos = 0
    for start, end, negated, phrase in quoted(text):
        rest.append(text[pos:start])
        pos = end
        toks = phrase_tokens(phrase)
        if not toks:
            continue
        if negated:
            form.must_not.append(toks)
        elif exact:
            form.must.append(Unit(toks))
        else:
            rest.append(f" {phrase} ")
            if len(toks) > 1:
                boosted.append(Unit(toks, QUOTE_BOOST))
    rest.append(text[pos:])
    positive: list[str] = []
    for word in " ".join(rest).replace('"', " ").split():
        if word.startswith("-") and len(word) > 1:
            toks = phrase_tokens(word[1:])
            if toks:
                form.must_not.append(toks)
        else:
            positive.append(word)
    form.should = _dedupe([*boosted, *units_for(" ".join(positive))])
    form.must = _dedupe(form.must)
    return form
