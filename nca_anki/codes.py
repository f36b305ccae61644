"""Every kind of problem a build reports, by its stable code.

A code names a kind of problem, not a wording: messages may be reworded, codes never
change meaning, and a retired code is never reused. Tests, acknowledgements in
nca-anki.toml ([acknowledged]) and scripts reading ``--json`` rely on the code alone.
The letter is the severity (E error, W warning); the hundreds are the stage that finds
it: 1 source files, 2 settings, 3 the lock, 4 templates, 5 output, 6 the build cache,
7 importing a bank.
docs/diagnostics.md lists them for authors; tests/reading/test_diagnostics.py keeps the two lists
equal.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    code: str  # "W120"
    title: str  # what kind of problem, as the report's group heading says it
    meaning: str  # what it means and what to do (docs/diagnostics.md)


_ALL = (
    # --- source files: encoding ---------------------------------------------------------
    Code("W101", "file not UTF-8", "The file is UTF-16, or not valid UTF-8 (read as cp1252 "
         "or latin-1); or the line of a file that is UTF-8 but for a few bytes holds some (a "
         "lone byte read as its Windows-1252 character, a character cut short as U+FFFD). "
         "Save it as UTF-8."),
    Code("W102", "encoding damage repaired", "Text damaged by an earlier wrong encoding "
         "conversion (mojibake such as 'â€”') was read as what it stood for. Fix the file."),
    Code("W103", "character lost", "U+FFFD: a character an earlier conversion lost; it cannot "
         "be repaired. Write the character again."),
    Code("W104", "control characters", "Control characters were removed from the line."),
    Code("W105", "invisible characters", "Invisible characters (zero-width space, BOM) at the "
         "start of a line were ignored. Delete them."),
    # --- source files: folders and names -----------------------------------------------
    Code("E101", "bad file name", "A file name that is not plain UTF-8 text. Rename it."),
    Code("E102", "file unreadable", "A question file could not be read (permissions?)."),
    Code("E103", "no question files", "The source folder has no *.txt question files."),
    Code("E104", "folder unusable", "A folder to read or write is missing or is a file."),
    # --- source files: the shape of a file --------------------------------------------
    Code("E110", "empty file", "The file is empty."),
    Code("E111", "no title", "No '<title> — Questions and Answers' line before the first "
         "question, or an empty title."),
    Code("W110", "title placement", "The title is not on the first line, or does not end "
         "with '— Questions and Answers'."),
    Code("W111", "stale footer", "The closing footer (title and first prompt again) no "
         "longer matches, or is not at the end of the file."),
    Code("W112", "text outside questions", "Text before the first 'Question N:' line; "
         "ignored."),
    Code("E112", "no questions", "The file has a title but no 'Question N:' lines."),
    Code("E113", "merge conflict", "A merge left conflict markers (<<<<<<<) in the file."),
    # --- source files: one question --------------------------------------------------
    Code("W113", "header read leniently", "A question header written another way ('Q1.', "
         "'Question 1 -') was read as 'Question N:'. Write it so."),
    Code("E114", "mistyped header", "A line that looks like a mistyped question header."),
    Code("W114", "choice read leniently", "A choice written with '*', '•' or similar was read "
         "as '- <choice>'. Write it so."),
    Code("E115", "stray text", "Text among the choices, or a question header inside an "
         "explanation, that is neither a choice nor an answer line."),
    Code("E116", "empty prompt or choice", "A question without a prompt, or an empty choice."),
    Code("E117", "too few or many choices", "A question with no choices, only one, or more "
         "than the card can label."),
    Code("E118", "repeated choice", "A question lists the same choice twice."),
    Code("E119", "unclosed code block", "A ``` code block never closes."),
    Code("E120", "answer missing", "No 'Correct answer:' line, or no choice marked "
         "'(Correct answer)'."),
    Code("E121", "answer mismatch", "The 'Correct answer:' lines and the choices marked "
         "'(Correct answer)' disagree (a different text, a different case, an unmarked or an "
         "unnamed choice, a choice named twice)."),
    Code("E122", "broken reference", "An image or link in a question that cannot be used "
         "(missing file, not an image, too big, outside the source folder)."),
    Code("E123", "title moves published questions", "A title that would put a file's "
         "published questions in a new deck because its end ('— Questions and Answers', the "
         "part number) was mistyped or not read: write the title as before, or confirm the "
         "new deck in nca-anki.toml [renamed]."),
    Code("W120", "no explanation", "The question has no explanation after its answer: the "
         "back of the card only names the answer."),
    Code("W121", "numbering", "A question is numbered out of sequence."),
    # --- source files: topics ------------------------------------------------------------
    Code("E130", "repeated question", "A question repeats another of the same topic word "
         "for word."),
    Code("E131", "topic parts clash", "Two files claim the same part of a topic."),
    Code("E132", "deck name unusable", "A deck name that Anki cannot use, or two topics that "
         "would be written to the same file."),
    Code("E133", "published topic renamed", "A title a typo away from a published topic's "
         "that no file builds any more: fix the typo, or confirm the rename in "
         "nca-anki.toml [renamed]."),
    Code("W130", "topic name typo", "A topic name one typo away from another topic's."),
    Code("W131", "title repeats", "The title repeats a phrase ('NCA NCA ...')."),
    # --- source files: what a learner would notice -------------------------------------
    Code("W140", "answer is the longest", "The correct choice (or choices) is the longest by "
         "far: a learner can guess it without knowing."),
    Code("W141", "every choice correct", "Every choice is marked correct."),
    Code("W142", "answers cluster", "Most correct answers sit at one letter in the source "
         "order."),
    Code("W143", "unknown code language", "A code block's language is not one the "
         "highlighter knows; it is shown without colours."),
    Code("W144", "image without description", "An image with no alt text: a screen reader, "
         "and a learner whose image fails to load, get nothing."),
    Code("W150", "duplicate question", "A question identical, or nearly so, to another in "
         "the same topic: the learner reviews one fact twice."),
    Code("W151", "duplicate across topics", "A question identical, or nearly so, to one in "
         "another topic."),
    # --- settings (nca-anki.toml) ------------------------------------------------------
    Code("E201", "settings unreadable", "nca-anki.toml is not UTF-8, not valid TOML, or "
         "cannot be read."),
    Code("E202", "unknown setting", "A setting nca-anki does not know (a typo?)."),
    Code("E203", "bad setting value", "A setting with a value of the wrong kind."),
    Code("W201", "setting names no topic", "A setting names a topic no source file has."),
    Code("W202", "acknowledgement unused", "An [acknowledged] entry matches no warning: its "
         "question changed, its file was renamed, or the warning is gone. Delete it, or "
         "acknowledge again."),
    # --- the lock (source/nca-anki.lock) --------------------------------------------
    Code("E301", "lock unreadable", "The lock file cannot be read or recovered. Restore it "
         "from version control."),
    Code("E302", "clock behind", "The build's time is before the newest change the lock "
         "records."),
    Code("W301", "lock repaired", "Damaged or merged lines of the lock were repaired; "
         "commit the rebuilt lock."),
    Code("W302", "lock recovered", "The lock was missing and was recovered from the "
         "published decks; commit it."),
    Code("W303", "clock ahead", "Times in the lock are ahead of this machine's clock."),
    Code("W304", "question removed", "A question left the source; its deck keeps it as "
         "withdrawn."),
    Code("W305", "deck skipped in recovery", "A deck in the output folder was not used to "
         "recover the lock."),
    Code("W306", "lock identity repaired", "A lock entry's GUID is in no published deck "
         "while the deck holds its question under another: the deck's is kept; commit "
         "the rebuilt lock."),
    # --- templates --------------------------------------------------------------------
    Code("E401", "template unreadable", "A card template is missing or cannot be read."),
    Code("E402", "template error", "A card template has a syntax error, fails when it "
         "renders, or would make Anki show an error or a blank card."),
    Code("E403", "note type grows or shrinks", "The card's fields or templates differ in "
         "number from the published decks': learners who imported an earlier release would "
         "get a second note type and notes that no longer update. Build with "
         "--note-type-change if it is meant."),
    Code("W403", "note type grows or shrinks", "As E403, with --note-type-change: tell "
         "learners to import this release with \"Merge note types\" and \"Update notes: "
         "always\"."),
    Code("W404", "note type field renamed", "A field or template is renamed (its id kept): "
         "learners whose collection holds the ids update in place; others get a second "
         "note type."),
    # --- output -----------------------------------------------------------------------
    Code("E501", "output not written", "An output file could not be written; nothing of the "
         "build was published."),
    Code("E502", "published file unreadable", "A published deck or the changelog in the "
         "output folder cannot be read."),
    Code("E503", "interrupted publish", "An earlier build was interrupted while it "
         "published."),
    Code("W501", "interrupted publish finished", "An earlier build was interrupted while it "
         "published; this build finished its work."),
    Code("W502", "version records rebuilt", "The decks' version records or the changelog "
         "were missing or unreadable and were worked out again."),
    Code("W503", "stale published deck", "A deck in the output folder that no topic builds "
         "any more."),
    # --- the build cache ------------------------------------------------------------------
    Code("W601", "build cache ignored", "The build cache, or an entry of it, could not be "
         "used or saved; builds only take longer."),
    # --- importing a bank (build_decks.py import) -------------------------------------------
    Code("E701", "input unreadable", "An input file to import is missing, unreadable or "
         "malformed (JSON or XML with a syntax error, XML that declares entities, a "
         "TypeScript file that does not parse or holds no bank); what it says was not "
         "converted."),
    Code("E702", "not a multiple-choice question", "The input holds a question that is not "
         "multiple choice (short answer, numerical, matching, essay) or lacks its text or "
         "choices; it was not converted."),
    Code("E703", "no correct answer", "The question marks no choice correct, its answer "
         "names none of its choices, lists one choice as right in one place and as wrong in "
         "another, no key of a structured bank was found to hold its answer (say which with "
         "--map KEY=answer), or an answer's credit (a GIFT %weight%, a Moodle fraction) is "
         "no number from -100 to 100; it was not converted."),
    Code("E704", "cannot be written as a question file", "Written in this project's format, "
         "the question would not read back as it was read (a line its format takes as "
         "structure, too many choices), it repeats another word for word, or it holds code "
         "(a TypeScript variable, call or ${…}) where a value belongs; it was not "
         "converted."),
    Code("E705", "import target exists", "A question file the import would write is already "
         "there; nothing was written. Move it away or import into another folder."),
    Code("E706", "import settings invalid", "The import's settings file (nca-import.toml "
         "beside the bank, or --settings FILE) is not valid TOML, or names an unknown "
         "setting, reader or role, or gives a value of the wrong kind; nothing was read or "
         "written (exit status 2). The message names its line and the closest known name."),
    Code("E707", "question damaged", "A question's structure in the input is broken (GIFT "
         "answers whose '{' never closes or a '}' out of place, a title never closed, two "
         "questions on one line; a Moodle question element outside the quiz element); it "
         "was not converted, and the questions after it were read."),
    Code("E708", "spreadsheet row unreadable", "A row of a CSV or TSV file cannot be read "
         "as its header says: a quote opens a cell and is never closed where it should be "
         "(it would take in the rows after it), a cell is over 1 MiB, or the row has more "
         "cells than the header names columns; it was not converted, and the rows after it "
         "were read."),
    Code("E709", "import settings unusable", "The import's settings file cannot be used: "
         "it is no regular file (a pipe, a device), too large, not UTF-8, a link out of the "
         "bank's folder, or inputs from two folders each have one; or --write-settings "
         "would replace a file it did not write, or could not write. Nothing was read or "
         "written, or (a failed write) the settings only were not."),
    Code("W701", "text not converted", "Text in the input that is no question (an "
         "introduction, a heading, a description) was not converted."),
    Code("W702", "converted with a change", "The question was converted, but changed: a "
         "true/false question became two choices, feedback on single answers joined the "
         "explanation, an empty answer was left out, a choice listed more than once word for "
         "word with the same mark was kept once, an answer of partial credit in a question "
         "with one right answer counts as wrong, or the credits of its right answers do not "
         "add up to 100%."),
    Code("W704", "bank read as", "How the importer read a structured bank (JSON, YAML, "
         "TypeScript, a spreadsheet): which key or column it took as the prompt, the choices "
         "(inside choice objects: the text, the label and the mark), the answer (and how an "
         "index counts), the explanation and the topic, said once per bank; --map KEY=ROLE "
         "overrides it, --map CHOICES.KEY=choice-text a key inside the choice objects."),
    Code("W705", "key written twice", "An object in a JSON bank has the same key twice; JSON "
         "keeps the second value, so the first was not read. Hand-written JavaScript that "
         "assigns one element twice (q[3] = … on two lines) is said the same way."),
    Code("W706", "file without questions", "A file found by searching a folder given to "
         "import holds no questions (a README, a settings file); it was skipped."),
    Code("W707", "header read leniently", "A line whose numbering is damaged (\"9 What …\", "
         "\"9.What\", \"Q9 What\") was read as a question's header, because its number is the "
         "next one and choices and an answer line follow; write it as \"9. What …\" to be "
         "sure."),
    Code("W709", "format guessed", "An input's format was told by its content (its name "
         "did not say it), and that reading failed, or a second format read it instead: "
         "which format was guessed, from what, and how to name the right one (--from "
         "NAME)."),
    Code("W710", "settings pattern unused", "A [files.\"PATTERN\"] table of the import's "
         "settings file matches no file of the import: a pattern is a path from the "
         "settings file's folder."),
    Code("W711", "answer said otherwise", "A question's answer is written twice (an "
         "answer line and a <details> block, a \"Suggested Answer\" above the choices) "
         "naming other letters, or an answer line restates its choice in other words than "
         "the choice's: the letter of the answer line under the choices was taken."),
    Code("W712", "question without choices", "A heading that asks a question (it ends "
         "with \"?\") in a file of lettered questions has no choices and no answer line "
         "under it: perhaps an open question; it was not converted. Many such headings "
         "(an interview page's) are said in one message, at the first."),
    Code("W716", "answer letters left out", "Every answer of a Moodle question (Moodle XML, "
         "GIFT), or every '- [ ]' choice of a Markdown question, starts with its own "
         "letter, in order and written alike (\"a. Paris\", \"(B) 630\", \"c- …\"): "
         "Moodle numbers the answers itself and the card letters its choices itself, so "
         "the letters were left out of the texts; said once per file."),
    Code("W718", "answer key entry unused", "A Markdown file's answer key (a section headed "
         "\"Answers\", \"Corrigé\", … or a last list of number-letter pairs) names a "
         "question number the file has no question for; that entry was not used."),
    Code("W720", "cell holds a spreadsheet error", "A spreadsheet's choice holds the "
         "value Excel writes where a formula failed when the sheet was saved (#NAME?, "
         "#VALUE!, #REF!, …): the text the author meant is not in the file. It was converted "
         "as written (two such choices alike are refused as a repeated choice); write the "
         "text itself."),
)

CODES: dict[str, Code] = {c.code: c for c in _ALL}
assert len(CODES) == len(_ALL), "a code is defined twice"
