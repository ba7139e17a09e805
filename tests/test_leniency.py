"""The leniency models (grader/<lab>/leniency.py): every way a correct student may write an
artefact names submissions that show it accepted, and each of them exists and is correct (a
variant declared to fail nothing, a blind submission its writer expects to pass, a self-test)."""

from __future__ import annotations

import re
import tomllib

import pytest

from grader.machinery.leniency import Leniency
from grader.mq.leniency import LENIENCY as MQ_WAYS
from grader.queue.leniency import LENIENCY as QUEUE_WAYS
from tests.grading import REPO
from tests.variants.variant import Variant

LABS = {"queue": QUEUE_WAYS, "mq": MQ_WAYS}


def _accepted(lab: str, evidence: str) -> bool:
    kind, _, name = evidence.partition(" ")
    if kind == "variant":
        return name == "reference" or Variant.named(lab, name).correct
    if kind == "population":
        toml = REPO / "tests" / "population" / lab / name / "submission.toml"
        return toml.is_file() and tomllib.loads(toml.read_text())["expect"] == "pass"
    path, _, function = evidence.partition("::")
    source = REPO / path
    return (
        source.is_file() and re.search(rf"^def {re.escape(function)}\(", source.read_text(), re.M) is not None
    )


@pytest.mark.parametrize("lab", LABS)
def test_every_way_is_shown_accepted_by_a_correct_submission(lab: str) -> None:
    ways = LABS[lab].ways
    assert ways
    wrong = [f"{w.artefact}: {w.way}: {e}" for w in ways for e in w.accepted_by if not _accepted(lab, e)]
    assert wrong == []


def test_a_way_without_evidence_is_refused_and_the_table_lists_each() -> None:
    ways = Leniency()
    with pytest.raises(ValueError):
        ways.way("lag.sh", "written in awk")
    ways.way("lag.sh", "written in awk", "variant awk_lag")
    assert "### lag.sh\n\n- written in awk — variant awk_lag" in ways.markdown()
