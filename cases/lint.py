"""The case linter: what a case's values mean, checked without Django or a database.

`lint_case(data)` takes the typed data of a case (read from a package, or built from the
editor's models) and returns every problem it finds: errors block an import, warnings do
not, notes are only shown. The shape of a package (files, YAML, keys, types, headings) is
checked while reading it (`cases/package/reader.py`); `lint_package(files)` does both.
"""

import difflib
import math
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable

# Titles (Mr, Dr, Inspector...): one list, shared with the answer checker.
from cases.answers import TITLES
from cases.package.data import (
    CASE_FILE,
    ICONS,
    KINDS,
    MAX_DIFFICULTY,
    MAX_PLAYERS,
    START_FIELDS,
    SUPPORTED_FORMAT,
    CaseData,
    LocationData,
    Problem,
    QuestionData,
    error,
    info,
    sorted_problems,
    warning,
)
from cases.package.reader import parse_package

SLUG = re.compile(r"[a-z0-9-]+")
QUESTION_ID = re.compile(r"[a-z0-9_]+")
ZONE_KEY = re.compile(r"[a-z0-9_-]+")
# The same pattern as cases/markdown.py, which renders these references (a test checks).
CARD_REFERENCE = re.compile(r"\[\[\s*(\d{1,4})\s*\]\]")

# Card numbers have at most four digits, as `[[n]]` references do; token counts stay small
# (and within the database's small integers).
MAX_CARD_NUMBER = 9999
MAX_COUNT = 99
# Longest values the database holds.
MAX_LENGTHS = {"slug": 80, "title": 200, "language": 12, "question id": 60, "answer": 300,
               "card name": 200, "file name": 200, "zone key": 40, "zone name": 100}  # fmt: skip

# What a one-line value (a title, a name, an answer) may not hold: control characters (a
# line break in a title became a line break in every e-mail's Subject header), line and
# paragraph separators, and the marks that reverse the direction of the text after them.
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
DIRECTION_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
CONTROL_CHARACTER = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029{DIRECTION_CONTROLS}]")

ARTICLES = {"the", "a", "an"}
NAME_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")

NUMBER_WORDS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen",
]  # fmt: skip
TENS_WORDS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
YES_NO = {"yes", "no"}


def lint_package(files) -> tuple[CaseData | None, list[Problem]]:
    """Read a files dict and lint the case in it: every problem, in reading order."""
    data, problems = parse_package(files)
    if data is not None:
        problems += lint_case(data)
    return data, sorted_problems(problems)


def lint_case(data: CaseData) -> list[Problem]:
    """Every problem of meaning in a case, in reading order."""
    problems: list[Problem] = []
    problems += _check_case_values(data)
    problems += _check_zones(data)
    problems += _check_questions(data)
    problems += _check_locations(data)
    problems += _check_references(data)
    problems += _check_solvability(data)
    problems += _check_evidence(data)
    problems += _check_one_line_values(data)
    return sorted_problems(problems)


# One-line values ------------------------------------------------------------------------


def _check_one_line_values(data: CaseData) -> Iterable[Problem]:
    """Titles, names and answers are one line of plain text: they go into pages' titles,
    e-mail subjects and the answer checker. (Slugs, ids, keys, kinds and icons are checked
    against their patterns and vocabularies.)"""
    values = [
        (CASE_FILE, data.lines.get("title"), "the title", data.title),
        (CASE_FILE, data.lines.get("language"), "the language", data.language),
    ]
    for question in data.questions:
        name, lines = _name(question), question.lines
        values.append((CASE_FILE, lines.get("ask"), f"the ask of {name}", question.ask))
        values.append((CASE_FILE, lines.get("answer"), f"the answer to {name}", question.answer))
        for key, forms, what in (
            ("accept", question.accept, "an accepted answer to"),
            ("reject", question.reject, "a rejected answer to"),
        ):
            for index, form in enumerate(forms):
                values.append((CASE_FILE, lines.get(f"{key}.{index}"), f"{what} {name}", form))
    for zone in data.zones:
        values.append((CASE_FILE, zone.line, f'the name of zone "{zone.key}"', zone.name))
    for location in sorted(data.locations, key=lambda loc: loc.filename):
        values.append((location.path, location.lines.get("name"), "the card name", location.name))
    for file, line, what, value in values:
        found = CONTROL_CHARACTER.search(value or "")
        if found:
            yield error(
                file,
                line,
                f"{what} holds a control character ({_character_name(found.group())}); write "
                "it on one line, in plain text",
            )


def _character_name(character: str) -> str:
    code = f"U+{ord(character):04X}"
    if character in LINE_BREAKS:
        return f"{code}, a line break"
    if character == "\t":
        return f"{code}, a tab"
    if character in DIRECTION_CONTROLS:
        return f"{code}, a text direction control"
    return code


# The case ---------------------------------------------------------------------------------


def _case_problem(data: CaseData, key: str, message: str) -> Problem:
    return error(CASE_FILE, data.lines.get(key), message)


def _check_case_values(data: CaseData) -> Iterable[Problem]:
    def at(key: str, message: str) -> Problem:
        return _case_problem(data, key, message)

    if data.format is not None and data.format != SUPPORTED_FORMAT:
        yield at("format", f"format {data.format} is not known; this site reads format 1")
    if data.slug and not SLUG.fullmatch(data.slug):
        yield at("slug", f'the slug "{data.slug}" may only hold lowercase letters, digits and -')
    if data.difficulty is not None and not 0 <= data.difficulty <= MAX_DIFFICULTY:
        yield at(
            "difficulty",
            f"difficulty {data.difficulty} is out of range: use 0 (introductory) to 5",
        )
    yield from _check_players(data)
    for key, field in START_FIELDS.items():
        value = getattr(data, field)
        if value is not None and not 0 <= value <= MAX_COUNT:
            yield at(f"start.{key}", f"start {key} {value} is out of range: use 0 to {MAX_COUNT}")
    for what, value, key in (
        ("slug", data.slug, "slug"),
        ("title", data.title, "title"),
        ("language", data.language, "language"),
    ):
        yield from _too_long(CASE_FILE, data.lines.get(key), what, value)


def _check_players(data: CaseData) -> Iterable[Problem]:
    low, high = data.min_players, data.max_players
    for key, value in (("min", low), ("max", high)):
        if value is not None and not 1 <= value <= MAX_PLAYERS:
            yield _case_problem(
                data, f"players.{key}", f"players {key} {value} is out of range: use 1 to 7"
            )
    if low is not None and high is not None and low > high:
        yield _case_problem(data, "players.min", f"players min {low} is more than max {high}")


def _too_long(file: str, line: int | None, what: str, value: str) -> Iterable[Problem]:
    limit = MAX_LENGTHS[what]
    if len(value) > limit:
        yield error(
            file, line, f"the {what} is too long ({len(value)} characters; at most {limit})"
        )


def _check_zones(data: CaseData) -> Iterable[Problem]:
    if not data.is_zoned:
        return
    keys = [zone.key for zone in data.zones]
    for zone in data.zones:
        if not ZONE_KEY.fullmatch(zone.key):
            yield error(
                CASE_FILE,
                zone.line,
                f'the zone key "{zone.key}" may only hold lowercase letters, digits, _ and -',
            )
        yield from _too_long(CASE_FILE, zone.line, "zone key", zone.key)
        yield from _too_long(CASE_FILE, zone.line, "zone name", zone.name)
    if len(data.zones) < 2:
        yield _case_problem(
            data,
            "zones.names",
            "a zoned case needs at least two zones; for a one-zone case, leave out zones",
        )
    if data.start_zone and data.start_zone not in keys:
        yield _case_problem(
            data,
            "zones.start",
            f'the start zone "{data.start_zone}" is not one of the zones ({", ".join(keys)})',
        )
    if data.travel_cost is not None and not 0 <= data.travel_cost <= MAX_COUNT:
        message = f"travel_cost {data.travel_cost} is out of range: use 0 to {MAX_COUNT}"
        yield _case_problem(data, "zones.travel_cost", message)


# Questions --------------------------------------------------------------------------------


def _card_numbers(data: CaseData) -> set[int] | None:
    """The cards' numbers, or None when a card's number could not be read: then nobody
    can tell whether a reference points nowhere, and we say nothing rather than guess."""
    numbers = {location.number for location in data.locations}
    return None if None in numbers else numbers


def _check_questions(data: CaseData) -> Iterable[Problem]:
    yield from _check_question_ids(data.questions)
    numbers = _card_numbers(data)
    for question in data.questions:
        yield from _too_long(CASE_FILE, question.lines.get("answer"), "answer", question.answer)
        if question.kind and question.kind not in KINDS:
            message = f'unknown kind "{question.kind}" for {_name(question)}; the kinds are '
            yield error(CASE_FILE, question.lines.get("kind"), message + ", ".join(KINDS))
        yield from _check_answer_forms(question)
        yield from _check_rejects(question)
        for index, number in enumerate(question.evidence):
            if numbers is not None and number not in numbers:
                message = f"{_name(question)} lists card {number} as evidence, but there is "
                yield error(
                    CASE_FILE, question.lines.get(f"evidence.{index}"), f"{message}no card {number}"
                )


def _check_question_ids(questions: tuple[QuestionData, ...]) -> Iterable[Problem]:
    first_line: dict[str, int | None] = {}
    for question in questions:
        key, line = question.key, question.lines.get("id")
        if not key:
            continue  # missing: reported when the package was read
        if key in first_line:
            also = f" (also on line {first_line[key]})" if first_line[key] else ""
            yield error(CASE_FILE, line, f'the question id "{key}" is used twice{also}')
            continue
        first_line[key] = line
        if not QUESTION_ID.fullmatch(key):
            message = f'the question id "{key}" may only hold lowercase letters, digits and _'
            yield error(CASE_FILE, line, message)
        yield from _too_long(CASE_FILE, line, "question id", key)


def _name(question: QuestionData) -> str:
    return f'question "{question.key}"'


def _check_answer_forms(question: QuestionData) -> Iterable[Problem]:
    """The answer (and, for a person, each accepted form) must fit the question's kind."""
    answer, line, name = question.answer.strip(), question.lines.get("answer"), _name(question)
    if question.kind == "person":
        forms = [("answer", question.answer)]
        forms += [(f"accept.{index}", form) for index, form in enumerate(question.accept)]
        for key, form in forms:
            fault = person_name_fault(form) if form else ""
            if fault:
                what = "the answer to" if key == "answer" else "an accepted answer to"
                yield error(CASE_FILE, question.lines.get(key), f'{what} {name}, "{form}", {fault}')
    elif question.kind == "number" and answer and number_value(answer) is None:
        yield error(CASE_FILE, line, f'the answer to {name} must be a number, not "{answer}"')
    elif question.kind == "yes_no" and answer and answer.casefold() not in YES_NO:
        yield error(CASE_FILE, line, f'the answer to {name} must be yes or no, not "{answer}"')


def person_name_fault(form: str) -> str:
    """Why a person answer is not a full name, or "" when it is one."""
    words = NAME_WORD.findall(form)
    if words and words[0].casefold() in ARTICLES:
        return 'is a description; give the person\'s full name (like "Margaret Doyle")'
    while words and words[0].casefold().rstrip(".") in TITLES:
        words = words[1:]
    if len(words) < 2:
        return "is not a full name; give a first name and a surname"
    return ""


def _check_rejects(question: QuestionData) -> Iterable[Problem]:
    accepted = {_same_form(form) for form in (question.answer, *question.accept)}
    for index, form in enumerate(question.reject):
        if _same_form(form) in accepted:
            yield error(
                CASE_FILE,
                question.lines.get(f"reject.{index}"),
                f'the rejected form "{form}" of {_name(question)} is also an accepted answer',
            )


def _same_form(text: str) -> str:
    return " ".join(text.casefold().split())


# Location cards ---------------------------------------------------------------------------


def _check_locations(data: CaseData) -> Iterable[Problem]:
    by_number: dict[int, list[LocationData]] = defaultdict(list)
    for location in sorted(data.locations, key=lambda loc: loc.filename):
        if location.number is not None:
            by_number[location.number].append(location)
        yield from _check_location(data, location)
    for number, locations in by_number.items():
        for location in locations[1:]:
            others = " and ".join(other.path for other in locations if other is not location)
            times = "twice" if len(locations) == 2 else f"{len(locations)} times"
            yield error(
                location.path,
                location.lines.get("number"),
                f"number {number} is used {times} (also in {others})",
            )


def _check_location(data: CaseData, location: LocationData) -> Iterable[Problem]:
    path, lines = location.path, location.lines
    if location.number is not None and not 1 <= location.number <= MAX_CARD_NUMBER:
        message = f"number {location.number} is out of range: use 1 to {MAX_CARD_NUMBER}"
        yield error(path, lines.get("number"), message)
    yield from _too_long(path, lines.get("name"), "card name", location.name)
    yield from _too_long(path, None, "file name", location.filename)
    seen = set()
    for index, icon in enumerate(location.icons):
        line = lines.get(f"icons.{index}")
        if icon not in ICONS:
            yield error(path, line, f'unknown icon "{icon}"{_icon_suggestion(icon)}')
        elif icon in seen:
            yield error(path, line, f'the icon "{icon}" is listed twice')
        seen.add(icon)
    if location.carriages is not None:
        if "carriages" not in location.icons:
            yield error(
                path, lines.get("carriages"), "carriages is only for cards with the carriages icon"
            )
        elif not 1 <= location.carriages <= MAX_COUNT:
            message = f"carriages {location.carriages} is out of range: use 1 to {MAX_COUNT}"
            yield error(path, lines.get("carriages"), message)
    yield from _check_location_zone(data, location)
    if not location.text.strip():
        yield warning(path, lines.get("text"), "the card has no text")


def _check_location_zone(data: CaseData, location: LocationData) -> Iterable[Problem]:
    keys = [zone.key for zone in data.zones]
    path, lines = location.path, location.lines
    if not data.is_zoned:
        if location.zone:
            yield error(
                path,
                lines.get("zone"),
                "this card has a zone, but the case has no zones; remove zone",
            )
    elif not location.zone:
        yield error(path, lines.get("number"), f"this card needs a zone: one of {', '.join(keys)}")
    elif location.zone not in keys:
        yield error(
            path,
            lines.get("zone"),
            f'unknown zone "{location.zone}"; the zones are {", ".join(keys)}',
        )


def _icon_suggestion(icon: str) -> str:
    close = difflib.get_close_matches(icon, ICONS, n=1)
    if close:
        return f' (did you mean "{close[0]}"?)'
    return f"; the icons are {', '.join(ICONS)}"


# References -------------------------------------------------------------------------------


def _check_references(data: CaseData) -> Iterable[Problem]:
    """Every `[[n]]`, wherever it is written, must name a card of the case."""
    numbers = _card_numbers(data)
    if numbers is None:
        return
    texts = [
        (CASE_FILE, data.lines.get(field), getattr(data, field))
        for field in ("introduction", "special_rules", "solution")
    ]
    texts += [(CASE_FILE, q.lines.get("ask"), q.ask) for q in data.questions]
    texts += [(loc.path, loc.lines.get("text"), loc.text) for loc in data.locations]
    for file, first_line, text in texts:
        for match in CARD_REFERENCE.finditer(text):
            number = int(match.group(1))
            if number not in numbers:
                line = first_line + text.count("\n", 0, match.start()) if first_line else None
                yield error(
                    file,
                    line,
                    f"[[{match.group(1)}]] refers to card {number}, which does not exist",
                )


# Solvability ------------------------------------------------------------------------------


def _check_solvability(data: CaseData) -> Iterable[Problem]:
    """Warn about answers no card mentions; note cards no question uses as evidence."""
    texts = [_searchable(location.text) for location in data.locations]
    for question in data.questions:
        if question.kind == "yes_no" or not question.answer:
            continue
        forms = _search_forms(question)
        if not any(_mentions(text, form) for text in texts for form in forms):
            yield warning(
                CASE_FILE,
                question.lines.get("answer"),
                f'the answer to {_name(question)} ("{question.answer}") appears in no '
                "location text, so players may not be able to find it",
            )
    used = cards_used_as_evidence(data)
    if not used:
        if data.questions:
            yield info(
                CASE_FILE,
                data.lines.get("questions"),
                "no question lists evidence; listing the cards that support each answer "
                "lets the linter tell which cards matter",
            )
        return
    for location in data.locations:
        if location.number is not None and location.number not in used:
            yield info(
                location.path,
                location.lines.get("number"),
                f"card {location.number} is not evidence for any question",
            )


# Evidence ----------------------------------------------------------------------------------

# Words too common to link a solution's sentence to a card.
_COMMON = """
    about after again also always among another because been before being between both
    came case card cards could does done down each even every from have having here into
    just know like made make many might more most much must never once only other
    over said same says shall should since some still such than that their them then there
    these they this those though through told under until upon very want well went were
    what when where which while whom whose will with without would your holmes watson
    sherlock answer answers question questions shows proves clue clues knew
    """
COMMON_WORDS = frozenset(_COMMON.split())
SIGNIFICANT_WORD = re.compile(r"[^\W_]{4,}|\d+")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")


def _significant_words(text: str) -> set[str]:
    """Names, numbers and longer words of a text, folded ("Crane's" → "crane")."""
    words = set()
    for word in SIGNIFICANT_WORD.findall(_searchable(text)):
        word = word.removesuffix("'s")
        if word not in COMMON_WORDS:
            words.add(word.removesuffix("s") if len(word) > 4 else word)
    return words


def _solution_citations(solution: str) -> dict[int, set[str]]:
    """Card number → the significant words of the solution's sentences that cite it."""
    cited: dict[int, set[str]] = defaultdict(set)
    for sentence in SENTENCE_END.split(solution):
        numbers = {int(n) for n in CARD_REFERENCE.findall(sentence)}
        if numbers:
            words = _significant_words(CARD_REFERENCE.sub(" ", sentence))
            for number in numbers:
                cited[number] |= words
    return cited


def _check_evidence(data: CaseData) -> Iterable[Problem]:
    """Evidence that proves: a few cards per question, each cited by the solution for a
    fact its text carries (the solution's [[n]] references give the link)."""
    if not data.solution.strip():
        return  # a missing solution is an error of its own
    # Card number → the words of its text (of each card with that number, should two share
    # one: an error of its own).
    card_words: dict[int, set[str]] = defaultdict(set)
    for location in data.locations:
        if location.number is not None:
            card_words[location.number] |= _significant_words(location.text)
    cited = _solution_citations(data.solution)
    uncited = set(evidence_the_solution_never_cites(data))
    for question in data.questions:
        evidence = [number for number in question.evidence if number in card_words]
        if len(card_words) >= 4 and len(evidence) > len(card_words) / 2:
            yield warning(
                CASE_FILE,
                question.lines.get("evidence"),
                f"{_name(question)} lists {len(evidence)} of the case's {len(card_words)} cards as "
                "evidence: list only the cards that carry a fact the answer needs",
            )
        for index, number in enumerate(question.evidence):
            if number not in card_words:
                continue  # an error of its own (see _check_questions)
            line = question.lines.get(f"evidence.{index}")
            if (question.key, number) in uncited:
                yield warning(
                    CASE_FILE,
                    line,
                    f"card {number} is evidence for {_name(question)}, but the solution never "
                    f"cites it: say there what it proves, with [[{number}]]",
                )
            elif not cited[number] & card_words[number]:
                yield warning(
                    CASE_FILE,
                    line,
                    f"card {number} is evidence for {_name(question)}, but its text mentions "
                    f"nothing the solution cites [[{number}]] for",
                )


# What the checks above judge, for the editor's case map to mark with the same judgement.


def cards_used_as_evidence(data: CaseData) -> set[int]:
    """The numbers of the cards some question lists as evidence."""
    return {number for question in data.questions for number in question.evidence}


def evidence_the_solution_never_cites(data: CaseData) -> list[tuple[str, int]]:
    """(question id, card number) for each evidence card the solution never cites with
    [[n]]. Nothing while there is no solution (an error of its own), nor for a card that
    does not exist (another)."""
    if not data.solution.strip():
        return []
    numbers = {location.number for location in data.locations if location.number is not None}
    cited = _solution_citations(data.solution)
    return [
        (question.key, number)
        for question in data.questions
        for number in question.evidence
        if number in numbers and number not in cited
    ]


def _search_forms(question: QuestionData) -> set[str]:
    """The answer and its accepted forms as they could be written in a card's text."""
    forms = set()
    for form in (question.answer, *question.accept):
        words = form.split()
        if question.kind == "person":
            while words and words[0].casefold().rstrip(".") in TITLES:
                words = words[1:]
        if words and words[0].casefold() in ARTICLES:
            words = words[1:]
        forms.add(_searchable(" ".join(words)))
        if question.kind == "number":
            value = number_value(form)
            if value is not None and value == int(value):
                forms.add(str(int(value)))
                if 0 <= value < 100:
                    forms.add(number_word(int(value)))
    forms.discard("")
    return forms


def _searchable(text: str) -> str:
    """Text folded for searching: no case, accents, Markdown emphasis or curly quotes."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(char for char in text if not unicodedata.combining(char))
    text = text.replace("’", "'").replace("*", "").replace("_", " ").replace("`", "")
    return " ".join(text.split())


def _mentions(text: str, form: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text) is not None


def number_word(value: int) -> str:
    """0..99 in words: 4 → "four", 24 → "twenty-four"."""
    if value < 20:
        return NUMBER_WORDS[value]
    tens, units = divmod(value, 10)
    return TENS_WORDS[tens - 2] + (f"-{NUMBER_WORDS[units]}" if units else "")


def number_value(text: str) -> float | None:
    """The number a text means ("4", "4.0", "four", "twenty-four"), or None."""
    text = text.strip().casefold()
    try:
        value = float(text)
    except ValueError:
        pass
    else:
        return value if math.isfinite(value) else None  # "nan" and "inf" are no answers
    words = {number_word(value): value for value in range(100)}
    return words.get(text.replace(" ", "-"))
