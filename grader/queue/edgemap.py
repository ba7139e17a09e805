"""The queue lab's published edge map: the whole map (edges.py and the edges the scenarios
declare beside themselves), in the catalogue's order. ``python -m grader.queue.edgemap``."""

from __future__ import annotations

import sys

from grader.queue import edges, scenarios
from grader.queue.catalogue import QUEUE
from grader.queue.leniency import LENIENCY

assert scenarios.scenarios  # loaded: every declaration is in the map


def render() -> str:
    return edges.render(r.id for r in QUEUE.requirements) + "\n" + LENIENCY.markdown()


if __name__ == "__main__":
    sys.stdout.write(render())
