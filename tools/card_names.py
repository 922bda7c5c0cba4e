"""The standing check that engine code names no card: every card id and name comes from the compiled bundle.

Card behaviour lives in content (the DSL); the interpreter runs it through generic primitives. A card id or
name in engine code (a string literal, an identifier, a comment) is a special case waiting to drift from the
content, so `find_card_names` lists each one with its file and line.

    python -m maester.tools.card_names [CODE_DIR ...]     (default: the interpreter package)
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

# The card kinds of the bundle (section -> what the report calls one of them).
CARD_SECTIONS = {"house_cards": "house card", "westeros_cards": "Westeros card", "wildling_cards": "wildling card",
                 "loans": "loan", "tides_cards": "Tides of Battle card"}
# Ids and names that are also plain rule words: naming them is not evidence of a special case.
GENERIC_WORDS = frozenset({"supply", "mustering", "muster", "famine", "march", "game of thrones"})
MIN_LENGTH = 5  # shorter ids ("raid") are ordinary words of the rules


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    what: str  # e.g. "house card tywin-lannister"
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: names {self.what}: {self.text}"


def card_words(bundle: dict) -> dict[str, str]:
    """Every searchable form of every card's id and name (lower case) -> what it names."""
    words: dict[str, str] = {}
    for section, kind in CARD_SECTIONS.items():
        for card_id, rec in (bundle.get(section) or {}).items():
            forms = {card_id, card_id.replace("-", "_"), str(rec.get("name") or "")}
            for form in forms:
                form = form.lower()
                if len(form) >= MIN_LENGTH and form not in GENERIC_WORDS:
                    words[form] = f"{kind} {card_id}"
    return words


def find_card_names(bundle: dict, paths: list[Path]) -> list[Finding]:
    words = card_words(bundle)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
                         + r")(?![\w-])", re.IGNORECASE)
    found = []
    for root in paths:
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for f in files:
            for no, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                m = pattern.search(line)
                if m:
                    found.append(Finding(f, no, words[m.group(1).lower()], line.strip()[:120]))
    return found


def main(argv: list[str] | None = None) -> int:
    from maester.dsl import compile_paths

    args = argv if argv is not None else sys.argv[1:]
    paths = [Path(a) for a in args] or [Path(__file__).resolve().parents[1] / "interpreter"]
    found = find_card_names(compile_paths(), paths)
    for finding in found:
        print(finding)
    print(f"{len(found)} place(s) in engine code name a card" if found else "no engine code names a card")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
