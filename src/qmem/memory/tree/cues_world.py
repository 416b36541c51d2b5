"""Cue words of twelve more languages, the shape of `cues_langs.MORE` (domain → language → words).

Dutch (nl), Polish (pl), Turkish (tr), Indonesian (id) with Malay (ms) where it differs, Swedish
(sv) with Danish (da) and Norwegian (no) where they differ, Czech (cs), Ukrainian (uk), Arabic
(ar), Hindi (hi), Thai (th), Persian (fa) and Greek (el): what people write in an agent's memory
notes, from general knowledge of each language (no data set's words). `cues.py` merges them with
the same steps as `cues_langs.MORE`: a word a domain lists already is not listed twice.

The words per domain are kept by script, each with how it is matched: `cues_world_latin.py` (nl,
pl, tr, id/ms, sv/da/no, cs) and `cues_world_scripts.py` (uk, ar, hi, th, fa, el). `WORLD` joins
them per domain, Latin script first: the order the merge has always met them in, which decides
which entry keeps a word two languages list. Here too: the words that make a section an
instruction or name no topic. A dated entry's words are `dated_world.py`'s (re-exported here,
where `matter`, `dated` and `shapes` import them).
"""

from __future__ import annotations

from .cues_world_latin import WORLD_LATIN
from .cues_world_scripts import WORLD_SCRIPTS
from .dated_world import CLOSED_WORLD, EVENTS_WORLD, MONTHS_WORLD, OPEN_WORLD  # noqa: F401 - re-exported

WORLD: dict[str, dict[str, list[str]]] = {
    domain: {**WORLD_LATIN.get(domain, {}), **WORLD_SCRIPTS.get(domain, {})}
    for domain in {**WORLD_LATIN, **WORLD_SCRIPTS}}

# Headings that make a section an instruction to the agent, and words that make a list item one.
RULE_HEADINGS_WORLD: list[str] = [
    "regels", "richtlijnen", "instructies", "werkafspraken", "zasady", "reguły", "wytyczne", "instrukcje", "kurallar",
    "talimatlar", "ilkeler", "aturan", "peraturan", "pedoman", "regler", "riktlinjer", "instruktioner",
    "retningslinjer", "pravidla", "pokyny", "інструкції", "принципи", "القواعد", "التعليمات", "تعليمات",
    "नियम", "निर्देश", "กฎเกณฑ์", "ข้อปฏิบัติ", "قوانین", "دستورالعمل*", "κανόνες", "οδηγίες",
]
INSTRUCTION_WORDS_WORLD: list[str] = [
    "altijd", "nooit", "zawsze", "nigdy", "nie wolno", "her zaman", "asla", "daima", "mutlaka", "selalu", "jangan",
    "wajib", "alltid", "aldrig", "måste", "altid", "aldri", "vždy", "nikdy", "nesmíš", "завжди", "ніколи",
    "не можна", "دائما", "دائماً", "أبدا", "أبداً", "يجب", "لا تستخدم", "हमेशा", "कभी नहीं", "कभी भी", "ज़रूर", "जरूर",
    "เสมอ", "ทุกครั้ง", "ห้าม", "همیشه", "هرگز", "نباید", "πάντα", "ποτέ", "πρέπει",
]
# Words that name no topic, only that a section holds memory (Latin, Cyrillic, Greek and Arabic
# script: `topicless` reads whole words).
TOPICLESS_WORLD: list[str] = [
    "notities", "overig", "diversen", "algemeen", "geheugen", "belangrijk", "en", "het", "notatki", "różne",
    "inne", "ogólne", "pamięć", "ważne", "notlar", "diğer", "çeşitli", "genel", "önemli", "ve", "catatan", "lainnya",
    "umum", "memori", "penting", "anteckningar", "övrigt", "diverse", "allmänt", "viktigt", "och", "noter",
    "notater", "andet", "annet", "generelt", "vigtigt", "og", "poznámky", "různé", "ostatní", "obecné", "důležité",
    "нотатки", "різне", "інше", "загальне", "важливе", "ملاحظات", "متفرقات", "أخرى", "مهم", "σημειώσεις", "διάφορα",
    "άλλα", "γενικά", "σημαντικά", "και",
]
