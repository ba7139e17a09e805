"""Batch grading: every submission of a class, N at a time, on one broker.

    OUT/<student>/results.json    Gradescope's format (a grader fault: every id an error)
    OUT/<student>/scoreboard.txt  the Korean scoreboard the student would have seen
    OUT/<student>/grader.log      the grader's whole output
    OUT/<student>/job.json        what was graded with what (a re-run skips it when unchanged)
    OUT/grades.csv                one row per student: status, score, then one column per id
    OUT/report.html               the class report
    OUT/shard.json                what this output holds and what graded it (written last)

With ``--shard K/N`` only the submissions whose student's name hashes to shard K are graded
(grader/classroom/shards.py); ``python -m grader merge`` joins the N outputs.

Each submission is laid out in its own lab root under OUT/.work and graded by its own
``pytest grader`` subprocess with its own state dir and a wall-clock limit; a grader fault is
retried once and then recorded as a fault, never as a score.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sys
import threading
import time
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError, ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fixtures.atomic import write_atomic
from fixtures.tree import FixtureTree
from grader.classroom import class_report
from grader.classroom.infra import ExternalBroker, class_broker, fixture_tree
from grader.classroom.results import (
    Results,
    ResultsUnreadable,
    expected_ids,
    grader_fault_results,
    parse_results,
    read_results,
    refused_results,
    write_json,
)
from grader.classroom.runjob import (
    TERM_GRACE,
    BrokerAccess,
    GraderRun,
    RunOutcome,
    guarded_by,
    resume,
    run,
    stop_all,
)
from grader.classroom.shards import MANIFEST, WHOLE, Manifest, Shard, forget
from grader.classroom.submission import (
    MAX_TOTAL,
    PARTS,
    UnsafeSubmission,
    find_lab_root,
    lay_out,
    packed_file_in,
    submission_name,
)
from grader.classroom.version import code_hash, tool_version
from grader.labs import CATALOGUE
from grader.machinery.admission import MEMORY, Admission, available_memory
from grader.machinery.broker import CONNECTION_MAX, Broker
from grader.machinery.rundir import recover
from grader.machinery.sandbox import GRADE_BROKER_MOST
from grader.machinery.snapshot import tree_digest
from grader.machinery.treecopy import remove_tree
from grader.machinery.watchdog import Watchdog

GRADED, FAULT, REFUSED = "graded", "grader-error", "refused"
WORK = ".work"
GRADES, REPORT = "grades.csv", "report.html"
OWN_FILES = (GRADES, REPORT, MANIFEST)  # OUT's own: no student's folder may take their names
DEFAULT_TIMEOUT = 300.0
ATTEMPTS = 2  # a grader fault is retried once before it is recorded
# File data a folder submission's fingerprint reads: all of any it may hand in, each file once
# (an 8 GiB sparse file with 200 names was read in full 201 times before it was refused)
DIGEST_READS = MAX_TOTAL


def default_jobs() -> int:
    """Grader runs at once batch's default starts with: one per core. A grade of both labs keeps
    about one core busy (~8 CPU-seconds in ~7 s alone); the class benchmark of 2026-12-05 (2 cores)
    started at one, two and four at once with every verdict as alone, and the run that started
    at two ended in 102 s against 119 s for one (the count grows a step a second at most).
    Batch goes on up to ``most_jobs`` as the machine shows spare CPU (a queue grade is lighter
    still: the same rule holds). Never more than one per GiB the kernel says is available (a
    grade's scripts may take up to 2 GiB, the reference's peak ~380 MB)."""
    return max(1, min(os.cpu_count() or 1, available_memory() // MEMORY))


def most_jobs() -> int:
    """Grader runs at once batch's default goes up to: twice the cores. On the 2-core machine
    four at once gave every verdict of the class benchmark as alone (bench/class_bench.py, three
    runs of 2026-12-05); the timed checks judge from events, not from a clock's margin."""
    return 2 * (os.cpu_count() or 1)


def jobs_for(requested: int | None, labs: tuple[str, ...], namespaces: bool) -> tuple[int, int | None, str]:
    """Grader runs at once: (most, least, note). ``least`` None: ``requested``, always; else from
    ``least`` up to ``most`` as the machine shows spare CPU (machinery/admission.py). The note
    says why fewer than ``requested``: without namespaces the scripts of grades running at once
    share the machine's loopback, and one student's script could call a classmate's claim
    partner and change that grade (README, threat model), so labs with a broker are graded one
    at a time there."""
    if not namespaces and CATALOGUE.needs_broker(labs):
        if requested is not None and requested > 1:
            return (
                1,
                None,
                (
                    f"batch: --jobs {requested} -> 1: without namespaces the scripts of grades running "
                    "at once share this machine's network and could reach each other's claim partners"
                ),
            )
        return 1, None, ""
    node = node_jobs() if CATALOGUE.needs_broker(labs) else None
    if requested is not None:
        if node is not None and requested > node:
            return (
                node,
                None,
                f"batch: --jobs {requested} -> {node}: the class's node carries {node} grades at once",
            )
        return requested, None, ""
    least = default_jobs()
    most = max(least, most_jobs())
    return (most if node is None else min(most, node)), (least if node is None else min(least, node)), ""


GRADERS_ROOM = 64  # of the class node's connections, for the graders' own


def node_jobs() -> int:
    """Grades the class's node carries at once: each run's scripts may hold GRADE_BROKER_MOST of
    its CONNECTION_MAX connections (sandbox.py), and the graders' own need room beside them."""
    return max(1, (CONNECTION_MAX - GRADERS_ROOM) // GRADE_BROKER_MOST)


@dataclass(frozen=True)
class Submission:
    name: str
    path: Path

    def digest(self) -> str:
        """What the student handed in: the packed file's bytes, or the lab folders' trees."""
        packed = self.path if self.path.is_file() else packed_file_in(self.path)
        if packed is not None:
            with packed.open("rb") as f:
                return hashlib.file_digest(f, "sha256").hexdigest()
        try:
            folder = find_lab_root(self.path)
        except UnsafeSubmission:
            return tree_digest(self.path, DIGEST_READS)  # refused either way; changes still count
        trees = (tree_digest(folder / p, DIGEST_READS) for p in PARTS)
        return hashlib.sha256("".join(trees).encode()).hexdigest()


@dataclass(frozen=True)
class BatchOptions:
    out: Path
    labs: tuple[str, ...]
    jobs: int  # at most at once
    timeout: float = DEFAULT_TIMEOUT
    force: bool = False
    fixtures_dir: Path | None = None
    broker: ExternalBroker | None = None
    scripts_root: Path | None = None
    sandbox: str | None = None
    shard: Shard = WHOLE  # grade only this shard's share of the submissions given
    progress: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True)
    # From this many at once up to ``jobs`` as the machine shows spare CPU (jobs_for);
    # None: ``jobs`` at once.
    least_jobs: int | None = None


@dataclass(frozen=True)
class Graded:
    """One student's outcome in this batch."""

    name: str
    status: str  # graded / grader-error / refused
    results: Results
    seconds: float
    reused: bool
    note: str = ""


def job_folder(name: str) -> str:
    """The folder under OUT/.work a student's lab root is laid out in: a name of the batch's
    own, never the student's (it is in every path the student's scripts are given, and a name
    with a blank or a newline in it changed what a correct lag.sh counted)."""
    return "job-" + hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]


# Cyrillic and Greek letters (as casefold leaves them) drawn like a Latin one (after Unicode's
# confusables, TR39): "кim" with a Cyrillic к is "kim" to whoever reads grades.csv.
LOOKS_LATIN = str.maketrans(
    "авеікмнорстухѕјһӏүԁԛԝαβεικνορτυχγ",
    "abeikmhopctyxsjhlydqwabeiknoptuxy",
)


def looks_like(name: str) -> str:
    """What ``name`` looks like on a page: two names alike here cannot be told apart there
    (another Unicode form, full-width letters, another letter case, a letter of another
    script drawn the same)."""
    return unicodedata.normalize("NFKC", name).casefold().translate(LOOKS_LATIN)


def _name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a student's in grades.csv and report.html (None: it can)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "is not UTF-8"
    # Zl, Zp: U+2028 and U+2029 end a line for str.splitlines and editors (red team 24: a
    # name holding one read as two rows of grades.csv there).
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in name):
        return "holds a control or invisible character (zero-width, bidi, line separator, ...)"
    return None


def collect(paths: Sequence[Path]) -> list[Submission]:
    submissions = [Submission(submission_name(p), p) for p in paths]
    names = [s.name for s in submissions]
    problems = [f"{p}: not found" for p in paths if not p.exists()]
    problems += [f"{n!a}: a student's name {why}" for n in names if (why := _name_problem(n))]
    alike = [looks_like(n) for n in names]
    problems += [f"{n}: two submissions have this name" for n in sorted(set(names)) if names.count(n) > 1]
    problems += [
        f"{n!a}: looks the same as another submission's name"
        for n, a in zip(names, alike, strict=True)
        if alike.count(a) > 1 and names.count(n) == 1
    ]
    problems += [f"{n}: a student's name may not start with '.'" for n in names if n.startswith(".")]
    formula = [n for n in names if n[:1] in ("=", "+", "-", "@", "\t", "\r")]
    problems += [f"{n}: a student's name may not start as a spreadsheet formula does" for n in formula]
    own = {looks_like(f) for f in OWN_FILES}  # also as a filesystem that ignores case sees it
    problems += [
        f"{n}: a student's name may not be a file the batch writes" for n in names if looks_like(n) in own
    ]
    if problems:
        raise SystemExit("batch: " + "; ".join(problems))
    return submissions


class Batch:
    def __init__(self, submissions: list[Submission], options: BatchOptions) -> None:
        self.submissions = submissions
        self.options = options
        self.work = options.out / WORK
        self._lock = threading.Lock()
        self._done = 0
        self._timed: list[float] = []
        self._started = time.monotonic()
        self.fixtures_digest = ""  # of the tree this batch grades against (set by run)
        self.keys: dict[str, str] = {}  # student -> the key of what was graded (set by run)
        # Every grade passes it before it starts: how many run at once (jobs_for).
        self.admission = Admission(options.least_jobs or options.jobs, options.jobs)

    # planning -----------------------------------------------------------------------------
    def key(self, submission: Submission) -> str:
        """A re-run regrades a submission when any of these changed."""
        parts = [
            submission.digest(),
            code_hash(),
            ",".join(self.options.labs),
            self.fixtures_digest,
            str(self.options.scripts_root),
            str(self.options.sandbox),
        ]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def reusable(self, submission: Submission, key: str) -> Graded | None:
        folder = self.options.out / submission.name
        try:
            record = json.loads((folder / "job.json").read_text())
            results = read_results(folder / "results.json")
        except (OSError, ValueError, ResultsUnreadable):
            return None
        if self.options.force or record.get("key") != key or record.get("status") == FAULT:
            return None
        return Graded(
            submission.name,
            record["status"],
            results,
            float(record["seconds"]),
            True,
            str(record.get("note", "")),
        )

    # grading ------------------------------------------------------------------------------
    def run(self) -> list[Graded]:
        resume()  # an earlier batch of this process may have been interrupted
        if not self.options.out.exists():  # the classmates' names in it are nobody else's to list
            self.options.out.mkdir(parents=True)  # (a host-mode script could, red team 21)
            self.options.out.chmod(0o711)
        self._clear_work()
        # Graders at once pass through here to their own submission (0700 each, opened to its
        # grader's script identity alone in host mode) and to the fixture tree.
        self.work.mkdir(mode=0o711)
        self.work.chmod(0o711)
        try:
            tree = fixture_tree(self.options.fixtures_dir, self.work)
            self.fixtures_digest = tree_digest(tree.root)
            keys = self.keys = {s.name: self.key(s) for s in self.submissions}
            reused = {s.name: g for s in self.submissions if (g := self.reusable(s, keys[s.name]))}
            todo = [s for s in self.submissions if s.name not in reused]
            self._done = len(reused)
            if reused:
                self.options.progress(
                    f"batch: {len(reused)}개는 바뀌지 않아 이전 결과를 씁니다 (--force 로 모두 다시 채점)"
                )
            graded = dict(reused)
            if todo:
                graded |= self._grade_all(todo, tree, keys)
            return [graded[s.name] for s in self.submissions]
        finally:
            remove_tree(self.work)

    def _clear_work(self) -> None:
        """A batch killed mid-run left lab roots and grader state here: undo what its graders
        started the way the next grader would, then remove it."""
        if self.work.is_dir():
            for job in self.work.iterdir():
                if (job / "state").is_dir():
                    recover(job / "state", job / "root")
        remove_tree(self.work)

    def _grade_all(
        self, todo: list[Submission], tree: FixtureTree, keys: dict[str, str]
    ) -> dict[str, Graded]:
        # Killed outright (SIGKILL: no stop_all, no finally), the batch still has its graders
        # stopped and its class node too: by the watchdog, which outlives it for that alone.
        with Watchdog(TERM_GRACE) as watchdog, guarded_by(watchdog):
            if not CATALOGUE.needs_broker(self.options.labs):
                return self._pool(todo, tree, keys, None, None)
            with class_broker(tree, self.options.broker, watchdog) as (broker, access):
                return self._pool(todo, tree, keys, broker, access)

    def _pool(
        self,
        todo: list[Submission],
        tree: FixtureTree,
        keys: dict[str, str],
        broker: Broker | None,
        access: BrokerAccess | None,
    ) -> dict[str, Graded]:
        graded: dict[str, Graded] = {}
        with ThreadPoolExecutor(max_workers=self.options.jobs) as pool:
            futures = {pool.submit(self._grade, s, tree, keys[s.name], broker, access): s for s in todo}
            try:
                for future in as_completed(futures):
                    result = future.result()
                    graded[result.name] = result
                    self._report_progress(result)
            except BaseException:  # Ctrl-C: start nothing more, stop what runs
                self.admission.close()
                pool.shutdown(wait=False, cancel_futures=True)
                stop_all()
                raise
        return graded

    def _grade(
        self,
        submission: Submission,
        tree: FixtureTree,
        key: str,
        broker: Broker | None,
        access: BrokerAccess | None,
    ) -> Graded:
        """Never raises (but when the batch is stopped before it starts): whatever goes wrong
        with one submission is recorded for it alone."""
        if not self.admission.enter():
            raise CancelledError(f"{submission.name}: the batch was stopped before its grade began")
        started = time.monotonic()
        try:
            return self._grade_one(submission, tree, key, broker, access)
        except Exception as exc:
            fault = f"batch could not grade it: {exc!r}"
            data = grader_fault_results(self.options.labs, fault)
            write_json(self.options.out / submission.name / "results.json", data)
            return self._record(
                submission, key, FAULT, parse_results(data), time.monotonic() - started, fault
            )
        finally:
            self.admission.leave()

    def _grade_one(
        self,
        submission: Submission,
        tree: FixtureTree,
        key: str,
        broker: Broker | None,
        access: BrokerAccess | None,
    ) -> Graded:
        folder = self.options.out / submission.name
        folder.mkdir(mode=0o700, exist_ok=True)  # the student's results: no script reads them
        folder.chmod(0o700)
        work = self.work / job_folder(submission.name)
        started = time.monotonic()
        try:
            try:
                work.mkdir(mode=0o700, exist_ok=True)  # another student's scripts never read it
                lay_out(submission.path, work / "root")
            except UnsafeSubmission as exc:
                data = refused_results(self.options.labs, str(exc))
                write_json(folder / "results.json", data)
                (folder / "scoreboard.txt").write_text(f"제출물을 풀 수 없음: {exc}\n")
                return self._record(
                    submission, key, REFUSED, parse_results(data), time.monotonic() - started, str(exc)
                )
            outcome = self._attempts(submission, tree, work, access, broker)
        finally:
            remove_tree(work)
        seconds = time.monotonic() - started
        if outcome.fault is None and outcome.results is not None:
            (folder / "scoreboard.txt").write_text(outcome.scoreboard)
            return self._record(submission, key, GRADED, outcome.results, seconds)
        data = grader_fault_results(self.options.labs, outcome.fault or "unknown")
        write_json(folder / "results.json", data)
        (folder / "scoreboard.txt").write_text(outcome.scoreboard or f"채점기 오류: {outcome.fault}\n")
        return self._record(submission, key, FAULT, parse_results(data), seconds, outcome.fault or "")

    def _attempts(
        self,
        submission: Submission,
        tree: FixtureTree,
        work: Path,
        access: BrokerAccess | None,
        broker: Broker | None,
    ) -> RunOutcome:
        folder = self.options.out / submission.name
        job = GraderRun(
            lab_root=work / "root",
            fixtures=tree.root,
            state_dir=work / "state",
            results_json=folder / "results.json",
            log=folder / "grader.log",
            labs=self.options.labs,
            broker=access,
            timeout=self.options.timeout,
            scripts_root=self.options.scripts_root,
            sandbox=self.options.sandbox,
        )
        outcome = run(job)
        for _ in range(ATTEMPTS - 1):
            if outcome.fault is None:
                break
            if broker is not None:
                broker.delete_stale_vhosts()
            outcome = run(job)
        if broker is not None:
            broker.delete_stale_vhosts()
        return outcome

    def _record(
        self, submission: Submission, key: str, status: str, results: Results, seconds: float, note: str = ""
    ) -> Graded:
        record = {
            "key": key,
            "status": status,
            "score": None if status == FAULT else results.score,  # as grades.csv: no grade
            "max_score": results.max_score,
            "seconds": round(seconds, 1),
            "tool": tool_version(),
            "graded_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "submission": str(submission.path),
            "note": note,
        }
        write_atomic(
            self.options.out / submission.name / "job.json",
            json.dumps(record, ensure_ascii=False, indent=2).encode(),
        )
        return Graded(submission.name, status, results, seconds, False, note)

    def _report_progress(self, result: Graded) -> None:
        with self._lock:
            self._done += 1
            self._timed.append(result.seconds)
            total = len(self.submissions)
            elapsed = time.monotonic() - self._started
            left = total - self._done
            rate = elapsed / len(self._timed)
            verdict = (
                f"{result.results.passed}/{len(result.results.tests)}"
                if result.status == GRADED
                else result.status
            )
            self.options.progress(
                f"[{self._done}/{total}] 경과 {_clock(elapsed)}, 남은 예상 {_clock(rate * left)}"
                f" — {result.name}: {verdict}"
            )


def _clock(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


def grades_csv(graded: list[Graded], labs: tuple[str, ...]) -> str:
    """One row per student: status, score (empty unless it is a grade), then 1/0/E per id."""
    ids = expected_ids(labs)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", "status", "score", "max_score", *ids])
    cell = {"passed": "1", "failed": "0", "error": "E"}
    for g in graded:
        score = "" if g.status == FAULT else f"{g.results.score:g}"
        row = [cell.get(g.results.tests[i].outcome, "E") if i in g.results.tests else "" for i in ids]
        writer.writerow([g.name, g.status, score, f"{g.results.max_score:g}", *row])
    return out.getvalue()


def run_batch(paths: Sequence[Path], options: BatchOptions) -> list[Graded]:
    """Grade every submission (of the shard), write grades.csv, report.html and, last, the
    manifest a merge reads; returns the outcomes."""
    everyone = collect(paths)
    shard = options.shard
    submissions = [s for s in everyone if shard.holds(s.name)]
    if shard != WHOLE:
        options.progress(f"batch: shard {shard}: {len(submissions)} of {len(everyone)} submissions")
    forget(options.out)  # from here until the new manifest, OUT is no finished output
    started = time.monotonic()
    batch = Batch(submissions, options)
    graded = batch.run()
    wall = time.monotonic() - started
    finished = datetime.now(UTC)
    # A fixed count is what was asked; a count the batch chose is the most it reached.
    jobs_reported = options.jobs if options.least_jobs is None else max(batch.admission.peak, 1)
    write_outputs(
        options.out,
        graded,
        class_report.Figures(
            submissions=len(graded),
            regraded=sum(not g.reused for g in graded),
            jobs=jobs_reported,
            wall_seconds=wall,
            labs=options.labs,
            tool=tool_version(),
            finished=local_time(finished),
            part=f"샤드 {shard}: 학급 {len(everyone)}명 중 {len(graded)}명" if shard != WHOLE else "",
        ),
    )
    Manifest(
        shard=shard,
        labs=options.labs,
        tool=tool_version(),
        code_hash=code_hash(),
        fixtures=batch.fixtures_digest,
        sandbox=str(options.sandbox),
        scripts_root=str(options.scripts_root),
        roster=tuple(s.name for s in everyone),
        students={g.name: batch.keys[g.name] for g in graded},
        jobs=jobs_reported,
        regraded=sum(not g.reused for g in graded),
        wall_seconds=wall,
        finished=finished.isoformat(timespec="seconds"),
    ).write(options.out)
    return graded


def local_time(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def write_outputs(out: Path, graded: list[Graded], figures: class_report.Figures) -> None:
    """grades.csv and report.html of ``graded`` (in this order)."""
    write_atomic(out / GRADES, grades_csv(graded, figures.labs).encode(), mode=0o600)
    rows = [class_report.Row(g.name, g.status, g.results, g.note) for g in graded]
    write_atomic(out / REPORT, class_report.render(rows, figures).encode(), mode=0o600)
