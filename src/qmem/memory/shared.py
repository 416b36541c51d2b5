"""What a shared (group-chat) boot may show: everything but private matter.

Left out, in any text the boot prints (MEMORY.md or the tree's root, SESSION-STATE.md, the
daily logs):
- a section or subsection, at any heading level, whose heading marks it private: confidential,
  owner-only, do not share, 机密, 仅限本人, 機密, 社外秘, 비공개, 본인만, confidencial, privado,
  vertraulich, bí mật… (`confidential`), a `[private]` tag, or a `[P]` (profile) type;
- a line that is a `[P]` profile entry, or is labelled private ("- **Private:** …"), with the
  lines indented under it;
- a line holding a secret (`secrets.py`).
MEMORY.md is also cut by section (`boot.py`): profile and accounts domains go, pinned rules stay.
"""

from __future__ import annotations

import re

from ..text import markdown
from . import secrets
from .workspace import raw_lines

# Marks that say "not for others" wherever they stand in a heading or a label.
_STRONG = (r"confidential|owner[- ]only|only for (?:the )?owner|do not share|don'?t share|not for sharing|"
           r"not to be shared|eyes only|internal only|top secret|"
           r"机密|保密|私密|仅限本人|仅本人可见|仅主人|不要分享|不可外传|勿外传|请勿外传|"
           r"機密|僅限本人|僅本人|勿外傳|不要分享|"
           r"秘密|非公開|社外秘|部外秘|内密|他言無用|本人のみ|"
           r"vertraulich|streng geheim|nur für mich|"
           r"bí mật|riêng tư|không chia sẻ|"
           r"기밀|비공개|본인만|나만 볼|공유 금지|공유하지 말|언급 금지|"
           r"confidencial|solo para mí|sólo para mí|no compartir|só para mim|não compartilhar|"
           r"confidentiel|ne pas partager|strictement personnel|riservato|confidenziale|non condividere|"
           r"конфиденциально|не делиться|"
           # nl, pl, tr, id/ms, sv/da/no, cs, uk, ar, hi, th, fa, el
           r"vertrouwelijk|niet delen|alleen voor mij|poufn[eya]|nie udostępniać|tylko dla mnie|\bgizli\b|"
           r"paylaşma|sadece bana|rahasia|rahsia|jangan dibagikan|hanya untuk saya|konfidentiell|fortrolig|"
           r"\bhemlig|hemmelig|dela inte|del ikke|ikke del\b|endast för mig|bara för mig|kun for mig|kun for meg|"
           r"důvěrné|\btajné|nesdílet|jen pro mě|pouze pro mě|конфіденційно|не ділитися|лише для мене|"
           r"тільки для мене|\bسري\b|لا تشارك|للمالك فقط|गोपनीय|साझा न करें|केवल मेरे लिए|सिर्फ़? मेरे लिए|"
           r"ความลับ|ห้ามแชร์|ห้ามเผยแพร่|เฉพาะเจ้าของ|محرمانه|به اشتراک نگذار|فقط برای من|εμπιστευτικ|"
           r"απόρρητο(?!υ)|μην το μοιραστ|μόνο για μένα|"
           # "only me", "don't show anyone", "between us": the same mark said as people say it. A verb
           # of telling or showing marks a secret only with a person it is kept from ("don't tell the
           # kids", "誰にも見せない"); "Don't show raw errors to users" is a rule, not a secret.
           r"just between us|between you and me|for my eyes only|not for others|keep (?:it|this) to yourself|"
           r"(?:don'?t|do not|never) (?:tell|show)(?: (?:it|this|them))?(?: to)? (?:anyone|anybody|others|other people|"
           r"nobody|no one|the kids|the children|my (?:wife|husband|partner|kids|parents|boss|family)|the family|"
           r"mom|mum|dad)\b|(?:tell|show) (?:no one|nobody)\b|"
           r"ないしょ|内緒|ひみつ|自分だけ|私だけ|わたしだけ|おれだけ|俺だけ|僕だけ|ぼくだけ|誰にも(?:言|見せ|話)|"
           r"人に言わない|只有我(?:知道|能看|看得到|可以看)|只给我看|只給我看|"
           r"(?:别|別|不要)(?:告诉|告訴)(?:别人|別人|任何人|其他人|外人|家人|爸妈|爸媽|老婆|老公)|不要给别人看|不要給別人看|"
           r"悄悄话|悄悄話|나만 (?:알|보)|아무에게도|"
           r"не говорить никому|никому не|только для меня|niemandem zeigen|niemandem sagen|"
           r"à personne|pour moi seul|no contar a nadie|não contar a ninguém|só pra mim|"
           r"non dire a nessuno|solo per me|chỉ mình|không cho ai|giữ kín|nikomu nie|"
           r"kimseye (?:söyleme|gösterme)|hanya aku|cuma aku|aan niemand")
# "don't show" in other languages marks a section only as an aside: "Notatki (nie pokazywać)",
# "Catatan (jangan bilang siapa-siapa)"; "Regla: no mostrar errores" is a rule.
_ASIDE = (r"no mostrar|não mostrar|non mostrare|nie pokazywać|niet laten zien|jangan bilang|jangan tunjukkan|"
          r"đừng nói|не показывать|見せないで|말하지 마|don'?t tell|don'?t show")
# "private"/"personal" mark a section when they stand apart: "(private)", "— Private",
# "[private]", "Private:" or a heading that is that word ("Private", "Private notes"). So do 隐私/隱私
# ("privacy"): "（隐私）" marks a section, "隐私与合规" (privacy law) names a topic.
_APART = (r"private|personal|privat|privado|privada|privé|privée|privato|privata|私人|隐私|隱私|個人的|プライベート|cá nhân|"
          r"개인|사적|persoonlijk|prywatne|osobiste|özel|kişisel|pribadi|peribadi|personlig|personligt|privata|"
          r"soukromé|osobní|приватне|особисте|خاص|شخصي|निजी|व्यक्तिगत|ส่วนตัว|خصوصی|شخصی|ιδιωτικ[όάή]|προσωπικ[όάή]|"
          r"лично|личное|личные|persönlich|personale|only me|just me|me only|between us|"
          r"между нами|unter uns|entre nous|entre nosotros|entre nós|tra noi|tra di noi|między nami|aramızda|"
          r"antara kita|tussen ons")
_MARK = re.compile(rf"(?i)(?:{_STRONG})|[(（\[【]\s*(?:{_APART}|{_ASIDE})\b|[-–—:：|/]\s*(?:{_APART})\b|"
                   rf"^(?:{_APART})(?:\s+(?:notes?|matters?|stuff|life|info|things))?\s*(?:[(（\[【][^)）\]】]*[)）\]】])?\s*$")
_LABEL = re.compile(rf"(?i)^\s*(?:>\s*)*(?:[-*+]|\d+[.)])?\s*[*_(\[【]*\s*(?:{_STRONG}|{_APART})\b[^:：\n]{{0,20}}[:：)\]】]")
_PROFILE_ENTRY = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[^\]\n]*\]\s*)*?\[P\](?!\w)")
_PROFILE_HEADING = re.compile(r"^(?:\[[^\]\n]*\]\s*)*?\[P\](?!\w)")
_PRIVATE_TAG = re.compile(r"\[private\]", re.IGNORECASE)


def confidential(heading: str) -> bool:
    """Does this heading mark its section as not for others (in any language)?"""
    bare = heading.strip().strip("#").strip()
    return bool(_PRIVATE_TAG.search(bare) or _MARK.search(markdown.strip_tags(bare)) or _PROFILE_HEADING.match(bare))


def private_line(line: str) -> bool:
    """A `[P]` profile entry, or a line labelled private."""
    return bool(_PROFILE_ENTRY.match(line) or _LABEL.match(line))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def without_private(text: str) -> tuple[str, list[str]]:
    """`text` minus private subsections and lines (see the module docstring), and what went:
    each subsection's title, then "N private line(s)" when lines went."""
    raw = raw_lines(text)
    bare = [line.rstrip("\r\n") for line in raw]
    heads = markdown.headings(bare)
    drop = [False] * len(raw)
    titles = []
    for k, head in enumerate(heads):
        if not confidential(head.title) or drop[head.line]:
            continue
        end = next((h.line for h in heads[k + 1:] if h.level <= head.level), len(raw))
        drop[head.line:end] = [True] * (end - head.line)
        titles.append(head.title)
    head_lines = {h.line for h in heads}
    secret_lines = {number - 1 for number, _ in secrets.find(text)}  # table rows read with their header
    lines = 0
    k = 0
    while k < len(raw):
        if drop[k] or k in head_lines or not (k in secret_lines or private_line(bare[k])):
            k += 1
            continue
        depth, end = _indent(bare[k]), k + 1
        while end < len(raw) and bare[end].strip() and _indent(bare[end]) > depth and end not in head_lines:
            end += 1  # what is indented under a private entry belongs to it
        drop[k:end] = [True] * (end - k)
        lines += end - k
        k = end
    if lines:
        titles.append(f"{lines} private line{'s' if lines != 1 else ''}")
    return "".join(line for line, gone in zip(raw, drop) if not gone), titles
