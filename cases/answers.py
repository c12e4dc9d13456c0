"""The Baker Street answer checker: is a player's answer to a case question right?

`judge(question, given)` returns a `Verdict`: `correct`, `wrong` or `unsure`, a score and a
reason the player can read. `normalise(kind, given)` is the canonical form of an answer, used
to group wrong and unsure answers per question ("near misses") so authors can extend `accept`.

The rules follow the answer kinds of the case package spec (docs/case-package.md):

- `person`: a full name. Titles, case, accents, quotes and punctuation do not matter, a
  middle name may be left out or given as an initial, a small typo in a long name is
  forgiven. A surname alone, a first name alone, initials, a description or two people at
  once are wrong.
- `place`, `text`: words compared without articles, with small typo tolerance per word.
- `number`: digits or words ("4", "4.0", "four", "twenty-one", "a dozen").
- `yes_no`: the common forms of yes and no.
- `reject` forms are wrong, and beat typo tolerance: an answer at least as close to a reject
  form as to an accepted one is wrong.

Principles that decide between `correct`, `wrong` and `unsure`:

- Ambiguous input is `unsure`, never `correct`: the answer may be right but a person should
  look (a name with unknown extra words, a one-letter change in a first name, a name written
  in another script, a number hedged with "nearly").
- Reasons of `wrong` and `unsure` verdicts never quote the answer key; only a `correct`
  verdict names the form it matched.
- No Django, no database: this module is pure and cheap. The key's forms are normalised once
  and cached (`_compile_key`); the player's answer is normalised on every call.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from anyascii import anyascii
from rapidfuzz.distance import OSA, Levenshtein

CORRECT = "correct"
WRONG = "wrong"
UNSURE = "unsure"
KINDS = ("person", "place", "text", "number", "yes_no")

# An answer is a name, a place or a number. Past this length it is an essay, and guessing
# which of its words is the answer would invite false accepts.
MAX_LENGTH = 200


@dataclass(frozen=True, slots=True)
class AnswerKey:
    """The minimal question `judge` needs; a model with the same attributes works too."""

    kind: str
    answer: str
    accept: tuple[str, ...] = ()
    reject: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: str  # CORRECT, WRONG or UNSURE
    score: float  # 1.0 exactly right ... 0.0 nothing alike
    reason: str  # one sentence for the player

    @property
    def is_correct(self) -> bool:
        return self.outcome == CORRECT


def judge(question, given: str | None) -> Verdict:
    """Judge `given` against `question` (anything with kind, answer, accept, reject)."""
    kind = question.kind
    key = _compile_key(
        kind,
        str(question.answer),
        tuple(str(form) for form in question.accept or ()),
        tuple(str(form) for form in question.reject or ()),
    )
    text = given or ""
    if len(text) > MAX_LENGTH:
        text = " ".join(text.split())
        if len(text) > MAX_LENGTH:
            return Verdict(WRONG, 0.0, f"Too long ({len(text)} characters): give just the answer")
    clean, foreign = _clean(text)
    verdict = _JUDGES[kind](key, _PREPARERS[kind](clean))
    if foreign and verdict.outcome == CORRECT:
        # Transliteration is lossy and look-alike letters (Cyrillic "А" for Latin "A") can
        # spell a right answer by accident: a person should confirm.
        return Verdict(
            UNSURE,
            verdict.score,
            "Written in another script: it may be right, a judge should check",
        )
    return verdict


def normalise(kind: str, given: str | None) -> str:
    """The canonical form of an answer: equal for answers the checker cannot tell apart."""
    if kind not in _PREPARERS:
        raise ValueError(f"unknown answer kind {kind!r}")
    clean, _ = _clean(" ".join((given or "").split())[:MAX_LENGTH])
    # Transliteration can lengthen text (one Chinese character is a syllable): cap it again.
    return _PREPARERS[kind](clean).canonical[:MAX_LENGTH]


# --- Cleaning: any text to lower-case ASCII ------------------------------------------------

_TAG = re.compile(r"<[^<>]{0,200}>")
# Contractions whose "'s" is "is", not a possessive.
_CONTRACTION = re.compile(r"\b(it|that|he|she|who|what|there|here|let)'s\b")
_APOSTROPHE_NOT_POSSESSIVE = re.compile(r"'(?!s\b)")
_APOSTROPHE = re.compile(r"'")
_HYPHEN_IN_WORD = re.compile(r"(?<=[a-z])-(?=[a-z])")
_TOKEN = re.compile(r"[a-z0-9]+|'s\b|[&/+]")


def _clean(text: str) -> tuple[str, bool]:
    """Lower-case ASCII text, and whether it held letters of a non-Latin script."""
    if "<" in text:  # pasted HTML: "<b>Arthur</b>" is "Arthur"
        text = _TAG.sub(" ", text)
    if "&" in text:  # "Arthur&nbsp;Pennington", "&amp;"
        text = html.unescape(text)
    foreign = False
    if not text.isascii():
        text, foreign = _transliterate(text)
    return text.lower(), foreign


def _transliterate(text: str) -> tuple[str, bool]:
    kept = []
    foreign = False
    for char in text:
        if char.isascii():
            kept.append(char)
            continue
        category = unicodedata.category(char)
        if category[0] == "C":  # zero-width spaces, joiners, direction marks
            continue
        if category[0] in "SZ":  # emoji and symbols carry no answer; odd spaces are spaces
            kept.append(" ")
            continue
        if char.isalpha() and "LATIN" not in unicodedata.name(char, "LATIN"):
            foreign = True
        kept.append(char)
    # anyascii folds accents (Brontë), ligatures (Œ), curly quotes and full-width letters.
    return anyascii("".join(kept)), foreign


def _tokens(clean: str, keep_possessive: bool) -> list[str]:
    if "'" in clean:
        if keep_possessive:
            # "Pennington's wife" is someone else, so the possessive stays a token;
            # other apostrophes go: O'Brien is OBrien, didn't is didnt.
            clean = _CONTRACTION.sub(r"\1s", clean)
            clean = _APOSTROPHE_NOT_POSSESSIVE.sub("", clean)
        else:
            clean = _APOSTROPHE.sub("", clean)
    return [_SYMBOL_WORDS.get(token, token) for token in _TOKEN.findall(clean)]


_SYMBOL_WORDS = {"&": "and", "+": "and", "/": "or"}


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that frame an answer in a sentence: "I think it was ...", "... did it, surely".
# Names that are also words (Will, May, Grace, Hope, Frank) are deliberately absent, and so
# are "a" and "an", which may be initials ("A. Pennington").
_FILLER = _words("""
    the i im ive id we me my our it its was is were be been being has have had do does
    did done think thought believe guess suppose reckon suspect say said would must to
    answer culprit murderer killer thief villain poisoner forger guilty party person one
    who whom that thats this so then well surely certainly definitely obviously clearly
    probably perhaps maybe course of quite pretty very sure certain confident hmm um uh er
    erm ok okay please final by seems like looks yes
""")
_NEGATIONS = _words("""
    not no never nor neither isnt wasnt werent arent didnt doesnt dont hasnt hadnt havent
    cant cannot couldnt wouldnt wont shouldnt nobody nothing
""")
_CONJUNCTIONS = _words("and or nor either both versus vs plus")
_ARTICLES = _words("the a an")


def _strip_filler(tokens: list[str]) -> list[str]:
    start, end = 0, len(tokens)
    while start < end and tokens[start] in _FILLER:
        start += 1
    while end > start and tokens[end - 1] in _FILLER:
        end -= 1
    return tokens[start:end]


# --- Names and phrases: person, place, text ------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Form:
    """One accepted (or rejected) spelling, normalised."""

    parts: tuple[str, ...]  # name parts (particles joined: "delacour") or words
    text: str  # tokens joined by spaces: the canonical form
    compact: str  # without spaces
    shown: str  # as the author wrote it, for reasons


@dataclass(frozen=True, slots=True)
class _NameKey:
    kind: str
    forms: tuple[_Form, ...]  # answer, accept and their variants (middle names left out)
    by_text: dict[str, _Form]
    by_compact: dict[str, _Form]
    by_part_count: dict[int, tuple[_Form, ...]]
    rejects: tuple[_Form, ...]
    reject_texts: frozenset[str]
    first_names: frozenset[str]
    surnames: frozenset[str]


@dataclass(frozen=True, slots=True)
class _Phrase:
    """A player's answer as name parts or words, with what surrounded it."""

    tokens: tuple[str, ...]  # the answer without framing words
    raw: tuple[str, ...]  # before framing words were stripped
    parts: tuple[str, ...]
    had_comma: bool

    @property
    def canonical(self) -> str:
        return " ".join(self.tokens)


TITLES = _words("""
    mr mrs miss ms mx master mistress madam madame mme mlle mademoiselle monsieur dr doctor
    lady lord sir dame inspector insp chief superintendent supt sergeant sgt serjeant
    constable pc detective det captain capt colonel col major lieutenant lt general admiral
    commander professor prof reverend rev revd father fr canon bishop archdeacon rector vicar
    baron baroness count countess duke duchess earl marquess marquis viscount viscountess
    prince princess hon honourable rt herr frau fraulein signor signora signorina
    senor senora nurse matron private corporal cpl young old
""")
# Honours after a name. Junior and senior are kept: they tell a father from his son.
_SUFFIXES = _words("esq esquire bart bt qc kc mp md frs phd jp rn retd")
# Particles belong to the surname: "Lucien de la Roche" has the surname "delaroche".
_PARTICLES = _words("de da di del della der den van von la le du des ter ten st saint o mc")
_DESCRIPTIONS = _words("""
    gardener butler maid housemaid parlourmaid cook footman valet coachman groom governess
    housekeeper nanny vicar curate clerk banker solicitor lawyer sailor stranger man woman
    gentleman boy girl wife husband son daughter brother sister father mother uncle aunt
    nephew niece cousin widow widower landlord landlady lodger tenant servant secretary
    partner friend lover fiance heir cabman cabby driver porter guard policeman doctor
    someone somebody nobody everyone everybody anyone unknown beggar urchin owner keeper
    inspector constable sergeant captain colonel lady lord nurse
""")
# "in the cellar" is "cellar"; "near the cellar" is not, and stays to make the verdict unsure.
_PLACE_LEAD = _words("at in on inside within into to")
_PLACE_ABBREVIATIONS = {
    "rd": "road",
    "sq": "square",
    "ave": "avenue",
    "ln": "lane",
    "pl": "place",
    "mt": "mount",
    "stn": "station",
    "hse": "house",
}


def _prepare_person(clean: str) -> _Phrase:
    if "-" in clean:
        # A double-barrelled surname is one part: "Ambrose Lynd" is not "Ambrose
        # Fairweather-Lynd" with a middle name left out.
        clean = _HYPHEN_IN_WORD.sub("", clean)
    raw = _tokens(clean, keep_possessive=True)
    tokens = _strip_filler(raw)
    tokens = _drop_titles(tokens)
    tokens = _strip_filler(tokens)  # "Mr Pennington, I think"
    return _Phrase(tuple(tokens), tuple(raw), _name_parts(tokens), "," in clean)


def _drop_titles(tokens: list[str]) -> list[str]:
    # A title counts only in front of a name: "Inspector Lestrade" but "the inspector".
    kept = [
        token
        for index, token in enumerate(tokens)
        if token not in TITLES or index == len(tokens) - 1
    ]
    while len(kept) > 1 and kept[-1] in _SUFFIXES:
        kept.pop()
    return kept


def _name_parts(tokens: list[str]) -> tuple[str, ...]:
    parts: list[str] = []
    pending = ""
    for index, token in enumerate(tokens):
        # A leading particle is a first name ("Di" for Diana), not part of a surname.
        if token in _PARTICLES and 0 < index < len(tokens) - 1:
            pending += token
            continue
        parts.append(pending + token)
        pending = ""
    return tuple(parts)


def _prepare_place(clean: str) -> _Phrase:
    return _prepare_words(clean, is_place=True)


def _prepare_text(clean: str) -> _Phrase:
    return _prepare_words(clean, is_place=False)


def _prepare_words(clean: str, is_place: bool) -> _Phrase:
    raw = _tokens(clean, keep_possessive=False)
    tokens = [token for token in raw if token not in _ARTICLES]
    if is_place:
        tokens = _expand_abbreviations(tokens)
        if tokens and tokens[0] in _PLACE_LEAD:
            tokens = tokens[1:]
    stripped = _strip_filler(tokens)
    raw_words = tuple(token for token in raw if token not in _ARTICLES)
    return _Phrase(tuple(stripped), raw_words, tuple(stripped), "," in clean)


def _expand_abbreviations(tokens: list[str]) -> list[str]:
    last = len(tokens) - 1
    expanded = []
    for index, token in enumerate(tokens):
        if token == "st":  # "St Paul's" is a saint, "Baker St" a street
            token = "street" if index == last and index > 0 else "saint"
        expanded.append(_PLACE_ABBREVIATIONS.get(token, token))
    return expanded


@lru_cache(maxsize=4096)
def _compile_key(kind: str, answer: str, accept: tuple[str, ...], reject: tuple[str, ...]):
    if kind not in _KEY_COMPILERS:
        raise ValueError(f"unknown answer kind {kind!r}")
    return _KEY_COMPILERS[kind](kind, answer, accept, reject)


def _compile_name_key(kind: str, answer: str, accept: tuple[str, ...], reject: tuple[str, ...]):
    prepare = _PREPARERS[kind]
    forms: dict[str, _Form] = {}
    for shown in (answer, *accept):
        phrase = prepare(_clean(shown)[0])
        variants = _middle_name_variants(phrase.parts) if kind == "person" else [phrase.parts]
        for parts in variants:
            form = _make_form(parts, shown)
            forms.setdefault(form.text, form)
    rejects = tuple(_make_form(prepare(_clean(shown)[0]).parts, shown) for shown in reject)
    by_part_count: dict[int, list[_Form]] = {}
    for form in forms.values():
        by_part_count.setdefault(len(form.parts), []).append(form)
    full_names = [form for form in forms.values() if len(form.parts) > 1]
    return _NameKey(
        kind=kind,
        forms=tuple(forms.values()),
        by_text={form.text: form for form in forms.values()},
        by_compact={form.compact: form for form in forms.values()},
        by_part_count={count: tuple(group) for count, group in by_part_count.items()},
        rejects=rejects,
        reject_texts=frozenset(form.text for form in rejects),
        first_names=frozenset(form.parts[0] for form in full_names),
        surnames=frozenset(form.parts[-1] for form in full_names),
    )


def _make_form(parts: tuple[str, ...], shown: str) -> _Form:
    return _Form(parts, " ".join(parts), "".join(parts), shown)


def _middle_name_variants(parts: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Margaret Ellen Doyle, Margaret E Doyle and Margaret Doyle: a middle name is optional."""
    variants = [()]
    for middle in parts[1:-1][:3]:  # past three middle names, only the full form is known
        variants = [v + choice for v in variants for choice in ((middle,), (middle[0],), ())]
    if len(parts) < 3:
        return [parts]
    return [(parts[0], *middles, parts[-1]) for middles in variants]


# Typo tolerance, per part: short parts must be exact (Ada/Ida, Joan/John, east/west), and
# the whole answer may hold at most two edits (one if it is short).
def _part_allowance(part: str) -> int:
    if len(part) <= 4:
        return 0
    return 1 if len(part) <= 8 else 2


def _total_allowance(form: _Form) -> int:
    return 1 if len(form.compact) < 10 else 2


_EXACT, _TYPO, _DOUBT = 0, 1, 2


def _compare_part(given: str, wanted: str, is_first_name: bool) -> tuple[int, int] | None:
    """(_EXACT, _TYPO or _DOUBT, edits) for one part, or None when it is another word."""
    if given == wanted:
        return _EXACT, 0
    if len(given) == 1 or len(wanted) == 1:  # an initial is right or wrong, never a typo
        return None
    edits = OSA.distance(given, wanted, score_cutoff=2)
    allowance = _part_allowance(wanted)
    if edits > max(allowance, 1):
        return None
    if edits > allowance:
        # One edit in a short part: a swap of two letters (Jonh) is likely a typo, anything
        # else is likely another name or word (Joan for John, west for east).
        swapped = Levenshtein.distance(given, wanted, score_cutoff=2) == 2
        return (_DOUBT, edits) if swapped else None
    if given[0] != wanted[0]:
        # People rarely mistype the first letter, and changing it makes another name
        # (Bessie/Jessie, Hilda/Tilda, Pennington/Bennington).
        return _DOUBT, edits
    if is_first_name and not _is_safe_first_name_typo(given, wanted, edits):
        return _DOUBT, edits
    return _TYPO, edits


def _is_safe_first_name_typo(given: str, wanted: str, edits: int) -> bool:
    # Relatives share a surname, so the first name is what tells them apart, and brothers
    # and sisters often differ at its end: Louis/Louise, Francis/Frances. Two letters swapped
    # (Josaih) keep the letters and make no new name; other changes must keep the ending.
    if edits > 1:
        return False
    is_swap = Levenshtein.distance(given, wanted, score_cutoff=2) == 2
    return is_swap or given[-2:] == wanted[-2:]


def _compare_parts(parts: tuple[str, ...], form: _Form, is_person: bool) -> tuple[int, int] | None:
    worst, total = _EXACT, 0
    for index, (given, wanted) in enumerate(zip(parts, form.parts, strict=True)):
        result = _compare_part(given, wanted, is_person and index == 0 and len(parts) > 1)
        if result is None:
            return None
        worst, total = max(worst, result[0]), total + result[1]
    if total > 2:
        return None
    if total > _total_allowance(form):
        worst = _DOUBT
    return worst, total


def _closest(phrase: _Phrase, key: _NameKey) -> tuple[_Form, int, int] | None:
    """The nearest accepted form of the same shape, as (form, _TYPO or _DOUBT, edits)."""
    best = None
    for form in key.by_part_count.get(len(phrase.parts), ()):
        result = _compare_parts(phrase.parts, form, key.kind == "person")
        if result and (best is None or result < best[1:]):
            best = (form, *result)
    return best


def _reject_is_closer(phrase: _Phrase, key: _NameKey) -> bool:
    """A reject form wins when the answer is at least as close to it as to any accepted form."""
    if not key.rejects:
        return False
    given = "".join(phrase.parts)
    to_reject = min(OSA.distance(given, form.compact) for form in key.rejects)
    to_accept = min(OSA.distance(given, form.compact) for form in key.forms)
    return to_reject <= to_accept


def _similarity(phrase: _Phrase, key: _NameKey) -> float:
    given = "".join(phrase.parts)
    return max(Levenshtein.normalized_similarity(given, form.compact) for form in key.forms)


def _judge_name(key: _NameKey, phrase: _Phrase) -> Verdict:
    if not phrase.tokens:
        return Verdict(WRONG, 0.0, "No answer given")
    text = phrase.canonical
    if text in key.reject_texts or " ".join(phrase.raw) in key.reject_texts:
        return Verdict(WRONG, 0.0, _NOT_IT[key.kind])
    form = key.by_text.get(text) or key.by_text.get(" ".join(phrase.raw))
    if form:
        return Verdict(CORRECT, 1.0, f"Correct: {form.shown!r}")
    if key.kind == "person" and _names_two_people(phrase.tokens, key):
        return Verdict(WRONG, 0.0, "Two people at once: name only one")
    return _judge_near_match(key, phrase)


def _names_two_people(tokens: tuple[str, ...], key: _NameKey) -> bool:
    # "Arthur and Edith Pennington", "Arthur / Edith". In a longer sentence an "and" may
    # join clauses ("... and he needed the money"); `_judge_inside` looks there instead.
    if len(tokens) > _SHORT_ANSWER or _CONJUNCTIONS.isdisjoint(tokens):
        return False
    # An answer may itself be a pair ("the Brothers Pike and Hallam").
    return not any(_CONJUNCTIONS.intersection(form.parts) for form in key.forms)


_SHORT_ANSWER = 6

_NOT_IT = {
    "person": "Not the person we are looking for",
    "place": "Not the place we are looking for",
    "text": "Not the answer we are looking for",
}


def _judge_near_match(key: _NameKey, phrase: _Phrase) -> Verdict:
    closest = _closest(phrase, key)
    if closest:
        form, grade, edits = closest
        if _reject_is_closer(phrase, key):
            return Verdict(
                WRONG, _similarity(phrase, key), "Close to a form that is not the answer"
            )
        score = round(1 - edits / max(len(form.compact), 1), 3)
        if grade == _EXACT:  # the same parts, spelt with other spaces: "De la Roche"
            return Verdict(CORRECT, 1.0, f"Correct: {form.shown!r}")
        if grade == _TYPO:
            off = "one letter" if edits == 1 else "two letters"
            return Verdict(CORRECT, score, f"Close to {form.shown!r} ({off} off): accepted")
        return Verdict(UNSURE, score, "One or two letters from the answer: a judge should check")
    spaced = key.by_compact.get("".join(phrase.parts))
    if spaced and len(spaced.parts) != len(phrase.parts) and not _reject_is_closer(phrase, key):
        return Verdict(CORRECT, 0.98, f"Correct: {spaced.shown!r} (spaced differently)")
    if key.kind == "person":
        return _judge_person_miss(key, phrase)
    return _judge_phrase_miss(key, phrase)


def _find_inside(phrase: _Phrase, key: _NameKey) -> tuple[_Form, list[str], list[str]] | None:
    """An accepted form found among other words: (form, words before, words after)."""
    parts = phrase.parts
    for form in key.forms:
        size = len(form.parts)
        for start in range(len(parts) - size + 1):
            if parts[start : start + size] == form.parts:
                return form, list(parts[:start]), list(parts[start + size :])
    return None


def _judge_inside(key: _NameKey, phrase: _Phrase) -> Verdict | None:
    inside = _find_inside(phrase, key)
    if not inside:
        return None
    _, before, after = inside
    others = set(before + after)
    if after[:1] == ["'s"]:  # "Pennington's wife" is another person
        return Verdict(WRONG, 0.3, "Someone connected to the answer, not the answer itself")
    next_to_answer = {*before[-1:], *after[:1]}
    if next_to_answer & _CONJUNCTIONS:  # "the docks or the cellar"
        return Verdict(WRONG, 0.3, "Two answers at once: give only one")
    if others & _NEGATIONS:
        return Verdict(UNSURE, 0.5, "The answer is there, but so is a 'not': a judge should check")
    return Verdict(UNSURE, 0.7, "The answer is there among other words: a judge should check")


def _judge_person_miss(key: _NameKey, phrase: _Phrase) -> Verdict:
    inside = _judge_inside(key, phrase)
    if inside:
        return inside
    parts = phrase.parts
    score = _similarity(phrase, key)
    if len(parts) == 2 and phrase.had_comma and _swapped_is_exact(parts, key):
        return Verdict(CORRECT, 1.0, "Correct: surname first")
    if len(parts) > 1 and _is_reordered(parts, key):
        return Verdict(UNSURE, score, "The right names in another order: a judge should check")
    if len(parts) > 2 and _has_unknown_middle(parts, key):
        return Verdict(UNSURE, score, "A middle name we do not know: a judge should check")
    return Verdict(WRONG, score, _person_miss_reason(key, parts))


def _swapped_is_exact(parts: tuple[str, ...], key: _NameKey) -> bool:
    return " ".join(reversed(parts)) in key.by_text  # "Doyle, Margaret"


def _is_reordered(parts: tuple[str, ...], key: _NameKey) -> bool:
    ordered = sorted(parts)
    return any(sorted(form.parts) == ordered for form in key.by_part_count.get(len(parts), ()))


def _has_unknown_middle(parts: tuple[str, ...], key: _NameKey) -> bool:
    return any(
        len(form.parts) == 2 and form.parts[0] == parts[0] and form.parts[1] == parts[-1]
        for form in key.forms
    )


def _person_miss_reason(key: _NameKey, parts: tuple[str, ...]) -> str:
    is_initial = [len(part) == 1 for part in parts]
    if is_initial[0] or is_initial[-1]:
        return "Initials are not enough: the full name is required"
    if any(part in _DESCRIPTIONS for part in parts) and not key.surnames.intersection(parts):
        return "A description, not a name: the full name is required"
    if len(parts) == 1:
        part = parts[0]
        if _near_any(part, key.surnames):
            return "Only a surname: the full name is required"
        if _near_any(part, key.first_names):
            return "Only a first name: the full name is required"
        return "Not a full name: give the first name and the surname"
    if _near_any(parts[-1], key.surnames):
        return "Not the person we are looking for: another first name"
    return "Not the person we are looking for"


def _near_any(part: str, names: frozenset[str]) -> bool:
    return part in names or any(
        (found := _compare_part(part, name, False)) and found[0] == _TYPO for name in names
    )


def _judge_phrase_miss(key: _NameKey, phrase: _Phrase) -> Verdict:
    inside = _judge_inside(key, phrase)
    if inside:
        return inside
    score = _similarity(phrase, key)
    covered = _part_of(phrase, key)
    if covered >= 0.5:
        return Verdict(UNSURE, score, "Part of the answer: a judge should check")
    if covered:
        return Verdict(WRONG, score, "Only part of the answer")
    return Verdict(WRONG, score, _NOT_IT[key.kind])


def _part_of(phrase: _Phrase, key: _NameKey) -> float:
    """How much of the nearest accepted form the answer is, when it is a run of its words."""
    text = f" {phrase.canonical} "
    share = 0.0
    for form in key.forms:
        if len(form.parts) > len(phrase.tokens) and text in f" {form.text} ":
            share = max(share, len(phrase.canonical.replace(" ", "")) / len(form.compact))
    return share


# --- Numbers -----------------------------------------------------------------------------

_UNITS = {
    word: value
    for value, words in enumerate(
        [
            "zero nought naught nil none",
            "one once",
            "two twice",
            "three thrice",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve dozen noon midday midnight",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
    for word in words.split()
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fourty": 40,  # the common misspelling
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "thirtieth": 30,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
# Words that shift or blur a number: "nearly four", "half past four", "after four".
_QUALIFIERS = _words("""
    nearly almost over under more less fewer least most than half quarter past before after
    till until between beyond minus
""")
_NUMERAL_OR_WORD = re.compile(r"(\d{1,3}(?:,\d{3})+|\d+)(?:([.:])(\d+))?|[a-z]+")


@dataclass(frozen=True, slots=True)
class _Numbers:
    values: tuple[float, ...]  # distinct, in order of appearance
    words: tuple[str, ...]  # the words that are not part of a number

    @property
    def canonical(self) -> str:
        if self.values:
            return " ".join(_format_number(value) for value in self.values)
        return " ".join(self.words)


def _format_number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _prepare_number(clean: str) -> _Numbers:
    values: list[float] = []
    words: list[str] = []
    reader = _WordNumberReader(values)
    for match in _NUMERAL_OR_WORD.finditer(_APOSTROPHE.sub("", clean)):
        whole, separator, fraction = match.groups()
        if whole is not None:
            reader.flush()
            values.append(_numeral_value(whole, separator, fraction))
        elif not reader.feed(match.group()):
            words.append(match.group())
    reader.flush()
    distinct = tuple(dict.fromkeys(round(value, 6) for value in values))
    return _Numbers(distinct, tuple(words))


def _numeral_value(whole: str, separator: str | None, fraction: str | None) -> float:
    value = float(whole.replace(",", ""))
    if separator == ".":
        return value + float(f"0.{fraction}")
    if separator == ":":  # a time: 16:00 is 16, 4:30 is 4.5
        return value + int(fraction) / 60
    return value


class _WordNumberReader:
    """Reads number words ("twenty one", "a hundred and five") into a list of values."""

    def __init__(self, values: list[float]):
        self.values = values
        self.total = self.current = 0
        self.active = False
        self.last = ""  # "unit", "tens" or "scale"
        self.pending_a = False

    def feed(self, word: str) -> bool:
        """Take `word` if it belongs to a number; False leaves it to the caller."""
        if word == "a":  # "a dozen", "a hundred", but "a" alone is an article
            self.pending_a = True
            return True
        pending_a, self.pending_a = self.pending_a, False
        if word == "and" and self.active and self.last == "scale":
            return True  # "one hundred and five"
        if word in _SCALES and (self.active or pending_a):
            self.total += max(self.current, 1) * _SCALES[word]
            self.current, self.last = 0, "scale"
            self.active = True
            return True
        value = _UNITS.get(word, _ORDINALS.get(word))
        if word == "dozen" and (self.active or pending_a):
            self.current, self.last = max(self.current, 1) * 12, "unit"
            self.active = True
            return True
        if value is not None:
            if self.active and self.last == "unit":
                self.flush()  # "four five" is two numbers
            self.current += value
            self.active, self.last = True, "unit"
            return True
        if word in _TENS:
            if self.last == "unit" and 10 <= self.current <= 99 and not self.total:
                self.current *= 100  # a spoken year: "eighteen fifty-five"
            elif self.active and self.last in ("unit", "tens"):
                self.flush()
            self.current += _TENS[word]
            self.active, self.last = True, "tens"
            return True
        self.flush()
        return False

    def flush(self) -> None:
        if self.active:
            self.values.append(float(self.total + self.current))
        self.total = self.current = 0
        self.active = False
        self.last = ""


@dataclass(frozen=True, slots=True)
class _NumberKey:
    values: frozenset[float]
    texts: frozenset[str]  # accept forms that are not a single number, as words
    reject_values: frozenset[float]
    reject_texts: frozenset[str]


def _compile_number_key(kind: str, answer: str, accept: tuple[str, ...], reject: tuple[str, ...]):
    values, texts = _split_number_forms((answer, *accept))
    reject_values, reject_texts = _split_number_forms(reject)
    return _NumberKey(values, texts, reject_values, reject_texts)


def _split_number_forms(forms: tuple[str, ...]) -> tuple[frozenset[float], frozenset[str]]:
    values, texts = set(), set()
    for form in forms:
        numbers = _prepare_number(_clean(form)[0])
        if len(numbers.values) == 1:
            values.add(numbers.values[0])
        else:
            texts.add(numbers.canonical)
    return frozenset(values), frozenset(texts)


def _judge_number(key: _NumberKey, numbers: _Numbers) -> Verdict:
    if not numbers.values and not numbers.words:
        return Verdict(WRONG, 0.0, "No answer given")
    canonical = numbers.canonical
    if canonical in key.reject_texts or key.reject_values.intersection(numbers.values):
        return Verdict(WRONG, 0.0, "Not the number we are looking for")
    if canonical in key.texts:
        return Verdict(CORRECT, 1.0, "Correct")
    if not numbers.values:
        return Verdict(WRONG, 0.0, "No number found")
    right = [value for value in numbers.values if value in key.values]
    if not right:
        return Verdict(WRONG, 0.0, "Not the number we are looking for")
    words = set(numbers.words)
    if words & _NEGATIONS:
        return Verdict(UNSURE, 0.5, "The number is there, but so is a 'not': a judge should check")
    if len(right) < len(numbers.values):
        if words & _CONJUNCTIONS:
            return Verdict(WRONG, 0.0, "Two answers at once: give only one")
        return Verdict(UNSURE, 0.5, "More than one number: a judge should check")
    if words & _QUALIFIERS:
        return Verdict(
            UNSURE, 0.5, "The number is hedged ('nearly', 'past'...): a judge should check"
        )
    return Verdict(CORRECT, 1.0, f"Correct: {_format_number(right[0])}")


# --- Yes or no ---------------------------------------------------------------------------

_YES = _words("yes y yeah yea yep yup aye affirmative")
_NO = _words("no n nope nah nay never false negative incorrect wrong")
_YES_SOFT = _words("""
    indeed certainly absolutely definitely surely sure course undoubtedly quite precisely
    exactly naturally obviously true correct right
""")
_NO_ANSWER = (
    "dont know",
    "do not know",
    "not sure",
    "no idea",
    "not certain",
    "cannot say",
    "cant say",
    "cannot tell",
    "cant tell",
    "no clue",
    "who knows",
)
_NO_ANSWER_WORDS = _words("maybe perhaps possibly unsure unknown idk dunno")
_YES_PHRASES = ("no doubt", "without doubt", "without a doubt", "not a doubt", "no question")
_THINK_SO = _words("think believe suppose expect guess reckon hope fear")
_SQUEEZED = re.compile(r"(.)\1+")


@dataclass(frozen=True, slots=True)
class _YesNo:
    text: str  # the words, space-separated
    polarity: str | None  # "yes", "no", "both", "none" (neither given) or None (unreadable)

    @property
    def canonical(self) -> str:
        return self.polarity if self.polarity in ("yes", "no") else self.text


def _prepare_yes_no(clean: str) -> _YesNo:
    tokens = [_squeeze(token) for token in _tokens(clean, keep_possessive=False)]
    text = " ".join(tokens)
    return _YesNo(text, _polarity(tokens, text))


def _squeeze(token: str) -> str:
    if token in _YES or token in _NO or len(token) < 3:
        return token
    squeezed = _SQUEEZED.sub(r"\1", token)  # "yesss", "nooo"
    return squeezed if squeezed in _YES or squeezed in _NO else token


def _polarity(tokens: list[str], text: str) -> str | None:
    padded = f" {text} "
    if any(f" {phrase} " in padded for phrase in _NO_ANSWER):
        return "none"
    for phrase in _YES_PHRASES:  # "no doubt" is a yes
        padded = padded.replace(f" {phrase} ", " indeed ")
    words = set(padded.split())
    if words & _NO_ANSWER_WORDS and not words & (_YES | _NO | _NEGATIONS):
        return "none"
    said_yes = bool(words & _YES)
    said_no = bool(words & (_NO | _NEGATIONS))
    if said_yes and said_no:
        return "both"
    if said_no:
        return "no"  # "certainly not", "not at all"
    if said_yes or words & _YES_SOFT or _says_think_so(tokens):
        return "yes"
    return None


def _says_think_so(tokens: list[str]) -> bool:
    return len(tokens) >= 2 and tokens[-1] == "so" and tokens[-2] in _THINK_SO


@dataclass(frozen=True, slots=True)
class _YesNoKey:
    polarity: str | None
    texts: frozenset[str]
    reject_texts: frozenset[str]


def _compile_yes_no_key(kind: str, answer: str, accept: tuple[str, ...], reject: tuple[str, ...]):
    answer_form = _prepare_yes_no(_clean(answer)[0])
    polarity = answer_form.polarity if answer_form.polarity in ("yes", "no") else None
    texts = frozenset(_prepare_yes_no(_clean(form)[0]).text for form in (answer, *accept))
    reject_texts = frozenset(_prepare_yes_no(_clean(form)[0]).text for form in reject)
    return _YesNoKey(polarity, texts, reject_texts)


def _judge_yes_no(key: _YesNoKey, given: _YesNo) -> Verdict:
    if not given.text:
        return Verdict(WRONG, 0.0, "No answer given")
    if given.text in key.reject_texts:
        return Verdict(WRONG, 0.0, "Not the answer we are looking for")
    if given.text in key.texts:
        return Verdict(CORRECT, 1.0, "Correct")
    if given.polarity == "none":
        return Verdict(WRONG, 0.0, "Neither yes nor no")
    if given.polarity == "both":
        return Verdict(UNSURE, 0.5, "Both yes and no: a judge should check")
    if given.polarity is None or key.polarity is None:
        return Verdict(UNSURE, 0.5, "Could not read a yes or a no: a judge should check")
    if given.polarity == key.polarity:
        return Verdict(CORRECT, 1.0, f"Correct: {given.polarity}")
    return Verdict(WRONG, 0.0, "Not the answer we are looking for")


# --- Dispatch ----------------------------------------------------------------------------

_PREPARERS: dict[str, Callable] = {
    "person": _prepare_person,
    "place": _prepare_place,
    "text": _prepare_text,
    "number": _prepare_number,
    "yes_no": _prepare_yes_no,
}
_KEY_COMPILERS: dict[str, Callable] = {
    "person": _compile_name_key,
    "place": _compile_name_key,
    "text": _compile_name_key,
    "number": _compile_number_key,
    "yes_no": _compile_yes_no_key,
}
_JUDGES: dict[str, Callable] = {
    "person": _judge_name,
    "place": _judge_name,
    "text": _judge_name,
    "number": _judge_number,
    "yes_no": _judge_yes_no,
}
