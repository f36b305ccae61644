"""Which key of a structured bank's question objects plays which part, decided once for
the whole bank from the values first and the key's name second (importing/shape.py reads
the questions with it).

The parts: the prompt, the choices (a list, an object by letter, or flat keys), inside
choice objects their text, their label (a letter or an index equal to the choice's
place: ``{value: "B", label: "/boot"}``) and their mark (``isCorrect``), the answer (an
index, whose base is decided over the bank, a letter, a text, a list of these), the
explanation and the topic. A key empty in every object (``null``, ``""``) plays no part,
so it never hides the key that holds the answer. ``--map KEY=ROLE`` overrides any of it,
keys inside choice objects as ``CHOICES.KEY`` (``--map options.label=choice-text``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from nca_anki.importing import choice_values as cv
from nca_anki.importing import values
from nca_anki.importing.pictures import picture_key

ROLES = ("prompt", "choices", "wrong-choices", "answer", "answer0", "answer1", "explanation",
         "topic", "picture", "ignore", "choice-text", "choice-label", "choice-mark")
_ANSWER_ROLES = ("answer", "answer0", "answer1")

# Names that say a key's part, compared by ``cv.norm``; earlier is likelier.
HINTS = {
    "prompt": ("question", "prompt", "questiontext", "stem", "query", "q", "text", "title",
               "body", "content", "pregunta", "pergunta", "frage", "вопрос", "问题", "題目",
               "题目"),
    "choices": ("choices", "options", "answers", "alternatives", "answeroptions",
                "responses", "opts", "possibleanswers", "answerchoices", "variants",
                "opciones", "opcoes", "opções", "alternativas", "варианты", "选项", "選項"),
    "answer": ("correct", "answer", "correctanswer", "correctanswers", "correctanswerindex",
               "correctindex", "correctoption", "correctoptions", "correctchoice",
               "rightanswer", "solution", "key", "answerkey", "answerindex", "right",
               "respuesta", "resposta", "ответ", "答案", "antwort", "lösung", "loesung",
               "réponse", "reponse", "risposta", "odpowiedź", "odpowiedz"),
    "explanation": ("explanation", "rationale", "feedback", "reason", "explain", "why",
                    "answerexplanation", "explanations", "solutionexplanation", "details",
                    "description", "reference", "notes", "note", "comments", "comment",
                    "justification", "reasoning", "remark", "remarks", "explicacion",
                    "explicación", "explicacao", "explicação", "erklärung", "пояснение",
                    "объяснение", "解释", "解析", "解釋", "说明", "context"),
    "topic": ("category", "topic", "domain", "section", "subject", "module", "chapter",
              "area", "objective", "bloque", "tema", "thema", "thème", "theme", "тема",
              "categoria", "categoría", "kategorie", "kategori", "topik", "主题", "分类"),
}
# Names of a text shown before the question, as part of its prompt: the scenario a reader
# reads first ({scenario: "A shop sells…", question: "Which…?"}).
CONTEXT_HINTS = ("scenario", "context", "approach", "background", "situation", "case",
                 "casestudy", "passage", "preamble", "intro", "introduction", "setup",
                 "premise", "stem", "leadin", "exhibit", "szenario", "kontext", "hintergrund",
                 "ausgangslage", "escenario", "contexto", "situacion", "situación", "cenario",
                 "cenário", "situacao", "situação", "caso", "miseensituation", "contexte",
                 "сценарий", "ситуация", "контекст", "условие", "情景", "场景", "背景", "题干",
                 "案例", "情境", "状況", "シナリオ")
# Of those, the names that may as well be the background told after the answer: part of
# the prompt only where they are written before the question.
_BEFORE_ONLY = ("context", "kontext", "contexto", "contexte", "контекст")
# Parts of names that say a part when the whole name is no hint: "_RightAnswerIndexD",
# "answerExplanation", "explicacao_texto"; and what makes a name no answer ("UserAnswer").
_STEMS = {
    "answer": ("correct", "right", "answer", "solution", "respuesta", "resposta", "correta",
               "réponse", "reponse", "antwort", "richtig", "ответ", "правильн", "答案",
               "正确", "正確", "正解", "certa", "certo", "corrett", "giust", "bonne", "верн"),
    "prompt": ("question", "pregunta", "pergunta", "frage", "domanda", "enunciado",
               "énoncé", "enonce", "вопрос", "питання", "pytanie", "vraag", "soru", "soal",
               "pertanyaan", "问题", "問題", "题目", "題目", "设问"),
    "explanation": ("explan", "explic", "rational", "justif", "comment", "coment", "feedback",
                    "reason", "erklär", "erklaer", "begründ", "поясн", "объясн", "коммент",
                    "解释", "解析", "解釋", "说明", "說明", "解説", "solution"),
}
_NOT_PROMPT = frozenset(("id", "number", "num", "type", "kind", "count", "nr", "no", "level",
                         "image", "picture", "img", "numero", "número", "tipo", "typ"))
_NOT_ANSWER = ("user", "my", "selected", "chosen", "given", "student", "incorrect", "wrong",
               "count", "score", "type", "explan", "points")
# A choice object's text, and its "this one is correct" flag.
_TEXT_HINTS = ("text", "value", "label", "content", "option", "answer", "body", "title",
               "choice", "texto", "texte")
_FLAG_HINTS = ("correct", "iscorrect", "iscorrectanswer", "isanswer", "right", "isright",
               "answer", "valid", "istrue", "true")
_SHOWN = 3  # left-out keys named in W704; the rest counted


@dataclass(frozen=True)
class Roles:
    """What each key of one bank's question objects was read as."""

    prompt: str  # the key of the question itself
    choices: str | None  # None: flat choice keys (``flat``)
    choice_keys: tuple[str, ...] = ()  # every key that may hold the choices, likeliest first
    flat: tuple[str, ...] = ()  # the flat choice keys, in order
    answer: str | None = None  # the first of ``answers`` (said, and named by --map)
    answers: tuple[str, ...] = ()  # every key that may hold the answer, likeliest first
    base: int | None = None  # how integer answers count: 0, 1, or None (undecided)
    base_said: str = ""  # why that base
    # (answers written as a number, all answers), when a base is decided: a bank whose
    # answers are mostly choices' texts says so, not that they are counted (_base_said)
    numbers: tuple[int, int] = (0, 0)
    text: str | None = None  # a choice object's text key
    flag: str | None = None  # a choice object's correctness flag
    label: str | None = None  # a choice object's own letter or index ("B", "1"), if any
    explanation: str | None = None
    # Other keys the bank writes its explanation under, never beside ``explanation`` in one
    # object ("Note" in one question, "answerNote" or "answernote" in others).
    explanation_also: tuple[str, ...] = ()
    topic: str | None = None
    picture: str | None = None  # a key naming the question's picture file
    truths: tuple[tuple[str, ...], int] = ((), 0)  # texts with their truths, in n questions
    ignored: tuple[str, ...] = ()
    empty: tuple[str, ...] = ()  # keys empty in every object
    # Every key whose text a reader sees as the prompt, in the order shown (a scenario, the
    # lines under it, the question): () is the prompt key alone.
    prompt_parts: tuple[str, ...] = ()
    html: bool = False  # the texts are HTML, as the quiz's page renders them
    # ``choices`` holds only the wrong answers and ``answer`` the right one's text
    # ({correct_answer: "x", incorrect_answers: ["y", "z"]}), decided for the whole bank
    wrong: bool = False
    # keys that hold each flat choice's label ("(1)", "A") beside its text, in order
    flat_labels: tuple[str, ...] = ()

    def prompt_keys(self) -> tuple[str, ...]:
        return self.prompt_parts or (self.prompt,)

    def said(self, room: int = 200) -> str:
        """The decision in a few words, in ``room`` characters if it can be: the
        essentials always (each role's key), the details (the keys empty throughout, why
        the index counts so, an example of --map, the keys left out by name, the keys
        tried where the first is empty) only as far as they fit, dropped in that order
        (issue 46, 10)."""
        for detail in range(5, -1, -1):
            said = "; ".join(self._parts(detail))
            if len(said) <= room:
                break
        return said

    def _base_said(self, detail: int) -> str:
        """How the answers count: from 0 or 1; or, where most answers are a choice's
        text, that, and how many are numbers counted so."""
        if self.base is None:
            return ""
        numbers, given = self.numbers
        if 2 * numbers < given:
            return f", a choice's text ({numbers} of {given} a number, counted from {self.base})"
        return f", counted from {self.base}" + (self.base_said if detail >= 4 else "")

    def _parts(self, detail: int) -> list[str]:
        shown = self.prompt_keys()
        prompt = f"prompt {'+'.join(map(repr, shown))}"  # several: joined in this order
        parts = [prompt, self._choices_said(detail >= 1)]
        if self.wrong:
            parts[1] = (f"the right choice {self.answer!r} and the wrong ones "
                        f"{self.choices!r}" + self._wrong_why)
        elif self.answer is not None:
            also = f" (or {_names(self.answers[1:])})" if detail >= 1 and len(
                self.answers) > 1 else ""
            parts.append(f"answer {self.answer!r}{also}{self._base_said(detail)}")
        if self.explanation is not None:
            also = f" (or {_names(self.explanation_also)})" if detail >= 1 and \
                self.explanation_also else ""
            parts.append(f"explanation {self.explanation!r}{also}")
        if self.topic is not None:
            parts.append(f"topic {self.topic!r}")
        if self.picture is not None:
            parts.append(f"picture {self.picture!r}")
        if self.truths[1]:
            parts.append(f"{_names(self.truths[0])} with a list of truths as the choices of "
                         f"{self.truths[1]}")
        if self.html:
            parts.append("HTML texts")
        if self.ignored and detail >= 1:
            parts.append(f"left out {_names(self.ignored)}" if detail >= 2 else
                         f"left out {_count(len(self.ignored), 'key')}")
        if self.empty and detail >= 5:
            parts.append(f"{_count(len(self.empty), 'key')} empty in every object")
        parts.append(f"else {self.remedy() if detail >= 3 else '--map KEY=ROLE'}")
        return parts

    @property
    def _wrong_why(self) -> str:
        return "" if self.choices is None or cv.wrong_name(self.choices) else \
            " (no answer is among them)"

    def _choices_said(self, others: bool = True) -> str:
        if self.choices is None:
            flat = self.flat
            said = "choices " + (f"{flat[0]!r} to {flat[-1]!r}" if len(flat) > 3
                                 else _names(flat, len(flat)))
            labels = self.flat_labels
            return said + ("" if not labels else ", their labels " + (
                f"{labels[0]!r} to {labels[-1]!r}" if len(labels) > 3 else
                _names(labels, len(labels))))
        alternatives = (*self.choice_keys[1:], *self.flat) if others else ()
        inner = [f"{part} {key!r}" for key, part in (
            (self.label, "label"), (self.text, "text"), (self.flag, "mark")) if key]
        said = f"choices {self.choices!r}"
        if alternatives:
            said += f" (or {_names(alternatives)})"
        return said + (f", each one's {', '.join(inner)}" if inner else "")

    def remedy(self) -> str:
        """What to write when a key was read wrong: an example that works for this bank."""
        if self.choices is not None and (self.text or self.label):
            other = self.label or "KEY"
            return f"--map KEY=ROLE, e.g. --map {self.choices}.{other}=choice-text"
        return "--map KEY=ROLE"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


def _names(keys: tuple[str, ...], shown: int = _SHOWN) -> str:
    named = ", ".join(repr(k) for k in keys[:shown])
    return named + (f" and {len(keys) - shown} more" if len(keys) > shown else "")


# --- the inference -----------------------------------------------------------------------------

Refuse = Callable[[str], None]


def infer(objects: list[dict[str, object]], overrides: Mapping[str, str],
          refuse: Refuse) -> Roles | None:
    """The roles of a bank's keys; None (after ``refuse`` says why) if no key can hold
    the choices or the prompt."""
    keys = Counter(k for o in objects for k in o)
    empty = tuple(k for k in keys if all(_blank(o.get(k)) for o in objects))
    given, inner = _split(overrides, keys)
    choice_fits = Counter(k for o in objects for k, v in o.items()
                          if cv.choice_list(v) is not None or cv.wrong_answers(k, v))
    choices = _given(given, "wrong-choices") or _pick(
        given, "choices", choice_fits, len(objects),
        weigh=lambda k: values.choice_weight(objects, k))
    flat: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    if choices is None:
        labels, flat = _labelled(objects, [k for k in keys if k not in given])
    if choices is None and not flat:
        flat = cv.flat_keys(k for k in keys if k not in given)
        # columns named otherwise ("Opcion_A", "Answer 3 (Optional)"): their values say
        columns = values.choice_columns(objects, [k for k in keys if k not in given])
        if len(flat) < 2 or set(flat) < set(columns):
            flat = columns
        if len(flat) < 2:
            refuse("found a list of objects but none of their keys holds a list of choices "
                   f"(keys: {', '.join(repr(k) for k in list(keys)[:8])}); say which is with "
                   "--map KEY=choices; nothing converted")
            return None
    choice_keys = _needed(objects, _choice_keys(choices, choice_fits, given))
    if choices is not None:  # a question of the bank may still write its choices flat
        flat = _flat_beside(objects, [k for k in keys if k not in given and k not in
                                      choice_keys])
    taken = {*choice_keys, *flat, *labels, *empty}
    texts = Counter(k for o in objects for k, v in o.items()
                    if k not in taken and isinstance(v, str) and v.strip())
    prompt = _pick(given, "prompt", texts, len(objects), longest=objects)
    if prompt is None:
        refuse("found a list of objects with choices but no key that holds the question's "
               "text; say which is with --map KEY=prompt; nothing converted")
        return None
    prompts = tuple(k for k, r in given.items() if r == "prompt")
    parts = prompts if len(prompts) > 1 else _prompt_parts(
        objects, [k for k in keys if k not in taken and k not in given and k != prompt], prompt)
    taken.update((prompt, *parts))
    text, flag, label = _choice_parts(objects, choice_keys, inner)
    shapes = _Shapes(choices, flat, text, label)
    wrong = choices is not None and (given.get(choices) == "wrong-choices" or (
        choices not in given and cv.wrong_name(choices)))
    answers = _answer_keys(objects, keys, taken, given, shapes, wrong)
    if choices is not None and not wrong and choices not in given and answers and \
            given.get(answers[0]) not in _ANSWER_ROLES:
        wrong = _none_among(objects, choices, answers)  # the values say
    if not answers and flag is None and not wrong:  # a name that says nothing ("a")
        answers = values.index_key(objects, [k for k in keys if k not in taken and k not in given
                                             and not any(w in cv.norm(k) for w in _NOT_ANSWER)],
                                   shapes.texts)
    if not answers and choices is not None and given.get(choices, "wrong-choices") == \
            "wrong-choices":  # {q, x: "right one", opts: […]}: the one text beside them
        beside = _beside(objects, [k for k in keys if k not in taken and k not in given],
                         choices)
        if beside and (wrong or _none_among(objects, choices, beside)):
            answers, wrong = beside, True
    if label is not None and not _labels_named(objects, answers, shapes):
        # {id: 1, …} choices whose answer is an index from 0: the ids are no labels
        label = None
        shapes = _Shapes(choices, flat, text, None)
    taken.update(answers)
    picture = _given(given, "picture") or picture_key(
        objects, [k for k in keys if k not in taken and k not in given])
    taken.add(picture or "")
    explanation = _given(given, "explanation") or _named(
        [k for k in keys if k not in taken and _mostly_text(objects, k)], "explanation",
        objects) or values.telling_key(objects, list(keys), answers[:1], taken)
    also = () if explanation is None or _given(given, "explanation") else _spelled_otherwise(
        objects, explanation, [k for k in keys if k not in taken and k not in given
                               and k != explanation and _mostly_text(objects, k)])
    taken.update((explanation or "", *also))
    topic = _given(given, "topic") or _named(
        [k for k in keys if k not in taken and _mostly_text(objects, k, short=True)], "topic")
    taken.add(topic or "")
    truths = values.paired(objects, choice_keys, (prompt, explanation or "", topic or ""))
    taken.update(truths[0])
    ignored = tuple(k for k in keys if k not in taken)
    role = given.get(answers[0], "") if answers else ""
    base, why = decide_base(objects, answers, role, shapes)
    numbers = numbered_share(objects, answers, shapes) if base is not None else (0, 0)
    return Roles(prompt=prompt, choices=choices, choice_keys=choice_keys, flat=flat,
                 answer=answers[0] if answers else None, answers=answers, base=base,
                 base_said=why, numbers=numbers, text=text, flag=flag, label=label,
                 explanation=explanation,
                 explanation_also=also, topic=topic, picture=picture, truths=truths,
                 ignored=ignored,
                 empty=tuple(k for k in empty if k not in given),
                 prompt_parts=parts if len(parts) > 1 else (), html=is_html(objects),
                 wrong=wrong and bool(answers), flat_labels=labels)


def _labelled(objects: list[dict[str, object]], keys: list[str]
              ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The keys of the choices' labels and those of their texts, when a bank writes a
    label column beside each text column (``o1 = "(1)"``, ``p1 = "Paris"``): the labels
    are no choices. ((), ()) if it does not."""
    labels = values.label_columns(objects, keys)
    texts = values.texts_beside(objects, keys, labels) if labels else ()
    return (labels, texts) if texts else ((), ())


# HTML that a page renders, in a bank's texts: a tag that formats text, and an escape an
# author writes only for a page that renders HTML ("&lt;" for "<").
_TAG_RE = re.compile(r"<(?:br|p|code|pre|b|strong|i|em|u|ul|ol|li|sub|sup|span|div|table|tr|"
                     r"td|h[1-6])\b[^<>]{0,200}>|</(?:p|code|pre|b|strong|i|em|u|ul|ol|li|sub|"
                     r"sup|span|div|table|h[1-6])>", re.I)
_ESCAPE_RE = re.compile(r"&(?:lt|gt|amp|quot|nbsp|#\d{1,7}|#x[0-9a-f]{1,6});", re.I)


def is_html(objects: list[dict[str, object]]) -> bool:
    """Whether a bank's texts are HTML: tags in at least two questions, and a character
    escaped as a page needs it somewhere (a bank that only asks about tags writes them
    as they are, without escapes)."""
    tagged = escaped = 0
    for o in objects:
        texts = [t for v in o.values() for t in _texts(v)]
        tagged += any(_TAG_RE.search(t) for t in texts if "<" in t)
        escaped += any(_ESCAPE_RE.search(t) for t in texts if "&" in t)
        if tagged >= 2 and escaped:
            return True
    return False


def _texts(value: object) -> list[str]:
    """The texts of a value: itself, a list's, or a choice object's."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for x in value for t in (
            [x] if isinstance(x, str) else [y for y in x.values() if isinstance(y, str)]
            if isinstance(x, dict) else [])]
    if isinstance(value, dict):
        return [x for x in value.values() if isinstance(x, str)]
    return []


def _blank(value: object) -> bool:
    return value is None or value in ("", [], {}) or (isinstance(value, str)
                                                       and not value.strip())


def _split(overrides: Mapping[str, str], keys: Counter[str]
           ) -> tuple[dict[str, str], dict[str, str]]:
    """--map for this bank: the question objects' keys, and the choice objects' keys
    (``options.label=choice-text``, or ``label=choice-text`` for any choices key)."""
    given: dict[str, str] = {}
    inner: dict[str, str] = {}
    for key, role in overrides.items():
        if key in keys and not role.startswith("choice-"):
            given[key] = role
            continue
        outer, dot, rest = key.partition(".")
        if dot and outer in keys and role.startswith("choice-"):
            given.setdefault(outer, "choices")
            inner[rest] = role
        elif not dot and role.startswith("choice-"):
            inner[key] = role
    return given, inner


def _flat_beside(objects: list[dict[str, object]], keys: list[str]) -> tuple[str, ...]:
    """Flat choice keys (``A: true``, ``B: false``) of the objects that have no list of
    choices, if they are there."""
    flat = cv.flat_keys(keys)
    held = sum(sum(cv.choice_text(o.get(k)) is not None for k in flat) >= 2 for o in objects)
    return flat if len(flat) >= 2 and held else ()


def _choice_keys(choices: str | None, fits: Counter[str], given: Mapping[str, str]
                 ) -> tuple[str, ...]:
    if choices is None:
        return ()
    hints = HINTS["choices"]
    others = [k for k in fits if k != choices and k not in given and cv.norm(k) in hints]
    return (choices, *sorted(others, key=lambda k: hints.index(cv.norm(k))))


def _needed(objects: list[dict[str, object]], choice_keys: tuple[str, ...]
            ) -> tuple[str, ...]:
    """The choice keys without the others that never hold a question's choices where the
    first does not: a list beside the choices is something else (lines of the prompt)."""
    if len(choice_keys) < 2:
        return choice_keys
    first = choice_keys[0]
    return (first, *(k for k in choice_keys[1:] if any(
        cv.choice_list(o.get(k)) is not None and cv.choice_list(o.get(first)) is None
        for o in objects)))


def _prompt_parts(objects: list[dict[str, object]], free: list[str], prompt: str
                  ) -> tuple[str, ...]:
    """The keys whose texts a reader sees as one prompt with ``prompt``'s: the keys of
    sentences named as a scenario or context (CONTEXT_HINTS), and the lists of text lines
    written between them and the question in every object; in the order they are written,
    the question last. ``(prompt,)`` if there is none."""
    context = [k for k in free if cv.norm(k) in CONTEXT_HINTS and _mostly_text(objects, k)
               and _worded(objects, k)
               and (cv.norm(k) not in _BEFORE_ONLY or _before(objects, k, prompt))]
    if not context:
        return (prompt,)
    held: Counter[str] = Counter()
    between: Counter[str] = Counter()
    place: dict[str, list[int]] = {}
    for o in objects:
        order = list(o)
        for at, k in enumerate(order):
            place.setdefault(k, []).append(at)
        starts = [order.index(k) for k in context if not _blank(o.get(k))]
        if prompt not in o or not starts:
            continue
        for at, k in enumerate(order):
            if k in free and k not in context and isinstance(o[k], list) and _lines(o[k]):
                held[k] += 1
                between[k] += min(starts) < at < order.index(prompt)
    lines = [k for k in held if between[k] == held[k] and _mostly_text(objects, k)]
    shown = sorted((*context, *lines), key=lambda k: sum(place[k]) / len(place[k]))
    return (*shown, prompt)


def _before(objects: list[dict[str, object]], key: str, prompt: str) -> bool:
    """Whether ``key`` is written before ``prompt`` in most objects that hold both."""
    both = before = 0
    for o in objects:
        if key in o and prompt in o:
            both += 1
            before += list(o).index(key) < list(o).index(prompt)
    return both > 0 and 2 * before > both


def _worded(objects: list[dict[str, object]], key: str) -> bool:
    """Whether most of ``key``'s texts are words, not a code or a name ("A1", "easy")."""
    texts = [v for o in objects if isinstance(v := o.get(key), str) and v.strip()]
    return sum(len(v.split()) > 2 for v in texts) * 2 >= len(texts)


def _lines(value: object) -> bool:
    """Whether ``value`` is a text or a list of text lines, not empty."""
    return not _blank(value) and (isinstance(value, str) or isinstance(value, list) and all(
        isinstance(x, str) for x in value))


# --- inside the choice objects ----------------------------------------------------------------

def _choice_parts(objects: list[dict[str, object]], choice_keys: tuple[str, ...],
                  inner: Mapping[str, str]) -> tuple[str | None, str | None, str | None]:
    """A choice object's text key, mark key and label key, over every choice of the bank."""
    lists = [[c for c in listed if isinstance(c, dict)] for o in objects for k in choice_keys
             if isinstance(listed := o.get(k), list) and cv.lettered(listed) is None]
    lists = [one for one in lists if one]
    flat = [c for one in lists for c in one]
    if not flat or (all(cv.marked(c) is not None for c in flat) and not inner):
        return None, None, None
    keys = Counter(k for c in flat for k in c)
    named = {role: k for k, role in inner.items()}
    flag = named.get("choice-mark") or _flag_key(flat, keys, inner)
    texty = [k for k in keys if k != flag and inner.get(k) != "ignore" and all(
        cv.choice_text(c[k]) is not None and not isinstance(c[k], bool)
        for c in flat if k in c) and keys[k] * 2 >= len(flat)]
    label = named.get("choice-label") or _label_key(
        lists, [k for k in texty if k not in inner], texty)
    text = named.get("choice-text") or _text_key(flat, [k for k in texty if k != label
                                                         and k not in inner])
    return text, flag, label


def _flag_key(choices: list[dict[str, object]], keys: Counter[str],
              inner: Mapping[str, str]) -> str | None:
    flags = [k for k in keys if k not in inner and all(_is_flag(c.get(k)) for c in choices
                                                         if k in c)]
    return min(flags, key=lambda k: (_FLAG_HINTS.index(cv.norm(k)) if cv.norm(k) in
                                     _FLAG_HINTS else 99, k)) if flags else None


def _label_key(lists: list[list[dict[str, object]]], candidates: list[str],
               texty: list[str]) -> str | None:
    """The key whose value is each choice's own place, as a letter ("A", "b") or an index
    from 0 or from 1, in (nearly) every choice of the bank; only if another key is left
    for the text."""
    best: tuple[int, str] | None = None
    for key in candidates:
        schemes: Counter[str] = Counter()
        seen = 0
        for one in lists:
            held = [c[key] for c in one if key in c]
            seen += len(held)
            said = [str(v).strip().upper() for v in held if isinstance(v, str)]
            if len(said) == len(held) and len(set(said)) == len(said) and all(
                    len(x) == 1 and x in cv.LETTERS for x in said):
                schemes["letter"] += len(held)  # its own letters, in any order
                continue
            for place, c in enumerate(one):
                if key in c:
                    schemes.update(_places(c[key], place))
        if seen < 2 or not schemes:
            continue
        scheme, fits = schemes.most_common(1)[0]
        if 10 * fits >= 9 * seen and len(texty) > 1 and (best is None or fits > best[0]):
            best = (fits, key)
    return best[1] if best else None


def _places(value: object, place: int) -> list[str]:
    """How ``value`` names the choice at ``place``: "letter", "from0", "from1"."""
    said = str(value).strip() if isinstance(value, (str, int)) and not isinstance(
        value, bool) else ""
    found = []
    if place < len(cv.LETTERS) and said.upper() == cv.LETTERS[place]:
        found.append("letter")
    if said == str(place):
        found.append("from0")
    if said == str(place + 1):
        found.append("from1")
    return found


def _text_key(choices: list[dict[str, object]], texty: list[str]) -> str | None:
    ranked = sorted(texty, key=lambda k: (
        _TEXT_HINTS.index(cv.norm(k)) if cv.norm(k) in _TEXT_HINTS else 99,
        -sum(len(str(c.get(k, ""))) for c in choices), k))
    return ranked[0] if ranked else None


def _is_flag(value: object) -> bool:
    return isinstance(value, bool) or value in (0, 1, "true", "false", "True", "False",
                                                "yes", "no")


# --- the answer ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Shapes:
    """How to see one object's choices: their texts and their labels."""

    choices: str | None
    flat: tuple[str, ...]
    text: str | None
    label: str | None

    def texts(self, obj: dict[str, object]) -> list[str] | None:
        if self.choices is None:
            return [t for k in self.flat if (t := cv.choice_text(obj.get(k))) is not None
                    and t.strip()]
        listed = cv.choice_list(obj.get(self.choices))
        if listed is None:
            return None
        return [cv.choice_text(c) or "" if not isinstance(c, dict) else
                str(c.get(self.text or "", "")) for c in listed]

    def labels(self, obj: dict[str, object]) -> list[str]:
        listed = obj.get(self.choices or "")
        if self.label is None or not isinstance(listed, list):
            return []
        return [str(c.get(self.label, "")).strip().upper() if isinstance(c, dict) else ""
                for c in listed]


def _answer_keys(objects: list[dict[str, object]], keys: Counter[str], taken: set[str],
                 given: Mapping[str, str], shapes: _Shapes, wrong: bool = False
                 ) -> tuple[str, ...]:
    """Every key that may hold the answer, likeliest first: one --map names, else the
    keys named as answers, then the keys whose name holds an answer word and whose values
    name a choice (``_RightAnswerIndexD``; with ``wrong`` choices, are texts beside them:
    ``correcta``), never one named for the learner's own answer."""
    named = next((k for k, r in given.items() if r in _ANSWER_ROLES), None)
    if named is not None:
        return (named,)
    free = [k for k in keys if k not in taken and given.get(k) != "ignore"]
    hints = HINTS["answer"]
    exact = sorted((k for k in free if cv.norm(k) in hints),
                   key=lambda k: hints.index(cv.norm(k)))
    worded = [(rank, k) for k in free if k not in exact
              and (rank := _stem_rank(k, "answer")) is not None
              and not any(w in cv.norm(k) for w in _NOT_ANSWER)]
    fitting = [k for _, k in sorted(worded) if (
        _texts_beside(objects, k, shapes.choices or "") if wrong
        else _names_choices(objects, k, shapes))]
    return (*exact, *fitting)


def _texts_beside(objects: list[dict[str, object]], key: str, choices: str) -> bool:
    """Whether ``key`` holds a text (or a list of texts) in most objects, never one of
    the list under ``choices``: the right answer beside a list of the wrong ones."""
    def fits(o: dict[str, object], value: object) -> bool:
        listed, given = o.get(choices), as_list(value)
        return all(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                   and str(v).strip() for v in given) and not (
            isinstance(listed, list) and _among(given, listed))

    held, fitting = _held_and_fitting(objects, key, fits)
    return held > 0 and 2 * fitting > held


def _held_and_fitting(objects: list[dict[str, object]], key: str,
                      fits: Callable[[dict[str, object], object], bool]) -> tuple[int, int]:
    """How many of ``objects`` hold a value under ``key``, and in how many it ``fits``."""
    held = fitting = 0
    for o in objects:
        value = o.get(key)
        if _blank(value):
            continue
        held += 1
        fitting += fits(o, value)
    return held, fitting


def _among(given: list[object], listed: list[object]) -> bool:
    """Whether one of ``given`` is one of ``listed``'s texts, however spaced or quoted,
    or with a link after it."""
    seen = {cv.loose(str(c)) for c in listed if isinstance(c, (str, int, float))}
    return any(cv.loose(str(v)) in seen or cv.loose(cv.without_link(str(v))) in seen
               for v in given)


def _none_among(objects: list[dict[str, object]], choices: str,
                answers: tuple[str, ...]) -> bool:
    """Whether, in two objects or more, the answer is a text (not a letter or a number)
    that is not among the list of strings under ``choices``, and few objects say
    otherwise (at most one in five): that list holds the wrong answers only, and the
    answer is the right one. A record whose right answer is one letter, or that lists it
    among the wrong ones (a slip in the source), does not undo it for the whole bank."""
    fits = odd = 0
    for o in objects:
        listed, value = o.get(choices), answer_of(o, answers)
        if value is None or listed is None:
            continue
        if not isinstance(listed, list) or not all(isinstance(c, str) for c in listed):
            return False
        given = as_list(value)
        if _beside_list(given, listed):
            fits += 1
        else:
            odd += 1
    return fits >= 2 and 4 * odd <= fits


def _beside_list(given: list[object], listed: list[object]) -> bool:
    """Whether an object's answer is texts (no letter, no number) none of them in its
    list: the right answer beside the wrong ones."""
    return all(isinstance(v, str) and len(v.strip()) > 1 and not v.strip().isdecimal()
               and cv.letters_in(v, len(listed) + 1) is None for v in given) and not \
        _among(given, listed)


def _beside(objects: list[dict[str, object]], free: list[str], choices: str
            ) -> tuple[str, ...]:
    """The one key of short texts beside a list of wrong answers that is never among
    them, when names do not say which key is the right answer: () if none or several."""
    short = [k for k in free if _mostly_text(objects, k, short=True)
             and _texts_beside(objects, k, choices)
             and all(len(str(o.get(k, ""))) <= 200 for o in objects)]
    return (short[0],) if len(short) == 1 else ()


def _labels_named(objects: list[dict[str, object]], answers: tuple[str, ...],
                  shapes: _Shapes) -> bool:
    """Whether every answer that is a number names a label of its question's choices (or
    there is none): else the numbers are indexes, and the labels only numbers."""
    for o in objects:
        labels = shapes.labels(o)
        for value in as_list(answer_of(o, answers)):
            said = str(value).strip() if isinstance(value, (int, str)) and not isinstance(
                value, bool) else ""
            if said.isdecimal() and said not in labels and value not in (shapes.texts(o) or []):
                return False
    return True


def _stem_rank(key: str, role: str) -> int | None:
    name = cv.norm(key)
    return next((n for n, stem in enumerate(_STEMS[role]) if stem in name), None)


def _names_choices(objects: list[dict[str, object]], key: str, shapes: _Shapes) -> bool:
    """Whether the values of ``key`` name a choice of their object in most objects that
    have one: a text, a label, letters, or an index."""
    def fits(o: dict[str, object], value: object) -> bool:
        texts = shapes.texts(o) or []
        return bool(texts) and all(_names_one(v, texts, shapes.labels(o))
                                   for v in as_list(value))

    held, fitting = _held_and_fitting(objects, key, fits)
    return held > 0 and 2 * fitting >= held


def _names_one(value: object, texts: list[str], labels: list[str]) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value <= len(texts)
    if not isinstance(value, str):
        return False
    said = value.strip()
    return (said in texts or said.upper() in labels
            or cv.letters_in(said, len(texts)) is not None
            or (said.isdecimal() and int(said) <= len(texts)))


def decide_base(objects: list[dict[str, object]], answers: tuple[str, ...], role: str,
                shapes: _Shapes) -> tuple[int | None, str]:
    """How the bank's integer answers count: a 0 anywhere means from 0, an index equal to
    its question's number of choices from 1, else the reading that fits more answers;
    None if every number fits both (the author is asked)."""
    if role in ("answer0", "answer1"):
        return int(role[-1]), " (--map)"
    if not answers:
        return None, ""
    misfit = [0, 0]
    seen_zero = counted = False
    for o in objects:
        texts = shapes.texts(o)
        if texts is None:
            continue
        labels = shapes.labels(o)
        for value in as_list(answer_of(o, answers)):
            number = number_of(value, texts)
            if number is None or str(value).strip().upper() in labels:
                continue
            seen_zero |= number == 0
            counted = True
            misfit[0] += not 0 <= number < len(texts)
            misfit[1] += not 1 <= number <= len(texts)
    if misfit[0] < misfit[1] or (misfit[0] == misfit[1] and misfit[0] and seen_zero):
        return 0, " (an answer is 0)" if seen_zero else " (that fits more answers)"
    if misfit[1] < misfit[0] or misfit[1]:
        return 1, " (an answer equals its number of choices)"
    name = cv.norm(answers[0])
    if not counted and shapes.label is not None:
        return None, ""  # every answer names a choice's own label: no index to count
    if "index" in name or "idx" in name:
        return 0, f" (the name {answers[0]!r} says index)"
    if len(shapes.flat) > 1 and all(values.numbered(k) for k in shapes.flat):
        return 1, " (as the choice columns are numbered)"  # "Answer 1" … "Answer 4"
    return None, ""  # every number fits both readings: the author says which


def numbered_share(objects: list[dict[str, object]], answers: tuple[str, ...],
                   shapes: _Shapes) -> tuple[int, int]:
    """(the answers written as a number, all the answers given) over the bank."""
    numbers = given = 0
    for o in objects:
        texts = shapes.texts(o)
        if texts is None:
            continue
        for value in as_list(answer_of(o, answers)):
            given += 1
            numbers += number_of(value, texts) is not None
    return numbers, given


def answer_of(obj: dict[str, object], answers: tuple[str, ...]) -> object:
    return next((obj[k] for k in answers if not _blank(obj.get(k))), None)


def as_list(value: object) -> list[object]:
    return value if isinstance(value, list) else [] if value is None else [value]


def number_of(value: object, texts: list[str]) -> int | None:
    """``value`` as an index (before its base), if it is one and no choice's text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    # isdecimal, not isdigit: "²" is a digit that int() refuses (an import ended in a
    # traceback); every decimal digit int() reads ("3", "٣").
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) <= 3 and \
            not any(t.strip() == value.strip() for t in texts):
        return int(value.strip())
    return None


# --- names and shapes of the other keys ---------------------------------------------------

def _pick(given: Mapping[str, str], role: str, fits: Counter[str], total: int,
          longest: list[dict[str, object]] | None = None,
          weigh: Callable[[str], int] = lambda k: 0) -> str | None:
    if (named := _given(given, role)) is not None:
        return named
    candidates = [k for k, n in fits.items() if 2 * n >= total and k not in given]
    if not candidates:
        return None
    hinted = _named(candidates, role)
    if hinted is None and longest is not None:
        hinted = _asked(candidates, longest)
    if longest is not None and (asking := values.asking_key(longest, candidates)) and (
            hinted is None or values.asks_more(longest, asking, hinted)):
        return asking  # the prompt: the text that asks in most questions
    if hinted is not None:
        return hinted
    if longest is not None:  # the prompt: the longest texts
        return max(candidates, key=lambda k: (sum(len(str(o.get(k, ""))) for o in longest),
                                              k))
    return max(candidates, key=lambda k: (fits[k], weigh(k), k))


def _given(given: Mapping[str, str], role: str) -> str | None:
    return next((k for k, r in given.items() if r == role), None)


def _named(keys: list[str], role: str, objects: list[dict[str, object]] | None = None
           ) -> str | None:
    """The key whose name says ``role`` best: a whole name of HINTS, else (for the
    explanation) a name holding one of its stems, of two alike the one with more text
    over ``objects`` ("Texto_Justificacion" before "Articulo_Justificacion")."""
    hints = HINTS[role]
    ranked = [(hints.index(cv.norm(k)), 0, k) for k in keys if cv.norm(k) in hints]
    if not ranked and role in _STEMS:
        ranked = [(rank, -_total(objects or [], k), k) for k in keys
                  if (rank := _stem_rank(k, role)) is not None]
    return min(ranked)[2] if ranked else None


def _spelled_otherwise(objects: list[dict[str, object]], explanation: str,
                       keys: list[str]) -> tuple[str, ...]:
    """The other keys whose name also says explanation or note ("answerNote", "Note",
    "answernote" in one bank) and that never hold text in an object where another of them
    does: the same part, spelled otherwise from question to question."""
    named = [k for k in keys if cv.norm(k) in HINTS["explanation"] or "note" in cv.norm(k)
             or _stem_rank(k, "explanation") is not None]
    if not named:
        return ()
    held = (explanation, *named)
    for o in objects:
        if sum(not _blank(o.get(k)) for k in held) > 1:
            return ()  # two of them in one question: different parts, not one spelled twice
    return tuple(named)


def _words(key: str) -> list[str]:
    """A key's words: "ID_Pregunta" -> id, pregunta; "questionType" -> question, type."""
    return [w.casefold() for w in re.split(r"[\s_\-.]+|(?<=[a-z])(?=[A-Z])", key) if w]


def _total(objects: list[dict[str, object]], key: str) -> int:
    return sum(len(v) for o in objects if isinstance(v := o.get(key), str))


def _asked(keys: list[str], objects: list[dict[str, object]]) -> str | None:
    """The key whose name holds a word for the question ("Texto_Pregunta", "frage_text")
    and no word of another part, the one with more text of two; only if its texts are
    not much shorter than the longest (a "questionType" of one word is no prompt)."""
    named = [k for k in keys if _stem_rank(k, "prompt") is not None and not any(
        _stem_rank(k, other) is not None for other in ("answer", "explanation"))
             and not _NOT_PROMPT.intersection(_words(k))]
    if not named:
        return None
    best = max(named, key=lambda k: (_total(objects, k), k))
    return best if 2 * _total(objects, best) >= max(_total(objects, k) for k in keys) else None


def _mostly_text(objects: list[dict[str, object]], key: str, short: bool = False) -> bool:
    values = [o[key] for o in objects if key in o]
    texts = [v for v in values if isinstance(v, str) or (
        not short and isinstance(v, list) and all(isinstance(x, str) for x in v))]
    return bool(values) and 2 * len(texts) >= len(values) and (
        not short or all(len(v) <= 120 for v in texts if isinstance(v, str)))


def as_map(roles: Roles) -> tuple[tuple[str, str], ...]:
    """``roles`` as --map (or a settings file's [map]) names them, so that a bank read
    again with them is read the same (import --write-settings, settings.py). A role
    whose naming would change the reading is left to be inferred again: the answer when
    other keys stand in where it is empty, a choice object's keys under a choices key
    with a dot in its name."""
    pairs = [(key, "prompt") for key in roles.prompt_keys()]
    if roles.choices is not None:
        pairs.append((roles.choices, "wrong-choices" if roles.wrong else "choices"))
        if "." not in roles.choices:
            pairs += [(f"{roles.choices}.{key}", role) for key, role in (
                (roles.text, "choice-text"), (roles.label, "choice-label"),
                (roles.flag, "choice-mark")) if key is not None]
    if roles.answer is not None and len(roles.answers) == 1:
        pairs.append((roles.answer, "answer" if roles.base is None else f"answer{roles.base}"))
    pairs += [(key, role) for key, role in ((roles.explanation, "explanation"),
                                            (roles.topic, "topic"), (roles.picture, "picture"))
              if key is not None]
    return tuple(pairs)
