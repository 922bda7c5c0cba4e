"""The pipeline: content files → parse → declarations → check → JSON bundle → schema validation.

`compile_paths` is the one entry point; it reports every problem of the run in a `Diagnostics` and
raises `CompileError` when there are errors, so no half-built bundle ever leaves the compiler.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from . import ast
from .boards import BoardBuild, Change, apply_changes, board_json, validate_board
from .cache import bundle_cache_enabled, cache_dir
from .check import Checker, Declaration, EffectChecker, Symbols, effect_scope, split_entries
from .diagnostics import CompileError, Diagnostics, Span, hint_for
from .english_grammar import article
from .kinds import EVERY, KINDS, PATCH_OPS, Kind
from .limits import MAX_FILE_CHARS
from .parse_cache import ParseFn, parse_cached
from .patch import Resolver, word
from .playable import check_playable, strip_spans
from .version import BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, DSL_VERSION, __version__

CONTENT_SUFFIX = ".mst"

OBJECTIVE_CONTEXT = "objective"  # registry CONTEXTS: an objective's condition (`house` bound)


def default_content_dir() -> Path:
    """The bundled content (installed as package data `maester.content`)."""
    return Path(str(resources.files("maester.content")))


def find_sources(paths: Iterable[str | Path]) -> list[Path]:
    """Every `.mst` file under the given files and folders, in a stable order."""
    found: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found.extend(sorted(p.rglob(f"*{CONTENT_SUFFIX}")))
        else:
            found.append(p)
    seen, out = set(), []
    for f in found:
        key = f.resolve()
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


@dataclass
class Source:
    label: str  # the path shown in messages and stored in the bundle
    text: str


def _label(path: Path, roots: list[Path]) -> str:
    resolved = path.resolve()
    for root in roots:
        root = root.resolve()
        base = root if root.is_dir() else root.parent
        try:
            rel = resolved.relative_to(base.parent if root.is_dir() else base)
            return rel.as_posix()
        except ValueError:
            continue
    return path.as_posix()


def read_sources(paths: Iterable[str | Path], diags: Diagnostics) -> list[Source]:
    paths = [Path(p) for p in paths]
    sources = []
    for f in find_sources(paths):
        label = _label(f, paths)
        if f.suffix != CONTENT_SUFFIX:
            diags.error("not-content", f"{label} is not a content file", Span(label, 0, 0),
                        f"content files end in {CONTENT_SUFFIX}")
            continue
        try:
            if f.exists() and not f.is_file() and not f.is_dir():  # a device or a pipe: its read may never end
                diags.error("unreadable", f"{label} cannot be read: it is not a regular file", Span(label, 0, 0),
                            "content files are files (a link to /dev/zero or a pipe is not one)")
                continue
            if f.is_file() and f.stat().st_size > 4 * MAX_FILE_CHARS:  # too large even before decoding
                diags.error("file-too-large", f"{label} has {f.stat().st_size:,} bytes; content files are at most "
                            f"{MAX_FILE_CHARS:,} characters", Span(label, 0, 0), "split the content over several files")
                continue
            sources.append(Source(label, f.read_text(encoding="utf-8")))
        except FileNotFoundError:
            if f.exists() or f.is_symlink():  # a broken link; a missing path is reported below
                diags.error("no-such-file", f"{label}: no such file or folder", Span(label, 0, 0))
        except UnicodeDecodeError as e:
            before = e.object[:e.start]  # where the bad byte is, as a line and column
            line, column = before.count(b"\n") + 1, e.start - (before.rfind(b"\n") + 1) + 1
            diags.error("not-utf8", f"{label} is not UTF-8 text ({e.reason} at byte {e.start})",
                        Span(label, line, column, line, column + 1), "content files are UTF-8 text")
        except OSError as e:  # a folder named *.mst, no permission, a device...
            diags.error("unreadable", f"{label} cannot be read: {e.strerror or e}", Span(label, 0, 0))
    for p in paths:
        if not p.exists():
            diags.error("no-such-file", f"{p}: no such file or folder", Span(str(p), 0, 0))
    return sources


# ---- collecting declarations --------------------------------------------------------------------


def _declare(entry: ast.Entry, diags: Diagnostics, symbols: Symbols) -> Declaration | None:
    kind = KINDS.get(entry.head)
    if kind is None or not kind.top_level:
        top = [k.name for k in KINDS.values() if k.top_level]
        diags.error("unknown-kind", f"unknown declaration '{entry.head}'", _word_span(entry.head_span, entry.head),
                    hint_for(entry.head, top, show_all=30))
        return None
    ident, name, derives = _id_and_name(entry, kind, diags)
    if ident is None:
        return None
    body = split_entries(entry.block or (), kind, diags)
    if entry.block is None:
        diags.error("missing-block", f"{kind.name} '{ident}' needs a {{ ... }} block", entry.span)
    decl = Declaration(kind.name, ident, name, entry, body, entry_body=list(body))
    if derives is not None:
        decl.derives, decl.derives_span = derives
    symbols.add(decl, diags)
    # areas and ports are declared inside boards and overlays
    for item in body:
        if isinstance(item, ast.Entry) and item.head in ("area", "port") and kind.name in ("board", "overlay"):
            sub_kind = KINDS[item.head]
            sub_id, sub_name, _ = _id_and_name(item, sub_kind, diags, derive=False)
            if sub_id is None:
                continue
            sub_body = split_entries(item.block or (), sub_kind, diags)
            symbols.add(Declaration(sub_kind.name, sub_id, sub_name, item, sub_body, parent=ident), diags)
    return decl


def _id_and_name(entry: ast.Entry, kind: Kind, diags: Diagnostics, derive: bool = True
                 ) -> tuple[str | None, str | None, tuple[str, Span] | None]:
    """`KIND ID "Name"`, optionally followed by `from PARENT` (a patch of another declaration)."""
    values = list(entry.values)
    if not values or not isinstance(values[0], ast.Name):
        diags.error("missing-id", f"{kind.name} needs an id after '{entry.head}'", entry.head_span,
                    f'for example: {kind.name} my-id "Display Name" {{ ... }}')
        return None, None, None
    derives = None
    for i, v in enumerate(values[1:], 1):
        if derive and isinstance(v, ast.Name) and v.text == "from" and i >= len(values) - 2:
            parent = values[i + 1] if i + 1 < len(values) else None
            if not isinstance(parent, ast.Name):
                diags.error("missing-parent", f"{kind.name} '{values[0].text}': 'from' needs the id it derives "
                            "from", v.span, f"for example: {kind.name} {values[0].text} from OTHER-ID {{ ... }}")
                return None, None, None
            derives = (parent.text, _word_span(parent.span, parent.text))
            values = values[:i]
            break
    ident = values[0].text
    name = None
    if len(values) > 1:
        if isinstance(values[1], ast.Str):
            name = values[1].value
        else:
            diags.error("wrong-value", f"after the id '{ident}' comes a quoted display name", values[1].span)
    if len(values) > 2:
        diags.error("extra-value", f"{kind.name} '{ident}' has extra words after its name", values[2].span,
                    "put attributes inside the { ... } block")
    if kind.has_name and name is None and len(values) == 1 and derives is None:
        diags.error("missing-name", f"{kind.name} '{ident}' needs a quoted display name", values[0].span,
                    f'for example: {kind.name} {ident} "{ident.replace("-", " ").title()}" {{ ... }}')
    return ident, name, derives


def _word_span(span: Span, word: str) -> Span:
    return Span(span.file, span.line, span.column, span.line, span.column + len(word))


# ---- lowering each kind -------------------------------------------------------------------------


def _field(key: str) -> str:
    return key.replace("-", "_")


def _generic(kind: Kind, found: dict) -> dict:
    """Every key of the kind, present or not, so each record in the bundle has one shape."""
    out: dict = {}
    for key in kind.keys.values():
        if key.block is not None and not key.values:
            continue
        if key.name in found:
            out[_field(key.name)] = found[key.name]
        elif not key.values:
            out[_field(key.name)] = False
        elif key.repeat:
            out[_field(key.name)] = []
        else:
            out[_field(key.name)] = None
    return out


class Compiler:
    def __init__(self, diags: Diagnostics, parse: ParseFn | None = None):
        self.diags = diags
        self.parse = parse or parse_cached  # unchanged files come from the parse cache
        self.symbols = Symbols()
        self.check = Checker(self.symbols, diags)
        self.effects = EffectChecker(self.symbols, diags)

    def run(self, sources: list[Source]) -> dict:
        decls: list[Declaration] = []
        for src in sources:
            items = self.parse(src.text, src.label, self.diags)
            if items is None:
                continue
            if not items:
                self.diags.warning("empty-file", f"{src.label} declares nothing", Span(src.label, 0, 0),
                                   "an empty content file is allowed, but is it the file you meant?")
            for item in items:
                if isinstance(item, ast.Entry):
                    decl = _declare(item, self.diags, self.symbols)
                    if decl:
                        decls.append(decl)
                else:
                    self.diags.error("misplaced-statement", "effect statements belong inside a card",
                                     item.span, 'start with a declaration, e.g. house-card ID "Name" { ... }')
        self.resolver = Resolver(self.symbols, self.diags)
        for decl in decls:
            self._resolve(decl)
        bundle: dict = {
            "format": BUNDLE_FORMAT,
            "format_version": BUNDLE_FORMAT_VERSION,
            "dsl_version": DSL_VERSION,
            "generator": f"maester {__version__}",
            "sources": [{"file": s.label, "sha256": hashlib.sha256(s.text.encode()).hexdigest()}
                        for s in sources],
        }
        for kind in KINDS.values():
            if kind.top_level and kind.collection:
                bundle.setdefault(kind.collection, {})
        boards: list[Declaration] = []
        overlays: dict[str, list[Change]] = {}
        for decl in decls:
            kind = KINDS[decl.kind]
            if decl.kind == "board":
                boards.append(decl)
                continue
            if decl.kind == "overlay":
                overlays[decl.id] = self.overlay_changes(decl)
                bundle["overlays"][decl.id] = {"id": decl.id, "name": decl.name,
                                               "description": self._quiet_keys(decl).get("description"),
                                               "source": str(decl.entry.span)}
                continue
            if decl.unresolved:
                continue
            record = self.lower(decl, kind)
            if record is not None:
                bundle[kind.collection][decl.id] = record
        self.compose_boards(boards, overlays, bundle)
        finish_variants(bundle, self.symbols, self.diags)
        if not self.diags.errors:  # a half-built bundle would only add noise to the errors already found
            check_playable(bundle, self.diags)
        strip_spans(bundle)
        for section, value in bundle.items():  # ids in order, so bundles diff well
            if isinstance(value, dict) and section not in ("format",):
                bundle[section] = dict(sorted(value.items()))
        return bundle

    def _resolve(self, decl: Declaration) -> None:
        if decl.derives is not None and decl.kind in ("board", "overlay"):
            self.diags.error("no-from", f"{article(decl.kind)} does not derive with 'from'", decl.derives_span,
                             "a board starts from another with 'extends BOARD' and changes it with overlays")
            decl.derives = None
        self.resolver.resolve(decl)
        if decl.derives is None:
            for item in decl.body:
                if isinstance(item, ast.Entry) and item.head in PATCH_OPS:
                    self.diags.error("patch-without-parent", f"'{item.head}' changes a parent, but {decl.kind} "
                                     f"'{decl.id}' has none", item.head_span,
                                     f"derive it: {decl.kind} {decl.id} \"...\" from PARENT {{ ... }}, or use "
                                     "'patch' in a variant")

    def _quiet_keys(self, decl: Declaration) -> dict:
        out = {}
        for item in decl.body:
            if isinstance(item, ast.Entry) and item.head == "description" and item.values:
                v = item.values[0]
                if isinstance(v, ast.Str):
                    out["description"] = v.value
        return out

    # -- one declaration
    def lower(self, decl: Declaration, kind: Kind) -> dict | None:
        where = f"{kind.name} '{decl.id}'"
        errors_before = self.diags.error_count
        found, blocks = self.check.keys(kind, decl.body, where, decl.entry.head_span)
        record = {"id": decl.id, "name": decl.name, **_generic(kind, found)}
        for entry in blocks:
            key = kind.keys[entry.head]
            if key.block == "*":  # a variant's patch: compiled by `_variant`
                continue
            if key.block and key.block.startswith("effect:"):
                context = key.block.split(":", 1)[1]
                chooser = {"loan": "buyer", "lowest-bidder": "lowest-bidder",
                           "night-watch-victory": "highest-bidder"}.get(
                    context if context != "wildling" else entry.head)
                scope = effect_scope(context, where, chooser)
                record[_field(entry.head)] = self.effects.block(entry.block or (), scope)
            elif key.block:
                sub = KINDS[key.block]
                sub_body = split_entries(entry.block or (), sub, self.diags)
                sub_found, sub_blocks = self.check.keys(sub, sub_body, f"{entry.head} block", entry.head_span)
                for inner in sub_blocks:  # `add-units AREA { ... }` inside a setup's `house H { ... }`
                    inner_key = sub.keys.get(inner.head)
                    if inner_key is not None and inner_key.block in KINDS:
                        inner_kind = KINDS[inner_key.block]
                        inner_body = split_entries(inner.block or (), inner_kind, self.diags)
                        inner_found, _ = self.check.keys(inner_kind, inner_body, f"{inner.head} block")
                        sub_found.setdefault(f"_{inner.head}", []).append((inner, inner_found))
                self._nested(record, entry, sub_found)
        if kind.effect_context:
            abilities = []
            scope = effect_scope(kind.effect_context, where, "you")
            for item in decl.body:
                if isinstance(item, ast.When):
                    ability = self.effects.ability(item, scope)
                    if ability:
                        abilities.append(ability)
                elif not isinstance(item, ast.Entry):
                    self.diags.error("misplaced-statement", f"a statement directly in {where}; abilities "
                                     "start with 'when TRIGGER'", item.span,
                                     "wrap it: when after-winner-determination { ... }")
            record["abilities"] = abilities
        elif kind.name == "objective":
            record["condition"] = self._objective_condition(decl, where)
        else:
            for item in decl.body:
                if not isinstance(item, ast.Entry):
                    self.diags.error("misplaced-statement", f"effect statements do not belong directly in {where}",
                                     item.span, _effect_keys_hint(kind))
        record["source"] = str(decl.patch_entry.span if decl.patch_entry is not None else decl.entry.span)
        if decl.derives is not None:
            record["derived_from"] = decl.derives
        if self.diags.error_count > errors_before:
            return None  # its errors are reported and no bundle is written: do not shape a broken record
        house_blocks = record.get("_blocks", {}).pop("house", []) if kind.name == "setup" else []
        record = _post_process(kind.name, record)
        if kind.name == "setup":
            self._house_starts(record, house_blocks)
        elif kind.name in ("card-set", "deck"):
            self._members(decl, record)
        elif kind.name == "game":
            record["decks"] = self._game_decks(record.get("decks") or [], decl)
            record["game_abilities"] = record.get("game_abilities") or []
            record["objectives"] = record.get("objectives") or []
            record["victory_thresholds"] = {h: n for h, n in record.pop("victory_threshold") or []}
            record["victory_check"] = record.get("victory_check") or "at-once"
            record["victory_count"] = record.get("victory_count") or "castles"
        elif kind.name == "variant":
            self._variant(decl, record)
        return record

    def _every_setup_note(self, where: str, game: str | None, ids: list[str], touched: list[str],
                          entry: ast.Entry) -> None:
        """`patch setup every` names the setups it changed (an author sees its reach), or warns that it matched none."""
        if touched:
            self.diags.note("patch-every-setup-touched", f"{where}: patch of every setup changes "
                            f"{len(touched)} setup{'s' if len(touched) != 1 else ''}: {', '.join(sorted(touched))}",
                            entry.span)
        elif not ids:
            self.diags.warning("patch-every-setup-none", f"{where}: patch of every setup matches no setup: "
                               f"rules set '{game}' has none", entry.span,
                               "declare a setup with `game " + str(game) + "`, or patch the setups by id")

    def _every_setup_warnings(self, rec: dict, ident: str, entry: ast.Entry) -> None:
        """`patch setup every` reaches setups its author may not have had in mind: say where it makes no sense."""
        blocked = set(rec.get("blocked") or [])
        stranded = sorted(a for a in rec.get("neutral_forces") or {} if a in blocked)
        if stranded:
            self.diags.warning("patch-every-setup", f"patch of every setup: setup '{ident}' keeps neutral forces in "
                               f"blocked areas ({', '.join(stranded)})", entry.span,
                               "remove them in that setup, or patch only the setups that play there")
        starts = [p for role in ("starting_units", "vassal_starting_units")
                  for placements in (rec.get(role) or {}).values() for p in placements]
        if rec.get("dragon_strength_rounds") and not any(p["units"].get("dragon") for p in starts):
            self.diags.warning("patch-every-setup", f"patch of every setup: setup '{ident}' gets dragon strength "
                               "tokens but no house starts with a dragon there", entry.span,
                               "patch only the setups with dragons: setups [...] or patch setup [a, b]")

    def _objective_condition(self, decl: Declaration, where: str) -> object:
        """An objective's one `condition EXPR`, checked as a bool with `house` bound (the house scoring it)."""
        conditions = [i for i in decl.body if isinstance(i, ast.Condition)]
        for item in decl.body:
            if not isinstance(item, ast.Entry | ast.Condition):
                self.diags.error("misplaced-statement", f"effect statements do not belong in {where}", item.span,
                                 "an objective holds keys and one 'condition EXPR'")
        if len(conditions) != 1:
            self.diags.error("objective-condition", f"{where} needs exactly one 'condition' (it has "
                             f"{len(conditions)})", conditions[1].span if conditions[1:] else decl.entry.span,
                             "condition controls(house, winterfell)")
            return False
        scope = effect_scope(OBJECTIVE_CONTEXT, where, "house")
        return self.effects.expr(conditions[0].expr, "bool", scope)

    # -- patches: members, per-house starts, decks, variants
    def _members(self, decl: Declaration, record: dict) -> None:
        members = self.resolver.members(decl)
        if decl.kind == "card-set":
            record["cards"] = sorted({w for e in members if (w := word(e.values[0]))})
            return
        cards: dict[str, int] = {}
        for e in members:
            w = word(e.values[0])
            n = e.values[1].value if len(e.values) > 1 and isinstance(e.values[1], ast.Int) else 1
            if w:
                cards[w] = n
        record["cards"] = dict(sorted(cards.items()))
        record["slot"] = "wildling" if record.pop("wildling") else record.pop("westeros")
        record.pop("westeros", None)
        if record["slot"] is None:
            self.diags.error("deck-slot", f"deck '{decl.id}' says neither 'westeros I..IV' nor 'wildling'",
                             decl.entry.span, "add: westeros i   (or: wildling)")

    def _game_decks(self, listed: list, decl: Declaration) -> dict[str, str]:
        """The deck of each slot: the standard deck (a deck without `from`), or one the game lists."""
        out: dict[str, str] = {}
        for d in self.symbols.ids("deck").values():
            if d.derives is None:
                slot = "wildling" if any(isinstance(e, ast.Entry) and e.head == "wildling" for e in d.body) else \
                    next((word(e.values[0]) for e in d.body if isinstance(e, ast.Entry) and e.head == "westeros"
                          and e.values), None)
                if slot:
                    out.setdefault(slot, d.id)
        for did in listed:
            d = self.symbols.lookup("deck", did) if did else None
            if d is None:
                continue
            self.resolver.resolve(d)
            slot = "wildling" if any(isinstance(e, ast.Entry) and e.head == "wildling" for e in d.body) else \
                next((word(e.values[0]) for e in d.body if isinstance(e, ast.Entry) and e.head == "westeros"
                      and e.values), None)
            if slot:
                out[slot] = did
        return dict(sorted(out.items()))

    def _house_starts(self, record: dict, blocks: list[dict]) -> None:
        """Per-house starting values (`house H { ... }`, `house every { ... }`), in written order."""
        houses = [h for h in record.get("houses") or [] if h]
        power: dict[str, int] = {}
        supply: dict[str, int] = {}
        tokens: dict[str, str] = {}  # area -> house: power tokens on the board at the start
        loans: dict[str, list[str]] = {}
        where = f"setup '{record['id']}'"
        for b in blocks:
            entry, found = b["entry"], b["block"]
            targets = self._house_targets(entry, houses, where)
            if targets is None:
                continue
            every = targets == EVERY
            for h in houses if every else targets:
                if found.get("power") is not None:
                    power[h] = found["power"]
                home = self._home(h)
                garrisons = record["garrisons"]
                if found.get("garrison") is not None and (home in garrisons or not every):
                    garrisons[home] = found["garrison"]
                if found.get("garrison-bonus") is not None:
                    if home in garrisons:
                        garrisons[home] = max(0, garrisons[home] + found["garrison-bonus"])
                    elif not every:
                        self.diags.error("no-garrison", f"{where}: {h} has no garrison to strengthen",
                                         entry.span, f"give it one: garrison {found['garrison-bonus']}")
                if found.get("supply") is not None:
                    supply[h] = found["supply"]
                for area in found.get("power-token") or []:
                    if area and self.symbols.lookup("area", area):
                        tokens[area] = h
                for loan in found.get("loan") or []:
                    if loan:
                        loans.setdefault(h, []).append(loan)
                for pair in found.get("replace-unit") or []:
                    if pair and None not in pair:
                        self._replace_unit(record, h, pair[0], pair[1], entry, every)
                for inner, units in found.get("_add-units") or []:
                    area = word(inner.values[0]) if inner.values else None
                    if area is None or not self.symbols.lookup("area", area):
                        continue
                    units = dict(units)
                    role = units.pop("as", None) or "player"
                    section = "starting_units" if role == "player" else "vassal_starting_units"
                    record[section].setdefault(h, []).append({"area": area, "units": units, "at": str(inner.span)})
        if record.get("loan_deck") is None:  # the bundle holds the result: every declared loan
            record["loan_deck"] = sorted(self.symbols.ids("loan")) if record.get("iron_bank") else []
        record["starting_power"] = dict(sorted(power.items()))
        record["starting_loans"] = dict(sorted(loans.items()))
        record["starting_supply"] = dict(sorted(supply.items()))
        record["starting_power_tokens"] = dict(sorted(tokens.items()))

    def _house_targets(self, entry: ast.Entry, houses: list[str], where: str) -> list[str] | str | None:
        """The houses a setup's `house H`, `house [a, b]` or `house every` block gives its values to.

        A list gives the same values to each house, as if each were written out in the listed order.
        Unknown houses are reported by the checker; a house not of the setup or listed twice is reported here.
        """
        if not entry.values:
            return None
        value = entry.values[0]
        if isinstance(value, ast.Name) and value.text == EVERY:
            return EVERY
        items = list(value.items) if isinstance(value, ast.ListExpr) else [value]
        out: list[str] = []
        for item in items:
            if not isinstance(item, ast.Name) or not self.symbols.lookup("house", item.text):
                return None  # reported by the checker
            if item.text not in houses:
                self.diags.error("house-not-in-setup", f"{where}: '{item.text}' is not one of its houses",
                                 item.span, "its houses: " + ", ".join(houses))
                return None
            if item.text in out:
                self.diags.error("house-listed-twice", f"{where}: '{item.text}' is listed twice in one house block",
                                 item.span, "list each house once")
                return None
            out.append(item.text)
        return out

    def _home(self, house: str) -> str | None:
        decl = self.symbols.lookup("house", house)
        if decl is None:
            return None
        return next((word(e.values[0]) for e in decl.body if isinstance(e, ast.Entry) and e.head == "home"
                     and e.values), None)

    def _replace_unit(self, record: dict, house: str, old: str, new: str, entry: ast.Entry, every: bool) -> None:
        for p in record["starting_units"].get(house, []):
            if p["units"].get(old, 0) > 0:
                p["units"][old] -= 1
                if not p["units"][old]:
                    del p["units"][old]
                p["units"][new] = p["units"].get(new, 0) + 1
                p["at"] = str(entry.span)
                return
        msg = f"setup '{record['id']}': {house} starts with no {old} to replace by {article(new)}"
        if every:
            self.diags.warning("nothing-to-replace", msg, entry.span, "its other houses are changed")
        else:
            self.diags.error("nothing-to-replace", msg, entry.span, "give the house such a unit first")

    def _variant(self, decl: Declaration, record: dict) -> None:
        """Compile each `patch KIND TARGET { ... }` into the full records it stands for."""
        patches: dict[str, dict[str, dict]] = {}
        latest: dict[tuple[str, str], Declaration] = {}
        where = f"variant '{decl.id}'"
        game = record.get("game")
        for entry in decl.body:
            if not isinstance(entry, ast.Entry) or entry.head != "patch" or len(entry.values) < 2:
                continue
            kname = word(entry.values[0])
            kind = KINDS.get(kname or "")
            if kind is None or not kind.top_level or kind.name in ("variant", "board", "overlay"):
                patchable = [k.name for k in KINDS.values() if k.top_level and k.name not in
                             ("variant", "board", "overlay")]
                self.diags.error("unknown-kind", f"{where}: cannot patch '{kname}'", entry.values[0].span,
                                 hint_for(kname or "", patchable, show_all=30))
                continue
            target = self.check.value(entry.values[1], "patch-target", "patch")
            if target is None:
                continue
            if target == EVERY:
                ids = [i for i, d in self.symbols.ids(kind.name).items() if d.kind == kind.name and
                       (kind.name != "setup" or _decl_word(d, "game") == game)]
            else:
                ids = list(target)
            touched: list[str] = []
            for ident in ids:
                parent = latest.get((kind.name, ident)) or self.symbols.lookup(kind.name, ident)
                if parent is None or parent.kind != kind.name:
                    self.diags.error(f"unknown-{kind.name}", f"{where}: no {kind.name} '{ident}' to patch",
                                     entry.values[1].span, hint_for(ident, self.symbols.ids(kind.name), show_all=0))
                    continue
                self.resolver.resolve(parent)
                if parent.unresolved:  # reported at its `from`
                    continue
                patched = self.resolver.patch(parent, entry)
                latest[(kind.name, ident)] = patched
                rec = self.lower(patched, kind)
                if rec is not None and kind.name == "setup" and target == EVERY:
                    self._every_setup_warnings(rec, ident, entry)
                    touched.append(ident)
                if rec is not None:
                    rec.pop("derived_from", None)
                    if parent.derives is not None:
                        rec["derived_from"] = parent.derives
                    patches.setdefault(kind.collection, {})[ident] = rec
            if kind.name == "setup" and target == EVERY:
                self._every_setup_note(where, game, ids, touched, entry)
        record.pop("patch", None)
        record["patches"] = {k: dict(sorted(v.items())) for k, v in sorted(patches.items())}

    def _nested(self, record: dict, entry: ast.Entry, found: dict) -> None:
        """Keep a nested block's values next to the key's own values, for `_post_process` to shape.

        Every kind with a nested-block key must consume `_blocks[key]` there; an unconsumed one is a
        compiler bug, caught by `_post_process`'s final check, never silently dropped.
        """
        values = [v.text if isinstance(v, ast.Name) else getattr(v, "value", None) for v in entry.values]
        record.setdefault("_blocks", {}).setdefault(entry.head, []).append({"values": values, "block": found,
                                                                             "entry": entry})

    # -- boards
    def area_record(self, decl: Declaration) -> dict | None:
        kind = KINDS[decl.kind]
        where = f"{decl.kind} '{decl.id}'"
        found, _ = self.check.keys(kind, decl.body, where, decl.entry.head_span)
        return self._area_from_found(decl.kind, decl.id, decl.name, found, decl.entry.span, where)

    def _area_from_found(self, kind: str, ident: str, name, found: dict, span: Span, where: str) -> dict | None:
        if kind == "port":
            return {"id": ident, "name": name, "kind": "port", "side": found.get("side", "westeros"),
                    "castle": "none", "supply": 0, "power": 0, "home": None, "garrison": None,
                    "neutral_force": None, "loyalty_token": False, "garrison_returns": False, "river": False,
                    "port_of": found.get("of"), "port_sea": found.get("on"), "at": found.get("at"), "_span": span}
        land, sea = found.get("land", False), found.get("sea", False)
        if land == sea:
            self.diags.error("area-kind", f"{where} must be either 'land' or 'sea'", span,
                             "add 'land' or 'sea' to its block")
        if found.get("castle") and found.get("stronghold"):
            self.diags.error("area-castle", f"{where} cannot have both a castle and a stronghold", span)
        if sea and any(k in found for k in ("castle", "stronghold", "supply", "power", "home", "garrison")):
            self.diags.error("area-sea-icons", f"{where} is a sea: it holds no castle, icons or home", span)
        castle = "stronghold" if found.get("stronghold") else "castle" if found.get("castle") else "none"
        return {"id": ident, "name": name, "kind": "sea" if sea else "land",
                "side": found.get("side", "westeros"), "castle": castle,
                "supply": found.get("supply", 0), "power": found.get("power", 0),
                "home": found.get("home"), "garrison": found.get("garrison"),
                "neutral_force": found.get("neutral-force"),
                "loyalty_token": bool(found.get("loyalty-token", False)),
                "garrison_returns": bool(found.get("garrison-returns", False)),
                "river": bool(found.get("river", False)),
                "port_of": None, "port_sea": None, "at": found.get("at"), "_span": span}

    def board_changes(self, decl: Declaration) -> list[Change]:
        """The steps of a board or overlay body, in written order."""
        kind = KINDS[decl.kind]
        where = f"{decl.kind} '{decl.id}'"
        # reports unknown/duplicate/missing keys and bad refs
        self.check.keys(kind, decl.body, where, decl.entry.head_span)
        changes: list[Change] = []
        for item in decl.body:
            if not isinstance(item, ast.Entry):
                continue
            ids = tuple(v.text for v in item.values if isinstance(v, ast.Name))
            if item.head in ("area", "port") and ids:
                sub = self.symbols.lookup(item.head, ids[0])
                if sub is None or sub.entry is not item:
                    continue  # a duplicate id, already reported
                rec = self.area_record(sub)
                if rec:
                    changes.append(Change("add-area", item.span, rec))
            elif item.head == "change" and ids:
                sub_kind = KINDS["area-change"]
                body = split_entries(item.block or (), sub_kind, self.diags)
                found, _ = self.check.keys(sub_kind, body, f"change {ids[0]}", item.head_span)
                changes.append(Change("change", item.span, _area_changes(found), ids[:1]))
            elif item.head in ("remove-area",) and ids:
                changes.append(Change("remove-area", item.span, None, ids[:1]))
            elif (item.head in ("border", "remove-border", "link") and len(ids) == 2
                  and all(self.symbols.lookup("area", i) for i in ids)):  # unknown ids are reported already
                changes.append(Change(item.head, item.span, None, ids))
        return changes

    def overlay_changes(self, decl: Declaration) -> list[Change]:
        return self.board_changes(decl)

    def compose_boards(self, boards: list[Declaration], overlays: dict[str, list[Change]], bundle: dict) -> None:
        by_id = {b.id: b for b in boards}
        built: dict[str, BoardBuild] = {}
        visiting: set[str] = set()

        def build(decl: Declaration) -> BoardBuild:
            if decl.id in built:
                return built[decl.id]
            if decl.id in visiting:
                self.diags.error("board-cycle", f"board '{decl.id}' extends itself", decl.entry.span)
                return BoardBuild()
            visiting.add(decl.id)
            info = {}
            for item in decl.body:
                if isinstance(item, ast.Entry) and item.head in ("extends", "apply") and item.values:
                    v = item.values[0]
                    if isinstance(v, ast.Name):
                        info.setdefault(item.head, []).append((v.text, item.span))
            board = BoardBuild()
            for parent, _span in info.get("extends", [])[:1]:
                if parent in by_id:
                    board = build(by_id[parent]).copy()
            label = f"board '{decl.id}'"
            for ov, _span in info.get("apply", []):
                if ov in overlays:
                    apply_changes(board, overlays[ov], f"overlay '{ov}' (applied by {label})", self.diags)
            apply_changes(board, self.board_changes(decl), label, self.diags)
            validate_board(board, label, decl.entry.span, self.diags)
            built[decl.id] = board
            visiting.discard(decl.id)
            found = self._quiet_keys(decl)
            bundle["boards"][decl.id] = {
                "id": decl.id, "name": decl.name, "description": found.get("description"),
                "extends": info["extends"][0][0] if info.get("extends") else None,
                "overlays": [o for o, _ in info.get("apply", [])],
                **board_json(board),
                "source": str(decl.entry.span),
            }
            return board

        for decl in boards:
            build(decl)


def _decl_word(decl: Declaration, head: str) -> str | None:
    return next((word(e.values[0]) for e in decl.body if isinstance(e, ast.Entry) and e.head == head and e.values),
                None)


def finish_variants(bundle: dict, symbols: Symbols, diags: Diagnostics) -> None:
    """What each variant plays: its rules set with its card sets, and the setup for each player count."""
    for vid, v in bundle.get("variants", {}).items():
        game = v.get("game")
        if game not in bundle["games"]:
            continue
        patches = v.setdefault("patches", {})
        rec = patches.get("games", {}).get(game) or json.loads(json.dumps(bundle["games"][game]))
        changed = False
        for key in ("house_card_sets", "vassal_card_set"):
            if v.get(key) is not None and rec.get(key) != v[key]:
                rec[key] = v[key]
                changed = True
        if changed or game in patches.get("games", {}):
            patches.setdefault("games", {})[game] = rec
        setups: dict[str, str] = {}
        listed = v.get("setups")
        if listed:
            for sid in listed:
                if sid is None:
                    continue
                root, seen = sid, set()
                while root not in seen:
                    seen.add(root)
                    d = symbols.lookup("setup", root)
                    if d is None or d.derives is None or d.patched:
                        break
                    root = d.derives
                setups[root] = sid
        else:
            setups = {sid: sid for sid, s in bundle["setups"].items() if s.get("game") == game
                      and "derived_from" not in s}
        v["setups"] = dict(sorted(setups.items()))
        if listed is None and not any(
                {k: x for k, x in r.items() if k != "source"} !=
                {k: x for k, x in bundle.get(sec, {}).get(i, {}).items() if k != "source"}
                for sec, recs in patches.items() for i, r in recs.items()):
            diags.warning("variant-changes-nothing", f"variant '{vid}' changes nothing of the rules set "
                          f"'{game}'", Span.parse(v.get("source")),
                          "give it a patch, other card sets, or the setups it plays")


def _area_changes(found: dict) -> dict:
    out: dict = {}
    if found.get("stronghold"):
        out["castle"] = "stronghold"
    elif found.get("castle"):
        out["castle"] = "castle"
    elif found.get("no-castle"):
        out["castle"] = "none"
    mapping = {"supply": "supply", "power": "power", "home": "home", "garrison": "garrison",
               "neutral-force": "neutral_force", "name": "name", "side": "side", "of": "port_of",
               "on": "port_sea", "at": "at"}
    for key, fld in mapping.items():
        if key in found:
            out[fld] = found[key]
    if found.get("no-neutral-force"):
        out["neutral_force"] = None
    for flag in ("loyalty-token", "garrison-returns", "river"):
        if found.get(flag):
            out[_field(flag)] = True
    return out


def _effect_keys_hint(kind: Kind) -> str:
    keys = [k.name for k in kind.keys.values() if k.block and k.block.startswith("effect:")]
    if keys:
        return "put them in " + " or ".join(f"'{k} {{ ... }}'" for k in keys)
    return f"{article(kind.name)} has no effects"


def _post_process(kind: str, record: dict) -> dict:
    """Turn repeated key/value pairs into maps where that is what they mean."""
    if kind == "objective":
        record["points"] = {h: n for h, n in record.pop("points") or []}
    if kind == "house":
        record["unit_limits"] = {k: n for k, n in record.pop("unit_limit")}
    elif kind == "track":
        token = record.pop("dominance_token")
        record["dominance_token"] = {"id": token[0], "name": token[1], "text": record.pop("dominance_text")}
    elif kind == "table":
        record["rows"] = {k: v for k, v in record.pop("row")}
    elif kind == "setup":
        record["vassals"] = record["vassals"] or 0
        record["dragon_strength_rounds"] = record["dragon_strength_rounds"] or []
        record["loyalty_tokens"] = {a: n for a, n in record.pop("loyalty_token")}
        record["neutral_forces"] = {a: n for a, n in record.pop("neutral_force")}
        record["garrisons"] = {a: n for a, n in record.pop("garrison")}
        record["influence"] = {t: hs for t, hs in record.pop("influence")}
        record["blocked"] = record.get("blocked") or []
        record.pop("start", None)
        record.pop("house", None)  # per-house blocks: applied by Compiler._house_starts
        starts: dict[str, dict[str, list]] = {"player": {}, "vassal": {}}
        for block in record.get("_blocks", {}).pop("start", []):
            s = {"house": block["values"][0], "area": block["values"][1], "units": dict(block["block"]),
                 "at": str(block["entry"].span)}
            units = dict(s["units"])
            role = units.pop("as", None) or "player"  # None: a bad value, already reported
            starts[role].setdefault(s["house"], []).append({"area": s["area"], "units": units, "at": s["at"]})
        if record.pop("players_use_vassal_starts", False):  # the bundle holds the result: no engine option
            for house, placements in starts["vassal"].items():
                starts["player"][house] = [{**p, "units": dict(p["units"])} for p in placements]
        record["starting_units"] = starts["player"]
        record["vassal_starting_units"] = starts["vassal"]
        record["notes"] = record.pop("note")
    elif kind == "game":
        record["tides_of_battle"] = record.get("tides_of_battle") == "yes"
        record["wildlings"] = record.get("wildlings") != "no"
    elif kind in ("card-set", "deck"):
        record.pop("card", None)  # the members, resolved by the compiler into `cards`
    elif kind in ("house-card", "vassal-card"):
        record["swords"] = record["swords"] or 0
        record["fortifications"] = record["fortifications"] or 0
        record["vassal"] = kind == "vassal-card"
        if kind == "vassal-card":
            record["house"] = None
    elif kind == "westeros-card":
        record["copies"] = record["copies"] or 1
        record["banner"] = record.get("banner") or []
    elif kind == "order":
        record["raidable_by"] = record.get("raidable_by") or []
        record["restrictions"] = record.pop("restriction")
    leftover = record.pop("_blocks", {})
    if any(leftover.values()):  # a nested block no branch above shaped: never drop content silently
        raise AssertionError(f"{kind}: nested blocks of {sorted(leftover)} are not compiled")
    return record


def compile_sources(sources: list[Source], diags: Diagnostics | None = None, parse: ParseFn | None = None) -> dict:
    diags = diags if diags is not None else Diagnostics()
    for s in sources:
        diags.add_source(s.label, s.text)
    bundle = Compiler(diags, parse).run(sources)
    if diags.errors:
        raise CompileError(diags)
    from .validate import validate_bundle  # late: schema loading is only needed for a clean compile

    validate_bundle(bundle, diags, compiled=True)
    if diags.errors:
        raise CompileError(diags)
    return bundle


def compile_paths(paths: Iterable[str | Path] | None = None, diags: Diagnostics | None = None,
                  cache: bool = True) -> dict:
    """Compile content files/folders (default: the bundled content) into a validated bundle.

    A bundle that compiled cleanly is cached (keyed by the sources and the compiler itself), so
    running the same content again skips parsing and schema validation. MAESTER_NO_CACHE=1 disables it.
    """
    diags = diags if diags is not None else Diagnostics()
    paths = list(paths) if paths else [default_content_dir()]
    sources = read_sources(paths, diags)
    if diags.errors:
        # all of the run: the syntax errors of the files that could be read, not their references (those
        # would point at what the unreadable files declare)
        from .parse import parse_text  # the parser (and Lark) load only when something is to be parsed

        for src in sources:
            parse_text(src.text, src.label, diags)
        raise CompileError(diags)
    if not sources:
        diags.error("no-content", "no content files found", None, f"content files end in {CONTENT_SUFFIX}")
        raise CompileError(diags)
    cached = _cache_path(sources) if cache and bundle_cache_enabled() else None
    if cached is not None and cached.exists():
        try:
            return json.loads(cached.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass  # a damaged cache entry: compile again
    bundle = compile_sources(sources, diags)
    if cached is not None and not diags.warnings and not diags.notes:  # a cache hit would lose them
        from .cache import write_atomically  # no half-written file left on a full disk

        write_atomically(cached, json.dumps(bundle).encode("utf-8"))  # an optimisation only: failures ignored
    return bundle


def _cache_path(sources: list[Source]) -> Path | None:
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for f in sorted(here.glob("*.py")) + sorted(here.glob("*.lark")):
        digest.update(f.read_bytes())
    for name in ("bundle.schema.json", "effect.schema.json"):
        digest.update(resources.files("maester.schemas").joinpath(name).read_bytes())
    for s in sources:
        digest.update(s.label.encode() + b"\0" + s.text.encode() + b"\0")
    return cache_dir() / f"bundle-{digest.hexdigest()[:24]}.json"
