"""The mq lab's published edge map: the whole map (edges.py and the edges the scenarios declare
beside themselves), in the catalogue's order. ``python -m grader.mq.edgemap``."""

from __future__ import annotations

import sys

from grader.mq import edges, scenarios
from grader.mq.catalogue import MQ
from grader.mq.leniency import LENIENCY

assert scenarios.scenarios  # loaded: every declaration is in the map


def render() -> str:
    return edges.markdown([r.id for r in MQ.requirements]) + "\n" + LENIENCY.markdown()


if __name__ == "__main__":
    sys.stdout.write(render())
