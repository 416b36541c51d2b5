"""Dated log entries in a MEMORY.md ("2026-02-03 session: offline mode", "## 2026-03-01", "Feb 19
Afternoon — …", "18. Protokoll 15.09.2026 – …"): which headings are one, and where one is filed —
archive when its words say the matter is closed (a day alone, a fix, a check), with the work when it
is still open, by its subject otherwise (what it set up, when that lasts past the day). Split out of
`domains`, whose `explain` asks `is_entry` and hands an entry to `entry`.
"""

from __future__ import annotations

import re
import time

from typing import Any, Callable

from . import shapes
from .cues_world import EVENTS_WORLD
from .matter import CLOSED, OPEN, state
from .verdict import ARCHIVE, GENERAL, HEADING_WEIGHT, PROJECTS, Verdict

# Words that say a matter is current, a heading's bracketed asides, a date (read by `domains` too).
CURRENT = re.compile(r"(?i)\b(?:current|currently|active|ongoing|open|now|live|in progress|today|this week|next)\b|"
                      r"当前|目前|现在|进行中|本周|現在|進行中|今週|aktuell|laufend|hiện tại|đang|현재|진행 ?중|"
                      r"\b(?:actuel(?:le)?s?|en cours|atua(?:l|is)|em andamento|actual(?:es)?|en curso|vigentes?|jetzt|attual[ei]|in corso|"
                      r"сейчас|текущ\w*)\b")
BRACKETED = re.compile(r"[(（\[【][^)）\]】]*[)）\]】]")
DATE = re.compile(r"\d{4}[-/.年]\d{1,2}(?:[-/.月]\d{1,2}日?)?|\b(?:19|20)\d\d\b")

# A heading that records an event on a date: "Session 2026-05-22 — …", "2026-04-09: kickoff",
# "Meeting (Jan 24, 2026)", "会议 2026-03-01"; a date saying "as of" ("(updated 2026-04-13)") is not one.
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
# a day written day-first or in another language: "03.02.2026", "3 mars 2026", "15 de marzo de 2026",
# "3 марта 2026", "2026년 3월 3일"
_DAY_FIRST = (rf"(?:\d{{1,2}}[./]\d{{1,2}}[./]\d{{4}}|\d{{4}}년\s?\d{{1,2}}월\s?\d{{1,2}}일|"
              rf"\d{{1,2}}\.?\s+(?:de\s+)?(?:{shapes.MONTHS})\.?,?\s+(?:de\s+)?\d{{4}})")
# a month and a day without a year, as a running log writes them: "Feb 19 Afternoon — …", "March 3: …"
_MONTH_DAY = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
              r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?(?!\d|:\d)")
_DAY = rf"(?:\d{{4}}[-/.年]\d{{1,2}}[-/.月]\d{{1,2}}日?|{_MONTH}|{_DAY_FIRST}|{_MONTH_DAY})"
_EVENT = (r"session|meeting|call|sync|standup|stand-up|retro|incident|interview|workshop|sprint|day|"
          r"会议|会话|复盘|例会|會議|會話|セッション|会議|打ち合わせ|sitzung|besprechung|buổi|cuộc họp|"
          r"séance|réunion|sessão|reunião|chamada|reunión|sesión|llamada|сессия|встреча|созвон|совещание|"
          r"세션|회의|미팅|通话|通話|ミーティング|treffen|gespräch|riunione|sessione|chiamata|incontro|buổi họp")
_EVENT += "|minutes|protokoll|protocol|протокол|verbale|acta|ata|notulen|protokół|biên bản|議事録|会议纪要|會議紀錄"  # a meeting's minutes
_EVENT += f"|{EVENTS_WORLD}"  # and in the languages of cues_world.py
# a day with no year opening a heading: "11/3 オフ会", "3月5日 面談" (a daily note's own date)
_DAY_NO_YEAR = r"(?:(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])|(?:0?[1-9]|1[0-2])月(?:0?[1-9]|[12]\d|3[01])日)(?![\d/])"
LOG_ENTRY = re.compile(rf"(?i)^(?:(?:{_EVENT})\s*(?:#?\d+\s*)?[-–—:：(（]?\s*(?:(?:du|de|del|do|da|vom|am|on|of|от|il)\s+)?{_DAY}|{_DAY}\s*(?:→\s*{_DAY}\s*)?(?:[-–—:：]|\s+\S)|"
                        rf"(?:{_EVENT})\s*#?\d*\b.*[(（]\s*{_DAY}|{_DAY_NO_YEAR}\s+\S)")
# A dated entry whose heading names a way of working that lasts (a process, workflow, procedure, how-to)
# or marks itself important is no past day's record, however much of it is done.
_LASTING = re.compile(r"(?i)(?<![^\W\d_])(?:process|processes|workflows?|procedures?|how[- ]to|playbook|runbook|"
                      r"guide|guidelines|checklist|sop|standard|important|must remember|ablauf|anleitung|proceso|processo|"
                      r"procedimiento|procédure|quy trình|hướng dẫn)(?![^\W\d_])|"
                      r"流程|步骤|步驟|指南|教程|做法|规范|規範|重要|必須記住|必须记住|手順|フロー|やり方|ワークフロー")
# A dated entry that records something installed, set up, created or integrated: the thing lasts past the
# day ("2026-03-26 OpenClaw Office 安裝", "SEO 優化功能整合"); a fix, a check or a finished batch is the day's.
_BUILT = re.compile(r"安裝|安装|建立|创建|創建|整合|集成|導入|导入|搭建|構築|インストール|導入完了|設置完了|"
                    r"(?<![^\W\d_])(?:installed|set up|integrated|cài đặt|tích hợp)(?![^\W\d_])|설치|구축|연동")
_ISO_DAY = re.compile(r"\d{4}[-/.]\d{2}[-/.]\d{2}")
_AS_OF = re.compile(r"(?i)\b(?:updated|revised|added|as of|last|since|mis[e]? à jour|atualizad[oa]|actualizad[oa]|"
                    r"aktualisiert|обновлено|cập nhật|aggiornat[oa])\b|更新|截至|截止|現在|stand|업데이트")

_LEADING_DAY = re.compile(rf"(?i)^{_DAY}")
_ONLY_DAY = re.compile(rf"(?i)^{_DAY}\s*$")  # "## 2026-03-01": a daily log's section


def _update_entry(head: str) -> bool:
    """Is the heading a day and the word for an update alone ("2026-03-25 更新（重大進展）", "2026-04-02
    update")? That is a log entry of the day's changes, not a topic "as of" a day."""
    lead = _LEADING_DAY.match(head)
    if not lead:
        return False
    rest = _AS_OF.sub(" ", BRACKETED.sub(" ", head[lead.end():]))
    return not re.search(r"[^\W\d_]", rest)


def _in_future(head: str) -> bool:
    """Does the heading's first day (YYYY-MM-DD) lie after today? A coming day is an appointment."""
    found = _ISO_DAY.search(head)
    return found is not None and found.group(0).replace("/", "-").replace(".", "-") > time.strftime("%Y-%m-%d")


def _log_subject(head: str) -> str:
    """What a dated entry's heading says it is about: its dates, event word and numbering left out
    ("2026-02-03 session: offline mode" → "offline mode")."""
    text = DATE.sub(" ", re.sub(f"{_MONTH}|{_DAY_FIRST}|{_MONTH_DAY}", " ", head, flags=re.IGNORECASE))
    text = re.sub(rf"(?i)^[\s\W]*(?:(?:{_EVENT})\b\s*#?\d*)?[\s\-–—:：()（）#,→]*", "", text.strip())
    return text.strip(" -–—:：()（）")


def entry(head: str, body: str, table: dict[str, list[str]], context: Any, found: list | None,
          explain: Callable[..., Verdict]) -> Verdict:
    """A dated log entry ("2026-02-03 session: offline mode"): archive when its words say the matter
    is closed; open work stays with the work (its heading's domain, else projects); otherwise it
    is filed by its subject, and archived as a past day's record only when nothing says what it is about."""
    how, words = state(head, body)
    lasting = _LASTING.search(head)
    if how == CLOSED and lasting:  # "2026-03-27 文章生成流程（重要）": the day set up a way of working that lasts
        how = ""
    subject = _log_subject(head)
    if how == CLOSED and _BUILT.search(subject):  # "2026-03-26 OpenClaw Office 安裝": what was set up is still there
        what = re.sub(r"[(（\[【][^)）\]】]*$", " ", BRACKETED.sub(" ", subject))  # its asides left out
        inner = explain(_BUILT.sub(" ", what).strip(), body, table, context, found, dated=False)
        if inner.confident and inner.domain != ARCHIVE and any(_strong_heading_cue(c) for c in inner.cues):
            inner.cues = [f"a dated log entry of something set up that lasts ({words}), filed by it"] + inner.cues
            return inner
    if how == CLOSED:
        verdict = Verdict(ARCHIVE)
        verdict.cues = [f"heading: a dated log entry, and it says the matter is closed ({words})"]
        return verdict
    if _ONLY_DAY.match(head) and how != OPEN:  # "## 2026-03-01" over the day's notes: the day is all it is about
        verdict = Verdict(ARCHIVE)
        verdict.cues = ["heading: a dated log entry, a day alone (a past day's record)"]
        return verdict
    inner = explain(subject, body, table, context, found, dated=False, vague=True)
    by_heading = inner.confident and any(_strong_heading_cue(c) for c in inner.cues)
    if how == OPEN:
        if not by_heading and PROJECTS in table:
            inner = Verdict(PROJECTS)
        inner.cues = [f"a dated log entry whose matter is still open ({words})"] + inner.cues
        return inner
    if inner.confident and inner.domain != GENERAL:
        inner.cues = ["a dated log entry, filed by its subject"] + inner.cues
        return inner
    leaning = _leaning(inner, context.confidence)
    if leaning:  # two subjects close together are still a subject: better than a past day's catch-all
        verdict = Verdict(leaning)
        verdict.scores = inner.scores
        verdict.cues = [f"a dated log entry whose body leans to {leaning} ({inner.scores[leaning]:g}, "
                        f"{inner.support.get(leaning, 0)} pieces of evidence)"]
        return verdict
    verdict = Verdict(ARCHIVE)
    verdict.cues = ["heading: a dated log entry (a past day's record; nothing says what it is about)"]
    return verdict


def _strong_heading_cue(reason: str) -> bool:
    """Is this piece of evidence a heading cue of full weight ("heading: 工作 (+1.5)", a broad everyday
    word, is not: an open matter under it is still work in progress)?"""
    if not reason.startswith("heading:"):
        return False
    points = reason.rpartition("(+")[2].rstrip(")")
    try:
        return float(points) >= HEADING_WEIGHT
    except ValueError:
        return True


def _leaning(verdict: Verdict, confidence: float) -> str:
    """The domain an unconfident verdict's body leans to: the best score when it reaches
    `confidence`, a tie going to the domain with more pieces of evidence ("" when still tied)."""
    ranked = sorted(((score, verdict.support.get(d, 0), d) for d, score in verdict.scores.items()), reverse=True)
    if not ranked or ranked[0][0] < confidence or (len(ranked) > 1 and ranked[1][:2] == ranked[0][:2]):
        return ""
    return ranked[0][2]


def is_entry(head: str, unnumbered: str) -> bool:
    """Is the heading (`unnumbered`: without its list number) a dated log entry: an event on a day, a
    day and what happened, a day alone; not a topic "as of" a day, a current matter or a coming day."""
    return bool(LOG_ENTRY.match(unnumbered) or _ONLY_DAY.match(unnumbered)) \
        and (not _AS_OF.search(head) or _update_entry(unnumbered)) \
        and not CURRENT.search(head) and not _in_future(head)
