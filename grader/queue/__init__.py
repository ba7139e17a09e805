"""The 'queue' lab: a directory-queue consumer (Q1.1 … Q8.3)."""

from grader.queue.catalogue import QUEUE as LAB

__all__ = ["LAB"]
