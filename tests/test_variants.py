"""The grader accepts correct solutions written differently, and rejects each one-mistake
variant on exactly the ids it declares (tests/variants/<lab>/*/variant.toml or <lab>/*.toml),
both labs.

Real parts only: every variant is walked into its own lab root and graded by a real grader run
(subprocess, results.json); the mq lab's runs share one private RabbitMQ node.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.catalogue import Lab
from grader.labs import CATALOGUE
from grader.machinery.broker import student_node
from grader.mq.catalogue import MQ
from grader.queue.catalogue import QUEUE
from solutions.walkthrough import walk_mq, walk_queue
from tests.conftest import SharedBroker
from tests.grading import Graded, assert_passes_every_id, assert_rejected_on_exactly, grade
from tests.variants import variant as variant_module
from tests.variants.variant import Variant, variants

# Grading every variant happens in one fixture per lab: allow it the time.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

QUEUE_VARIANTS, MQ_VARIANTS = variants("queue"), variants("mq")
# Grader runs at once: queue runs are light; more mq runs would make the two cores the limit.
AT_ONCE = {"queue": 3, "mq": 2}


def _grade_all(lab: str, grade_one: Callable[[Variant], Graded]) -> dict[str, Graded]:
    every = variants(lab)
    with ThreadPoolExecutor(max_workers=AT_ONCE[lab]) as pool:
        return dict(zip((v.name for v in every), pool.map(grade_one, every), strict=True))


@pytest.fixture(scope="module")
def queue_graded(fixture_tree: FixtureTree, workdir: Callable[[str], Path]) -> dict[str, Graded]:
    def grade_one(variant: Variant) -> Graded:
        base = workdir(variant.name)
        walk_queue(base / "root", fixture_tree.root, variant.lay_out(base / "solution"))
        variant.after_walk(base / "root" / "q")
        return grade(base / "root", fixture_tree.root, base / "state", lab="queue")

    return _grade_all("queue", grade_one)


def grade_mq_root(variant: Variant, base: Path, status: str) -> Path:
    """``variant`` walked into ``base``/root (once), as a student would."""
    root = base / "root"
    if not root.exists():
        walk_mq(root, status, variant.lay_out(base / "solution"))
        variant.after_walk(root / "eaimw" / "mq")
    return root


def grade_mq(
    variant: Variant, base: Path, fixtures: Path, broker: SharedBroker, status: str, seed: int | None = None
) -> Graded:
    """Walk ``variant`` into ``base``/root (once) and grade it on the shared node; a variant
    whose student broker is down is graded in student mode on a private node of its own."""
    root = grade_mq_root(variant, base, status)
    seeded = ("--grader-seed", str(seed)) if seed is not None else ()
    if not variant.student_broker_down:
        state = base / f"state-{seed}"
        return grade(root, fixtures, state, lab="mq", args=(*broker.args, *seeded), env=broker.env)
    # Student mode finds no rabbit@localhost on 5672 and grades on a private node, whose files
    # (in the state dir) user rabbitmq must reach.
    if student_node() is not None:
        raise RuntimeError(f"{variant.name}: a broker answers on 5672 here; it needs none")
    state = Path(tempfile.mkdtemp(prefix="lab-grader-state-", dir="/var/tmp"))
    state.chmod(0o755)
    try:
        return grade(root, fixtures, state / "s", lab="mq", args=seeded)
    finally:
        shutil.rmtree(state, ignore_errors=True)


@pytest.fixture(scope="module")
def mq_graded(
    fixture_tree: FixtureTree, shared_broker: SharedBroker, workdir: Callable[[str], Path]
) -> dict[str, Graded]:
    status = shared_broker.status()
    return _grade_all("mq", lambda v: grade_mq(v, workdir(v.name), fixture_tree.root, shared_broker, status))


def _check(variant: Variant, graded: Graded, ids: int) -> None:
    __tracebackhide__ = True
    if variant.correct:
        assert_passes_every_id(graded, ids)
    else:
        assert_rejected_on_exactly(graded, variant.fails)


@pytest.mark.parametrize("variant", QUEUE_VARIANTS, ids=lambda v: v.name)
def test_queue_variant_verdicts(variant: Variant, queue_graded: dict[str, Graded]) -> None:
    _check(variant, queue_graded[variant.name], len(QUEUE.requirements))


@pytest.mark.parametrize("variant", MQ_VARIANTS, ids=lambda v: v.name)
def test_mq_variant_verdicts(variant: Variant, mq_graded: dict[str, Graded]) -> None:
    _check(variant, mq_graded[variant.name], len(MQ.requirements))


def test_no_vhost_is_left_on_the_broker(mq_graded: dict[str, Graded], shared_broker: SharedBroker) -> None:
    assert mq_graded and not shared_broker.broker.grader_vhosts()


@pytest.mark.parametrize("lab", [QUEUE, MQ], ids=lambda lab: lab.name)
def test_variants_declare_known_ids(lab: Lab) -> None:
    ids = {r.id for r in lab.requirements}
    for variant in variants(lab.name):
        assert variant.fails <= ids, f"{variant.name}: unknown ids {variant.fails - ids}"
    assert sum(v.correct for v in variants(lab.name)) >= 2


@pytest.mark.parametrize("lab", [QUEUE, MQ], ids=lambda lab: lab.name)
def test_every_id_has_a_variant_that_fails_on_it(lab: Lab) -> None:
    """A check no wrong solution ever fails is a check nobody has seen fail."""
    covered = {rid for variant in variants(lab.name) for rid in variant.fails}
    missing = [r.id for r in lab.requirements if r.id not in covered]
    assert not missing, f"no one-mistake variant fails on {missing}"


def test_a_one_file_variant_lays_out_its_files_and_patch_and_names_ids_by_pattern(tmp_path: Path) -> None:
    """<name>.toml: why, fails (a pattern stands for every id it matches), [files], patch."""
    lab = tmp_path / "variants" / "queue"
    lab.mkdir(parents=True)
    (lab / "one_file.toml").write_text(
        'why = "lag.sh replaced, report.md patched"\n'
        'fails = ["Q7.*", "Q8.1"]\n'
        "patch = '''\n--- a/lag.sh\n+++ b/lag.sh\n@@ -1 +1 @@\n-#!/usr/bin/env bash\n+#!/bin/bash\n'''\n"
        "[files]\n\"sub/new.sh\" = '''#!/bin/sh\necho new\n'''\n"
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(variant_module, "VARIANTS", tmp_path / "variants")
        (found,) = variant_module.variants("queue")
        laid = found.lay_out(tmp_path / "out")
    assert found.name == "one_file" and found.one_file
    assert found.fails == {r.id for r in CATALOGUE.requirements("queue") if r.id.startswith("Q7.")} | {"Q8.1"}
    assert (laid / "lag.sh").read_text().startswith("#!/bin/bash\n")
    assert (laid / "sub" / "new.sh").read_text() == "#!/bin/sh\necho new\n"
    assert os.access(laid / "sub" / "new.sh", os.X_OK)
