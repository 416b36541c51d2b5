"""What a section's heading says on its own: the text cues read, whether it names a topic at
all, the domain named after it, an explicit domain tag, and whether it is about a person.

Split from `domains.py`, which weighs this against the body: these read the heading alone, and
`place.py`, `instructions.py` and `dated.py`'s neighbours need them without the classifier.
"""

from __future__ import annotations

import re

from .cues import TOPICLESS
from .dated import BRACKETED, DATE
from .match import Matcher, fold, stems, words_of
from .units import bare_title
from .verdict import GENERAL

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
HEADING_DOMAIN_WORDS = 3  # a domain named after a heading keeps its first words (CJK: 8 characters)

TOPICLESS_WORDS = frozenset(w for w in TOPICLESS if not CJK.search(w))
_TOPICLESSCJK = re.compile("|".join(sorted((re.escape(w) for w in TOPICLESS if CJK.search(w)), key=len, reverse=True)))
# Korean and Japanese nouns carry their case and topic particles (josa 조사, joshi 助詞) and Korean adjectives
# their endings: "오늘의 업데이트", "메모는", "중요한 것들", "今日のメモ". Left standing alone once the words
# for memory are taken out, they name nothing: a word for memory with its particle is still one.
_PARTICLES = re.compile(r"(?<![\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])(?:에서|으로|까지|부터|에게|한테|처럼|보다|이랑|하고|"
                        r"[의을를이가은는에로와과도만랑한들]|から|まで|より|[のはがをにでともやへ])+"
                        r"(?![\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])")

_COMMENT_TAG = re.compile(r"<!--\s*domain\s*:\s*([^\s>]+)\s*-->", re.IGNORECASE)
_BRACKET_TAG = re.compile(r"\[([A-Za-z][A-Za-z0-9_-]{1,30})\]")

PIN_TAG = re.compile(r"\[(?:pin|p0)\]", re.IGNORECASE)

# A heading's own numbering, dates and asides, which a domain named after it leaves out.
_NUMBERING = re.compile(r"^(?:[一二三四五六七八九十]+[、.．]|第[一二三四五六七八九十\d]+[章节部分]|\d+(?:\.\d+)*[.)、]?|[ivx]+[.)]|§)\s*",
                        re.IGNORECASE)
_ASIDE = re.compile(r"\s*(?:[(（\[【][^)）\]】]*[)）\]】]|[-–—:：|/].*)$")

def domain_slug(name: str) -> str:
    """A folder name for a domain: its words in any script (Cyrillic, Greek, Devanagari… as well
    as Latin and CJK) joined by hyphens; `general` only when it has no letter or digit at all."""
    return "-".join(words_of(fold(name), keep="-")).strip("-") or GENERAL



def heading_text(heading: str) -> str:
    """The heading as cues see it: no tags, comments, emoji or leading punctuation."""
    text = fold(bare_title(heading))
    text = PIN_TAG.sub("", text)
    return re.sub(r"^[^\w$€£¥₩₫]+", "", text).strip()  # a heading of currency signs ("$$") is about money


def topicless(heading: str) -> bool:
    """Does the heading name no topic, only that it holds memory ("Core Memories", "Misc",
    "Key facts", "雜項", "其他", "メモ", "Sonstiges")? Its numbering, dates and asides aside."""
    text = DATE.sub("", re.sub(r"['’]s\b", "", heading_text(heading)))  # "Today's notes": today, notes
    text = _NUMBERING.sub("", text.strip()) or text
    text = BRACKETED.sub(" ", text)
    rest = _PARTICLES.sub(" ", _TOPICLESSCJK.sub(" ", text)) if _TOPICLESSCJK else text
    words = re.findall(r"[^\W\d_]+", rest)
    if not words and not re.search(r"[^\W\d_]", text):
        return False  # nothing but digits and marks: no heading to judge
    return all(w in TOPICLESS_WORDS or any(s in TOPICLESS_WORDS for s in stems(w)) for w in words if not CJK.match(w)) \
        and not CJK.search(rest)


def heading_domain(heading: str) -> str:
    """A domain named after a section's own heading: its numbering, dates and asides dropped,
    its first few words ("Key Issues (Blocked on Human Action)" → key-issues, "三、用户明确要求
    （永久有效）" → 用户明确要求)."""
    full = heading_text(heading)
    text = DATE.sub("", full).strip() or full  # a heading that is only a date keeps it
    text = _NUMBERING.sub("", text) or text
    shorter = _ASIDE.sub("", text).strip()
    text = shorter or text
    if CJK.search(text) and not re.search(r"[a-z]{3}", text):
        return domain_slug(re.sub(r"\s+", "", text)[:8])
    every = words_of(text, keep="'")
    words = [w for w in every if not w.isdigit()] or every
    return domain_slug(" ".join(words[:HEADING_DOMAIN_WORDS]))


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



def names_nothing(heading: str) -> bool:
    """Does a heading name no subject: words for memory or a log's label alone, or a date alone?"""
    return bool(heading) and (topicless(heading) or not re.search(r"[^\W\d_]", DATE.sub("", heading_text(heading))))



# -- a heading about a person ----------------------------------------------------------------
# "Who Teddy is", "About Brian", "Chi è Davide", "O Kasi", "Tentang Ayu", "Elif Hanım hakkında": a
# heading that is a word for "about"/"who is" and a name (capitalised words, none a cue) is a profile.
_ABOUT_BEFORE = (r"about|all about|who is|who's|who|meet|chi è|chi sono|su di|a proposito di|kim jest|kim jestem|o|"
                 r"tentang|siapa|über|wer ist|à propos de|qui est|sobre|acerca de|quién es|quem é|quem sou|over|wie is|"
                 r"om|vem är|hvem er|o|kdo je|об|о|про|кто такой|кто такая|кто|về|ai là|hakkında|profil|profile of|"
                 r"біо|про себе")
_ABOUT_AFTER = r"is|hakkında|kimdir|kim|について|のこと|profile|bio|in brief|in short"
_CAPITAL = r"[A-ZÀ-ÖØ-ÞĀ-ſА-ЯЁІЇЄҐ][^\W\d_]*\.?"
_PERSON_HEADING = re.compile(rf"^(?P<before>(?i:{_ABOUT_BEFORE})\s+)?(?P<name>(?:{_CAPITAL})(?:\s+{_CAPITAL}){{0,2}})"
                             rf"(?P<after>\s+(?i:{_ABOUT_AFTER}))?\s*[?:]?$")
_NOT_NAMES = frozenset(("this", "the", "our", "my", "your", "his", "her", "their", "us", "me", "you", "we", "it",
                        "memory", "memories", "memoria", "memorie", "pamięć", "hafıza", "hafızası", "memori", "mémoire",
                        "gedächtnis", "speicher", "память", "bộ", "nhớ", "long-term", "long", "term", "notes", "agent",
                        "assistant", "assistente", "asystenta", "asisten", "pribadi", "ajan", "di", "de", "da", "del",
                        "and", "for", "of", "index", "file", "workspace"))


def _names(words: list[str], matcher_: Matcher) -> list[str]:
    """The words of `words` that may be a person's name: capitalised, no cue, no common word."""
    return [w for w in words if w[:1].isupper() and fold(w).strip(".") not in _NOT_NAMES and len(w) > 1
            and not matcher_.find(fold(w), heading=True)]


def about_person(heading: str, matcher_: Matcher) -> str:
    """Why a heading is about a person, the user ("" when it is not): see `_PERSON_HEADING`."""
    text = bare_title(heading).strip()
    found = _PERSON_HEADING.match(text)
    if not found:
        return ""
    name = found.group("name").split()
    names = _names(name, matcher_)
    if len(names) != len(name):
        return ""
    if found.group("before") or found.group("after"):
        return f"heading: about a person ({' '.join(names)})"
    return ""
