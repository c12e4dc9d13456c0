"""The Baker Street answer checker: is a player's answer to a case question right?

`judge(question, given)` returns a `Verdict`: `correct`, `wrong` or `unsure`, a score and a
reason the player can read. The question is anything with `kind`, `answer`, `accept` and
`reject` (an `AnswerKey`, a `cases.models.Question`), and optionally `ask`, the question as the
players read it. `normalise(kind, given)` is the canonical form of an answer, used to group
wrong and unsure answers per question ("near misses") so authors can extend `accept`.

The rules follow the answer kinds of the case package spec (docs/case-package.md):

- `person`: a full name. Titles, case, accents, quotes and punctuation do not matter, a
  middle name may be left out or given as an initial, a small typo in a long name is
  forgiven. A surname alone, a first name alone, initials, a description or two people at
  once are wrong. A nickname is right only when `accept` lists it ("Jem" may be James or
  Jeremiah: only the author knows), but one word or initial in brackets or double quotes
  between the first name and the surname is set aside ("Harold (Harry) Fenn", "Silas (J.)
  Crane"), unless it goes against a middle name the key knows or makes a reject form.
- `place`, `text`: words compared without articles, with small typo tolerance per word. A
  place may be cut into a thing and what it belongs to, in any order and with "of", "at",
  "in", "under" between them: "the crypt of St Peter's Church" is also "the crypt at St
  Peter's" and "St Peter's Church crypt". A saint's church may be named by the saint alone.
- `number`: digits or words ("4", "4.0", "four", "twenty-one", "a dozen"). When the question
  asks for an hour of the day, the hour is read on a 24-hour clock: "19:00" and "7 pm" are
  seven in the evening, and "7 am" is wrong when the question (or the key: "11 pm", or "16"
  accepted beside 4) says evening.
- `yes_no`: the common forms of yes and no.
- `reject` forms are wrong, and beat typo tolerance: an answer at least as close to a reject
  form as to an accepted one is wrong, and so is an answer that names a reject form beside
  an accepted one.

Players answer in sentences, so the words around an accepted form are read (see "Reading a
sentence" below): framing ("I think", "it was", "hidden in", the question's own words), a
district or street after a place and a description after a full name ("Jeremiah Latch, the
lamplighter") leave a right answer right. A second answer ("... or the vestry"), another
place beside it ("the vicarage next to ..."), someone connected to it ("Latch's son", "the
son of Jeremiah Latch") are wrong; a "not", a "near" or words it cannot place are unsure.

Principles that decide between `correct`, `wrong` and `unsure`:

- False accepts come first: ambiguous input is `unsure`, never `correct`. The answer may be
  right but a person should look (unknown extra words, a one-letter change in a first name,
  a name written in another script, a number hedged with "nearly").
- Reasons of `wrong` and `unsure` verdicts never quote the answer key; only a `correct`
  verdict names the form it matched.
- No Django, no database: this module is pure and cheap. The key's forms (and their other
  word orders) are normalised once and cached (`_compile_key`); the player's answer is
  normalised on every call.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
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
    # The question as the players read it. Optional: it tells an hour "of the evening" from
    # one "of the morning", and its words are not extra words when a player echoes them.
    ask: str = ""


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: str  # CORRECT, WRONG or UNSURE
    score: float  # 1.0 exactly right ... 0.0 nothing alike
    reason: str  # one sentence for the player

    @property
    def is_correct(self) -> bool:
        return self.outcome == CORRECT


def judge(question, given: str | None) -> Verdict:
    """Judge `given` against `question` (anything with kind, answer, accept, reject, and
    optionally ask: the question's text)."""
    kind = question.kind
    key = _compile_key(
        kind,
        str(question.answer),
        tuple(str(form) for form in question.accept or ()),
        tuple(str(form) for form in question.reject or ()),
        str(getattr(question, "ask", "") or ""),
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


# The numero sign before a number ("№ 212", "nº 212") goes: folded to ASCII it would read
# as "no 212", which is a "no".
_NUMERO_SIGN = re.compile(r"(?:№|[Nn][º°])\s*(?=\d)")
# "No. 212", "no.212", "No212", "nr. 212" and "#212" name a number, as a ticket or a house
# does: the "no" is no denial, and goes too. A bare "no 212" stays ambiguous.
_NUMERO = re.compile(r"(?:\b(?:no|nos|nr|num)\.|#|\bno(?=\d))\s*(?=\d)")


def _clean(text: str) -> tuple[str, bool]:
    """Lower-case ASCII text, and whether it held letters of a non-Latin script."""
    if not text.isascii():
        text = _NUMERO_SIGN.sub(" ", text)
    if "<" in text:  # pasted HTML: "<b>Arthur</b>" is "Arthur"
        text = _TAG.sub(" ", text)
    if "&" in text:  # "Arthur&nbsp;Pennington", "&amp;"
        text = html.unescape(text)
    foreign = False
    if not text.isascii():
        text, foreign = _transliterate(text)
    return _NUMERO.sub(" ", text.lower()), foreign


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
    erm ok okay please final by seems like looks yes fairly
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
    echo: frozenset[str] = frozenset()  # stems of the question's own words ("hidden", "will")
    # A district ("Bethnal Green") or a street ("Greek Street"): then another district or
    # street beside it is a second answer, not its address.
    is_area: bool = False
    is_street: bool = False
    # "Who was the man in the grey ulster?": the question's words describe the answer. In
    # "Who drugged the night porter?" they describe someone else.
    asks_who_is: bool = False


@dataclass(frozen=True, slots=True)
class _Phrase:
    """A player's answer as name parts or words, with what surrounded it."""

    tokens: tuple[str, ...]  # the answer without framing words
    raw: tuple[str, ...]  # before framing words were stripped
    parts: tuple[str, ...]
    had_comma: bool
    # A nickname or an initial in brackets or quotes between the names ("Harold (Harry)
    # Fenn"): its index in `tokens`, and the answer read without it. It stays in `tokens` and
    # `parts` as a middle name, the reading of the words alone.
    aside: int = -1
    without_aside: _Phrase | None = None

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    @property
    def canonical(self) -> str:
        """The text, with an aside kept in its brackets: "Harold (Harry) Fenn" is judged
        neither as "Harold Fenn" nor as "Harold Harry Fenn", so it is grouped with neither."""
        if self.aside < 0:
            return self.text
        tokens = list(self.tokens)
        tokens[self.aside] = f"({tokens[self.aside]})"
        return " ".join(tokens)


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
_PLACE_LEAD = _words("at in on inside within into to under beneath underneath")
# Between two words of a place these all say "part of": "the crypt at St Peter's", "the
# cellars under the Coal Exchange" are read as "the crypt of ...", "the cellars of ...".
_PLACE_LINKS = _words("of at in under beneath underneath below inside within")
# And between two words of a thing: "a page from a hymn book" is "a hymn book page".
_THING_LINKS = _words("of from")
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


_BACK_OF = re.compile(r"\b(?:at|round|around|to) the back of\b")
# "Tom Grebe and no one else" names one person, stressed: the stress is dropped.
_NO_ONE_ELSE = re.compile(r"(?:,|\band\b)?\s*\b(?:no one|no-one|noone|nobody|none) else\b")


def _prepare_person(clean: str) -> _Phrase:
    if " else" in clean:
        clean = _NO_ONE_ELSE.sub(" ", clean)
    if "-" in clean:
        # A double-barrelled surname is one part: "Ambrose Lynd" is not "Ambrose
        # Fairweather-Lynd" with a middle name left out.
        clean = _HYPHEN_IN_WORD.sub("", clean)
    phrase = _person_phrase(clean)
    asides = list(_ASIDE.finditer(clean)) if "(" in clean or '"' in clean else []
    if len(asides) != 1:
        return phrase
    aside = asides[0]
    word = aside.group(1) or aside.group(2)
    if len(word) > 1 and word in _NOT_AN_ASIDE:
        return phrase  # "Harold (not) Fenn", "Harold (junior) Fenn": not a nickname
    without = _person_phrase(f"{clean[: aside.start()]} {clean[aside.end() :]}")
    tokens = phrase.tokens
    at = next(
        (
            index
            for index in range(1, len(tokens) - 1)
            if tokens[index] == word and tokens[:index] + tokens[index + 1 :] == without.tokens
        ),
        -1,
    )
    if at < 0:
        return phrase  # the word went with the framing or the titles: nothing to set aside
    return _Phrase(phrase.tokens, phrase.raw, phrase.parts, phrase.had_comma, at, without)


def _person_phrase(clean: str) -> _Phrase:
    raw = _tokens(clean, keep_possessive=True)
    tokens = _strip_filler(raw)
    tokens = _drop_titles(tokens)
    tokens = _strip_filler(tokens)  # "Mr Pennington, I think"
    return _Phrase(tuple(tokens), tuple(raw), _name_parts(tokens), "," in clean)


# One word or initial in brackets or double quotes, between two words: "Harold (Harry) Fenn",
# 'Harold "Harry" Fenn', "Silas (J.) Crane". Curly quotes are straight by now.
_ASIDE = re.compile(r'(?<=[a-z])\s*(?:\(\s*([a-z]+)\s*\.?\s*\)|"\s*([a-z]+)\s*\.?\s*")\s*(?=[a-z])')


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
    if " else" in clean:
        clean = _NO_ONE_ELSE.sub(" ", clean)
    if is_place and " back of " in clean:
        clean = _BACK_OF.sub(" behind ", clean)  # "the mews at the back of Eaton Square"
    raw = _tokens(clean, keep_possessive=False)
    tokens = [token for token in raw if token not in _ARTICLES]
    if is_place:
        tokens = _expand_abbreviations(tokens)
        if tokens and tokens[0] in _PLACE_LEAD:
            tokens = tokens[1:]
    links = _PLACE_LINKS if is_place else _THING_LINKS
    tokens = [
        "of" if token in links and 0 < index < len(tokens) - 1 else token
        for index, token in enumerate(tokens)
    ]
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
def _compile_key(
    kind: str, answer: str, accept: tuple[str, ...], reject: tuple[str, ...], ask: str = ""
):
    if kind not in _KEY_COMPILERS:
        raise ValueError(f"unknown answer kind {kind!r}")
    return _KEY_COMPILERS[kind](kind, answer, accept, reject, ask)


def _compile_name_key(
    kind: str, answer: str, accept: tuple[str, ...], reject: tuple[str, ...], ask: str
):
    prepare = _PREPARERS[kind]
    forms: dict[str, _Form] = {}
    for shown in (answer, *accept):
        phrase = prepare(_clean(shown)[0])
        if kind == "person":
            variants = _middle_name_variants(phrase.parts)
        elif kind in ("place", "text"):
            variants = _place_variants(phrase.parts)
        else:
            variants = [phrase.parts]
        for parts in variants:
            form = _make_form(parts, shown)
            forms.setdefault(form.text, form)
    rejects = tuple(_make_form(prepare(_clean(shown)[0]).parts, shown) for shown in reject)
    by_part_count: dict[int, list[_Form]] = {}
    for form in forms.values():
        by_part_count.setdefault(len(form.parts), []).append(form)
    full_names = [form for form in forms.values() if len(form.parts) > 1]
    key_words = {part for form in (*forms.values(), *rejects) for part in form.parts}
    return _NameKey(
        kind=kind,
        forms=tuple(sorted(forms.values(), key=lambda form: -len(form.parts))),
        by_text={form.text: form for form in forms.values()},
        by_compact={form.compact: form for form in forms.values()},
        by_part_count={count: tuple(group) for count, group in by_part_count.items()},
        rejects=rejects,
        reject_texts=frozenset(form.text for form in rejects),
        first_names=frozenset(form.parts[0] for form in full_names),
        surnames=frozenset(form.parts[-1] for form in full_names),
        echo=_echo_words(ask, key_words),
        asks_who_is=bool(_ASKS_WHO_IS.match(ask)),
        is_area=kind == "place" and any(form.parts in _DISTRICTS for form in forms.values()),
        is_street=kind == "place"
        and any(form.parts[-1] in _STREET_WORDS for form in forms.values() if form.parts),
    )


_ASKS_WHO_IS = re.compile(r"\s*who\s+(?:was|is|were)\b", re.IGNORECASE)


def _echo_words(ask: str, key_words: set[str]) -> frozenset[str]:
    """Stems of the question's words a player may repeat around the answer ("the ledger was
    hidden in ..."). Capitalised words are names, perhaps of a wrong answer: never echo."""
    words = re.findall(r"[A-Za-z][A-Za-z']*", ask)
    echo = set()
    for index, word in enumerate(words):
        token = word.lower().replace("'", "")
        if word[0].isupper() and index > 0 and token not in TITLES:
            continue
        if token in key_words or token in _NEGATIONS or token in _CONJUNCTIONS:
            continue
        echo.add(_stem(token))
    return frozenset(echo)


def _stem(word: str) -> str:
    """A crude stem, enough to hear "poisoned" in "What poison...": no dictionary."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word.rstrip("e") or word


# "the crypt of St Peter's Church" is also "St Peter's Church crypt", and "Coal Exchange
# cellars" is "the cellars of the Coal Exchange" (and, through _PLACE_LINKS, "the cellars
# under the Coal Exchange"). A saint's church may be named by the saint alone ("St Peter's").
# Inside a longer name, "Waterloo Station" may be "Waterloo" ("the left-luggage office,
# Waterloo").
_SAINTS_BUILDINGS = _words("church chapel")
_GENERIC_BUILDINGS = _words("church chapel station")


def _may_drop_building(parts: tuple[str, ...]) -> bool:
    if len(parts) >= 3 and parts[-1] in _SAINTS_BUILDINGS and "saint" in parts[:-2]:
        return True  # "St Peter's" for St Peter's Church
    return len(parts) >= 4 and parts[-1] in _GENERIC_BUILDINGS and parts[-3] == "of"


def _place_variants(parts: tuple[str, ...]) -> list[tuple[str, ...]]:
    bases = [parts]
    if _may_drop_building(parts):
        bases.append(parts[:-1])
    variants = []
    for base in bases:
        variants.append(base)
        for head, owner, said_of in _heads_and_owners(base):
            if not said_of:
                variants.append((*head, "of", *owner))  # "the cellars of the Coal Exchange"
            variants.append(owner + head)  # "St Peter's Church crypt"
            variants.append((*owner, "of", *head))  # "St Peter's Church, in the crypt"
            variants.append(head + owner)  # "the crypt, St Peter's Church"
    return variants


def _heads_and_owners(base: tuple[str, ...]):
    """(head, owner, said with "of") for each way of cutting a name into a thing and what it
    belongs to: "crypt" of "St Peter's Church"; "goods shed" or "shed" of "Paddock Wood"."""
    if "of" in base[1:-1]:
        at = base.index("of")
        return [(base[:at], base[at + 1 :], True)]
    cuts = [(base[cut:], base[:cut], False) for cut in range(1, len(base))]
    # A street's name is one name: "Greek Street" is not "the street of Greek".
    return [cut for cut in cuts if not (len(base) == 2 and base[-1] in _STREET_WORDS)]


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
    text = phrase.text
    if text in key.reject_texts or " ".join(phrase.raw) in key.reject_texts:
        return Verdict(WRONG, 0.0, _rejected_reason(key, phrase))
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
# The one reason for a surname alone, refused or not: what is missing, never the key.
ONLY_A_SURNAME = "Only a surname: give the full name, first name and surname"


def _rejected_reason(key: _NameKey, phrase: _Phrase) -> str:
    """Why a reject form is wrong. A surname alone ("Mr Fenn" when the key refuses "Mrs
    Fenn") is the right surname without its first name, not someone else."""
    parts = phrase.parts
    if key.kind == "person" and len(parts) == 1 and _near_any(parts[0], key.surnames):
        return ONLY_A_SURNAME
    return _NOT_IT[key.kind]


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


# --- Reading a sentence: the answer among other words ---------------------------------------
#
# Players answer in their own words: "It was hidden in the crypt of St Peter's Church,
# Vauxhall", "Jeremiah Latch, the lamplighter". The words around an accepted form are read:
# framing (prepositions, "I think", "it was", the question's own words), a district or an
# address after a place, a description after a full name make no difference; another place
# or person beside it, a second answer, a "not" or a possessive ("Latch's wife") do.

_FRAMING_VERBS = _words("""
    hid hide hidden hiding kept keep stored buried concealed found lay lies lying located
    placed put stashed tucked left met meet meeting seen lodged lodging lived living stayed
    went gone taken held locked sent posted happened took place where there named called
    says told tells turned came discovered recovered ended
    he she they him her his their them someone somebody stuff
""")
# Around a thing (a weapon, a poison): "he struck him with a poker", "poisoned with ...",
# "a few drops of laudanum", "a piece of oilcloth".
_TEXT_FRAMING = _FILLER | _words("""
    he she they him her his their them with using used hit struck killed done in into
    piece bit scrap sheet length strip square bottle phial vial packet drop drops dose few some
""")
_PLACE_FRAMING = (
    _FILLER
    | _PLACE_LEAD
    | _FRAMING_VERBS
    | _words("""
    under beneath underneath below inside within down up somewhere
""")
)
# Before a place, these put the answer somewhere else: "near", "the vicarage next to ...".
_BESIDE = _words("""
    near nearby next beside besides behind opposite outside across around beyond past
    towards toward facing by off above over adjoining adjacent close along outside
""")
# Districts of London (and around), named after a place: "St Peter's Church, Vauxhall".
_DISTRICTS = frozenset(
    tuple(name.split())
    for name in """
    london, the city, city, westminster, whitechapel, spitalfields, shoreditch, bethnal green,
    stepney, limehouse, poplar, wapping, shadwell, rotherhithe, bermondsey, southwark,
    lambeth, vauxhall, kennington, camberwell, brixton, battersea, chelsea, kensington,
    knightsbridge, belgravia, pimlico, mayfair, marylebone, soho, holborn, clerkenwell,
    islington, hoxton, hackney, bloomsbury, fitzrovia, saint giles, covent garden, strand,
    temple, blackfriars, aldgate, bishopsgate, cheapside, smithfield, finsbury, moorgate,
    bow, mile end, deptford, greenwich, woolwich, hampstead, highgate, camden, camden town,
    paddington, bayswater, notting hill, hammersmith, fulham, putney, wandsworth, clapham,
    stockwell, walworth, elephant and castle, borough, the borough, docklands, isle of dogs,
    east end, west end, seven dials, saffron hill, tower hill, ludgate hill, charing cross,
    saint johns wood, kentish town, somers town, euston, kings cross, pentonville,
    piccadilly, haymarket, whitehall, aldwych, pall mall, the mall, barnes, richmond, kew,
    england, middlesex, surrey, kent, essex, thames, river thames, river
    """.replace("\n", " ").split(sep=",")
    if name.strip()
)
_WIDE_AREAS = frozenset(
    tuple(name.split())
    for name in ("london", "city", "east end", "west end", "england", "middlesex", "surrey")
)
_STREET_WORDS = _words("""
    street road lane square place avenue row court alley yard walk gardens terrace crescent
    mews passage grove hill wharf embankment
""")
# After a full name, a description without an article must be one of these words, so that a
# second name ("Jeremiah Latch, Ned Cole") is not read as one.
_DESCRIPTION_WORDS = _DESCRIPTIONS | _words("""
    lamplighter lamplighters sexton verger beadle watchman nightwatchman ostler potman barman
    barmaid publican innkeeper pawnbroker moneylender apothecary chemist surgeon physician
    jeweller clockmaker watchmaker locksmith bookseller engraver printer compositor
    dressmaker milliner seamstress laundress washerwoman charwoman scullerymaid kitchenmaid
    bootblack sweep costermonger hawker pedlar peddler tinker boatman waterman lighterman
    docker stevedore seaman bosun fisherman cabdriver stationmaster signalman
    telegraphist postman messenger actor actress singer
    dancer conjurer artist painter sculptor photographer journalist reporter editor
    governor warder gaoler convict thief burglar forger poisoner murderer killer
    blackmailer smuggler fence accomplice lodger visitor guest neighbour tutor pupil
    student schoolmaster schoolmistress organist choirmaster churchwarden
    retired former late widowed writer sender author dresser bellringer ringer journeyman
    apprentice foreman labourer navvy carter drayman carpenter joiner plumber glazier
    cobbler shoemaker bookbinder tanner brewer distiller grocer butcher teacher instructor
""")
# Words after a full name that make it someone else or a second answer.
_TRAIL_BLOCKERS = (
    _words("""
    with without helped help helping aided assisted instead rather but than actually really
    sorry wait mean junior senior jr sr younger elder son father ii iii except also too
    though although unless otherwise else however whereas saw watched blamed accused framed
    paid hired ordered suspect suspected says said told tells
    """)
    | _CONJUNCTIONS
    | _NEGATIONS
)
_RELATIVE = _words("who that which whose whom")
_DESCRIPTION_LEADS = (
    _ARTICLES
    | _RELATIVE
    | _words("""
    of from in at on known called alias nicknamed
""")
)
_CLAUSE_VERBS = _words("is was were are")
# A name right after these is not the answer but someone in a relation to it.
# ("by" and "from" are absent: "sent by Tom Grebe" and "a letter from Tom Grebe" name him.)
_OBJECT_LEADS = _words("""
    of to for with than against like after about killed poisoned robbed helped
    """)
# Before a name: "the lamplighter Jeremiah Latch"; "a" and "an" may be initials ("A. Latch").
_PERSON_LEAD = _FILLER | _DESCRIPTION_WORDS | _FRAMING_VERBS
_PLAIN_DESCRIPTION = _PERSON_LEAD | _DESCRIPTION_LEADS
_PLACE_TRAIL = _FILLER | _FRAMING_VERBS
_LONGEST_FRAME = 10  # words around the answer; past this it is an explanation: a judge looks
# Words that bring in a second answer when the words around the first are not framing.
_ALTERNATIVES = _CONJUNCTIONS | _words("though although otherwise unless else")
# A description may hold a few words the checker does not know ("the booking clerk at
# Paddington", "late of the 44th Foot"); more may be a story naming someone else.
_UNKNOWN_IN_DESCRIPTION = 1


def _find_in_sentence(phrase: _Phrase, key: _NameKey):
    """The longest accepted form found as a run of the answer's words, allowing the usual
    typos: (form, start, end, grade, edits), or None."""
    parts = phrase.parts
    is_person = key.kind == "person"
    best = None
    for form in key.forms:  # longest first
        size = len(form.parts)
        if size >= len(parts) or (best and size < best[2] - best[1]):
            continue
        for start in range(len(parts) - size + 1):
            window = parts[start : start + size]
            if window == form.parts:
                result = (_EXACT, 0)
            elif window[0][:1] != form.parts[0][:1]:
                continue  # a changed first letter is never a typo: skip the comparison
            else:
                result = _compare_parts(window, form, is_person)
            if result and (best is None or result < best[3:]):
                best = (form, start, start + size, *result)
    return best


def _read_sentence(key: _NameKey, phrase: _Phrase) -> Verdict | None:
    found = _find_in_sentence(phrase, key)
    if not found:
        return _read_core(key, phrase)
    form, start, end, grade, edits = found
    parts = phrase.parts
    before, after = list(parts[:start]), list(parts[end:])
    if after[:1] == ["'s"]:  # "Pennington's wife" is another person
        return Verdict(WRONG, 0.3, "Someone connected to the answer, not the answer itself")
    if {*before[-1:], *after[:1]} & _CONJUNCTIONS:  # "the docks or the cellar"
        return Verdict(WRONG, 0.3, "Two answers at once: give only one")
    if key.kind == "person" and before[-1:] and before[-1] in _OBJECT_LEADS:
        return Verdict(WRONG, 0.3, "Someone connected to the answer, not the answer itself")
    if _names_a_reject(parts, key):
        return Verdict(WRONG, 0.3, "Another answer named beside this one: give only one")
    others = set(before + after)
    if others & _NEGATIONS:
        return Verdict(UNSURE, 0.5, "The answer is there, but so is a 'not': a judge should check")
    if len(before) + len(after) > _LONGEST_FRAME:
        return Verdict(UNSURE, 0.6, "The answer is there in a long sentence: a judge should check")
    if key.kind == "place" and others & _BESIDE:
        return _beside_the_place(key, before, after)
    lead = _lead_frames(key, before) or _inside_a_street_or_district(key, form, before)
    if lead and _trail_frames(key, after):
        return _framed_verdict(form, grade, edits)
    if _names_a_second_street_or_district(key, before, after):
        return Verdict(WRONG, 0.3, "Another place, beside the answer: name the place itself")
    if others & _ALTERNATIVES:  # "Jeremiah Latch, the lamplighter, and Ned Cole"
        return Verdict(WRONG, 0.3, "Two answers at once: give only one")
    return Verdict(UNSURE, 0.7, "The answer is there among other words: a judge should check")


def _inside_a_street_or_district(key: _NameKey, form: _Form, before: list[str]) -> bool:
    """ "a lodging house in Greek Street": whatever stands in the right street or district is
    there too (the cellar of the right inn is another matter: it is not the inn)."""
    if key.kind != "place" or before[-1:] != ["of"]:
        return False
    is_street = form.parts[-1] in _STREET_WORDS
    if not (is_street or form.parts in _DISTRICTS) or set(before) & _CONJUNCTIONS:
        return False
    # "Dean Street at Greek Street" is a corner of two streets, not a house in one.
    thing = [word for word in before[:-1] if not _is_framing(key, word, _PLACE_FRAMING)]
    return not (thing and (thing[-1] in _STREET_WORDS or _is_locality(thing)))


def _names_a_second_street_or_district(key: _NameKey, before: list[str], after: list[str]):
    """ "Greek Street, Dean Street", "Hackney, Bethnal Green": two streets or two districts."""
    if not (key.is_street or key.is_area):
        return False
    for words in (before, after):
        words = [word for word in words if not _is_framing(key, word, _PLACE_TRAIL)]
        while words and words[0] in _PLACE_LEAD:
            words = words[1:]
        if words and (_is_address(words) or (key.is_area and _is_locality(words))):
            return True
    return False


def _framed_verdict(form: _Form, grade: int, edits: int) -> Verdict:
    if grade == _EXACT:
        return Verdict(CORRECT, 1.0, f"Correct: {form.shown!r}, in a sentence")
    score = round(1 - edits / max(len(form.compact), 1), 3)
    if grade == _TYPO:
        off = "one letter" if edits == 1 else "two letters"
        return Verdict(CORRECT, score, f"Close to {form.shown!r} ({off} off): accepted")
    return Verdict(UNSURE, score, "One or two letters from the answer: a judge should check")


def _names_a_reject(parts: tuple[str, ...], key: _NameKey) -> bool:
    text = f" {' '.join(parts)} "
    return any(f" {reject.text} " in text for reject in key.rejects if reject.parts)


def _beside_the_place(key: _NameKey, before: list[str], after: list[str]) -> Verdict:
    """ "near St Peter's" may be right; "the vicarage next to St Peter's" is another place."""
    words = [word for word in before if word not in _BESIDE]
    content = [word for word in words if not _is_framing(key, word, _PLACE_FRAMING)]
    if content:
        return Verdict(WRONG, 0.3, "Another place, beside the answer: name the place itself")
    return Verdict(UNSURE, 0.5, "Near the answer is not at it: a judge should check")


def _is_framing(key: _NameKey, word: str, framing: frozenset[str]) -> bool:
    return word in framing or _stem(word) in key.echo


def _lead_frames(key: _NameKey, before: list[str]) -> bool:
    if key.kind == "place":
        words = [word for word in before if not _is_framing(key, word, _PLACE_FRAMING)]
        return not words or _is_locality(words, wide=key.is_area)  # "in the Thames at ..."
    if key.kind == "person":
        return all(_is_framing(key, word, _PERSON_LEAD) for word in before)
    return all(_is_framing(key, word, _TEXT_FRAMING) for word in before)


def _trail_frames(key: _NameKey, after: list[str]) -> bool:
    if not after:
        return True
    if key.kind == "place":
        return _is_place_trail(key, after)
    if key.kind == "person":
        return _is_description(key, after)
    return all(_is_framing(key, word, _TEXT_FRAMING) for word in after)


def _is_place_trail(key: _NameKey, after: list[str]) -> bool:
    """ ", Vauxhall", "in Lambeth, London", ", Hart Street", "where the ledger was kept"."""
    words = [word for word in after if not _is_framing(key, word, _PLACE_TRAIL)]
    while words and words[0] in _PLACE_LEAD:
        words = words[1:]
    if not words or _is_locality(words, wide=key.is_area):
        return True
    return not (key.is_area or key.is_street) and _is_address(words)


def _is_locality(words: list[str], wide: bool = False) -> bool:
    """Districts (or, `wide`, only the areas around a district: London, the East End)."""
    areas = _WIDE_AREAS if wide else _DISTRICTS
    index = 0
    while index < len(words):
        for size in (4, 3, 2, 1):
            if tuple(words[index : index + size]) in areas:
                index += size
                break
        else:
            if words[index] not in _PLACE_LEAD and words[index] not in ("of", "east", "west"):
                return False
            index += 1
    return True


def _is_address(words: list[str]) -> bool:
    # "Hart Street", "12 Hart Street, Vauxhall": a street's name, then perhaps a district.
    for end in range(len(words), 1, -1):
        if words[end - 1] in _STREET_WORDS and end >= 2:
            rest = words[end:]
            return not rest or _is_locality(rest)
    return False


def _is_description(key: _NameKey, after: list[str]) -> bool:
    """ "the lamplighter", "lamplighter of Vauxhall", "who lit the lamps", "did it"."""
    if set(after) & _TRAIL_BLOCKERS or "'s" in after:
        return False
    if after[0] in _ARTICLES and not key.asks_who_is and _only_the_questions_words(key, after):
        return False  # "Ignatius Pole, the night porter" for "Who drugged the night porter?"
    if all(_is_framing(key, word, _PLAIN_DESCRIPTION) or _is_district(word) for word in after):
        return True
    unknown = [
        word
        for word in after
        if not (_is_framing(key, word, _PLAIN_DESCRIPTION) or _is_district(word))
        and word not in _STREET_WORDS
    ]
    if _too_many_unknown(after, unknown) or _another_subject(after, unknown):
        return False  # "the lamplighter who saw Ned Cole do it" may name the answer
    if after[0] in _DESCRIPTION_WORDS:  # "governess to the Ashby children"
        while after and after[0] in _DESCRIPTION_WORDS:
            after = after[1:]
        if not after or after[0] not in _DESCRIPTION_LEADS | _words("to for"):
            return False
    elif after[0] not in _DESCRIPTION_LEADS:
        return False
    # "the man who was at the inn" is a description; "the real culprit was Ned Cole" is not.
    return not (set(after) & _CLAUSE_VERBS) or bool(set(after) & _RELATIVE)


def _too_many_unknown(after: list[str], unknown: list[str]) -> bool:
    """At most one unknown word, or a few in a closing phrase such as "of Hungerford Stairs"
    or "to the Ashby children" (where, or whom he serves: not a second suspect)."""
    if len(unknown) <= _UNKNOWN_IN_DESCRIPTION:
        return False
    leads = [index for index, word in enumerate(after) if word in _PLACING]
    if not leads:
        return True
    closing = after[leads[-1] + 1 :]
    inside = [word for word in unknown if word in closing]
    outside = len(unknown) - len(inside)
    if set(closing) & (_RELATIVE | _SECOND_CLAIM):
        return True
    return outside > _UNKNOWN_IN_DESCRIPTION or len(inside) > _UNKNOWN_IN_PLACING


_PLACING = _words("of at from in on to for")
_UNKNOWN_IN_PLACING = 3


def _only_the_questions_words(key: _NameKey, words: list[str]) -> bool:
    content = [word for word in words if word not in _FILLER and word not in _ARTICLES]
    return bool(content) and all(_stem(word) in key.echo for word in content)


def _another_subject(after: list[str], unknown: list[str]) -> bool:
    """Unknown words before a verb: "..., whose brother Ned Cole did it" is a second claim."""
    if not unknown:
        return False
    first_unknown = after.index(unknown[0])
    return any(word in _SECOND_CLAIM for word in after[first_unknown + 1 :])


_SECOND_CLAIM = _CLAUSE_VERBS | _words("did does done do had has says said told tells")


# Words that are no nickname, in brackets between two names: "Harold (not) Fenn", "Harold
# (junior) Fenn", "Harold (or) Fenn". An initial is always one ("Silas (I.) Crane").
_NOT_AN_ASIDE = (
    _FILLER
    | _NEGATIONS
    | _TRAIL_BLOCKERS
    | _DESCRIPTION_WORDS
    | _DESCRIPTION_LEADS
    | _OBJECT_LEADS
    | _FRAMING_VERBS
    | _PARTICLES
    | _SUFFIXES
    | TITLES
)


def _is_district(word: str) -> bool:
    return (word,) in _DISTRICTS


def _read_core(key: _NameKey, phrase: _Phrase) -> Verdict | None:
    """No accepted form among the words: judge the name left once framing is peeled off
    ("Jeremiah Amos Latch, lamplighter" for Jeremiah Latch: a middle name we do not know)."""
    parts = list(phrase.parts)
    start = 0
    while start < len(parts) - 1 and _lead_frames(key, parts[start : start + 1]):
        start += 1
    if key.kind == "person" and parts[start - 1 : start] and parts[start - 1] in _OBJECT_LEADS:
        return None
    end = len(parts)
    for cut in range(start + 1, len(parts)):
        if _trail_frames(key, parts[cut:]):
            end = cut
            break
    core = tuple(parts[start:end])
    if not core or len(core) == len(parts):
        return None
    verdict = _judge_name(key, _Phrase(core, core, core, phrase.had_comma))
    if key.kind != "person" and verdict.outcome != CORRECT:
        # "a coal wharf, Blackfriars": part of the answer in another district is not "part
        # of the answer": judge the whole phrase instead.
        return None
    return verdict


def _judge_person_miss(key: _NameKey, phrase: _Phrase) -> Verdict:
    inside = _read_sentence(key, phrase)
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


def _judge_person(key: _NameKey, phrase: _Phrase) -> Verdict:
    """A name, read first with its words as they are (an aside as a middle name: "Silas
    (J.) Crane" for Silas James Crane), then, when that is not right, with a nickname or an
    initial in brackets set aside ("Harold (Harry) Fenn" for Harold Fenn)."""
    verdict = _judge_name(key, phrase)
    if verdict.outcome == CORRECT or phrase.without_aside is None:
        return verdict
    named = _aside_names_a_reject(key, phrase)
    if named:
        return Verdict(WRONG, 0.3, "Another answer named beside this one: give only one")
    if named is None and _aside_fits(key, phrase):
        return _judge_name(key, phrase.without_aside)
    # Near a reject form with the names around it, or not between the first name and the
    # surname of an answer: read as written.
    return verdict


def _aside_index(phrase: _Phrase) -> int:
    """The aside's index in `parts` (particles joined), or -1."""
    word, plain = phrase.tokens[phrase.aside], phrase.without_aside.parts
    parts = phrase.parts
    for index in range(1, len(parts) - 1):
        if parts[index] == word and parts[:index] + parts[index + 1 :] == plain:
            return index
    return -1


def _aside_fits(key: _NameKey, phrase: _Phrase) -> bool:
    """The aside sits between the first name and the surname of an accepted form, and says
    nothing against the middle names the key knows: a nickname or an initial is set aside
    only when the key knows none ("Harold (Harry) Fenn"), or it is the first name's own
    initial ("Harold (H.) Fenn"). Past that it may be a wrong middle name: unsure."""
    at = _aside_index(phrase)
    if at < 0:
        return False
    word, first, last = phrase.parts[at], phrase.parts[at - 1], phrase.parts[at + 1]
    # The names around it as the checker would compare them, doubts included ("Silas (J.)
    # Krane" is as unsure as "Silas Krane"): which verdict they earn is the plain reading's.
    people = [
        form
        for form in key.forms
        if len(form.parts) > 1
        and _compare_part(first, form.parts[0], False) is not None
        and _compare_part(last, form.parts[-1], False) is not None
    ]
    if not people:
        return False
    middles = {middle for form in people for middle in form.parts[1:-1]}
    return not middles or (len(word) == 1 and word == first[0])


def _aside_names_a_reject(key: _NameKey, phrase: _Phrase) -> bool | None:
    """Whether the aside makes a reject form with the names around it ("Harold (Martha)
    Fenn" when "Martha Fenn" is refused): True for the form itself, False for a form a typo
    away, None when it makes none."""
    at = _aside_index(phrase)
    if at < 0:
        return None
    near = False
    for reject in key.rejects:
        size = len(reject.parts)
        for start in range(max(0, at - size + 1), at + 1):
            window = phrase.parts[start : start + size]
            if len(window) != size:
                continue
            if window == reject.parts:
                return True
            near = near or _compare_parts(window, reject, True) is not None
    return False if near else None


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
    if any(part in _DESCRIPTION_WORDS for part in parts) and not key.surnames.intersection(parts):
        return "A description, not a name: the full name is required"
    if len(parts) == 1:
        part = parts[0]
        if _near_any(part, key.surnames):
            return ONLY_A_SURNAME
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
    inside = _read_sentence(key, phrase)
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
    text = f" {phrase.text} "
    share = 0.0
    for form in key.forms:
        if len(form.parts) > len(phrase.tokens) and text in f" {form.text} ":
            share = max(share, len(phrase.text.replace(" ", "")) / len(form.compact))
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
    # How each value was written as a time of day: "am", "pm", "24h" (07:00, 19:00) or "".
    clocks: dict[float, str] = field(default_factory=dict)

    @property
    def canonical(self) -> str:
        if self.values:
            return " ".join(_format_number(value) for value in self.values)
        return " ".join(self.words)


def _format_number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


# "a.m.", "p. m." and "7pm" become the words "am" and "pm".
_MERIDIEM_DOTTED = re.compile(r"\b([ap])\.\s?m\b\.?")
_MERIDIEM = _words("am pm")


def _prepare_number(clean: str) -> _Numbers:
    values: list[float] = []
    words: list[str] = []
    clocks: dict[float, str] = {}
    reader = _WordNumberReader(values)
    text = _MERIDIEM_DOTTED.sub(r" \1m ", _APOSTROPHE.sub("", clean))
    for match in _NUMERAL_OR_WORD.finditer(text):
        whole, separator, fraction = match.groups()
        if whole is not None:
            reader.flush()
            values.append(_numeral_value(whole, separator, fraction))
            if separator == ":" and len(whole) == 2 and whole[0] == "0":
                clocks[values[-1]] = "24h"  # 07:00 is seven in the morning
            continue
        word = match.group()
        if reader.feed(word):
            continue
        if word in _MERIDIEM and values and _just_read(match, text):
            clocks[values[-1]] = word  # "7 pm", "seven am"; "I am" is not a time
        words.append(word)
    reader.flush()
    if 12.0 in values:  # the words say which twelve: midnight is 0:00, noon 12:00
        if "midnight" in text:
            clocks[12.0] = "am"
        elif "noon" in text or "midday" in text:
            clocks[12.0] = "pm"
    distinct = tuple(dict.fromkeys(round(value, 6) for value in values))
    return _Numbers(distinct, tuple(words), {round(k, 6): v for k, v in clocks.items()})


def _just_read(match: re.Match, text: str) -> bool:
    """Whether the word of `match` follows a number: a digit or a number word before it."""
    before = text[: match.start()].rstrip()
    if before[-1:].isdigit():
        return True
    last = before.rsplit(None, 1)[-1] if before else ""
    return last in _UNITS or last in _TENS or last in _ORDINALS or last == "oclock"


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
    # For a question about the hour of the day: the right hours on a 24-hour clock ("at what
    # hour of the evening", answer 7: {19}; no part of the day known: {7, 19}). None otherwise.
    hours: frozenset[float] | None = None


def _compile_number_key(
    kind: str, answer: str, accept: tuple[str, ...], reject: tuple[str, ...], ask: str
):
    values, texts = _split_number_forms((answer, *accept))
    reject_values, reject_texts = _split_number_forms(reject)
    hours = _hours_of_key((answer, *accept), values, ask)
    return _NumberKey(values, texts, reject_values, reject_texts, hours)


def _split_number_forms(forms: tuple[str, ...]) -> tuple[frozenset[float], frozenset[str]]:
    values, texts = set(), set()
    for form in forms:
        numbers = _prepare_number(_clean(form)[0])
        if len(numbers.values) == 1:
            values.add(numbers.values[0])
        else:
            texts.add(numbers.canonical)
    return frozenset(values), frozenset(texts)


# --- Hours of the day ------------------------------------------------------------------------

# A question about the time of day, not a duration ("how many hours").
_ASKS_FOR_HOUR = re.compile(r"\b(hours?|o'?clock|what time|time of day)\b")
_ASKS_FOR_DURATION = re.compile(r"\bhow (many|long)\b")
_MORNING = _words("morning mornings dawn daybreak sunrise breakfast forenoon")
_EVENING = _words("afternoon evening evenings dusk sunset teatime tea dinner supper")


def _hours_of_key(forms: tuple[str, ...], values: frozenset[float], ask: str):
    """The right hours on a 24-hour clock, when the question asks for an hour of the day."""
    asked = _clean(ask)[0]
    written = [_prepare_number(_clean(form)[0]) for form in forms]
    says_clock = any(numbers.clocks for numbers in written)
    if not (says_clock or _ASKS_FOR_HOUR.search(asked)) or _ASKS_FOR_DURATION.search(asked):
        return None
    if not values or any(value < 0 or value > 24 for value in values):
        return None
    half = _half_of_day(asked, written, values)
    at_night = not half and "night" in re.findall(r"[a-z]+", asked)
    hours = set()
    for value in values:
        if at_night and value != 6:  # "of the night": three is 3 am, eleven is 11 pm
            hours |= _readings(value, "am" if value < 6 or value == 12 else "pm")
        else:
            hours |= _readings(value, half)
    return frozenset(hours)


def _half_of_day(asked: str, written: list[_Numbers], values: frozenset[float]) -> str:
    """ "am", "pm" or "" (unknown) for the key, from the question and the key's own forms."""
    halves = set()
    asked_words = set(re.findall(r"[a-z]+", asked))
    if asked_words & _MORNING:
        halves.add("am")
    if asked_words & _EVENING:
        halves.add("pm")
    for numbers in written:
        halves.update(clock for clock in numbers.clocks.values() if clock in _MERIDIEM)
        halves.update(_half_in_words(numbers.words))
    if any(12 < value < 24 for value in values):  # the author accepted "16" as well as 4
        halves.add("pm")
    return halves.pop() if len(halves) == 1 else ""


# In an answer, only plain words for a half of the day count: "before breakfast" is no hour.
_SAID_MORNING = _words("morning forenoon")
_SAID_EVENING = _words("afternoon evening night tonight")


def _half_in_words(words) -> set[str]:
    said = set(words)
    halves = set()
    if said & _SAID_MORNING:
        halves.add("am")
    if said & _SAID_EVENING:
        halves.add("pm")
    return halves


def _readings(value: float, half: str) -> set[float]:
    """The hours on a 24-hour clock that `value` can mean, given am, pm, 24h or nothing."""
    if value > 24:
        return set()
    if half == "24h" or value > 12:
        return {value % 24}
    if half == "am":
        return {value % 12}
    if half == "pm":
        return {value % 12 + 12}
    return {value % 12, value % 12 + 12}


def _given_readings(value: float, numbers: _Numbers) -> set[float]:
    clock = numbers.clocks.get(value, "")
    if not clock:
        halves = _half_in_words(numbers.words)
        if "night" in numbers.words and (value < 6 or value == 12):
            halves = {"am"}  # "three in the night" is before dawn, "twelve at night" is 0:00
        clock = halves.pop() if len(halves) == 1 else ""
    return _readings(value, clock)


def _other_half_of_the_day(hours: frozenset[float], numbers: _Numbers) -> bool:
    """ "7 am" for seven in the evening: the reason says why the clock's hour is not enough."""
    faces = {hour % 12 for hour in hours}
    return any(value % 12 in faces for value in numbers.values)


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
    if key.hours is None:
        right = [value for value in numbers.values if value in key.values]
    else:
        right = [v for v in numbers.values if _given_readings(v, numbers) & key.hours]
    if not right:
        if key.hours is not None and _other_half_of_the_day(key.hours, numbers):
            return Verdict(WRONG, 0.0, "Not the hour we are looking for: morning and evening count")
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


def _compile_yes_no_key(
    kind: str, answer: str, accept: tuple[str, ...], reject: tuple[str, ...], ask: str
):
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
    "person": _judge_person,
    "place": _judge_name,
    "text": _judge_name,
    "number": _judge_number,
    "yes_no": _judge_yes_no,
}
