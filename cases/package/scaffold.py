"""A new case package to start from: every part in place, placeholders to replace.

`manage.py new_case SLUG` writes it to a folder; the editor's "Start from a template"
imports it as a draft. It lints clean, so the first problems a writer sees are their own.
"""

from .data import CASE_FILE

CASE_TEMPLATE = """\
---
format: 1
slug: {slug}
title: {title}
difficulty: 1  # 0 (introductory) to 5
language: en
players: {{min: 1, max: 7}}
# Zones, for a case that travels (remove the # to use them; every card then needs a zone):
# zones:
#   start: london
#   travel_cost: 2
#   names: {{london: London, kent: Kent}}
questions:
  - id: culprit
    ask: Who took the silver inkstand?
    kind: person  # person, place, text, number or yes_no
    answer: Edith Marlowe
    accept: [Miss Edith Marlowe]  # other right ways to write it
    reject: [Harold Marlowe]  # close but wrong: always refused
    evidence: [1, 2]  # only the cards that carry a fact the answer needs
  - id: hiding_place
    ask: Where is the inkstand now?
    kind: place
    answer: the boathouse
    evidence: [2, 3]
---
# Introduction

Replace this with the opening scene: who comes to Baker Street, what happened, and what
the players must find out. Point them to their first visit, the study [[1]].

# Special rules

Optional: rules of this case only (remove the section if there are none).

# Solution

Replace this with Holmes's explanation, step by step, citing every evidence card. Edith
Marlowe had the only key to the study [[1]]. Her muddy boots by the boathouse door give her
away, and the boathouse is where the inkstand waits [[2]]. The gardener saw a lantern at
the boathouse at midnight [[3]].

## The answers
- **Who took the silver inkstand?** Edith Marlowe.
- **Where is the inkstand now?** The boathouse.
"""

CARDS = {
    "locations/01-the-study.md": """\
---
number: 1
name: The study
icons: []  # police, call_off, lockpick, carriages, no_watson, no_police, locked
---
Replace this with what the players read here. The study door has one key, and Edith
Marlowe keeps it on her chatelaine.
""",
    "locations/02-the-boathouse.md": """\
---
number: 2
name: The boathouse
icons: [lockpick]
---
Replace this. Muddy boots stand by the boathouse door: Edith Marlowe's, by their size.
Under a tarpaulin, something silver.
""",
    "locations/03-the-gardener.md": """\
---
number: 3
name: The gardener
icons: [carriages]
carriages: 2
---
Replace this. 'A lantern at the boathouse at midnight, sir, and nobody has business there
after dark.' He pays for your cab back.
""",
}


def scaffold_files(*, slug: str, title: str) -> dict[str, str]:
    """The files of a new package (as `package_files` gives them: path → text)."""
    return {CASE_FILE: CASE_TEMPLATE.format(slug=slug, title=title), **CARDS}
