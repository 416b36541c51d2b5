"""What the shape of a section's body says of its subject, whatever words its heading uses.

A heading of one word nobody listed ("boxes", "crew", "Oposiciones") leaves the body to decide,
and a body says more by its shape than by its words: lines of `label: value` about a person
(name, born, timezone, languages) are a profile; list items that open with a person's name and
give a role or a relation ("Ana — my sister", "Tom (CTO)", "小王：同事") are people; items that
open with a day of the year and no year ("3 Mar", "12/24", "5月20日") or say "every year" are
dates, and so are appointments and deadlines ("dentist 2026-03-18 10:30", "due 2026-10");
IP addresses and host:port pairs are machines; paths to source files are code; an index of
the agent's own typed memory files (`project_*.md`, `user_*.md`: see `memory_types`) is what
their type says. Each kind
is matched in every language the cue tables hold, in time linear in the text. Pure functions.
"""

from __future__ import annotations

import re

from .cues_world import MONTHS_WORLD

_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")

# -- a profile: `label: value` lines about the user ------------------------------------------
_PROFILE_LABELS = (
    r"name|full name|nickname|born|birthday|date of birth|age|location|based in|city|hometown|lives in|timezone|"
    r"time zone|tz|languages?|pronouns|occupation|nationality|"
    r"姓名|名字|昵称|暱稱|生日|出生|年龄|年齡|城市|所在地|住址|时区|時區|语言|語言|职业|職業|"
    r"名前|氏名|誕生日|生年月日|年齢|住所|居住地|タイムゾーン|言語|"
    r"이름|생일|생년월일|나이|거주지|사는 곳|시간대|언어|직업|"
    r"nombre|cumpleaños|fecha de nacimiento|edad|ciudad|zona horaria|idiomas?|profesión|"
    r"nom|prénom|anniversaire|date de naissance|âge|ville|fuseau horaire|langues?|métier|"
    r"nome|aniversário|data de nascimento|idade|cidade|fuso horário|profissão|"
    r"vorname|geburtstag|geboren|alter|wohnort|stadt|zeitzone|sprachen?|beruf|"
    r"имя|день рождения|дата рождения|возраст|город|часовой пояс|языки?|профессия|"
    r"tên|sinh nhật|ngày sinh|tuổi|thành phố|múi giờ|ngôn ngữ|nghề nghiệp")
_PROFILE_LINE = re.compile(rf"(?im)^\s*(?:[-*+]\s+)?(?:\*\*)?({_PROFILE_LABELS})(?:\*\*)?\s*[:：]")

# -- people: an item opening with a name, then a role or a relation ---------------------------
_NAME = (r"(?:\*\*)?(?:[A-ZÀ-ÝА-ЯЁ][a-zà-ÿа-яё'’-]+\.?(?:\s[A-ZÀ-ÝА-ЯЁ][a-zà-ÿа-яё.'’-]*){0,2}|"
         r"[\u3400-\u9fff\u3040-\u30ff\uac00-\ud7af]{1,4}(?:さん|くん|ちゃん|先生|님|씨)?)(?:\*\*)?")
_SEPARATOR = r"\s*(?:[(（:：,，]|\s[-–—]|[-–—]\s)"
_NAME_ITEM = re.compile(rf"^{_NAME}{_SEPARATOR}")
_ROLES_LATIN = (
    r"wife|husband|partner|son|daughter|mother|father|mom|mum|dad|brother|sister|friend|boss|manager|colleague|"
    r"coworker|co-worker|cto|ceo|cfo|coo|founder|cofounder|co-founder|designer|engineer|developer|lead|intern|"
    r"mentor|neighbou?r|landlord|teacher|student|tutor|accountant|lawyer|treasurer|chair|secretary|maintainer|"
    r"contributor|recruiter|cousin|uncle|aunt|grandma|grandpa|grandmother|grandfather|niece|nephew|girlfriend|"
    r"boyfriend|fiancée?|roommate|flatmate|she/her|he/him|they/them|"
    r"esposa|marido|pareja|hij[oa]|madre|padre|herman[oa]|amig[oa]|jef[ea]|compañer[oa]|colega|vecin[oa]|"
    r"profesor[a]?|alumn[oa]|director[a]?|"
    r"femme|mari|conjoint|fils|fille|mère|père|frère|sœur|amie?|patron(?:ne)?|collègue|voisine?|chef|"
    r"directeur|directrice|stagiaire|"
    r"filh[oa]|mãe|pai|irmão|irmã|chefe|vizinh[oa]|diretor[a]?|namorad[oa]|"
    r"ehefrau|ehemann|sohn|tochter|mutter|vater|bruder|schwester|freundin|kollegin|kollege|nachbarin|nachbar|"
    r"leiterin|leiter|chefin|"
    r"жена|муж|сын|дочь|мама|папа|мать|отец|брат|сестра|друг|подруга|начальни(?:к|ца)|коллега|сосед(?:ка)?|"
    r"руководитель|директор|"
    r"vợ|chồng|con trai|con gái|mẹ|bố|anh trai|chị gái|em gái|bạn|sếp|đồng nghiệp|hàng xóm")
_ROLE = re.compile(rf"(?i)(?<![^\W\d_])(?:{_ROLES_LATIN})(?![^\W\d_])|"
                   r"同事|老婆|老公|妻子|丈夫|妈妈|爸爸|母亲|父亲|朋友|老板|经理|设计师|工程师|负责人|同学|老师|室友|孩子|"
                   r"儿子|女儿|哥哥|姐姐|弟弟|妹妹|主管|领导|合伙人|导师|媽媽|設計師|工程師|負責人|兒子|女兒|姊姊|老闆|導師|"
                   r"上司|同僚|友人|友達|先輩|後輩|部長|課長|担当|息子|両親|"
                   r"아내|남편|엄마|아빠|친구|동료|팀장|상사|대표|디자이너|개발자|선배|후배")

# -- dates: items opening with a day of the year and no year, or saying "every year" -------------
MONTHS = (r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|"
           r"september|october|november|december|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|"
           r"octubre|noviembre|diciembre|janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|"
           r"novembre|décembre|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|dezembro|"
           r"januar|februar|märz|juni|juli|oktober|dezember|января|февраля|марта|апреля|мая|июня|июля|августа|"
           r"сентября|октября|ноября|декабря|tháng \d{1,2}")
MONTHS += f"|{MONTHS_WORLD}"  # and in the languages of cues_world.py
_DAY_OF_YEAR = re.compile(
    rf"(?i)^(?:\*\*)?(?:\d{{1,2}}[/.-]\d{{1,2}}(?![/.-]?\d)|\d{{1,2}}月\d{{1,2}}日|\d{{1,2}}월\s?\d{{1,2}}일|"
    rf"(?:{MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?![\d,]*\s*\d{{4}})|\d{{1,2}}\.?\s+(?:de\s+)?(?:{MONTHS})\b(?!\s*(?:de\s+)?\d{{4}}))")
# an appointment or a deadline inside an item ("dentist 2026-03-18 10:30", "passport renewal due 2026-10"):
# a date after the item's first word with a time of day, or after a word that sets a deadline (a log
# opens with its date instead)
_DATE_IN = r"(?:\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?|\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?)"
_APPOINTMENT = re.compile(
    rf"(?i)^\S.*?(?:\s{_DATE_IN}\.?,?\s+(?:at\s+|um\s+|à\s+|a las\s+|às\s+|в\s+)?\d{{1,2}}[:h]\d{{2}}|"
    rf"\b(?:due|until|deadline|by|before|bis|avant|hasta|até|до|entro|scadenza|fällig)\s+{_DATE_IN}|"
    rf"(?:截止|期限|まで|마감)\s*{_DATE_IN})")
_EVERY_YEAR = re.compile(r"(?i)\b(?:every year|yearly|annually|each year|cada año|chaque année|tous les ans|todo ano|"
                         r"todos os anos|jedes jahr|jährlich|каждый год|ежегодно|hàng năm)\b|每年|毎年|매년")

# -- machines and code -------------------------------------------------------------------------
_IP = re.compile(r"(?<![\d.])(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?![\d.])")
_HOST_PORT = re.compile(r"(?i)\b(?:localhost|[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+):\d{2,5}\b")
_SOURCE_FILE = re.compile(r"(?i)(?<![\w.])[\w./-]*\w\.(?:py|ts|tsx|js|jsx|mjs|go|rs|java|kt|rb|php|cpp|cc|hpp|cs|swift|"
                          r"vue|svelte|sql|scala|dart)\b(?![\w/])")

# What a match of each holds, cheap to look for: a body without it has no such address (skips the
# findall, whose pattern is tried at every position).
_IP_HINT = re.compile(r"\d\.\d")
_SOURCE_FILE_HINT = re.compile(r"(?i)\w\.(?:py|ts|tsx|js|jsx|mjs|go|rs|java|kt|rb|php|cpp|cc|hpp|cs|swift|"
                               r"vue|svelte|sql|scala|dart)\b(?![\w/])")

# -- an index of typed memory files ---------------------------------------------------------------
# Claude Code's auto memory keeps one file per memory, named by its type (user, feedback, project,
# reference: `feedback_testing.md`, `project_wee-log.md`), and MEMORY.md is their index of links. The
# type is the agent's own filing: user → who the user is, project → ongoing work, feedback → the user's
# guidance on how to work (`instructions` pins it); reference (pointers to outside systems) says nothing
# of a subject.
_TYPED_LINK = re.compile(r"\]\(\s*<?(?:[^()\s>]*/)?(user|feedback|project|reference)[_-][^()\s/>]*\.md\s*>?\)", re.IGNORECASE)
_TYPE_DOMAIN = {"user": "identity", "project": "projects"}


def memory_types(body: str) -> list[str]:
    """The types of the typed memory files the body's items link to, one per linking item, in order."""
    out: list[str] = []
    if "](" not in body:
        return out
    for line in body.splitlines():
        found = _TYPED_LINK.search(line) if _ITEM.match(line) else None
        if found:
            out.append(found.group(1).lower())
    return out


def evidence(body: str) -> list[tuple[str, float, str]]:
    """(domain, points, reason) for each shape the body has (at most one per domain)."""
    out: list[tuple[str, float, str]] = []
    labels = {m.group(1).casefold() for m in _PROFILE_LINE.finditer(body)}
    if len(labels) >= 2:
        out.append(("identity", 2.0, f"shape: profile lines ({', '.join(sorted(labels)[:3])})"))
    items = [m.group(1) for m in map(_ITEM.match, body.splitlines()) if m]
    if len(items) >= 2:
        people = sum(bool(_NAME_ITEM.match(item) and _ROLE.search(item[:80])) for item in items)
        if people >= 2 and people * 2 >= len(items):
            out.append(("people", 2.0, f"shape: {people} of {len(items)} items name a person and a role"))
        days = sum(bool(_DAY_OF_YEAR.match(item) or _EVERY_YEAR.search(item) or _APPOINTMENT.match(item))
                   for item in items)
        if days >= 2 and days * 2 >= len(items):
            out.append(("dates", 2.0, f"shape: {days} of {len(items)} items are days of the year or appointments"))
    machines = (len(set(_IP.findall(body))) if _IP_HINT.search(body) else 0) + \
        (len(set(_HOST_PORT.findall(body))) if ":" in body else 0)
    if machines:
        out.append(("infrastructure", min(machines, 2) * 1.0, f"shape: {machines} addresses of machines"))
    types = memory_types(body)
    for kind, domain in _TYPE_DOMAIN.items():
        if types and types.count(kind) * 2 > len(types):
            out.append((domain, 2.0, f"shape: an index of {kind} memories ({types.count(kind)} of {len(types)} links)"))
    files = len(set(_SOURCE_FILE.findall(body))) if _SOURCE_FILE_HINT.search(body) else 0
    if files:
        out.append(("codebase", {1: 1.0, 2: 1.5}.get(files, 2.0), f"shape: {files} source file(s) named"))
    return out
