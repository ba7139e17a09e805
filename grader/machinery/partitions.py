"""One model of what a lab's checks judge: the inputs, the partitions of each input's domain,
and which requirement id judges which partition in which scenario.

An ``Input`` is something a student's script reads or a state check reads (a message file's
bytes, a queue folder's entries, an argument, the claim system's answer, a clock); its
``domain`` says what the lab text and its decisions allow it to be. A ``Partition`` is one class
of that domain (valid or invalid, or a boundary between them), with how a FAIL names it in
Korean. A ``Judgement`` ties a requirement id to a partition and to the scenario that produces
the partition on every run (``STATE``: judged on the student's saved tree, where the partition
is produced by the self-tests and variants named in ``shown_by``).

Scenarios report the partitions they ran and end with ``ensure``: a scenario that left one of
its partitions out is a harness fault (an error, never a pass). Checks carry ``Partition``
objects into their messages (``str(partition)`` is ``[경우: …]``). The published table is
derived from the map (``markdown``), by requirement id and by input; nothing is kept by hand.

Anomalies meet: a ``Unit`` is a unit of work (one msg_id, one order, one claim) with the
families of anomaly it can hold; ``meet`` says, for two families, which partition produces them
together, or why they never meet (or their meeting can change no verdict). ``unmet`` lists the
pairs with neither, which a self-test keeps empty.

This module knows nothing of any lab: each lab builds its own ``PartitionMap``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

STATE = None  # the scenario of a state judgement: the student's saved tree


@dataclass(frozen=True)
class Input:
    name: str  # what is read, in English ("a message file in inbox/")
    domain: str  # what the lab text and its decisions allow it to be


@dataclass(frozen=True, eq=False)
class Partition:
    """One class of an input's domain. Compared by identity: two partitions with the same key
    are different classes (of different inputs, or judged differently)."""

    input: Input
    key: str  # stable within its input, how code and the published table refer to it
    what: str  # the class or boundary, in English
    shown: str  # how a FAIL names it, in Korean
    shown_by: tuple[str, ...] = ()  # self-tests and variants that produce it (state judgements)

    def __str__(self) -> str:
        return f"[경우: {self.shown}]"


@dataclass(frozen=True)
class Unit:
    """A unit of work in which anomalies can meet (one msg_id, one order, one claim), and the
    families of anomaly it can hold, each carried by the partitions named."""

    name: str
    families: dict[str, tuple[Partition, ...]]


@dataclass(frozen=True)
class Meeting:
    """Two families meeting in one unit: produced by ``by``, or never (``why``)."""

    unit: Unit
    pair: frozenset[str]
    by: Partition | None
    why: str


@dataclass(frozen=True)
class Judgement:
    rid: str
    partition: Partition
    scenario: str | None  # the scenario that produces the partition on every run; STATE


class PartitionMap:
    """A lab's inputs, their partitions, and the judgements of its requirement ids."""

    def __init__(self) -> None:
        self.inputs: list[Input] = []
        self.judgements: list[Judgement] = []
        self.left_out: dict[str, tuple[str, ...]] = {}  # rid: classes deliberately not produced
        self.units: list[Unit] = []
        self.meetings: list[Meeting] = []

    def input(self, name: str, domain: str) -> Input:
        if any(known.name == name for known in self.inputs):
            raise ValueError(f"input {name!r} declared twice")
        made = Input(name, " ".join(domain.split()))
        self.inputs.append(made)
        return made

    def judge(
        self, rid: str, scenario: str | None, *partitions: Partition, left_out: Iterable[str] = ()
    ) -> None:
        """``rid`` judges ``partitions``, each produced by ``scenario`` on every run."""
        for partition in partitions:
            if partition.input not in self.inputs:
                raise ValueError(f"{rid} {partition.key}: input {partition.input.name!r} not declared")
            if any(j.rid == rid and j.partition.key == partition.key for j in self.judgements):
                raise ValueError(f"{rid} judges {partition.key!r} twice")
            self.judgements.append(Judgement(rid, partition, scenario))
        if left_out := tuple(left_out):
            self.left_out[rid] = self.left_out.get(rid, ()) + left_out

    def unit(self, name: str, **families: tuple[Partition, ...]) -> Unit:
        made = Unit(name, {family.replace("_", " "): tuple(p) for family, p in families.items()})
        self.units.append(made)
        return made

    def meet(self, unit: Unit, a: str, b: str, by: Partition | None = None, why: str = "") -> None:
        """Families ``a`` and ``b`` meet in one ``unit`` in partition ``by``; or they never do,
        or their meeting can change no verdict (``why``)."""
        if (by is None) == (not why) or {a, b} - set(unit.families) or a == b:
            raise ValueError(f"{unit.name}: {a} x {b}: a partition or a reason, of two known families")
        if any(m.unit is unit and m.pair == {a, b} for m in self.meetings):
            raise ValueError(f"{unit.name}: {a} x {b} met twice")
        self.meetings.append(Meeting(unit, frozenset((a, b)), by, " ".join(why.split())))

    def unmet(self, unit: Unit) -> list[frozenset[str]]:
        """Pairs of ``unit``'s families neither produced together nor said never to meet."""
        names = list(unit.families)
        pairs = [frozenset((a, b)) for i, a in enumerate(names) for b in names[i + 1 :]]
        met = {m.pair for m in self.meetings if m.unit is unit}
        return [pair for pair in pairs if pair not in met]

    def ids(self) -> list[str]:
        return list(dict.fromkeys(j.rid for j in self.judgements))

    def of(self, rid: str) -> list[Judgement]:
        return [j for j in self.judgements if j.rid == rid]

    def partitions(self, rid: str) -> list[Partition]:
        return [j.partition for j in self.of(rid)]

    def judged_by(self, partition: Partition) -> list[Judgement]:
        return [j for j in self.judgements if j.partition is partition]

    def of_input(self, made: Input) -> list[Partition]:
        seen = dict.fromkeys(j.partition for j in self.judgements if j.partition.input is made)
        return list(seen)

    def partition(self, rid: str, key: str) -> Partition:
        """The partition ``key`` that ``rid`` judges."""
        for judgement in self.of(rid):
            if judgement.partition.key == key:
                return judgement.partition
        raise KeyError(f"{rid} judges no {key!r}")

    def label(self, rid: str, key: str) -> str:
        """How a FAIL names the partition ``key`` that ``rid`` judges."""
        return self.partition(rid, key).shown

    def produced(self, rid: str) -> frozenset[str]:
        """The keys ``rid``'s scenarios produce themselves (partitions with ``shown_by`` depend
        on what the student wrote: the self-tests produce them)."""
        return frozenset(j.partition.key for j in self.of(rid) if j.scenario and not j.partition.shown_by)

    def produced_by(self, scenario: str) -> dict[str, set[str]]:
        """Per id, the keys ``scenario`` must produce itself (partitions with ``shown_by`` depend
        on what the student wrote: the self-tests produce them)."""
        keys: dict[str, set[str]] = {}
        for j in self.judgements:
            if j.scenario == scenario and not j.partition.shown_by:
                keys.setdefault(j.rid, set()).add(j.partition.key)
        return keys

    def ensure(self, scenario: str, covered: Iterable[str | Partition]) -> None:
        """Every partition ``scenario`` must produce was produced (``covered``: keys or the
        partitions themselves); otherwise the scenario is broken, a harness fault."""
        ran = {c if isinstance(c, str) else c.key for c in covered}
        left = {rid: sorted(keys - ran) for rid, keys in self.produced_by(scenario).items()}
        left = {rid: missing for rid, missing in left.items() if missing}
        if left:
            raise RuntimeError(f"scenario {scenario} left partitions out: {left}")

    def markdown(self, title: str, intro: str, ids: Iterable[str]) -> str:
        """The published table: by requirement id (in the order of ``ids``), then by input."""
        out = [f"# {title}", "", *intro.strip().splitlines(), "", "## By requirement id", ""]
        for rid in ids:
            out += [f"### {rid}", ""]
            for j in self.of(rid):
                where = f"scenario `{j.scenario}`" if j.scenario else "saved tree"
                by = f" — {', '.join(j.partition.shown_by)}" if j.partition.shown_by else ""
                out.append(
                    f"- **{j.partition.key}** ({j.partition.input.name}; {where}; `{j.partition.shown}`): "
                    f"{j.partition.what}{by}"
                )
            out += [f"- not produced: {why}" for why in self.left_out.get(rid, ())]
            out.append("")
        out += ["## Anomalies that meet", ""]
        for unit in self.units:
            out += [f"### {unit.name}", ""]
            for m in (m for m in self.meetings if m.unit is unit):
                pair = " × ".join(sorted(m.pair))
                out.append(f"- {pair}: **{m.by.key}**" if m.by else f"- {pair}: never — {m.why}")
            out.append("")
        out += ["## By input", ""]
        for made in self.inputs:
            out += [f"### {made.name}", "", made.domain, ""]
            for partition in self.of_input(made):
                rids = ", ".join(dict.fromkeys(j.rid for j in self.judged_by(partition)))
                out.append(f"- **{partition.key}** ({rids}): {partition.what}")
            out.append("")
        return "\n".join(out)
