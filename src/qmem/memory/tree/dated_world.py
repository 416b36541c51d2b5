"""The words of a dated entry in `cues_world.py`'s twelve languages: what leaves its matter open or
closes it (`matter.py`), what opens a meeting's heading (`dated.py`), the month names of a date
(`shapes.py`). Regex alternatives, joined to those modules' own. Data only.
"""

from __future__ import annotations

# A dated entry's matter (`matter.py`): words that leave it open, words that close it. Regex
# alternatives, matched case-insensitively on the entry's text; Latin, Cyrillic, Greek and Arabic
# script as whole words, Devanagari and Thai as written (a vowel sign ends no `\b` word).
OPEN_WORLD = (
    r"\b(?:nog niet|nog te doen|te doen|openstaand|in behandeling|volgende stappen|wacht op|"
    r"do zrobienia|jeszcze nie|w toku|w trakcie|następne kroki|czeka na|"
    r"yapılacak|henüz|devam ediyor|bekliyor|sonraki adım|"
    r"belum|sedang dikerjakan|menunggu|langkah selanjutnya|"
    r"att göra|inte än|ännu inte|pågår|väntar på|nästa steg|ikke endnu|endnu ikke|ikke ennå|venter på|næste skridt|"
    r"neste steg|"
    r"zatím ne|ještě ne|probíhá|čeká na|další kroky|rozpracováno|"
    r"ще не|очікуємо|наступні кроки|треба|потрібно|"
    r"لم يتم بعد|قيد التنفيذ|قيد الانتظار|الخطوات التالية|بانتظار|"
    r"هنوز|در حال انجام|در انتظار|قدم بعدی|"
    r"εκκρεμ\w*|δεν έχει γίνει|σε εξέλιξη|επόμενα βήματα|περιμένουμε)\b|"
    r"अभी नहीं|बाकी है|चल रहा|अगले कदम|ยังไม่|กำลังทำ|ขั้นตอนถัดไป|ค้างอยู่")
CLOSED_WORLD = (
    r"\b(?:klaar|afgerond|opgelost|voltooid|gedaan|besloten|geannuleerd|gesloten|"
    r"zrobione|gotowe|zakończon[eoya]|naprawion[eoya]|rozwiązan[eoya]|wdrożon[eoya]|zamknięt[eoya]|anulowan[eoya]|"
    r"tamamlandı|bitti|çözüldü|düzeltildi|yayınlandı|kapatıldı|iptal edildi|karar verildi|"
    r"selesai|beres|diperbaiki|diselesaikan|dirilis|ditutup|dibatalkan|diputuskan|"
    r"klart|avslutad|avslutat|löst|fixad|fixat|lanserad|beslutat|färdig|færdig|ferdig|løst|afsluttet|avsluttet|"
    r"besluttet|"
    r"hotovo|dokončeno|vyřešeno|opraveno|nasazeno|uzavřeno|zrušeno|rozhodnuto|"
    r"зроблено|виконано|виправлено|вирішено|завершено|закрито|скасовано|"
    r"تم|اكتمل|انتهى|أغلق|"
    r"انجام شد|تمام شد|تکمیل شد|حل شد|رفع شد|بسته شد|لغو شد|"
    r"ολοκληρώθηκε|τελείωσε|διορθώθηκε|επιλύθηκε|κλείστηκε|ακυρώθηκε|αποφασίστηκε)\b|"
    r"पूरा हुआ|हो गया|ठीक किया|เสร็จแล้ว|เสร็จสิ้น|แก้ไขแล้ว|ปิดแล้ว|ยกเลิกแล้ว|เรียบร้อย")
# Words that open a dated entry's heading ("Vergadering 2026-03-03", "Toplantı 3 mart 2026").
EVENTS_WORLD = (r"vergadering|overleg|spotkanie|zebranie|toplantı|görüşme|rapat|pertemuan|mesyuarat|möte|møde|møte|"
                r"schůzka|porada|зустріч|нарада|اجتماع|جلسه|बैठक|मीटिंग|ประชุม|συνάντηση|σύσκεψη")
# Month names as a date writes them ("3 maart 2026", "3 marca 2026", "3 března 2026").
MONTHS_WORLD = (r"januari|februari|maart|mei|augustus|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|"
                r"września|października|listopada|grudnia|ocak|şubat|nisan|mayıs|haziran|temmuz|ağustos|eylül|ekim|"
                r"kasım|aralık|mart|maret|agustus|desember|maj|augusti|marts|ledna|února|března|dubna|května|června|"
                r"července|srpna|září|října|listopadu|prosince|січня|лютого|березня|квітня|травня|червня|липня|"
                r"серпня|вересня|жовтня|листопада|грудня|ιανουαρίου|φεβρουαρίου|μαρτίου|απριλίου|μαΐου|ιουνίου|"
                r"ιουλίου|αυγούστου|σεπτεμβρίου|οκτωβρίου|νοεμβρίου|δεκεμβρίου")
