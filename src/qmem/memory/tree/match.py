"""Finding a cue table's cues in a heading or a body, in time linear in the text.

A cue (see `cues.py` for the notation) is matched case-insensitively after NFKC folding:
- Latin script: on word tokens (letters, digits and `_`: `c_lawd` is one word, never "law").
  `word` is a whole word, the last word of a cue inflected (tool → tools, tooling; invoice →
  invoiced), `word*` a word starting with it, `*word` a word ending with it, `*word*` inside a word;
- CJK: anywhere, as a substring;
- `@` only in a heading, `^` only at the start of a heading, `=` only a heading that is exactly it.

A longer match hides the shorter ones inside it ("api key" is accounts, not also "api"
infrastructure); so does a word of `cues_cjk.HIDING` (ロボット holds no ボット). A cue weighs 2 when it is specific (several words, or three or more CJK
characters), 1 for one word; a cue ending in `?` (a broad everyday word: "job", "team", "model")
weighs half; a cue that several domains list is split between them.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from .cues import ABBREVIATIONS, HEADING_ONLY
from .cues_cjk import HIDING

# Scripts matched as substrings: CJK, and Thai, which writes no spaces between words.
_CJK = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_THAI = re.compile(r"[\u0e00-\u0e7f]")
_KANA = re.compile(r"[\u3040-\u30ff]")


def _marks() -> str:
    """The combining marks of the alphabets with spaces (Devanagari vowel signs, Arabic harakat…) as
    a character class's ranges: `\\w` holds no mark, so it cut "सुरक्षा" into स, र, क, ष."""
    out, start, last = [], -1, -2
    for code in list(range(0x300, 0x2000)) + [0x10000]:
        mark = code < 0x2000 and unicodedata.category(chr(code))[0] == "M" and not 0x0e00 <= code <= 0x0e7f
        if mark and code == last + 1:
            last = code
            continue
        if start >= 0:
            out.append(f"\\u{start:04x}-\\u{last:04x}")
        start, last = (code, code) if mark else (-1, -2)
    return "".join(out)


# After folding: runs of letters (with their combining marks), digits and `_` outside the scripts
# matched as substrings. A Latin word written against CJK text ("Discord统一CLI", "skill迭代记录") is a
# word of its own: CJK is matched apart.
_LETTERS = r"[^\W\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]"
_WORD = re.compile(rf"{_LETTERS}+(?:[{_marks()}]+{_LETTERS}*)*")  # a run of letters, marks inside it
MAX_WORDS = 4
_CURRENCY_ALONE = re.compile(r"(?<![\w$€£¥₩₫])[$€£¥₩₫]{1,3}(?![\w$€£¥₩₫])")
_BODY_FORMS = {short: tuple(long.split()) for short, long in ABBREVIATIONS.items()}
_HEADING_FORMS = {**_BODY_FORMS, **{short: tuple(long.split()) for short, long in HEADING_ONLY.items()}}


def expand(tokens: list[str], heading: bool) -> list[str]:
    """Words with their short forms written out ("ppl" → people, "bkps" → backups; in a heading
    also "ops" → operations): the cue tables list words, terse notes write short forms."""
    forms = _HEADING_FORMS if heading else _BODY_FORMS
    if not any(word in forms for word in tokens):
        return tokens
    out: list[str] = []
    for word in tokens:
        out.extend(forms.get(word, (word,)))
    return out
_NOTHING: tuple[tuple[str, ...], tuple] = ((), ())
_CODE_SPAN = re.compile(r"`[^`\n]{1,200}`")
_JOINERS = re.compile(r"(?<=\w)[-./:](?=\w)")


def _joined(span: re.Match[str]) -> str:
    """A code span with its identifiers' parts joined (`ingest/modbus_map.py` → ingest_modbus_map_py)."""
    return _JOINERS.sub("_", span.group(0))


# Where a list of topics is joined ("Schedule & Preferences", "Costs, pricing", "Infra — Tools"): a cue of
# several words never spans the joint ("schedule preferences" is not in "Schedule & Preferences").
_JOINT = re.compile(r"\s*[,;&]\s*|\s[+/|]\s|\s[-–—]\s")


def _tokens(text: str, heading: bool) -> list[str]:
    """The words of a folded text, an empty word standing at each joint of a list (see `_JOINT`)."""
    parts = _JOINT.split(text)
    if len(parts) == 1:
        return expand(_WORD.findall(text), heading)
    out: list[str] = []
    for part in parts:
        words = expand(_WORD.findall(part), heading)
        if words and out:
            out.append("")  # opens no cue, and no cue of several words holds it
        out.extend(words)
    return out


def words_of(text: str, keep: str = "") -> list[str]:
    """The words of a short text (a heading): runs of letters, digits and combining marks, and of
    `keep`. `\\w` alone cuts Devanagari, Thai or decomposed accented words at their vowel signs
    and marks ("सुरक्षा" → स, र, क, ष); one pass per character, so only for headings, not bodies."""
    out: list[str] = []
    run: list[str] = []
    for ch in text:
        if ch in keep or unicodedata.category(ch)[0] in "LMN":
            run.append(ch)
        elif run:
            out.append("".join(run))
            run = []
    if run:
        out.append("".join(run))
    return out


def has_kana(text: str) -> bool:
    """Is any of the text Japanese kana (the one sure sign of Japanese among CJK scripts)?"""
    return bool(_KANA.search(text))


def fold(text: str) -> str:
    """What cues are matched against: NFKC (full-width → ASCII), case-folded."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return folded.replace("\u0307", "") if "\u0307" in folded else folded  # Turkish İ folds to i + a dot


@functools.lru_cache(maxsize=1 << 16)
def stems(word: str) -> frozenset[str]:
    """The forms a word may be an inflection of: tools → tool, invoiced → invoice, tooling → tool."""
    out = {word}
    if len(word) <= 3:
        return frozenset(out)
    if word.endswith("ies"):
        out.add(word[:-3] + "y")
    if word.endswith("es"):
        out.add(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        out.add(word[:-1])
    if word.endswith("ed"):
        out.update((word[:-2], word[:-1]))
    if word.endswith("ing") and len(word) > 5:
        out.update((word[:-3], word[:-3] + "e"))
    if word.endswith("ers"):
        out.add(word[:-3])
    elif word.endswith("er") and len(word) > 4:
        out.add(word[:-2])
    return frozenset(out)


def _plural_forms(word: str) -> set[str]:
    """A cue word and its singular (the text side's inflections are `stems`). A noun in -ings
    keeps its -s: its singular is another word ("learnings" are takeaways, "learning" is study;
    "findings", "earnings")."""
    out = {word}
    if word.endswith("ings"):
        return out
    if len(word) > 3 and word.endswith("ies"):
        out.add(word[:-3] + "y")
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        out.add(word[:-1])
    return out


class Cue:
    __slots__ = ("cjk", "domain", "kana", "kind", "raw", "text", "weak", "weight", "where", "words")

    def __init__(self, raw: str, domain: str) -> None:
        self.raw = raw
        self.domain = domain
        self.where = "any"
        text = fold(raw.strip())
        self.kana = text.startswith("~")  # a Japanese word in kanji: only where the text has kana
        text = text.lstrip("~")
        weak = self.weak = text.endswith("?")
        text = text.rstrip("?")
        if text[:1] in "^=@":
            self.where, text = {"^": "start", "=": "exact", "@": "heading"}[text[0]], text[1:]
        starred = (text.startswith("*"), text.endswith("*"))
        self.text = text.strip("*").strip()
        self.cjk = bool(_CJK.search(self.text))
        self.words = tuple(_WORD.findall(self.text)) if not self.cjk else ()
        self.kind = {(True, True): "infix", (False, True): "prefix", (True, False): "suffix"}.get(starred, "word")
        specific = (self.cjk and len(self.text) >= 3) or (not self.cjk and len(self.words) >= 2)
        if self.cjk and _THAI.search(self.text):  # a Thai syllable takes about three characters, a CJK one
            specific = len(self.text) >= 9 or " " in self.text
        self.weight = (2.0 if specific else 1.0) / (2 if weak else 1)


class Matcher:
    """All cues of a table, indexed for one pass over the words of a text."""

    def __init__(self, cues: tuple[Cue, ...]) -> None:
        listing: dict[str, set[str]] = {}
        for cue in cues:  # a word two languages (or forms) of one domain list is not split between them
            listing.setdefault(cue.text, set()).add(cue.domain)
        self.share = {text: len(domains) for text, domains in listing.items()}  # listed by k domains: weight / k
        self.words: dict[tuple[str, ...], list[Cue]] = {}
        self.prefixes: dict[str, list[Cue]] = {}
        self.suffixes: dict[str, list[Cue]] = {}
        self.infixes: list[Cue] = []
        cjk: list[Cue] = []
        for cue in cues:
            if cue.cjk:
                cjk.append(cue)
            elif not cue.words:
                continue
            elif cue.kind == "word":  # "tools" is found as tools, tool, tooling; "workers" never as "work"
                for last in _plural_forms(cue.words[-1]):
                    self.words.setdefault(cue.words[:-1] + (last,), []).append(cue)
            elif cue.kind == "prefix" and len(cue.words) == 1:
                self.prefixes.setdefault(cue.words[0], []).append(cue)
            elif cue.kind == "suffix" and len(cue.words) == 1:
                self.suffixes.setdefault(cue.words[0], []).append(cue)
            elif len(cue.words) == 1:
                self.infixes.append(cue)
        self.cjk: dict[str, list[Cue]] = {}
        for cue in cjk:
            self.cjk.setdefault(cue.text, []).append(cue)
        for word in HIDING:  # ロボット is found as a word of no domain, so the ボット inside it is not found
            if any(text in word for text in self.cjk):
                self.cjk.setdefault(word, [])
        alternatives = sorted(self.cjk, key=len, reverse=True)
        self.cjk_pattern = re.compile("|".join(map(re.escape, alternatives))) if alternatives else None
        self.prefix_lengths = sorted({len(p) for p in self.prefixes}, reverse=True)
        self.suffix_lengths = sorted({len(p) for p in self.suffixes}, reverse=True)
        self.first_words: dict[str, tuple[int, ...]] = {}  # a word that opens cues of these lengths
        for key in self.words:
            if len(key) > 1:
                self.first_words[key[0]] = tuple(sorted(set(self.first_words.get(key[0], ())) | {len(key)}, reverse=True))
        self._seen: dict[str, tuple[tuple[str, ...], tuple[Cue, ...]]] = {}

    def weight(self, cue: Cue) -> float:
        return cue.weight / self.share.get(cue.text, 1)

    def _allowed(self, cue: Cue, heading: bool, at_start: bool, whole: bool) -> bool:
        if cue.where == "any":
            return True
        if not heading:
            return False
        return cue.where == "heading" or (cue.where == "start" and at_start) or (cue.where == "exact" and whole)

    def find(self, text: str, heading: bool = False, kana: bool | None = None) -> list[Cue]:
        """The distinct cues in `text` (already folded), longer matches hiding shorter ones.
        `kana`: is the text (or its file) Japanese; None: look at the text itself."""
        found: dict[tuple[str, str], Cue] = {}
        if heading and ("$" in text or not text.isascii()):
            text = _CURRENCY_ALONE.sub(" money ", text)  # "## $$": a heading of currency signs is about money
        if "`" in text:  # an identifier in code is one word: `payout-worker` holds no "workers"
            text = _CODE_SPAN.sub(_joined, text)
        tokens = _tokens(text, heading)  # a word opens with a letter of no script _CJK holds
        whole = len(tokens)
        k = 0
        seen = self._seen
        while k < whole:
            if seen.get(tokens[k]) is _NOTHING:  # most words are no cue and open none
                k += 1
                continue
            k += self._at(tokens, k, heading, whole, found)
        if self.cjk_pattern is not None and _CJK.search(text):  # a text with no CJK or Thai holds none of them
            japanese = has_kana(text) if kana is None else kana
            for match in self.cjk_pattern.finditer(text):
                for cue in self.cjk[match.group(0)]:
                    if (japanese or not cue.kana) and self._allowed(cue, heading, match.start() == 0, match.group(0) == text.strip()):
                        found.setdefault((cue.domain, cue.text), cue)
        return list(found.values())

    def _token(self, word: str) -> tuple[tuple[str, ...], tuple[Cue, ...]]:
        """(the forms of `word` that open a cue of several words, the cues `word` alone matches),
        computed once per distinct word."""
        known = self._seen.get(word)
        if known is None:
            forms = tuple(stems(word))
            opens = tuple(form for form in forms if form in self.first_words)
            alone = [cue for form in forms for cue in self.words.get((form,), ())]
            alone += [cue for size in self.prefix_lengths if size <= len(word) for cue in self.prefixes.get(word[:size], ())]
            alone += [cue for size in self.suffix_lengths if size <= len(word) for cue in self.suffixes.get(word[-size:], ())]
            alone += [cue for cue in self.infixes if cue.words[0] in word]
            heads = {cue.domain for cue in alone if cue.kind == "suffix"}
            if heads:  # a compound is what its last part says: Kundenprojekt is a project
                alone = [cue for cue in alone if cue.kind != "prefix" or cue.domain in heads]
            known = self._seen[word] = (opens, tuple(alone)) if opens or alone else _NOTHING
        return known

    def _at(self, tokens: list[str], k: int, heading: bool, whole: int, found: dict[tuple[str, str], Cue]) -> int:
        """Match at token `k`, the longest cue first; returns how many tokens it used."""
        opens, alone = self._token(tokens[k])
        lengths = sorted({n for form in opens for n in self.first_words[form] if n <= whole - k}, reverse=True)
        for n in lengths:
            rest = tokens[k + 1:k + n - 1]
            hits = [cue for first in opens for last in stems(tokens[k + n - 1])
                    for cue in self.words.get((first, *rest, last), ()) if self._allowed(cue, heading, k == 0, n == whole)]
            if hits:
                self._keep(hits, found)
                return n
        self._keep([cue for cue in alone if self._allowed(cue, heading, k == 0, whole == 1)], found)
        return 1

    @staticmethod
    def _keep(hits: list[Cue], found: dict[tuple[str, str], Cue]) -> None:
        """One cue per domain for one span ("api keys" and "api key" both match "API keys")."""
        best: dict[str, Cue] = {}
        for cue in hits:
            if cue.domain not in best or cue.weight > best[cue.domain].weight:
                best[cue.domain] = cue
        for cue in best.values():
            found.setdefault((cue.domain, cue.text), cue)


@functools.lru_cache(maxsize=8)
def matcher(frozen: tuple[tuple[str, tuple[str, ...]], ...]) -> Matcher:
    return Matcher(tuple(Cue(raw, name) for name, words in frozen for raw in words if raw.strip("~*^=@? ")))


def for_table(table: dict[str, list[str]]) -> Matcher:
    return matcher(tuple((name, tuple(words)) for name, words in table.items()))
