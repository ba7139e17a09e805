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


# The class of bench/class_bench.py, by name: ``roster`` draws from the variants there are, so a
# variant added changed the class, and the figures of two commits no longer compared (a 27 s
# grade became a 57 s one). Drawn by roster(24) on 2026-12-05; the labs' mistakes and correct
# alternatives in the proportions roster gives.
CLASS_OF_24 = (
    ("s01", "begin_immediate_changes_appends_files", "callback_consumer"),
    ("s02", "claims_by_copy_then_delete", "json_list_record_consumer"),
    ("s03", "consumer_switches_the_ledger_to_wal", "acks_first_unless_the_record_is_locked"),
    ("s04", "consumer_switches_the_ledger_to_wal", "record_failure_dead_letters"),
    ("s05", "consumer_falsy_is_missing", "record_without_busy_timeout"),
    ("s06", "makes_processing_again_at_start", "auto_ack_paced"),
    ("s07", "makes_processing_again_at_start", "requests_consumer"),
    ("s08", "created_at_taken_as_required", "same_transaction_consumer"),
    ("s09", "order_check_not_exists", "callback_deadline_between_dispatches"),
    ("s10", "order_check_not_exists", "start_consuming_consumer"),
    ("s11", "dedup_by_body_hash", "tables_topology"),
    ("s12", "replay_relies_on_its_first_lines_e", "commits_after_its_ack"),
    ("s13", "replay_relies_on_its_first_lines_e", "callback_consumer"),
    ("s14", "dup_txt_file_names", "json_list_record_consumer"),
    ("s15", "claims_by_hard_link", "consumer_writes_its_own_x_death"),
    ("s16", "claims_by_hard_link", "record_failure_dead_letters"),
    ("s17", "final_move_refuses_an_existing_name", "record_without_busy_timeout"),
    ("s18", "integrity_error_unique_index_by_hand", "dead_letters_retried_by_ttl"),
    ("s19", "integrity_error_unique_index_by_hand", "requests_consumer"),
    ("s20", "known_id_before_fields", "same_transaction_consumer"),
    ("s21", "or_ignore_surrogate_key_writes_own_files", "dedup_in_a_set"),
    ("s22", "or_ignore_surrogate_key_writes_own_files", "start_consuming_consumer"),
    ("s23", "lag_counts_an_empty_glob", "tables_topology"),
    ("s24", "order_check_reads_its_own_view", "duplicate_skipped_not_acked"),
)


def pinned_class() -> list[Student]:
    """CLASS_OF_24 as students (a variant renamed or removed is an error here, not a new class)."""
    by_name = {lab: {v.name: v for v in variants(lab)} for lab in ("queue", "mq")}
    return [Student(name, by_name["queue"][queue], by_name["mq"][mq]) for name, queue, mq in CLASS_OF_24]


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
