"""Tree domains in twelve more languages (cues_world.py): Dutch, Polish, Turkish, Indonesian/Malay,
Swedish/Danish/Norwegian, Czech, Ukrainian, Arabic, Hindi, Thai, Persian, Greek. Every section here
is written for the test (none is taken from a data set)."""

from __future__ import annotations

import pytest

from qmem.memory import secrets, shared
from qmem.memory.tree import domains, headings, instructions
from qmem.memory.tree.match import Cue, fold, for_table

TABLE = domains.load_table({})

SECTIONS = [
    # Dutch
    ("nl", "Over mij", "- Woon in Utrecht, werk als ontwerper\n- Drink geen koffie na vieren\n", "identity"),
    ("nl", "Vrienden en collega's", "- Zus Anouk woont in Gent\n- Ouders komen in mei logeren\n", "people"),
    ("nl", "Thuisnetwerk en apparaten", "- Versterker op zolder\n- Modem herstart op zondag\n", "infrastructure"),
    ("nl", "Klanten en facturen", "- Factuur voor De Vries staat open\n- Uurtarief 85 euro\n", "business"),
    # Polish
    ("pl", "O mnie", "- Mieszkam w Krakowie\n- Lubię góry i kawę\n", "identity"),
    ("pl", "Zadania i cele", "- Skończyć aplikację do września\n- Nauczyć się hiszpańskiego\n", "projects"),
    ("pl", "Hasła i konta", "- poczta: patrz menedżer haseł\n", "accounts"),
    ("pl", "Umowy i podatki", "- Umowa najmu do 2027\n- PIT do końca kwietnia\n", "legal"),
    # Turkish
    ("tr", "Hakkımda", "- İstanbul'da yaşıyorum\n- Çay severim\n", "identity"),
    ("tr", "Sunucular ve yedekleme", "- Yedekleme her gece 02:00\n- Disk doluluk uyarısı\n", "infrastructure"),
    ("tr", "Müşteriler", "- Fatura ayın beşinde kesilir\n- Yeni teklif hazırlanacak\n", "business"),
    ("tr", "İş Arkadaşları", "- Ayşe: tasarım\n- Mehmet: arka uç\n", "people"),
    # Indonesian / Malay
    ("id", "Tentang saya", "- Tinggal di Bandung\n- Suka kopi tubruk\n", "identity"),
    ("id", "Keluarga dan teman", "- Adik: Rina, kuliah di Yogya\n- Ibu ulang tahun bulan Juni\n", "people"),
    ("id", "Pajak dan kontrak", "- Lapor SPT sebelum Maret\n- Kontrak klien diperpanjang\n", "legal"),
    ("ms", "Kata laluan dan akaun", "- e-mel: lihat pengurus kata laluan\n", "accounts"),
    # Swedish / Danish / Norwegian
    ("sv", "Om mig", "- Bor i Göteborg\n- Gillar långa promenader\n", "identity"),
    ("sv", "Kunder och fakturor", "- Faktura till Berg AB skickad\n- Timpris 950 kr\n", "business"),
    ("sv", "Lärdomar", "- Kontrollera återställningen innan uppgradering\n", "lessons"),
    ("da", "Møder og fødselsdage", "- Mormor fylder 80 i juli\n", "dates"),
    ("no", "Helse", "- Fastlege i mars\n", "private"),
    # Czech
    ("cs", "O mně", "- Bydlím v Brně\n- Rád jezdím na kole\n", "identity"),
    ("cs", "Zálohy a síť", "- Záloha každou noc na disk\n- Doma síť přes kabel\n", "infrastructure"),
    ("cs", "Smlouvy a daně", "- Daňové přiznání do dubna\n", "legal"),
    # Ukrainian
    ("uk", "Про мене", "- Живу у Львові\n- Люблю каву\n", "identity"),
    ("uk", "Проєкти", "- Мобільний застосунок для бібліотеки\n- Наступні кроки: бета\n", "projects"),
    ("uk", "Податки та страхування", "- Декларація до травня\n", "legal"),
    # Arabic
    ("ar", "نبذة عني", "- أسكن في عمّان\n- أحب القهوة العربية\n", "identity"),
    ("ar", "المشاريع الحالية", "- تطبيق لحجز المواعيد\n- الخطوات التالية: الإطلاق\n", "projects"),
    ("ar", "الخوادم والنسخ الاحتياطي", "- نسخة احتياطية كل ليلة\n", "infrastructure"),
    ("ar", "العملاء والفواتير", "- فاتورة شركة النور مستحقة\n", "business"),
    # Hindi
    ("hi", "मेरे बारे में", "- पुणे में रहता हूँ\n- चाय पसंद है\n", "identity"),
    ("hi", "परिवार और दोस्त", "- बहन: प्रिया\n- माता-पिता दिल्ली में\n", "people"),
    ("hi", "सर्वर और बैकअप", "- हर रात बैकअप\n- डिस्क लगभग भरी\n", "infrastructure"),
    ("hi", "सुरक्षा", "- दो-चरणीय सत्यापन चालू\n", "security"),
    # Thai
    ("th", "เกี่ยวกับฉัน", "- อาศัยอยู่เชียงใหม่\n- ชอบกาแฟดำ\n", "identity"),
    ("th", "ลูกค้าและใบแจ้งหนี้", "- ส่งใบแจ้งหนี้ทุกสิ้นเดือน\n", "business"),
    ("th", "เซิร์ฟเวอร์และการสำรองข้อมูล", "- สำรองข้อมูลทุกคืน\n", "infrastructure"),
    # Persian
    ("fa", "درباره من", "- ساکن شیراز هستم\n- چای دوست دارم\n", "identity"),
    ("fa", "پروژه‌ها", "- اپلیکیشن رزرو\n- قدم‌های بعدی: تست\n", "projects"),
    ("fa", "قراردادها و مالیات", "- اظهارنامه مالیاتی تا خرداد\n", "legal"),
    # Greek
    ("el", "Σχετικά με μένα", "- Μένω στη Θεσσαλονίκη\n- Μου αρέσει ο καφές\n", "identity"),
    ("el", "Πελάτες και τιμολόγια", "- Τιμολόγιο για την εταιρεία Α\n", "business"),
    ("el", "Διακομιστές", "- Αντίγραφα ασφαλείας κάθε βράδυ\n", "infrastructure"),
    ("el", "Φίλοι και οικογένεια", "- Η αδερφή μου η Ελένη\n", "people"),
]
CUELESS = [
    ("nl", "Fietstocht naar Zandvoort", "- Vertrek om negen uur\n- Regenjas mee\n"),
    ("pl", "Wyprawa w Tatry", "- Wyjazd w piątek rano\n- Wziąć raki\n"),
    ("tr", "Kapadokya gezisi", "- Balon turu sabah beşte\n- Otel Göreme'de\n"),
    ("id", "Resep rendang nenek", "- Santan dua liter\n- Masak empat jam\n"),
    ("sv", "Sommarstugan", "- Vattnet stängs av i oktober\n"),
    ("cs", "Chata na Šumavě", "- Klíče u pana Nováka\n"),
    ("uk", "Поїздка в Карпати", "- Виїзд у п'ятницю\n"),
    ("ar", "رحلة إلى البتراء", "- الانطلاق الساعة السادسة\n"),
    ("hi", "गोवा की छुट्टी", "- समुद्र तट के पास होटल\n"),
    ("th", "ร้านก๋วยเตี๋ยวเจ้าประจำ", "- เปิดเจ็ดโมงเช้า\n"),
    ("fa", "کوهنوردی دماوند", "- حرکت ساعت پنج صبح\n"),
    ("el", "Καλοκαίρι στη Νάξο", "- Πλοίο στις οκτώ\n"),
]
SECRETS = [
    ("nl", "- wachtwoord: Zomer2024!"), ("pl", "- hasło: Lato#2024x"), ("tr", "- wifi şifresi: Kedi_1234"),
    ("id", "- kata sandi: Rahasia#99"), ("ms", "- kata laluan: Bunga@123"), ("sv", "- lösenord: Sommar!2024"),
    ("da", "- adgangskode: Sommer#2024"), ("no", "- passord: Fjell2024!"), ("cs", "- heslo: Leto*2024x"),
    ("uk", "- пароль від роутера: Lito2024!"), ("ar", "- كلمة المرور: Qx7#mP2v"), ("hi", "- पासवर्ड: Ghar@2024"),
    ("th", "- รหัสผ่าน: Baan#2024"), ("fa", "- رمز عبور: Tehran#1402"), ("el", "- κωδικός πρόσβασης: Kalo#2024"),
]
CONFIDENTIAL = [
    ("nl", "Vertrouwelijk"), ("pl", "Notatki (poufne)"), ("tr", "Gizli notlar"), ("id", "Catatan rahasia"),
    ("sv", "Konfidentiellt"), ("da", "Fortroligt"), ("cs", "Důvěrné poznámky"), ("uk", "Конфіденційно"),
    ("ar", "ملاحظات سري"), ("hi", "गोपनीय नोट्स"), ("th", "บันทึกความลับ"), ("fa", "یادداشت‌های محرمانه"), ("el", "Εμπιστευτικό"),
]
RULE_HEADS = [
    ("nl", "Richtlijnen"), ("pl", "Zasady"), ("tr", "Kurallar"), ("id", "Aturan"), ("sv", "Regler"), ("da", "Retningslinjer"),
    ("cs", "Pravidla"), ("uk", "Інструкції"), ("ar", "القواعد"), ("hi", "नियम"), ("th", "กฎเกณฑ์"), ("fa", "قوانین"),
    ("el", "Κανόνες"),
]
ORDERS = [
    ("nl", "- Altijd eerst vragen\n- Nooit pushen op vrijdag\n- Altijd in het Nederlands antwoorden\n"),
    ("pl", "- Zawsze najpierw pytaj\n- Nigdy nie usuwaj plików\n- Zawsze odpowiadaj po polsku\n"),
    ("tr", "- Her zaman önce sor\n- Asla dosya silme\n- Mutlaka Türkçe yanıtla\n"),
    ("id", "- Selalu tanya dulu\n- Jangan hapus berkas\n- Wajib jawab dalam bahasa Indonesia\n"),
    ("sv", "- Fråga alltid först\n- Radera aldrig filer\n- Du måste svara på svenska\n"),
    ("cs", "- Vždy se nejdřív zeptej\n- Nikdy nemaž soubory\n- Vždy odpovídej česky\n"),
    ("uk", "- Завжди спершу питай\n- Ніколи не видаляй файли\n- Завжди відповідай українською\n"),
    ("ar", "- دائماً اسأل أولاً\n- لا تحذف الملفات أبداً\n- يجب الرد بالعربية\n"),
    ("hi", "- हमेशा पहले पूछें\n- कभी नहीं फ़ाइलें हटाएँ\n- हमेशा हिंदी में जवाब दें\n"),
    ("th", "- ถามก่อนเสมอ\n- ห้ามลบไฟล์\n- ตอบเป็นภาษาไทยทุกครั้ง\n"),
    ("fa", "- همیشه اول بپرس\n- هرگز فایل‌ها را پاک نکن\n- همیشه فارسی جواب بده\n"),
    ("el", "- Πάντα ρώτα πρώτα\n- Ποτέ μη σβήνεις αρχεία\n- Πρέπει να απαντάς στα ελληνικά\n"),
]


@pytest.mark.parametrize("lang, heading, body, expected", SECTIONS)
def test_a_section_in_each_language_lands_in_its_domain(lang, heading, body, expected):
    assert domains.explain(heading, body, TABLE).domain == expected


@pytest.mark.parametrize("lang, heading, body", CUELESS)
def test_a_heading_with_no_cue_keeps_a_domain_named_after_it(lang, heading, body):
    verdict = domains.explain(heading, body, TABLE)
    assert verdict.domain == headings.heading_domain(heading) and verdict.domain not in TABLE


@pytest.mark.parametrize("lang, line", SECRETS)
def test_a_password_under_its_own_label_is_a_secret(lang, line):
    assert secrets.find(line)
    assert domains.explain("Notities", line + "\n", TABLE).domain == "accounts"


@pytest.mark.parametrize("line", [
    "- şifreleme: AES256x",      # Turkish encryption, not şifre (password)
    "- رمزنگاری: AES256",         # Persian encryption, not رمز (password)
    "- parola: ciaooo",          # Italian "word"
    "- κωδικός: ABCDEF",         # Greek "code": a password after it needs a digit or a mark
])
def test_words_that_only_start_like_a_password_label_are_no_secret(line):
    assert not secrets.find(line)


@pytest.mark.parametrize("lang, heading", CONFIDENTIAL)
def test_a_confidential_heading_goes_to_private(lang, heading):
    assert shared.confidential(heading)
    assert domains.explain(heading, "- Notitie\n", TABLE).domain == "private"


@pytest.mark.parametrize("heading", ["Gizlilik", "Kişisel bilgiler", "ملاحظات سريعة", "Πολιτική απορρήτου"])
def test_privacy_and_personal_info_headings_are_not_marked_confidential(heading):
    assert not shared.confidential(heading)  # privacy (a topic), personal info (identity), "quick" notes


@pytest.mark.parametrize("lang, heading", RULE_HEADS)
def test_a_heading_that_names_rules_is_an_instruction(lang, heading):
    assert instructions.instruction(heading, "- Eerst\n", TABLE).startswith("heading names rules")


@pytest.mark.parametrize("lang, body", ORDERS)
def test_a_list_of_orders_is_an_instruction(lang, body):
    heading = next(h for language, h, _ in CUELESS if language == lang)
    assert instructions.instruction(heading, body, TABLE) == "3 of 3 items are instructions"


@pytest.mark.parametrize("heading", ["قواعد البيانات", "กฎหมาย", "Regelwerk der Datenbank"])
def test_a_word_inside_a_topic_is_no_rule_heading(heading):
    assert not instructions.instruction(heading, "- x\n", TABLE).startswith("heading names rules")


def test_devanagari_words_keep_their_vowel_signs():
    """`\\w` holds no combining mark: the matcher cut सुरक्षा into स, र, क, ष, so a one-word cue was
    read as four words (weight 2) and matched inside other words' fragments."""
    assert Cue("सुरक्षा", "security").weight == 1.0
    found = for_table({"security": ["सुरक्षा"]}).find(fold("डेटा की सुरक्षा ज़रूरी है"))
    assert [cue.text for cue in found] == ["सुरक्षा"]
    assert not for_table({"security": ["सुरक्षा"]}).find(fold("सुर क्षा"))


def test_thai_is_matched_inside_a_run_and_weighs_by_its_length():
    """Thai writes no spaces between words: its cues are substrings, like CJK; a Thai syllable takes
    about three characters, so a cue weighs 2 from nine characters (a CJK cue from three)."""
    table = for_table({"agents": ["บอท"], "security": ["ความปลอดภัย"]})
    found = {cue.text for cue in table.find(fold("ตั้งค่าบอทและความปลอดภัยของระบบ"))}
    assert found == {"บอท", "ความปลอดภัย"}
    assert Cue("บอท", "agents").weight == 1.0 and Cue("ความปลอดภัย", "security").weight == 2.0


def test_a_turkish_capital_dotted_i_folds_to_i():
    assert fold("İş Arkadaşları") == "iş arkadaşları"
    assert domains.explain("İletişim ve İş arkadaşları", "- Ayşe\n", TABLE).domain == "people"


# A dated entry (matter.py): open words keep it with its subject, closed words file it in archive; the
# event words and month names of these languages make a heading a dated entry.
DATED = [
    ("nl", "Vergadering 2026-03-03: servers", "- Nieuwe server besproken\n- Klaar: migratie\n",
     "- Nieuwe server besproken\n- Nog te doen: migratie\n"),
    ("pl", "Spotkanie 2026-03-03: serwery", "- Omówiono nowy serwer\n- Gotowe: migracja\n",
     "- Omówiono nowy serwer\n- Jeszcze nie: migracja\n"),
    ("tr", "Toplantı 2026-03-03: sunucular", "- Yeni sunucu konuşuldu\n- Taşıma bitti\n",
     "- Yeni sunucu konuşuldu\n- Taşıma henüz yapılmadı\n"),
    ("id", "Rapat 2026-03-03: jaringan", "- Bahas jaringan kantor\n- Migrasi selesai\n",
     "- Bahas jaringan kantor\n- Migrasi belum jalan\n"),
    ("sv", "Möte 2026-03-03: servrar", "- Ny server diskuterad\n- Flytten är klart\n",
     "- Ny server diskuterad\n- Flytten ännu inte gjord\n"),
    ("cs", "Schůzka 2026-03-03: servery", "- Probrán nový server\n- Migrace hotovo\n",
     "- Probrán nový server\n- Migrace zatím ne\n"),
    ("uk", "Зустріч 2026-03-03: інфраструктура", "- Обговорили новий сервер\n- Міграцію завершено\n",
     "- Обговорили новий сервер\n- Міграцію ще не почали\n"),
    ("ar", "اجتماع 2026-03-03: الخوادم", "- ناقشنا الخادم الجديد\n- اكتمل النقل\n",
     "- ناقشنا الخادم الجديد\n- النقل لم يتم بعد\n"),
    ("hi", "बैठक 2026-03-03: सर्वर", "- नए सर्वर पर चर्चा\n- माइग्रेशन पूरा हुआ\n",
     "- नए सर्वर पर चर्चा\n- माइग्रेशन अभी नहीं हुआ\n"),
    ("th", "ประชุม 2026-03-03: เซิร์ฟเวอร์", "- คุยเรื่องเซิร์ฟเวอร์ใหม่\n- ย้ายระบบเสร็จแล้ว\n",
     "- คุยเรื่องเซิร์ฟเวอร์ใหม่\n- ยังไม่ได้ย้ายระบบ\n"),
    ("fa", "جلسه 2026-03-03: سرورها", "- درباره سرور جدید صحبت شد\n- انتقال تمام شد\n",
     "- درباره سرور جدید صحبت شد\n- انتقال هنوز انجام نشده\n"),
    ("el", "Συνάντηση 2026-03-03: διακομιστές", "- Συζητήσαμε τον νέο διακομιστή\n- Η μετάβαση ολοκληρώθηκε\n",
     "- Συζητήσαμε τον νέο διακομιστή\n- Η μετάβαση εκκρεμεί\n"),
]


@pytest.mark.parametrize("lang, heading, closed, still_open", DATED)
def test_a_dated_entry_is_archive_when_closed_and_stays_with_its_subject_when_open(lang, heading, closed, still_open):
    assert domains.explain(heading, closed, TABLE).domain == "archive"
    assert domains.explain(heading, still_open, TABLE).domain == "infrastructure"


@pytest.mark.parametrize("heading", ["Vergadering 3 maart 2026", "Spotkanie 3 marca 2026", "Toplantı 3 mart 2026",
                                     "Schůzka 3. března 2026", "Зустріч 3 березня 2026", "Συνάντηση 3 Μαρτίου 2026",
                                     "Möte 3 mars 2026", "Rapat 3 Agustus 2026"])
def test_a_meeting_on_a_day_written_with_its_month_name_is_a_dated_entry(heading):
    verdict = domains.explain(heading, "- Alles besproken\n", TABLE)
    assert verdict.domain == "archive" and "dated log entry" in " ".join(verdict.cues)
