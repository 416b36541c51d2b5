"""Is the matter a dated entry records still open, or closed?

A date in a heading ("2026-02-03 session: offline mode") is no evidence of history: a session log
is about its subject, and its work may still be under way. Only the words of the entry say which:
an open matter names what is left (TODO, pending, next, 还没, 待确认, 次回, 남은, pendiente…), a
closed one says it is finished (done, fixed, shipped, 已上线, 完了, 완료, cerrado…), or tells what
was done, item after item, in the past tense ("Fixed…", "Moved…", "Wrote…", 讨论了, 移行した).
What is left open weighs against what was done: an entry that names as much left to do as done
(or more) is open; a day's record of ten things shipped and one follow-up is closed.
"""

from __future__ import annotations

import re

from .cues_world import CLOSED_WORLD, OPEN_WORLD

OPEN = "open"
CLOSED = "closed"

_OPEN = re.compile(
    r"(?i)\[ \]|\b(?:todo|to-?do|tbd|wip|pending|in progress|not yet|still (?:open|unknown|unclear|pending|to\b|need|needs|"
    r"missing|failing|broken|waiting)|next (?:steps?|up|time|session|sprint|week|month|release|version|phase)|next:|open questions?|remaining|left to do|"
    r"follow[- ]?ups?|blocked|waiting (?:for|on)|unresolved|undecided|to decide|to be decided|no decision|"
    r"half[- ]done|draft|awaiting|expected (?:in|by|on|next)|decision expected|to confirm|needs? (?:review|confirmation|a decision))\b|"
    # zh / zht
    r"还没|還沒|尚未|未完成|未合并|未合併|未解决|未解決|待定|待确认|待確認|待办|待辦|待处理|待處理|下次|下一步|继续|繼續|进行中|進行中|"
    r"写了一半|寫了一半|做了一半|待\s*\S{1,6}\s*确认|"
    # ja
    r"未着手|未解決|予定|次の|未完了|未対応|対応中|検討中|次回|残り|残タスク|途中|保留|未定|これから|まだ|やること|"
    # ko
    r"남은|미해결|아직|진행 중|진행중|예정|다음에|보류|미정|할 일|검토 중|"
    # es
    r"pendiente|pendientes|\bfalta\b|\bfaltan\b|por hacer|en curso|próximos? pasos?|seguimiento|queda por|quedamos en|"
    r"sin decidir|todavía|aún no|"
    # de / vi
    r"\boffen\b|ausstehend|noch nicht|nächste schritte|in arbeit|chưa|đang làm|tiếp theo|cần làm|còn lại|"
    # fr / pt / ru
    r"à faire|en attente|pas encore|reste à|prochaines? étapes?|à décider|à confirmer|en suspens|"
    r"a fazer|\bpendentes?\b|ainda não|próximos passos|aguardando|em aberto|"
    r"в работе|ещё не|еще не|осталось|следующи[ей] шаг|ожидаем|ждём|ждем|не решен|\bнужно\b|\bнадо\b|"
    # it
    r"da fare|in attesa|non ancora|prossimi passi|da decidere|da confermare")

_CLOSED = re.compile(
    r"(?i)✅|✔|☑|\[x\]|\b(?:done|completed|finished|shipped|resolved|closed|merged|retired|fixed|released|deployed|"
    r"launched|delivered|decided|cancell?ed|abandoned|no longer|went live|published|handled|settled|wrapped up|"
    r"all green|case closed)\b|"
    r"已完成|已解决|已解決|已关闭|已關閉|已上线|已上線|已发布|已發布|已合并|已合併|已修复|已修復|已删除|已刪除|关闭|關閉|结案|結案|"
    r"搞定|已取消|决定|決定|完成|已(?:经|經)?[\u4e00-\u9fff]|"
    r"完了|済み|ずみ|解決した|リリースした|終了|対応済|おわり|おわった|終わった|終わり|"
    r"완료|해결|종료|결정|마무리|끝났|끝남|"
    r"cerrad[oa]|resuelt[oa]|terminad[oa]|solucionad[oa]|decidid[oa]|finalizad[oa]|completad[oa]|\blist[oa]\b|"
    r"erledigt|abgeschlossen|behoben|entschieden|đã xong|đã hoàn thành|đã sửa|đã giải quyết|đã quyết định|"
    r"\b(?:terminée?s?|résolue?s?|corrigée?s?|livrée?s?|déployée?s?|fermée?s?|décidée?s?|réglée?s?|annulée?s?|"
    r"concluíd[oa]s?|resolvid[oa]s?|corrigid[oa]s?|entregues?|implantad[oa]s?|fechad[oa]s?|decidid[oa]s?|"
    r"cancelad[oa]s?|готово|сделано|исправлен[оа]?|завершен[оа]?|завершён|решено|закрыт[оа]?|выпущен[оа]?|"
    r"отмен[её]н[оа]?|validée?s?|approuvée?s?|signée?s?|clos|close|décision prise|aprovad[oa]s?|assinad[oa]s?|"
    r"validad[oa]s?|aprobad[oa]s?|firmad[oa]s?|genehmigt|unterschrieben|согласовано|подписан[оа]?|утвержден[оа]?|"
    r"completat[oa]|conclus[oa]|chius[oa]|risolt[oa]|corrett[oa]|rilasciat[oa]|decis[oa]|approvat[oa]|annullat[oa])\b")

_OPEN = re.compile(f"{_OPEN.pattern}|{OPEN_WORLD}")  # and in the languages of cues_world.py
_CLOSED = re.compile(f"{_CLOSED.pattern}|{CLOSED_WORLD}")

# An English item that tells what was done: it opens with a verb in the past tense.
_IRREGULAR = ("built", "wrote", "made", "ran", "found", "chose", "got", "went", "did", "met", "sent", "took",
              "held", "gave", "set", "put", "cut", "kept", "left", "lost", "paid", "sold", "spent", "began", "brought",
              "caught", "drew", "fought", "heard", "led", "read", "rode", "saw", "shot", "spoke", "stole", "told",
              "threw", "won", "broke")
_PAST_ITEM = re.compile(rf"(?i)^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*)?(?:[a-z]+ed|{'|'.join(_IRREGULAR)})\b(?!\s*(?:to|by)\b)")
# Chinese and Japanese say it in the verb's ending: 讨论了 (not 为了, 了解), 移行した, 決めました.
_PAST_CJK = re.compile(r"[\u4e00-\u9fff](?<![为為除])了(?!解)|(?:した|ました|だった|でした)(?:[。、,.]|$)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")
BODY_CHARS = 3000


def state(heading: str, body: str) -> tuple[str, str]:
    """(OPEN, CLOSED or "", the words that say so) for the matter of a dated entry."""
    text = heading + "\n" + body[:BODY_CHARS]
    left = [m.group(0).strip() for m in _OPEN.finditer(text)]
    finished = [m.group(0).strip() for m in _CLOSED.finditer(text)]
    items = [line for line in body[:BODY_CHARS].splitlines() if _LIST_ITEM.match(line)]
    told = [line for line in items if (_PAST_ITEM.match(line) or _PAST_CJK.search(line)) and not _CLOSED.search(line)]
    if left and len(left) >= len(finished) + len(told):
        return OPEN, left[0]
    if finished or (told and len(told) * 3 >= len(items) * 2):
        return CLOSED, finished[0] if finished else f"{len(told)} of {len(items)} items tell what was done"
    if left:  # more done than left: a day's record with a loose end or two
        return CLOSED, f"{len(finished) + len(told)} things done, {len(left)} left"
    return "", ""


# -- the status a heading gives its matter ----------------------------------------------------
# "Shop app (in progress)", "Portal (delivered 2026-06)", "Dự án: chi nhánh (từ 2026-09)": a heading
# whose aside states how far the work is names a piece of work, whatever its topic words say.
_SINCE = (r"(?:since|from|desde|depuis|seit|dal?|od|từ|sejak|с|з|起|以来|から|부터)\s*\d{4}|"
          r"\d{4}[-/.]?\d{0,2}\s*(?:起|以来|から|부터|'?(?:dan|den|tan|ten) beri|以降)")
_ONGOING = (r"in progress|ongoing|on-?going|under way|underway|wip|work in progress|active work|"
            r"in arbeit|laufend|em andamento|em curso|en curso|en cours|in corso|w toku|w trakcie|"
            r"devam ediyor|sürüyor|berjalan|sedang berjalan|sedang dikerjakan|в работе|в процессе|идёт|идет|"
            r"đang làm|đang thực hiện|đang triển khai|đang chạy|in uitvoering|pågår|probíhá|триває|"
            r"진행 중|진행중|"
            # work not started or waiting: still open work ("— Sent, Awaiting Responses", "(Future)", "(on deck)")
            r"awaiting(?: \w+)?|pending|waiting (?:on|for)|on deck|blocked|planned|future|not started|queued")
_ONGOING_CJK = r"进行中|進行中|推进中|推進中|开发中|開發中|対応中|開発中|作業中|🚧"
_FINISHED = (r"done|completed|complete|finished|shipped|delivered|ended|closed|shelved|abandoned|cancell?ed|"
             r"retired|archived|wrapped up|deleted|removed|discontinued|"
             # or past in another way: "(HISTORICAL — 2026-03-11 to 2026-03-27, replaced by …)", "(superseded)"
             r"historical|superseded|obsolete|outdated|defunct|replaced(?: by)?|no longer (?:used|in use|active)|"
             r"erledigt|abgeschlossen|beendet|concluso|conclusa|concluído|concluída|concluido|concluida|entregue|"
             r"terminé|terminée|terminado|terminada|terminato|finalizado|finalizada|completato|"
             r"zakończone|zakończony|zakończona|ukończone|bitti|tamamlandı|selesai|afgerond|avslutad|dokončeno|"
             r"завершено|завершён|закончено|закрыто|đã xong|đã hoàn thành|hoàn thành|"
             r"완료|종료")
_FINISHED_CJK = r"已完成|已结束|已結束|已结案|已結案|已上线|已上線|完了|終了|済み|✅|☑|✔"
_STATUS_ASIDE = re.compile(r"[(（\[【]([^)）\]】]{1,80})[)）\]】]")
_ONGOING_RE = re.compile(rf"(?i)(?<![^\W\d_])(?:{_ONGOING})(?![^\W\d_])|(?<![^\W\d_])(?:{_SINCE})|{_ONGOING_CJK}")
_SINCE_RE = re.compile(rf"(?i)^(?:{_SINCE})$")
_FINISHED_RE = re.compile(rf"(?i)(?<![^\W\d_])(?:{_FINISHED})(?![^\W\d_])|{_FINISHED_CJK}")
_LEADING_MARK = re.compile(r"^\W*?(✅|☑|✔|🚧)")
# "X — Sent, Awaiting Responses": a spaced dash's aside that says the work waits is a status too;
# "Waiting on Jason" is one as a whole. (A dash's "— Complete" often labels a finished report that
# is still the subject's, so after a dash only open work and a thing that is gone are read.)
_DASH_ASIDE = re.compile(r"\s[-–—]\s+(.{1,80})$")
_GONE = re.compile(r"(?i)(?<![^\W\d_])(?:deleted|removed|cancell?ed|abandoned|retired|shelved|archived|deprecated|"
                   r"discontinued|dropped|killed|sunset|superseded)(?![^\W\d_])|已删除|已刪除|已取消|已废弃|已廢棄|廃止|削除済み")
_WAITING = re.compile(r"(?i)^\W*(?:waiting (?:on|for)|awaiting|blocked on|pending)\b")


def heading_status(heading: str) -> tuple[str, str]:
    """(OPEN, CLOSED or "", the words that say so) for the work a heading names by its status:
    an aside in brackets ("(in progress)", "（已完成，2025-12）", "(since 2026-09)", "(bitti)") or a
    leading ✅/🚧. A heading's own words name a topic; its aside, how far the work on it is."""
    lead = _LEADING_MARK.match(heading)
    asides = [m.group(1) for m in _STATUS_ASIDE.finditer(heading)]
    for text in asides + ([lead.group(1)] if lead else []):
        finished = _FINISHED_RE.search(text)
        if finished:
            return CLOSED, finished.group(0)
        ongoing = _ONGOING_RE.search(text)
        if ongoing:
            return OPEN, ongoing.group(0)
    dash = _DASH_ASIDE.search(_STATUS_ASIDE.sub("", heading))
    gone = _GONE.search(dash.group(1)) if dash else None
    if gone:  # "Social Media Outreach — Deleted": the thing itself is gone, not only finished
        return CLOSED, gone.group(0)
    ongoing = _ONGOING_RE.search(dash.group(1)) if dash else None
    if ongoing and not _SINCE_RE.search(ongoing.group(0)):
        return OPEN, ongoing.group(0)
    waiting = _WAITING.match(heading)
    if waiting:
        return OPEN, waiting.group(0).strip()
    return "", ""
