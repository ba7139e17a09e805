"""The labs this grader knows, in the order they are graded and reported."""

from __future__ import annotations

from grader.catalogue import Catalogue
from grader.mq.catalogue import MQ
from grader.queue.catalogue import QUEUE

LABS = (QUEUE, MQ)
LAB_NAMES = tuple(lab.name for lab in LABS)
CATALOGUE = Catalogue(LABS)
