"""The one input-domain model both labs share (grader/machinery/partitions.py): each lab's map
judges every id of its catalogue, every input it declares has partitions, a partition's key
names one class of its input, and a scenario that leaves a partition out is a harness fault."""

from __future__ import annotations

from collections import Counter

import pytest

from grader.machinery.partitions import Partition, PartitionMap
from grader.mq import edges as mq_edges
from grader.mq import scenarios as mq_scenarios
from grader.mq.catalogue import MQ
from grader.queue import edges as queue_edges
from grader.queue import scenarios as queue_scenarios
from grader.queue.catalogue import QUEUE

assert mq_scenarios.scenarios and queue_scenarios.scenarios  # loaded: what they judge is mapped
LABS = {"queue": (queue_edges.MAP, QUEUE), "mq": (mq_edges.MAP, MQ)}


@pytest.mark.parametrize("lab", LABS)
def test_every_id_is_judged_and_every_input_partitioned(lab: str) -> None:
    partitions, catalogue = LABS[lab]
    assert partitions.ids() == [r.id for r in catalogue.requirements]
    assert [made.name for made in partitions.inputs if not partitions.of_input(made)] == []
    for made in partitions.inputs:
        keys = Counter(p.key for p in partitions.of_input(made))
        assert [key for key, n in keys.items() if n > 1] == [], made.name


@pytest.mark.parametrize("lab", LABS)
def test_the_published_table_is_by_id_and_by_input(lab: str) -> None:
    partitions, catalogue = LABS[lab]
    published = partitions.markdown("t", "intro", [r.id for r in catalogue.requirements])
    by_id, _, by_input = published.partition("## By input")
    assert all(f"### {r.id}\n" in by_id for r in catalogue.requirements)
    assert all(f"### {made.name}\n" in by_input for made in partitions.inputs)
    for j in partitions.judgements:
        assert f"**{j.partition.key}** (" in by_id and f"**{j.partition.key}** (" in by_input


def test_a_scenario_that_leaves_a_partition_out_is_a_harness_fault() -> None:
    partitions = PartitionMap()
    made = partitions.input("an argument", "any integer")
    zero, negative = Partition(made, "zero", "0", "0"), Partition(made, "negative", "-1", "음수")
    saved = Partition(made, "saved", "as written", "저장", ("tests/x.py::test_y",))
    partitions.judge("X1.1", "runs", zero, negative, saved)
    partitions.ensure("runs", [zero, "negative"])  # keys or partitions; shown_by ones exempt
    with pytest.raises(RuntimeError, match="negative"):
        partitions.ensure("runs", [zero])
    assert partitions.produced("X1.1") == {"zero", "negative"}


def test_an_input_must_be_declared_and_a_partition_judged_once_per_id() -> None:
    partitions = PartitionMap()
    made = partitions.input("an argument", "any integer")
    with pytest.raises(ValueError):
        partitions.input("an argument", "again")
    elsewhere = PartitionMap().input("another", "not this map's")
    with pytest.raises(ValueError, match="not declared"):
        partitions.judge("X1.1", "runs", Partition(elsewhere, "k", "w", "s"))
    one = Partition(made, "k", "w", "s")
    partitions.judge("X1.1", "runs", one)
    partitions.judge("X1.2", None, one)  # another id may judge it, on the saved tree
    assert [j.rid for j in partitions.judged_by(one)] == ["X1.1", "X1.2"]
    with pytest.raises(ValueError, match="twice"):
        partitions.judge("X1.1", "runs", Partition(made, "k", "w", "s"))


@pytest.mark.parametrize("lab", LABS)
def test_every_pair_of_anomalies_that_can_meet_in_one_unit_meets(lab: str) -> None:
    """For each unit of work (one msg_id, one order, one claim), every two families of anomaly
    are produced together by a partition some id judges, or the map says why they never meet."""
    partitions, _ = LABS[lab]
    assert partitions.units
    for unit in partitions.units:
        assert partitions.unmet(unit) == [], unit.name
        for m in (m for m in partitions.meetings if m.unit is unit):
            assert m.by is None or partitions.judged_by(m.by), (unit.name, m.by)
        judged = {j.partition for j in partitions.judgements}
        assert all(set(family) <= judged for family in unit.families.values()), unit.name


def test_a_pair_is_met_by_a_partition_or_a_reason_once() -> None:
    partitions = PartitionMap()
    made = partitions.input("a message", "any")
    dup, poison = Partition(made, "dup", "d", "d"), Partition(made, "poison", "p", "p")
    unit = partitions.unit("one id", duplicate=(dup,), poison=(poison,), falsy=())
    partitions.meet(unit, "duplicate", "poison", dup)
    assert partitions.unmet(unit) == [frozenset({"duplicate", "falsy"}), frozenset({"poison", "falsy"})]
    with pytest.raises(ValueError):
        partitions.meet(unit, "poison", "duplicate", why="again")
    with pytest.raises(ValueError):
        partitions.meet(unit, "falsy", "poison")  # neither a partition nor a reason
    with pytest.raises(ValueError):
        partitions.meet(unit, "falsy", "nowhere", why="an unknown family")
    partitions.meet(unit, "falsy", "poison", why="a poison ends in error/ whatever it holds")
    assert "- falsy × poison: never — a poison ends" in partitions.markdown("t", "i", [])
