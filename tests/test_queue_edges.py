"""The queue lab's edge map (grader/queue/edges.py and the edges its scenarios declare) is
complete, points at real self-tests, is published whole, and the scenarios' inputs cover it
whatever the seed."""

from __future__ import annotations

import json
import random
import re

import pytest

from fixtures.queue_messages import (
    REQUIRED_FIELDS,
    Kind,
    consumer_inbox,
    crowd_inbox,
    earlier_inbox,
    poisons_with_known_ids,
    valid_bodies,
)
from grader.machinery.partitions import Partition
from grader.queue import edgemap, edges
from grader.queue.cases import lag_layouts, order_ledgers, replay_layout
from grader.queue.catalogue import QUEUE
from tests.grading import REPO
from tests.variants.variant import VARIANTS

SEEDS = range(10)


def test_every_id_has_an_edge_map() -> None:
    assert sorted(edges.MAP.ids()) == sorted(r.id for r in QUEUE.requirements)
    for j in edges.MAP.judgements:
        if j.scenario is None:  # a state judgement: each class shown by a self-test or variant
            assert j.partition.shown_by, (j.rid, j.partition.key)


def _exists(reference: str) -> bool:
    kind, _, name = reference.partition(" ")
    if kind == "variant":
        return (
            name == "reference"
            or (VARIANTS / "queue" / name / "variant.toml").is_file()
            or (VARIANTS / "queue" / f"{name}.toml").is_file()
        )
    path, _, function = reference.partition("::")
    source = REPO / path
    return (
        source.is_file() and re.search(rf"^def {re.escape(function)}\(", source.read_text(), re.M) is not None
    )


def test_shown_by_points_at_real_self_tests() -> None:
    missing = [
        f"{j.rid} {j.partition.key}: {ref}"
        for j in edges.MAP.judgements
        for ref in j.partition.shown_by
        if not _exists(ref)
    ]
    assert not missing


def test_the_published_map_holds_every_id_in_the_catalogues_order() -> None:
    published = edgemap.render()
    headings = re.findall(r"^### (Q\S+)$", published, re.M)
    assert headings == [r.id for r in QUEUE.requirements]
    assert all(f"**{j.partition.key}**" in published for j in edges.MAP.judgements)
    assert all(f"### {made.name}" in published for made in edges.MAP.inputs)


@pytest.mark.parametrize("seed", SEEDS)
def test_inputs_cover_every_class_whatever_the_seed(seed: int) -> None:
    """The pure builders behind the scenarios hold every class the map names, for any seed
    (the scenarios also check this at run time: edges.ensure)."""
    rng = random.Random(seed)
    fresh = consumer_inbox(rng)
    originals = [f.message for f in fresh.of_case("valid") if f.message is not None][:2]
    poisons = poisons_with_known_ids(rng, originals)  # the second run's, beside ids seen before
    for poison, original in zip(poisons, originals, strict=True):
        body = json.loads(poison.data)
        assert poison.kind is Kind.MISSING_FIELD and body["msg_id"] == original["msg_id"]
        assert any(body.get(field) is None for field in REQUIRED_FIELDS), body
    need = edges.scenario_keys("Q3.3") | edges.scenario_keys("Q3.8") | edges.scenario_keys("Q3.5")
    named = {"blank-names"} if any(" " in name for name in fresh.names) else set()  # by its names
    assert need - {"empty-inbox"} <= fresh.cases | {p.case for p in poisons} | named
    crowd = crowd_inbox(rng)
    assert edges.scenario_keys("Q3.7") - {"race", "crowd", "crowd-state-present"} <= crowd.cases
    assert earlier_inbox(rng).messages  # the state the crowd meets: at least one row
    ledgers = {c.key for c in order_ledgers(rng)} | {"scrambled"}
    for rid in ("Q6.2", "Q6.3", "Q6.4"):
        assert edges.scenario_keys(rid) <= ledgers, rid
    lag = lag_layouts(rng)
    assert edges.scenario_keys("Q7.1") <= {k for layout in lag for k in layout.shows}
    assert edges.scenario_keys("Q7.2") <= {k for layout in lag for _, ks in layout.thresholds for k in ks}
    replay = replay_layout(rng, valid_bodies(rng, 12), "/root/q", "/tmp/outside.json")
    for rid in ("Q8.1", "Q8.2", "Q8.3"):
        assert edges.scenario_keys(rid) <= {c.key for c in replay.cases if c.rid == rid}, rid


@pytest.mark.parametrize("seed", SEEDS)
def test_a_consumer_stopping_on_any_other_class_leaves_valid_work_behind(seed: int) -> None:
    """In name order the first and last message of a consumer's inbox are ordinary valid
    ones, so a consumer that hangs or dies on a poison or a duplicate, in name order or in its
    reverse, fails the same ids under every seed (a CI run once met the empty file last)."""
    rng = random.Random(seed)
    for inbox in (consumer_inbox(rng), crowd_inbox(rng)):
        ordered = sorted(inbox.files, key=lambda f: f.name)
        assert ordered[0].case == ordered[-1].case == "valid", [f.case for f in ordered]
        for end in (ordered[0], ordered[-1]):  # the only file of its msg_id
            assert end.message is not None and str(end.message["msg_id"]) not in inbox.duplicate_ids


@pytest.mark.parametrize("seed", SEEDS)
def test_faulty_ledgers_hold_exactly_their_fault(seed: int) -> None:
    """A Q6.2 ledger repeats a seq and has no hole; a Q6.3 ledger has a hole and no repeat; a
    Q6.4 ledger has neither; but for the two that hold both in one order, with as many rows as
    the order's span (a count against MAX-MIN+1 sees nothing there); every order starts at
    seq 1 (holes before it are not required)."""
    both = {"dup-and-hole", "hole-and-dup"}
    for case in order_ledgers(random.Random(seed)):
        by_order: dict[object, list[int]] = {}
        for row in case.rows:
            by_order.setdefault(row["order_no"], []).append(int(str(row["seq"])))
        repeats = any(len(s) != len(set(s)) for s in by_order.values())
        holes = any(len(set(s)) != max(s) for s in by_order.values())
        assert all(min(s) == 1 for s in by_order.values()), case.key
        if case.key in both:
            assert (repeats, holes) == (True, True), case.key
            assert all(len(s) == max(s) for s in by_order.values()), case.key
        else:
            expected = {"Q6.2": (True, False), "Q6.3": (False, True), "Q6.4": (False, False)}[case.rid]
            assert (repeats, holes) == expected, case.key
        seqs = [int(str(r["seq"])) for r in case.rows if r["order_no"] == case.rows[0]["order_no"]]
        assert len(seqs) < 3 or seqs not in (sorted(seqs), sorted(seqs, reverse=True)), case.key


def test_a_scenario_may_judge_its_ids_partitions_beside_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """``edges.MAP.judge``: the map takes a new id's partitions (each once) and the published
    map shows them, under the id and under their input."""
    monkeypatch.setattr(edges.MAP, "judgements", list(edges.MAP.judgements))
    bare = Partition(edges.LAG_THRESHOLD, "bare", "a run with no argument", "인자 없이")
    edges.MAP.judge("Q9.9", "bare_run", bare)
    assert edges.MAP.partitions("Q9.9") == [bare] and edges.label("Q9.9", "bare") == "인자 없이"
    assert edges.scenario_keys("Q9.9") == {"bare"}
    published = edges.render(["Q9.9"])
    assert "- **bare** (lag.sh's threshold against inbox's count; scenario `bare_run`; " in published
    assert "- **bare** (Q9.9): a run with no argument" in published
    with pytest.raises(ValueError):
        edges.MAP.judge("Q9.9", "bare_run", bare)


@pytest.mark.parametrize("seed", SEEDS)
def test_anomalies_meet_in_one_msg_id_in_the_name_order_they_say(seed: int) -> None:
    """A poison carrying a valid message's msg_id is named before it in one pair and after it
    in the other, whatever the seed; two poisons share a msg_id; a falsy message and seq 10
    each come twice. So a consumer that marks a msg_id seen before it validates the message
    meets a poison first in name order and in its reverse."""
    inbox = consumer_inbox(random.Random(seed))
    for case, first in (("same-id-poison-first", Kind.MISSING_FIELD), ("same-id-valid-first", Kind.VALID)):
        pair = sorted(inbox.of_case(case), key=lambda f: f.name)
        assert [f.kind for f in pair] == [first, ({Kind.VALID, Kind.MISSING_FIELD} - {first}).pop()], case
        assert len({json.loads(f.data)["msg_id"] for f in pair}) == 1, case
        valid = next(f for f in pair if f.kind is Kind.VALID)
        assert valid.message is not None and str(valid.message["msg_id"]) in inbox.messages
        assert str(valid.message["msg_id"]) not in inbox.duplicate_ids
    twice = inbox.of_case("poison-twice")
    assert [f.ends_in for f in twice] == ["error", "error"]
    assert len({json.loads(f.data)["msg_id"] for f in twice}) == 1
    for case in ("dup-of-falsy", "dup-at-seq-10"):
        copies = [f for f in inbox.of_case(case) if f.kind is Kind.DUPLICATE]
        assert len(copies) == 1 and copies[0].message is not None, case
        assert str(copies[0].message["msg_id"]) in inbox.duplicate_ids, case
    bare = inbox.of_case("optional-absent")[0].message
    assert bare is not None and set(bare) == set(REQUIRED_FIELDS)
