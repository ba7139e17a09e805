"""A generated class: students whose work is a variant of the reference in each lab (correct
alternatives and one-mistake mutants from tests/variants), laid out as lab roots by the
walkthrough, handed in as packed files or folders.

``roster`` and ``lay_out_student`` are the only places that know where variants come from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.classroom.submission import pack
from solutions.walkthrough import walk_mq, walk_queue
from tests.variants.variant import Variant, variants


@dataclass(frozen=True)
class Student:
    name: str
    queue: Variant
    mq: Variant

    def variant(self, lab: str) -> Variant:
        return self.queue if lab == "queue" else self.mq


def roster(size: int) -> list[Student]:
    """``size`` students; every third is correct in both labs, the others carry one mistake in
    one lab or both, drawn in turn from the catalogue of mutants (deterministic)."""
    q_right, q_wrong = split("queue")
    m_right, m_wrong = split("mq")
    students = []
    for i in range(size):
        if i % 3 == 0:
            q, m = q_right[i % len(q_right)], m_right[i % len(m_right)]
        elif i % 3 == 1:
            q, m = q_wrong[i % len(q_wrong)], m_right[(i + 1) % len(m_right)]
        else:
            q, m = q_right[(i + 1) % len(q_right)], m_wrong[i % len(m_wrong)]
        students.append(Student(f"s{i + 1:02d}", q, m))
    return students


def split(lab: str) -> tuple[list[Variant], list[Variant]]:
    """The lab's correct alternatives and its one-mistake variants, as submissions: a variant
    that is a state of the student's pod (its broker down) is not something one hands in."""
    every = [v for v in variants(lab) if not v.student_broker_down]
    return [v for v in every if v.correct], [v for v in every if not v.correct]


def lay_out_student(
    student: Student,
    lab_root: Path,
    fixtures: Path,
    status: str | None,
    scratch: Path,
    labs: tuple[str, ...] = ("queue", "mq"),
) -> Path:
    """The student's lab root after walking the lab steps with their solutions (``status``:
    `rabbitmqctl status` of a node started by mq-up.sh, for step 1's status.txt)."""
    if "queue" in labs:
        walk_queue(lab_root, fixtures, student.queue.lay_out(scratch / "queue-solution"))
        student.queue.after_walk(lab_root / "q")
    if "mq" in labs:
        walk_mq(lab_root, status, student.mq.lay_out(scratch / "mq-solution"))
        student.mq.after_walk(lab_root / "eaimw" / "mq")
    return lab_root


def hand_in(
    students: list[Student],
    base: Path,
    fixtures: Path,
    status: str | None,
    labs: tuple[str, ...] = ("queue", "mq"),
) -> dict[str, Path]:
    """Every student's submission under ``base/submissions``: odd ones packed, even ones as
    folders (both forms a batch accepts). Returns name -> the lab root it was made from."""
    roots = {}
    for i, student in enumerate(students):
        root = lay_out_student(
            student, base / "roots" / student.name, fixtures, status, base / "scratch" / student.name, labs
        )
        if i % 2 == 0:
            pack(root, base / "submissions" / f"{student.name}.tar.gz")
        else:
            (base / "submissions").mkdir(parents=True, exist_ok=True)
            (base / "submissions" / student.name).symlink_to(root)
        roots[student.name] = root
    return roots
