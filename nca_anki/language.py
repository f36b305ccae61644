"""Every word the card itself says, in each language the ``language`` setting offers.

The questions are the authors' words; these are the card's own: the hint on the front,
the verdict and the marks on the back, what a screen reader is told about the choices,
the static answer line and the "part" in the Source field. ``words_in(language)``
gives one
language's table; the templates receive it as ``text`` (and card.js as JSON), and
``lang``/``dir`` for the card's root element, so that a right-to-left language reads
right to left (docs/card.md, "The card's language").

Rules for a table (tests/cards/test_language.py holds every language to them):
- the same keys as English, and in each string the same ``{placeholders}``;
- a count never decides a word's form: "Choose {n} answers" is written so that it reads
  right for every n from 2 to 10 in that language (Arabic has a dual and a plural, so it
  says "Answers to choose: {n}");
- a mark keeps its sign and its first word together with a no-break space (U+00A0);
- French puts a no-break space before ":" and ";", as French typography does.

English is the card as it always was: a deck built in English has the bytes it had
before languages existed. The other tables were written for this project by a reader of
each language, not rendered word for word by a machine; a correction is a pull request
that changes one line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

DEFAULT_LANGUAGE = "en"

_EN = {
    # Static: in the templates and the fields, read without JavaScript too.
    "answer_static": "Answer:",  # back.html: "Answer: B"
    "correct_static": "correct",  # style.css, after "✓ " on each correct choice
    "choose_count": "Choose {n} answers.",  # above a several-answer question's choices
    "source": "{deck} — part {part}",  # the Source field
    "report": "Report a problem with this question",  # the Source field: report_url
    # card.js: what a screen reader is told the choices are.
    "group_back": "Choices",
    "group_one": "Choose an answer",
    "group_several": "Choose {n} answers",
    # card.js: the hint above the choices ({keys}: "Alt+1–4", "Option+1–4" on a Mac).
    "hint_one_touch": "Choose: tap a choice.",
    "hint_one_keys": "Choose: click a choice or press {keys}.",
    "hint_several_touch": "Tap choices to pick or unpick them.",
    "hint_several_keys": "Click choices, or press {keys}, to pick or unpick them.",
    "hint_flip": "Picking shows the answer.",
    "hint_strike_touch": "Touch and hold a choice to strike it out.",
    "hint_strike_keys": "Right-click a choice, or press {keys}, to strike it out.",
    # card.js: the count under "Choose 3 answers." as the learner picks.
    "picked_count": "{k} picked.",
    "choose_full": "Unpick one to pick another.",
    "struck": "struck out",  # read by a screen reader after a choice struck out
    # card.js: the marks on the back's choices.
    "mark_right": "✓\u00a0Correct — your\u00a0choice",
    "mark_missed": "✓\u00a0Correct — missed",
    "mark_answer": "✓\u00a0Correct answer",
    "mark_wrong_pick": "✗\u00a0Wrong pick",
    "mark_your_choice": "✗\u00a0Your choice",
    # card.js: the verdict ({answers}, {chosen}, {letters}: "B", "B and D", "A, C and D").
    "verdict_none_one": "The answer is {answers}.",
    "verdict_none_several": "The answers are {answers}.",
    "verdict_right_one": "✓ Correct — you chose {chosen}.",
    "verdict_right_several": "✓ Correct: you chose {chosen}.",
    "verdict_wrong_one": "✗ You chose {chosen}; the answer is {answers}.",
    "verdict_wrong_several": "✗ You chose {chosen}; the answers are {answers}.",
    "detail_right": "Right: {letters}.",
    "detail_missed": "Missed: {letters}.",
    "detail_wrong": "Wrong: {letters}.",
    "list_comma": ", ",
    "list_and": " and ",
}

_DE = {
    "answer_static": "Antwort:",
    "correct_static": "richtig",
    "choose_count": "Wählen Sie {n} Antworten.",
    "source": "{deck} — Teil {part}",
    "report": "Fehler in dieser Frage melden",
    "group_back": "Antworten",
    "group_one": "Wählen Sie eine Antwort",
    "group_several": "Wählen Sie {n} Antworten",
    "hint_one_touch": "Tippen Sie auf eine Antwort, um sie zu wählen.",
    "hint_one_keys": "Klicken Sie auf eine Antwort oder drücken Sie {keys}.",
    "hint_several_touch": "Tippen Sie auf Antworten, um sie zu wählen oder abzuwählen.",
    "hint_several_keys": "Klicken Sie auf Antworten oder drücken Sie {keys}, um sie zu "
                         "wählen oder abzuwählen.",
    "hint_flip": "Mit der Wahl erscheint die Lösung.",
    "hint_strike_touch": "Halten Sie eine Antwort gedrückt, um sie durchzustreichen.",
    "hint_strike_keys": "Ein Rechtsklick auf eine Antwort oder {keys} streicht sie durch.",
    "picked_count": "{k} gewählt.",
    "choose_full": "Wählen Sie erst eine ab, um eine andere zu wählen.",
    "struck": "durchgestrichen",
    "mark_right": "✓\u00a0Richtig — Ihre\u00a0Wahl",
    "mark_missed": "✓\u00a0Richtig — nicht gewählt",
    "mark_answer": "✓\u00a0Richtige Antwort",
    "mark_wrong_pick": "✗\u00a0Falsch gewählt",
    "mark_your_choice": "✗\u00a0Ihre Wahl",
    "verdict_none_one": "Die Antwort ist {answers}.",
    "verdict_none_several": "Die Antworten sind {answers}.",
    "verdict_right_one": "✓ Richtig — Sie haben {chosen} gewählt.",
    "verdict_right_several": "✓ Richtig: Sie haben {chosen} gewählt.",
    "verdict_wrong_one": "✗ Sie haben {chosen} gewählt; richtig ist {answers}.",
    "verdict_wrong_several": "✗ Sie haben {chosen} gewählt; richtig sind {answers}.",
    "detail_right": "Richtig: {letters}.",
    "detail_missed": "Nicht gewählt: {letters}.",
    "detail_wrong": "Falsch: {letters}.",
    "list_comma": ", ",
    "list_and": " und ",
}

_FR = {
    "answer_static": "Réponse\u00a0:",
    "correct_static": "bonne réponse",
    "choose_count": "Choisissez {n} réponses.",
    "source": "{deck} — partie {part}",
    "report": "Signaler un problème dans cette question",
    "group_back": "Réponses proposées",
    "group_one": "Choisissez une réponse",
    "group_several": "Choisissez {n} réponses",
    "hint_one_touch": "Touchez une réponse pour la choisir.",
    "hint_one_keys": "Cliquez sur une réponse ou appuyez sur {keys}.",
    "hint_several_touch": "Touchez les réponses pour les choisir ou les retirer.",
    "hint_several_keys": "Cliquez sur les réponses, ou appuyez sur {keys}, pour les "
                         "choisir ou les retirer.",
    "hint_flip": "Votre choix affiche la réponse.",
    "hint_strike_touch": "Maintenez le doigt sur une réponse pour la barrer.",
    "hint_strike_keys": "Un clic droit sur une réponse, ou {keys}, la barre.",
    "picked_count": "Choisies\u00a0: {k}.",
    "choose_full": "Retirez-en une pour en choisir une autre.",
    "struck": "barrée",
    "mark_right": "✓\u00a0Bonne réponse — votre\u00a0choix",
    "mark_missed": "✓\u00a0Bonne réponse — oubliée",
    "mark_answer": "✓\u00a0Bonne réponse",
    "mark_wrong_pick": "✗\u00a0Mauvais choix",
    "mark_your_choice": "✗\u00a0Votre choix",
    "verdict_none_one": "La réponse est {answers}.",
    "verdict_none_several": "Les réponses sont {answers}.",
    "verdict_right_one": "✓ Exact — vous avez choisi {chosen}.",
    "verdict_right_several": "✓ Exact\u00a0: vous avez choisi {chosen}.",
    "verdict_wrong_one": "✗ Vous avez choisi {chosen}\u00a0; la réponse est {answers}.",
    "verdict_wrong_several": "✗ Vous avez choisi {chosen}\u00a0; les réponses sont {answers}.",
    "detail_right": "Justes\u00a0: {letters}.",
    "detail_missed": "Oubliées\u00a0: {letters}.",
    "detail_wrong": "Fausses\u00a0: {letters}.",
    "list_comma": ", ",
    "list_and": " et ",
}

_AR = {
    "answer_static": "الإجابة:",
    "correct_static": "صحيحة",
    "choose_count": "عدد الإجابات المطلوبة: {n}.",
    "source": "{deck} — الجزء {part}",
    "report": "الإبلاغ عن مشكلة في هذا السؤال",
    "group_back": "الخيارات",
    "group_one": "اختر إجابة واحدة",
    "group_several": "عدد الإجابات المطلوبة: {n}",
    "hint_one_touch": "المس خيارًا لاختياره.",
    "hint_one_keys": "انقر على خيار أو اضغط {keys}.",
    "hint_several_touch": "المس الخيارات لاختيارها أو لإلغاء اختيارها.",
    "hint_several_keys": "انقر على الخيارات أو اضغط {keys} لاختيارها أو لإلغاء اختيارها.",
    "hint_flip": "يظهر الحل بمجرد الاختيار.",
    "hint_strike_touch": "اضغط مطولًا على خيار لشطبه.",
    "hint_strike_keys": "انقر بالزر الأيمن على خيار أو اضغط {keys} لشطبه.",
    "picked_count": "المختارة: {k}.",
    "choose_full": "ألغِ اختيار إجابة أولًا لتختار غيرها.",
    "struck": "مشطوب",
    "mark_right": "✓\u00a0صحيح — اختيارك",
    "mark_missed": "✓\u00a0صحيح — فاتك",
    "mark_answer": "✓\u00a0الإجابة الصحيحة",
    "mark_wrong_pick": "✗\u00a0اختيار خاطئ",
    "mark_your_choice": "✗\u00a0اختيارك",
    "verdict_none_one": "الإجابة هي {answers}.",
    "verdict_none_several": "الإجابات هي {answers}.",
    "verdict_right_one": "✓ صحيح — اخترت {chosen}.",
    "verdict_right_several": "✓ صحيح: اخترت {chosen}.",
    "verdict_wrong_one": "✗ اخترت {chosen}؛ الإجابة هي {answers}.",
    "verdict_wrong_several": "✗ اخترت {chosen}؛ الإجابات هي {answers}.",
    "detail_right": "صحيحة: {letters}.",
    "detail_missed": "فاتتك: {letters}.",
    "detail_wrong": "خاطئة: {letters}.",
    "list_comma": "، ",
    "list_and": " و ",
}

# The preview site's own words (publishing/site/), kept apart from the card's: the card's
# table travels in every note type, the preview's never does. A count's two forms, "_one"
# and "_many", are the same words where the language's plural does not fit two forms.
_PREVIEW_EN = {
    "site_name": "nca-anki preview", "title_suffix": "preview", "decks_title": "Decks",
    "all_decks": "All decks",
    "decks_one": "{n} deck", "decks_many": "{n} decks",
    "questions_one": "{n} question", "questions_many": "{n} questions",
    "errors_one": "{n} error", "errors_many": "{n} errors",
    "index_facts": "{decks}, {questions}. Each card plays as in Anki: pick, then show the "
                   "answer.",
    "missing_title": "Not in this preview",
    "missing_line": "{errors} in {files}; the build's report names each",
    "from_files": "from {files}",
    "noscript": "The cards need JavaScript: allow it for this page to see and play them.",
    "card_of": "Card {i} of {n}", "card": "Card", "card_at": "Card {i}, {where}",
    "night_mode": "Night mode", "show_answer": "Show answer", "again": "Again",
}
_PREVIEW_DE = {
    "site_name": "nca-anki-Vorschau", "title_suffix": "Vorschau", "decks_title": "Stapel",
    "all_decks": "Alle Stapel",
    "decks_one": "{n} Stapel", "decks_many": "{n} Stapel",
    "questions_one": "{n} Frage", "questions_many": "{n} Fragen",
    "errors_one": "{n} Fehler", "errors_many": "{n} Fehler",
    "index_facts": "{decks}, {questions}. Jede Karte spielt sich wie in Anki: wählen, dann "
                   "die Lösung zeigen.",
    "missing_title": "Nicht in dieser Vorschau",
    "missing_line": "{errors} in {files}; der Bericht des Builds nennt jeden",
    "from_files": "aus {files}",
    "noscript": "Die Karten brauchen JavaScript: Erlauben Sie es für diese Seite, um sie zu "
                "sehen und zu spielen.",
    "card_of": "Karte {i} von {n}", "card": "Karte", "card_at": "Karte {i}, {where}",
    "night_mode": "Nachtmodus", "show_answer": "Lösung zeigen", "again": "Noch einmal",
}
_PREVIEW_FR = {
    "site_name": "Aperçu nca-anki", "title_suffix": "aperçu", "decks_title": "Paquets",
    "all_decks": "Tous les paquets",
    "decks_one": "{n} paquet", "decks_many": "{n} paquets",
    "questions_one": "{n} question", "questions_many": "{n} questions",
    "errors_one": "{n} erreur", "errors_many": "{n} erreurs",
    "index_facts": "{decks}, {questions}. Chaque carte se joue comme dans Anki\u00a0: "
                   "choisissez, puis affichez la réponse.",
    "missing_title": "Absents de cet aperçu",
    "missing_line": "{errors} dans {files}\u00a0; le rapport de la compilation les nomme",
    "from_files": "depuis {files}",
    "noscript": "Les cartes ont besoin de JavaScript\u00a0: autorisez-le pour cette page "
                "afin de les voir et de les jouer.",
    "card_of": "Carte {i} sur {n}", "card": "Carte", "card_at": "Carte {i}, {where}",
    "night_mode": "Mode nuit", "show_answer": "Afficher la réponse", "again": "Encore",
}
_PREVIEW_AR = {
    "site_name": "معاينة nca-anki", "title_suffix": "معاينة", "decks_title": "الرزم",
    "all_decks": "كل الرزم",
    "decks_one": "الرزم: {n}", "decks_many": "الرزم: {n}",
    "questions_one": "الأسئلة: {n}", "questions_many": "الأسئلة: {n}",
    "errors_one": "الأخطاء: {n}", "errors_many": "الأخطاء: {n}",
    "index_facts": "{decks}، {questions}. كل بطاقة تعمل كما في Anki: اختر ثم اعرض الإجابة.",
    "missing_title": "غير موجودة في هذه المعاينة",
    "missing_line": "{errors} في {files}؛ تقرير البناء يذكر كلًا منها",
    "from_files": "من {files}",
    "noscript": "تحتاج البطاقات إلى JavaScript: اسمح به لهذه الصفحة لتراها وتتدرب عليها.",
    "card_of": "البطاقة {i} من {n}", "card": "بطاقة", "card_at": "البطاقة {i}، {where}",
    "night_mode": "الوضع الليلي", "show_answer": "اعرض الإجابة", "again": "مرة أخرى",
}
_PREVIEW = {"en": _PREVIEW_EN, "de": _PREVIEW_DE, "fr": _PREVIEW_FR, "ar": _PREVIEW_AR}

# language code (BCP 47) -> (its name in itself, direction, its table)
LANGUAGES: Mapping[str, tuple[str, str, Mapping[str, str]]] = MappingProxyType({
    "en": ("English", "ltr", MappingProxyType(_EN)),
    "de": ("Deutsch", "ltr", MappingProxyType(_DE)),
    "fr": ("Français", "ltr", MappingProxyType(_FR)),
    "ar": ("العربية", "rtl", MappingProxyType(_AR)),
})


def words_in(language: str) -> Mapping[str, str]:
    """The card's words in ``language`` (a key of LANGUAGES)."""
    return LANGUAGES[language][2]


def direction(language: str) -> str:
    """"ltr" or "rtl": how ``language`` is written."""
    return LANGUAGES[language][1]


def preview_words_in(language: str) -> Mapping[str, str]:
    """The preview site's words in ``language`` (a key of LANGUAGES)."""
    return MappingProxyType(_PREVIEW[language])
