"""The small grammar card text needs: plurals, articles, counts that agree, verbs that agree with
"you", possessives and pronouns (used by dsl/english.py)."""

from __future__ import annotations

import re

_IRREGULAR_PLURALS = {"Footman": "Footmen", "footman": "footmen", "Siege Engine": "Siege Engines"}
_IRREGULAR_VERBS = {"is": "are", "has": "have", "does": "do", "was": "were"}


def plural(noun: str) -> str:
    for single, many in _IRREGULAR_PLURALS.items():
        if noun.endswith(single):
            return noun[: -len(single)] + many
    if noun.endswith(("s", "sh", "ch", "x")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def count_noun(n: int, noun: str) -> str:
    """A number and its noun, agreeing: 1 sword icon, 2 sword icons."""
    return f"{n} {noun if abs(n) == 1 else plural(noun)}"


def verb(subject: str, third_person: str) -> str:
    """`subject` with its verb agreeing: "you gain", "your opponent gains"."""
    if subject != "you":
        return f"{subject} {third_person}"
    if third_person in _IRREGULAR_VERBS:
        return f"you {_IRREGULAR_VERBS[third_person]}"
    if third_person.endswith(("ches", "shes", "sses", "xes")):
        return f"you {third_person[:-2]}"
    return f"you {third_person[:-1]}" if third_person.endswith("s") else f"you {third_person}"


def verb_only(subject: str, third_person: str) -> str:
    return verb(subject, third_person)[len(subject) + 1:]


def possessive(phrase: str) -> str:
    return {"you": "your", "it": "its"}.get(phrase, phrase + "'s")


def its(subject: str) -> str:
    """The possessive pronoun that refers back to the subject: "you discard ... your hand"."""
    return "your" if subject == "you" else "its"


def pronoun(subject: str) -> str:
    return "you" if subject == "you" else "it"



def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def polish(text: str) -> str:
    """Spacing and sentence starts the pieces leave."""
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"([.]) ([a-z])", lambda m: f"{m.group(1)} {m.group(2).upper()}", text)
    return text.replace(" ,", ",").strip()
