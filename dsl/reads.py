"""What a check reads of a bundle, so that a variant is checked for what it changes, not as a whole bundle again.

A check of the bundle runs unit by unit (a record, a setup, a rules set) through read-noting views of the
bundle: each unit's reads are kept as (section, id) (that the record exists, or what it is when it is not a
record), (section, id, field) (one field of a record), (section, id, ANY) (the record as a whole) and
(section, ANY) (the section gone through: which records it has; their fields are read one by one).
A variant changes a few records: `changes` says which fields (and which records it adds, which change what
going through a section finds), `Tracker.dirty` which units read one of them, and only those are checked
again as the variant plays the bundle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

ANY = "*"  # every record of a section, or every field of a record


class Tracker:
    """The reads of each unit of one check."""

    def __init__(self) -> None:
        self.log: set = set()
        self.reads: dict[tuple, set] = {}
        self._readers: dict[tuple, set] | None = None

    def unit(self, key: tuple, own: Iterable[tuple] = ()) -> None:
        """Note the reads that follow as the unit `key`'s (with `own`: what it reads without asking)."""
        self.log = self.reads[key] = set(own)

    def done(self) -> None:
        self.log = set()

    def section(self, name: str, records: Mapping) -> Section:
        return Section(name, records, self)

    def view(self, bundle: Mapping) -> BundleView:
        return BundleView(bundle, self)

    def dirty(self, changed: set[tuple]) -> set[tuple]:
        """The units that read something these changes change."""
        if self._readers is None:  # who read what, indexed once for every variant
            self._readers = {}
            for unit, read in self.reads.items():
                for r in read:
                    self._readers.setdefault(r, set()).add(unit)
        units: set[tuple] = set()
        for c in changed:
            units |= self._readers.get(c, set())
        for section in {c[0] for c in changed if len(c) == 2}:  # a record added: which records it has changed
            units |= self._readers.get((section, ANY), set())
        return units


class BundleView(Mapping):
    """A bundle whose sections note what is read of them."""

    def __init__(self, bundle: Mapping, tracker: Tracker):
        self.bundle, self.tracker = bundle, tracker

    def __getitem__(self, name: str) -> Section:
        return Section(name, self.bundle[name], self.tracker)

    def __iter__(self):
        return iter(self.bundle)

    def __len__(self) -> int:
        return len(self.bundle)


class Section(Mapping):
    """A section of the bundle that notes what a check reads of it."""

    def __init__(self, name: str, records: Mapping, tracker: Tracker):
        self.name, self.records, self.tracker = name, records, tracker

    def __getitem__(self, key):
        self.tracker.log.add((self.name, key))  # that it exists (or what it is, when it is not a record)
        record = self.records[key]
        return Record(self.name, key, record, self.tracker) if isinstance(record, dict) else record

    def __contains__(self, key) -> bool:
        self.tracker.log.add((self.name, key))
        return key in self.records

    def __iter__(self):
        self.tracker.log.add((self.name, ANY))
        return iter(self.records)

    def __len__(self) -> int:
        self.tracker.log.add((self.name, ANY))
        return len(self.records)


class Record(Mapping):
    """A record that notes which of its fields a check reads (a variant often changes one field of a record)."""

    def __init__(self, section: str, rid: str, record: dict, tracker: Tracker):
        self.section, self.rid, self.record, self.tracker = section, rid, record, tracker

    def __getitem__(self, field):
        self.tracker.log.add((self.section, self.rid, field))
        return self.record[field]

    def __contains__(self, field) -> bool:
        self.tracker.log.add((self.section, self.rid, field))
        return field in self.record

    def __iter__(self):
        self.tracker.log.add((self.section, self.rid, ANY))
        return iter(self.record)

    def __len__(self) -> int:
        self.tracker.log.add((self.section, self.rid, ANY))
        return len(self.record)


def whole(record):
    """A record read as a whole (walked through): the plain dict, the read noted."""
    if isinstance(record, Record):
        record.tracker.log.add((record.section, record.rid, ANY))
        return record.record
    return record


def own(section: str, rid: str) -> tuple[tuple, tuple]:
    """What a unit checking one record reads of it without asking: all of it."""
    return (section, rid), (section, rid, ANY)


def changes(bundle: Mapping, patches: Mapping) -> set[tuple]:
    """What a variant's patches add or change: a record they add (section, id), each field of a record they
    change (section, id, field), and that record read whole (section, id, ANY)."""
    changed: set[tuple] = set()
    for section, records in (patches or {}).items():
        for rid, record in records.items():
            old = (bundle.get(section) or {}).get(rid)
            if old == record:
                continue
            if isinstance(old, dict) and isinstance(record, dict):
                changed |= {(section, rid, f) for f in {*old, *record} if old.get(f) != record.get(f)}
                changed.add((section, rid, ANY))
            else:
                changed.add((section, rid))
    return changed
