"""The queue lab's checks and scenarios run in-process on trees a self-test builds.

A real ``Grading`` (its scratch tree, process registry, seeded generators) and a real
``QueueLab`` whose ``saved`` and ``live`` trees are whatever the test laid out, so a check's
verdict on one class of input (a BOM, a FIFO, a composite key ...) is seen directly, without
a whole grader run.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from fixtures.tree import FixtureTree
from grader.config import GraderConfig
from grader.machinery import sandbox
from grader.queue.catalogue import QUEUE
from grader.queue.lab import QueueLab
from grader.queue.scenarios import scenarios
from grader.session import Grading
from grader.verdict import Check, Finding, Missing, StudentFailure

REQUIREMENTS = {r.id: r for r in QUEUE.requirements}


def make_grading(
    fixtures: FixtureTree, root: Path, state: Path, mode: str, seed: int = 1, protected: tuple[str, ...] = ()
) -> Grading:
    """A real grading run of the queue lab on ``root`` (sandbox ``mode``), made in-process;
    ``protected``: the directories it makes working copies of (none: scripts run on the tree)."""
    config = GraderConfig(
        lab_root=root,
        fixtures_dir=fixtures.root,
        labs=("queue",),
        results_json=None,
        state_dir=state,
        broker="auto",
        amqp_url=None,
        rabbitmq_node=None,
        management_url=None,
        seed=seed,
        workers=4,
    )
    return Grading(config, sandbox.choose(mode), protected=protected, graded=protected)


@contextmanager
def queue_lab(
    fixtures: FixtureTree, base: Path, walked: Path | None = None, seed: int = 1
) -> Iterator[QueueLab]:
    """A lab whose saved and live q/ are copies of ``walked`` (or empty), under ``base``."""
    root = base / "root"
    saved = base / "saved"
    for q in (root / "q", saved):
        if walked is not None:
            shutil.copytree(walked, q, symlinks=True)
        else:
            q.mkdir(parents=True)
    grading = make_grading(fixtures, root, base / "state", "none", seed)
    try:
        grading.identity.hand_over(root / "q")  # the scripts' working copy: theirs
        grading.workspaces.let_through([root / "q"])
        yield QueueLab(grading, fixtures.queue, root / "q", saved)
    finally:
        grading.close()


def judge(rid: str, check: Callable[..., None], *records: object) -> Finding | None:
    """The check's verdict: None (passed) or its Finding; anything else raised is a harness
    fault and propagates. A scenario's Missing is turned into its blocked FAIL, as the plugin
    does."""
    req = Check(REQUIREMENTS[rid])
    try:
        for record in records:
            if isinstance(record, Missing):
                req.blocked(record.artefact, record.why)
        check(req, *records)
    except StudentFailure as failure:
        return failure.finding
    return None


def observe(name: str, lab: QueueLab) -> object:
    return scenarios.observe(name, lab)
