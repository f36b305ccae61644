"""What one line of a quiz's text says about its question, in the words authors write it
with: an answer line ("Answer: B", "✅ Réponse correcte : b", "Ans: A, C", "答案：B"),
the letters an answer names in words ("A and C", "(A) y (C)", "AC"), a sentence that
names the right choice ("The correct answer is **2. …**") and an explanation's label
("Explanation:", "💡 Explicación :"). Pure functions over a string, used by both
Markdown readers (lettered.py and markdown.py), so that a wording one reads the other
reads too.
"""

from __future__ import annotations

import re

# Emoji, ticks and arrows an author puts before a label: "✅ Answer:", "👉 Ans:", "→ Lösung:".
_MARKS = r"(?:[✅✔✓☑👉→⇒➡➜▶►💡🔑🎯📌📝✏❗⭐️\ufe0f]\s*)*"
# The word for "answer" (and "correct answer") in the languages exam-prep repositories
# are translated into: German, Spanish, Portuguese, French, Italian, Dutch, Polish,
# Turkish, Indonesian, Vietnamese, Russian, Ukrainian, Chinese, Japanese, Korean, Arabic;
# and the abbreviations "Ans", "Sol".
ANSWER_WORDS = (r"(?:[^\W\d_]+\s+)?(?:correct\s+|right\s+|richtige\s+|korrekte\s+)?"
                r"(?:answers?|ans|sol|solution|"
                r"antwort(?:en)?|l[öo]sung|respuestas?(?:\s+correctas?)?|respostas?(?:\s+corretas?)?|"
                r"(?:bonne\s+)?r[ée]ponses?(?:\s+correctes?)?|risposta(?:\s+corretta)?|"
                r"antwoord|odpowied[źz]|cevap|jawaban|đáp án|ответ|відповідь|答案|正解|答え|정답|"
                r"الإجابة)")
# Letters as answers are written in words: "A, C", "A & C", "AC", "(A) and (C)", "A y C".
_JOIN_WORDS = r"(?:and|und|et|y|и|oraz|або|和|及)"
_JOINS = r"(?:\s*(?:,|，|、|&|/|\+)\s*|\s+" + _JOIN_WORDS + r"\s+|\s*)"
# A letter in brackets joins only letters in brackets: "(d) I" is choice d, its words "I".
_LETTERS = (r"(?:\([A-J]\)(?:" + _JOINS + r"\([A-J]\))*|[A-J]\)?(?:" + _JOINS
            + r"\(?[A-J]\)?)*)")
_JOIN_WORDS_RE = re.compile(r"(?<![^\W\d_])" + _JOIN_WORDS + r"(?![^\W\d_])", re.I)
# "Answer: B", "Correct answer: A, C", "✅ Ans: AB", "Réponse correcte : b", "答案：B",
# "Suggested Answer: A", and the sentence "The correct answer is B" ("… are B and D").
_ANSWER_RE = re.compile(r"^(?:[-*+>]\s+)?" + _MARKS + r"(?:" + ANSWER_WORDS
                        + r"(?:\s+is)?\s*[:：=-]|(?:the\s+)?(?:correct|right)\s+answers?\s+"
                        r"(?:is|are)\s*:?)\s*"
                        r"(?:options?\s+|choices?\s+)?(?P<letters>" + _LETTERS + r")"
                        r"(?=$|[\s.):,;—–）-])[\s.):,;—–）-]*(?P<rest>.*)$", re.I)
# "B", "b.", "(B) Volta", "A, C —", "C and D": a letter then punctuation ("A GPU is …" is
# no answer).
_LETTER_FIRST_RE = re.compile(r"^(?:[-*+]\s+)?" + _MARKS + r"\(?(?P<letters>[A-Ja-j]"
                              r"(?:(?:\s*(?:,|&)\s*|\s+(?:and|und|et|y)\s+)[A-Ja-j])*)"
                              r"(?:$|(?:\)|[.:—–-])(?:\s+|$))(?P<rest>.*)$")
# The numbers an answer line or sentence names as choices: "Answer: 2",
# "The correct answer is **2. …**", "… are **2. …** and **3. …**".
_NUMBER_CUE_RE = re.compile(r"^\W*(?:" + ANSWER_WORDS + r"(?:\s+is)?\s*[:：=]|(?:the\s+)?"
                            r"(?:correct|right)\s+answers?\s+(?:is|are)\b\s*:?)", re.I)
_NAMED_NUMBER_RE = re.compile(r"(?:^|(?<=\*\*)|(?<=__)|(?<=,\s)|(?<=\band\s))\s*(?P<n>[1-9])"
                              r"(?=[.)](?:\s|\*\*|__|$)|\*\*|__|\s*$|\s*,|\s+and\b)", re.I)
_EXPLANATION_WORDS = (r"(?:explanations?|feedback|rationale|retroalimentaci[óo]n|"
                      r"justificaci[óo]n|justifica[çc][ãa]o|r[ée]troaction|explicaci[óo]n|explica[çc][ãa]o|"
                      r"explication|erkl[äa]rung|begr[üu]ndung|spiegazione|uitleg|"
                      r"wyja[śs]nienie|uzasadnienie|a[çc][ıi]klama|penjelasan|gi[ảa]i th[íi]ch|"
                      r"объяснение|пояснение|пояснення|解釋|解释|解析|説明|해설|الشرح)")
_EXPLANATION_RE = re.compile(r"^(?:[-*+]\s+|#{1,6}\s+)?(?:\\?\*\\?\*|\\?[*_]|__)?\s*" + _MARKS
                             + _EXPLANATION_WORDS + r"(?:\\?\*\\?\*|__)?\s*[:：]?\s*"
                             r"(?:\\?\*\\?\*|__)?\s*", re.I)
# The same label inside an answer line's text: "B）按需实例 _ *解释：**…" (a remark after it).
_EXPLANATION_INSIDE_RE = re.compile(r"\s(?:\\?[*_][ \t]{0,3}){0,4}(?=" + _MARKS
                                    + _EXPLANATION_WORDS + ")", re.I)


# An answer given by its words, no letter: "Correcta: Paris", "Answer: The Seine".
_TEXT_ANSWER_RE = re.compile(r"^(?:[-*+>]\s+)?" + _MARKS + r"(?:" + ANSWER_WORDS
                             + r"|correct[ao]?s?|corretta|correcte|richtig)\s*[:：]\s*"
                             r"(?P<text>\S.*?)\s*$", re.I)


def answer_text(plain: str) -> str | None:
    """The words after an answer's label on ``plain`` ("Correcta: Paris" -> "Paris"), to
    be matched against the choices' own; None if it is no answer line."""
    found = _TEXT_ANSWER_RE.match(plain.strip())
    return found["text"] if found else None


def answer_line(plain: str) -> re.Match[str] | None:
    """``plain`` (a line without its emphasis and tags) read as an answer line: its groups
    ``letters`` (as written) and ``rest`` (what follows them); None if it is none."""
    return _ANSWER_RE.match(plain)


def letters_first(plain: str) -> re.Match[str] | None:
    """``plain`` read as an answer that starts with its letters ("B", "C and D", "(B)
    Volta"), as inside a collapsible answer block; groups as answer_line's."""
    return _LETTER_FIRST_RE.match(plain)


def picked(letters: str) -> set[str]:
    """The letters an answer names: "A and C", "(A) y (C)", "ac" -> {"A", "C"}."""
    return {a.upper() for a in re.findall(r"[A-Ja-j]", _JOIN_WORDS_RE.sub(" ", letters))}


def named_numbers(line: str) -> list[tuple[int, int]]:
    """Where, in ``line`` as written, an answer line or sentence names numbered choices
    ("The correct answer is **2. …**", "Answer: 1, 3"): the spans of those numbers; none
    if the line is no such answer."""
    cue = _NUMBER_CUE_RE.match(line)
    if cue is None:
        return []
    rest = line[cue.end():]
    return [(cue.end() + m.start("n"), cue.end() + m.end("n"))
            for m in _NAMED_NUMBER_RE.finditer(rest)]


def explanation_label(text: str) -> int:
    """How long the explanation label ``text`` starts with is ("**Explanation:**",
    "💡 Explicación :", "解析："), its marks and the space after it: 0 if none."""
    found = _EXPLANATION_RE.match(text)
    return found.end() if found else 0


def without_explanation_label(text: str) -> str:
    """``text`` without the explanation label it starts with, if any."""
    return text[explanation_label(text):]


# A paragraph's label in CJK brackets: "【解析】", "【分析】", "〔点评〕", "［答案］" (in bold
# or not, a colon after it or not), in a quote or not ("> **【分析】**<br>"), and the line's
# end (a "<br>" too) when nothing follows it there.
_BRACKETED_RE = re.compile(r"(?:\A|(?<=\n\n))(?P<quote>[ \t]*(?:>[ \t]?)?)[ \t]*(?:\*\*|__)?"
                           r"[【〔［〖](?:解析|分析|答案|技巧|"
                           r"点评|點評|详解|詳解|解答|考点|考點|解释|解釋|说明|說明|点拨|點撥|"
                           r"评析|評析|提示|注意|拓展)[】〕］〗](?:\*\*|__)?[ \t]*[:：]?[ \t]*"
                           r"(?:\*\*|__)?[ \t]*(?P<end>(?:<br\s*/?>[ \t]*)?(?:\n|\Z))?")


def _label_left_out(found: re.Match[str]) -> str:
    # A label alone on its line goes with the line (its quote mark too); one that text
    # follows leaves the quote mark it was in.
    return "" if found["end"] is not None else found["quote"]


def without_bracketed_labels(text: str) -> str:
    """``text`` without the labels in CJK brackets its paragraphs open with ("【解析】…",
    "〔分析〕…", "【点评】…"): labels the card, which shows the explanation as such, does
    not need."""
    return _BRACKETED_RE.sub(_label_left_out, text)


def explanation_inside(text: str) -> re.Match[str] | None:
    """Where an explanation label starts inside ``text`` after a space (an answer line
    that goes on with its explanation)."""
    return _EXPLANATION_INSIDE_RE.search(text)


# A sentence of a feedback or explanation section that says whether a choice is right:
# "B is correct because …", "A is not correct", "Option C is the right answer", "B es
# correcta", "C ist richtig", "D est correcte", "A está correta", "Correct: B", "正确答案是B".
_CHOICE_WORD = (r"(?:(?:option|choice|answer|opci[óo]n|op[çc][ãa]o|antwort|r[ée]ponse|"
                r"respuesta)\s+)?")
_SAID_LETTERS = (r"\(?(?P<letters>[A-J]\)?(?:(?:\s*(?:,|&)\s*|\s+(?:and|y|und|et|e)\s+)"
                 r"\(?[A-J]\)?)*)")
_NEGATION = (r"(?P<no>(?:is|are|was)\s+(?:not|n[o']t)\s+|isn't\s+|aren't\s+|no\s+es\s+|no\s+son\s+|"
             r"ist\s+nicht\s+|sind\s+nicht\s+|n['’]est\s+pas\s+|ne\s+sont\s+pas\s+|"
             r"n[ãa]o\s+(?:é|est[áa])\s+)")
_RIGHT_WORDS = (r"(?:the\s+)?(?:correct|right|richtig|korrekt|correct[ao]s?|corret[ao]s?|"
                r"correctes?|justes?|la\s+bonne\s+r[ée]ponse|la\s+respuesta\s+correcta|"
                r"the\s+(?:correct|right|best)\s+(?:answer|choice|option))\b")
_WRONG_WORDS = (r"(?:incorrect[ao]?s?|incorret[ao]s?|wrong|falsch|fals[ao]s?|fausses?|"
                r"inexact[ao]?s?)\b")
_VERB = r"(?:is|are|was|es|son|está|ist|sind|est|sont|é|são)\s+"
_FEEDBACK_RE = re.compile(r"^(?:[-*+>]\s+)?" + _MARKS + _CHOICE_WORD + _SAID_LETTERS
                          + r"\s*[.:)]?\s+(?:" + _NEGATION + r"(?:" + _RIGHT_WORDS + r"|"
                          + _WRONG_WORDS + r")|" + _VERB + r"(?:(?P<wrong>" + _WRONG_WORDS
                          + r")|" + _RIGHT_WORDS + r"))", re.I)
# "Correct: B", "Richtig: C", "Correcta: A", "正确答案是B", "正确选项：C".
_LABELLED_RE = re.compile(r"^(?:[-*+>]\s+)?" + _MARKS + r"(?:(?:correct|right|richtig|"
                          r"korrekt|correct[ao]|corret[ao]|correcte|bonne)\s*[:：]|"
                          r"正确(?:答案|选项|選項)?(?:是|为|為|[:：])|正確(?:答案|選項)?(?:是|為|[:：]))"
                          r"\s*" + _SAID_LETTERS + r"(?=$|[\s.,;:)，。、])", re.I)


def feedback(plain: str) -> tuple[set[str], bool] | None:
    """``plain`` (a line without its emphasis) read as a feedback sentence about choices:
    the letters it names and whether it says they are right ("B is correct because …",
    "Correct: B", "正确答案是B") or wrong ("A is not correct …", "C es incorrecta"); None
    if it says neither. The letters must be capitals standing alone ("A is …"), so that
    a sentence about something else ("I is a vowel") is seldom one."""
    found = _FEEDBACK_RE.match(plain) or _LABELLED_RE.match(plain)
    if found is None:
        return None
    letters = picked(found["letters"])
    negated = bool(found.groupdict().get("no")) != bool(found.groupdict().get("wrong"))
    return letters, not negated


def feedback_answer(lines: list[str]) -> set[str]:
    """The letters a feedback or explanation section (``lines``, without emphasis) says are
    right: those its sentences call right and none calls wrong; empty if it names none."""
    right: set[str] = set()
    wrong: set[str] = set()
    for line in lines:
        said = feedback(without_explanation_label(line.strip()))  # "Explanation: B is …"
        if said is not None:
            (right if said[1] else wrong).update(said[0])
    return right - wrong if not right & wrong else set()


# --- a sign beside a choice that says it is right or wrong --------------------------------
# Ticks and boxes ("Paris ✅", "✔️ Nile", "☑ Iron"), crosses and empty boxes ("❌ London",
# "☐ Wood"); words in brackets or after an arrow ("Sky (correct)", "Fire **(Correct)**",
# "Water [correct]", "Fish <-- correct"), in the languages quiz repositories are written in.
_RIGHT_SIGNS = "✅✔✓☑🟢✅"
_WRONG_SIGNS = "❌✗✘✖☐⬜❎🔴"
_RIGHT_WORDS_MARK = (r"correct(?:\s+answer)?|right(?:\s+answer)?|answer|correct[ao]|corret[ao]|"
                     r"correcte|bonne\s+r[ée]ponse|juste|richtig|korrekt|giust[ao]|corrett[ao]|"
                     r"doğru|benar|đúng|верно|правильно|правильный(?:\s+ответ)?|вірно|"
                     r"правильна|poprawna|prawidłowa|正确|正確|对|對|正解|정답|صحيح")
_WRONG_WORDS_MARK = (r"wrong|incorrect|incorrect[ao]|incorret[ao]|errad[ao]|falsch|faux|"
                     r"fausse|sbagliat[ao]|yanlış|salah|sai|неверно|неправильно|невірно|"
                     r"错误|錯誤|错|錯|不正解|오답|خطأ")
_SIGN = r"(?P<sign>[" + _RIGHT_SIGNS + _WRONG_SIGNS + r"])\ufe0f?"
_WORD = r"(?:" + _RIGHT_WORDS_MARK + r"|" + _WRONG_WORDS_MARK + r")[!.]?"
_RIGHT_WORD_RE = re.compile(r"(?:" + _RIGHT_WORDS_MARK + r")[!.]?", re.I)
_EMPH = r"(?:\*{1,2}|_{1,2})?"
_MARK_BEFORE_RE = re.compile(r"^" + _SIGN + r"[ \t]*(?=\S)")
_MARK_AFTER_RE = re.compile(r"(?<=\S)[ \t]*" + _SIGN + r"[ \t]*$")
# "(correct)", "**(Correct)**", "[correct]", "（正确）", "<-- correct", "← richtig", "- Correct".
_WORD_AFTER_RE = re.compile(r"(?:[ \t]+|(?=（))" + _EMPH + r"(?:[(\[（]\s*(?P<word>" + _WORD
                            + r")\s*[)\]）]|(?:<-+|&lt;-+|←|⬅\ufe0f?|[-–—])[ \t]*" + _EMPH
                            + r"(?P<said>" + _WORD + r")" + _EMPH + r")" + _EMPH + r"[ \t]*$",
                            re.I)


def choice_mark(text: str) -> tuple[str, bool | None]:
    """``text`` (a choice's line, its list mark and letter off) without the sign beside it
    that says whether it is right ("Paris ✅", "✔️ Nile", "Sky (correct)", "Water
    [correct]", "Fish <-- correct", "❌ London", "☐ Wood"), and what the sign says: True
    right, False wrong, None when it has none."""
    text = text.strip()
    tail = len(text) - 60 if len(text) > 60 else 0  # a mark is short: its line's end only
    found = _MARK_BEFORE_RE.match(text) or _MARK_AFTER_RE.search(text, tail) \
        or _WORD_AFTER_RE.search(text, tail)
    if found is None:
        return text, None
    right = found["sign"] in _RIGHT_SIGNS if found.re is not _WORD_AFTER_RE \
        else bool(_RIGHT_WORD_RE.fullmatch(found["word"] or found["said"]))
    rest = (text[found.end():] if found.start() == 0 else text[:found.start()]).strip()
    return (rest, right) if rest else (text, None)


def marked(texts: list[str]) -> list[tuple[str, bool]] | None:
    """The choices ``texts`` without their signs and which are right, when the signs tell:
    some are marked right, and some others are not (unmarked, or marked wrong); all marked
    right, or none, says nothing of them (None)."""
    read = [choice_mark(text) for text in texts]
    if not any(right for _, right in read) or all(right for _, right in read):
        return None
    return [(text, bool(right)) for text, right in read]


# A heading that is only a question's label and number ("Frage 12", "Question 3:", "Q7",
# "Pregunta 4", "Вопрос 5", "问题 6", "第7题"): the page's numbering, no words of its text.
_LABEL_WORDS = (r"(?:Q|Question|Pregunta|Frage|Questão|Quest[ãa]o|Pergunta|Domanda|Soru|Вопрос|"
                r"Питання|Aufgabe|Exercice|Exercise|Câu|Soal|Pytanie|Vraag|问题|問題|题|題)")
_QUESTION_LABEL_RE = re.compile(
    r"^[*_]*(?:" + _LABEL_WORDS + r"?\s*#?\s*\d{1,4}|第\s*\d{1,4}\s*[题題問问]"
    r"|(?:[^\W\d_]+\s+)?" + _LABEL_WORDS + r")\s*[.:：)]?[*_]*$", re.I)  # "Practice Question"


def question_label(text: str) -> bool:
    """Whether ``text`` (a heading's or header's text) is only a question's label and
    number ("Frage 12", "## Question 3:"), or a label alone ("Practice Question"): the
    page numbers or labels its questions so, and a card, shown in any order, has no use
    for it."""
    return bool(_QUESTION_LABEL_RE.match(text.strip()))


# Boxes and ticks that start each choice of a paragraph of choices ("☐ Oak  ☑ **Ash**",
# one a line with "<br>" between, or on one line): the ticked ones are right.
_BOX_RIGHT = "☑☒✅✔✓"
_BOX_WRONG = "☐⬜❌✗✘"
_BOX_RE = re.compile(r"([" + _BOX_RIGHT + _BOX_WRONG + r"])\ufe0f?[ \t]*")  # "v☐ gv": two
_BREAK_RE = re.compile(r"<br\s*/?>", re.I)


def boxed(text: str) -> list[tuple[str, bool]] | None:
    """The choices of a paragraph that writes each after a box or tick ("☐ Oak  ☐ Elm  ☑
    **Ash**", or one a line with "<br>" between): each choice's text and whether its box
    is ticked. None unless the paragraph starts with a box, has two or more, and ticks
    some but not all (see marked)."""
    flat = " ".join(_BREAK_RE.sub(" ", text).split())
    parts = _BOX_RE.split(flat)
    if len(parts) < 5 or parts[0].strip():
        return None
    found = [(parts[k + 1].strip(), parts[k] in _BOX_RIGHT) for k in range(1, len(parts), 2)]
    if any(not choice for choice, _ in found) or all(right for _, right in found) \
            or not any(right for _, right in found):
        return None
    return found


_ANSWER_LABEL_RE = re.compile(r"^" + _MARKS + ANSWER_WORDS + r"\s*[:：]?$", re.I)


def answer_label(plain: str) -> bool:
    """Whether ``plain`` (a line without its emphasis) is only an answer's label
    ("Suggested Answers", "Answer:", "Respuesta"), the letters under it."""
    return bool(_ANSWER_LABEL_RE.match(plain.strip()))
