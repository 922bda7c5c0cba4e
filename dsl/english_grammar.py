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


# words spelt with a vowel that sound with a consonant ("a unit", "a one-off")
_CONSONANT_SOUNDS = ("uni", "use", "usu", "one", "once", "eu")
_VOWEL_WORD = re.compile(r"\b([Aa]n?) (?=([A-Za-z][\w-]*))")
_YOU_VERB = re.compile(r"\b([Yy]ou) (is|has|does|was)\b")


def takes_an(word: str) -> bool:
    w = word.lower()
    return w[:1] in ("a", "e", "i", "o", "u") and not w.startswith(_CONSONANT_SOUNDS)


def article(noun: str) -> str:
    """"an area", "a house", "a unit"."""
    return ("an " if takes_an(noun) else "a ") + noun


def fix_articles(text: str) -> str:
    """Every "a"/"an" agreeing with the word after it (text filled in from templates: "a {kind}")."""
    def fixed(m: re.Match) -> str:
        a = m.group(1)[0] + ("n" if takes_an(m.group(2)) else "")
        return a + " "

    return _VOWEL_WORD.sub(fixed, text)


def grammar_problems(text: str) -> list[str]:
    """What the golden grammar check refuses in generated text: an article that does not agree with the next
    word ("a area", "an house") and "you" with a third-person verb ("you is")."""
    found = [m.group(0) + m.group(2) for m in _VOWEL_WORD.finditer(text)
             if (m.group(1).lower() == "an") != takes_an(m.group(2))]
    found += [m.group(0) for m in _YOU_VERB.finditer(text)]
    return found


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
