"""A generated class of both labs graded by one batch on the shared broker: every verdict
equals the solo verdict (what each student's variant declares, the self-tests of the variants
hold every solo run to it), no vhost is left, nothing keeps running, /root is untouched.
(bench/class_bench.py does the same for 24 submissions and measures the speed.)"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.classroom.batch import GRADED, BatchOptions, jobs_for, run_batch
from grader.classroom.infra import ExternalBroker
from grader.labs import CATALOGUE
from tests.classgen import hand_in, roster
from tests.classroom import processes_under, root_state
from tests.conftest import SharedBroker

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
SIZE = 4  # one correct in both labs, a queue mistake, an mq mistake, and one more
LABS = ("queue", "mq")


def test_batch_of_both_labs_equals_solo(
    fixture_tree: FixtureTree,
    shared_broker: SharedBroker,
    workdir: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base = workdir("both-labs")
    students = roster(SIZE)
    hand_in(students, base, fixture_tree.root, shared_broker.status())
    before = root_state()
    for name, value in shared_broker.env.items():  # the batch's runs read the node live
        monkeypatch.setenv(name, value)
    broker = shared_broker.broker
    graded = run_batch(
        sorted((base / "submissions").iterdir()),
        BatchOptions(
            out=base / "out",
            labs=LABS,
            jobs=jobs_for(None, LABS, namespaces=True)[0],  # batch's default: chosen as it goes
            least_jobs=jobs_for(None, LABS, namespaces=True)[1],
            fixtures_dir=fixture_tree.root,
            broker=ExternalBroker(broker.amqp_url("/"), f"http://127.0.0.1:{broker.mgmt_port}", broker.node),
            progress=lambda line: None,
        ),
    )
    assert not processes_under(base)
    assert root_state() == before
    assert not broker.grader_vhosts()
    for student, g in zip(students, sorted(graded, key=lambda g: g.name), strict=True):
        assert g.name == student.name and g.status == GRADED, g.note
        batch = {rid: t.outcome for rid, t in g.results.tests.items()}
        # The solo verdict of each variant, graded away from the pod, is what it declares
        # (tests/test_variants.py and test_away_from_pod.py hold every variant to it).
        solo = {
            r.id: "failed" if r.id in student.variant(lab).fails_away else "passed"
            for lab in LABS
            for r in CATALOGUE.requirements(lab)
        }
        differ = sorted(set(batch.items()) ^ set(solo.items()))
        assert batch == solo, f"{student.name}: {differ}\n{g.note}"
