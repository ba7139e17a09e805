"""Step 3: consume.py — claim by rename, isolate poison, store once, leave processing/ empty.

The state checks read the student's ledger; the behaviour checks re-run consume.py on fresh
randomised inboxes holding every class of message the lab names (grader/queue/edges.py), so
no hard-coded answer passes and a failure names the class it failed on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pytest

from fixtures.queue_messages import LOOKALIKE, QueueFile
from grader.machinery.runner import RunResult
from grader.queue import ledger
from grader.queue.edges import label, message_label
from grader.queue.lab import QueueLab
from grader.queue.queuedir import DIRS, counts_text, left_below
from grader.queue.scenarios import ConsumeRun, Rerun, TwoConsumers
from grader.verdict import Check

FALSY_HINT = (
    '0, 0.0, "" 은 값이 있는 것이지 누락이 아닙니다: `if not msg.get(f)` 대신 '
    "`msg.get(f) is None` 으로 없음·null 만 골라내세요."
)
BLANK_NAME_HINT = (
    "파일 이름에 공백·괄호가 있을 수 있습니다(`... (2).json`): 셸 명령줄(os.system, shell=True)로 "
    "옮기지 말고 os.rename 이나 shutil.move 에 경로를 그대로 넘기세요."
)
LOOKALIKE_HINT = (
    "중복은 msg_id 로만 판단합니다: order_no·seq·amount 가 모두 같아도 msg_id 가 다르면 다른 메시지이므로 "
    "행을 따로 남기세요(order_no·seq 에 UNIQUE 를 두지 마세요; 한 주문의 seq 중복은 6단계 "
    "order-check.sql 이 찾아낼 일입니다)."
)
NOT_OBJECT_HINT = (
    "JSON 으로 읽히더라도 객체(dict)가 아니면(배열, 문자열, 숫자, null, true) parse 실패로 error/ 에 "
    "보내세요: isinstance(msg, dict)."
)
NOT_UTF8_HINT = (
    "UTF-8 로 읽히지 않는 파일도 parse 실패입니다: json.JSONDecodeError 만이 아니라 "
    "UnicodeDecodeError 도 잡으세요(둘 다 ValueError)."
)
NULL_HINT = "값이 null 인 필수 필드는 없는 것과 같습니다(missing-field): msg.get(f) is None."


def _names(names: Iterable[str], limit: int = 4) -> str:
    shown = sorted(names)
    more = f" 외 {len(shown) - limit}개" if len(shown) > limit else ""
    return ", ".join(shown[:limit]) + more


def _where(observed: ConsumeRun, name: str) -> str:
    found = [f"{d}/" for d in DIRS if name in observed.after[d]]
    return ", ".join(found) or "어디에도 없음"


def _astray(observed: ConsumeRun) -> list[QueueFile]:
    """The files that did not end where they belong (alone in the right directory)."""
    return [
        f
        for f in observed.messages.files
        if f.name not in observed.after[f.ends_in]
        or any(f.name in observed.after[d] for d in DIRS if d != f.ends_in)
    ]


def _misplaced(observed: ConsumeRun) -> list[str]:
    """Every way the files did not end where they belong, naming each file's class."""
    after, problems = observed.after, []
    for d in ("inbox", "processing"):
        if after[d]:
            problems.append(f"{d}/ 에 {len(after[d])}개 남음")
    problems += [
        f"{f.name}({message_label(f.case)}) 이(가) {f.ends_in}/ 가 아니라 {_where(observed, f.name)}"
        for f in _astray(observed)
    ]
    return problems


def _invented(observed: ConsumeRun) -> list[str]:
    """Files in done/ or error/ that no message was (Q3.3: messages are moved, never made)."""
    if not (invented := sorted(observed.invented)):
        return []
    return [
        f"보낸 적 없는 파일 {len(invented)}개가 done/·error/ 에 생김({', '.join(invented[:3])}):"
        " 메시지 파일은 옮기기만 하고 새로 만들지 않습니다"
    ]


def _hint_for(observed: ConsumeRun, files: Iterable[QueueFile]) -> str | None:
    """A hint for the classes the consumer got wrong: files that ended in the wrong one of
    done/ and error/, or stuck in processing/ (where a crash leaves the file it died on).
    Files still in inbox/ were never looked at and say nothing, unless every one astray has a
    blank in its name (one moved through a shell command line unquoted stays where it was)."""
    files = list(files)
    if files and all(" " in f.name for f in files):
        return BLANK_NAME_HINT
    cases = {f.case for f in files if f.name not in observed.after["inbox"]}
    if any(c.startswith("falsy-") for c in cases):
        return FALSY_HINT
    if any(c.startswith("null-") for c in cases):
        return NULL_HINT
    if "parse-not-utf8" in cases:
        return NOT_UTF8_HINT
    if LOOKALIKE in cases:
        return LOOKALIKE_HINT
    if cases & {"parse-array", "parse-string", "parse-number", "parse-null", "parse-true"}:
        return NOT_OBJECT_HINT
    return None


def _expect_runs_ok(req: Check, runs: tuple[RunResult, ...], what: str) -> None:
    __tracebackhide__ = True
    for run in runs:
        req.expect_ran(run, what)


@pytest.mark.req("Q3.1")
def test_Q3_1_processed_table_with_unique_msg_id(req: Check, queue_lab: QueueLab) -> None:
    db = queue_lab.student_ledger()
    req.needs(db, queue_lab.shown("ledger.db"))
    problem = ledger.problem(db)
    req.expect(
        problem is None,
        f"{queue_lab.shown('ledger.db')}: {problem}",
        hint="ledger.db 는 consume.py 가 sqlite3.connect 로 만드는 SQLite 데이터베이스여야 합니다. "
        "잘못 만든 파일이면 지우고 consume.py 를 다시 돌리세요.",
    )
    cols = ledger.columns(db)
    req.expect(bool(cols), "ledger.db 에 processed 테이블이 없음")
    missing = [c for c in ledger.COLUMNS if c not in cols]
    req.expect(not missing, f"processed 에 없는 컬럼: {', '.join(missing)}")
    unique = ledger.unique_problem(db)
    req.expect(unique is None, str(unique))


@pytest.mark.req("Q3.2")
def test_Q3_2_processing_is_empty(req: Check, queue_lab: QueueLab) -> None:
    processing = queue_lab.saved / "processing"
    req.needs(processing, queue_lab.shown("processing"))
    # A consumer's own (empty) subfolder is no message left behind; a file in it is.
    left = left_below(processing)
    req.expect(not left, f"processing/ 에 {len(left)}개 남음: {_names(left)}")


@pytest.mark.req("Q3.3")
def test_Q3_3_valid_to_done_poison_to_error(req: Check, fresh_run: Rerun) -> None:
    req.expect_ran(fresh_run.empty, "빈 inbox 에서 돌린 consume.py")
    first = fresh_run.first
    problems = [f"consume.py 가 {r.describe()}" for r in first.runs if not r.ok]
    problems += _misplaced(first) + _invented(first)
    req.expect(
        not problems,
        f"메시지 {len(first.messages.files)}개(모든 종류: 0·빈 문자열, 파싱 실패, 객체 아닌 JSON, 필드 누락, "
        "null, 중복)를 처리한 뒤: " + "; ".join(problems[:6]) + f" [{counts_text(first.after)}]",
        hint=_hint_for(first, _astray(first)),
        run=first.runs[0],
    )
    # A poison is a poison whatever its msg_id: a last run gets two that carry processed ids.
    known = fresh_run.known_ids
    astray = [f for f in _astray(known) if f.name not in known.after["inbox"]]
    req.expect(
        not astray,
        "앞선 실행의 상태가 남은 채 이미 처리한 msg_id 를 단 필드 누락 메시지를 처리한 뒤: "
        + "; ".join(
            f"{f.name}({message_label(f.case)}) 이(가) error/ 가 아니라 {_where(known, f.name)}"
            for f in astray
        ),
        hint="필수 필드 검사를 msg_id 중복 확인보다 먼저 하세요: 필드가 없거나 null 인 메시지는 그 msg_id 가 "
        "이미 처리된 것이어도 중복이 아니라 missing-field 로 error/ 에 갑니다.",
        run=known.runs[0],
    )


@pytest.mark.req("Q3.4")
def test_Q3_4_files_pass_through_processing(req: Check, fresh_run: Rerun) -> None:
    first = fresh_run.first
    travel = first.travel
    assert travel is not None
    req.expect(
        not travel.overflow,
        "파일 이동이 너무 많아(1초에 수만 번) 관찰할 수 없음: 같은 파일을 계속 옮기고 있지 않나요?",
        hint=None,
    )
    moved = [name for name, hops in travel.hops.items() if len(hops) > 1]
    req.expect(bool(moved), "inbox 에서 옮겨진 파일이 하나도 없음", run=first.runs[0])
    cases = {f.name: message_label(f.case) for f in first.messages.files}
    skipped = travel.skipped_processing()
    req.expect(
        not skipped,
        f"processing/ 으로 옮기지 않고 처리된 파일 {len(skipped)}개: "
        + "; ".join(f"{n}({cases.get(n, '?')}): {' → '.join(travel.hops[n])}" for n in skipped[:3])
        + (" (복사 후 삭제는 원자적 이동이 아님)" if travel.copied & set(skipped) else ""),
    )
    read_first = sorted(travel.opened_in_inbox)
    req.expect(
        not read_first,
        f"processing/ 으로 옮기기 전에 inbox 에서 연 파일 {len(read_first)}개: {_names(read_first)}",
    )


@pytest.mark.req("Q3.5")
def test_Q3_5_rows_equal_valid_messages(req: Check, fresh_run: Rerun) -> None:
    first = fresh_run.first
    req.expect(first.rows is not None, first.rows_error, run=first.runs[0])
    assert first.rows is not None
    bodies = first.messages.bodies  # msg_id -> every body sent under it (copies may differ)
    case_of = {
        str(f.message["msg_id"]): f.case for f in first.messages.files if f.message and f.kind == "valid"
    }
    got = {r.msg_id: r for r in first.rows}
    missing, extra = sorted(bodies.keys() - got.keys()), sorted(got.keys() - bodies.keys())

    def shown(ids: list[str]) -> str:
        return ", ".join(f"{i}({message_label(case_of.get(i, ''))})" for i in ids[:4]) + (
            f" 외 {len(ids) - 4}건" if len(ids) > 4 else ""
        )

    parts = [f"없는 msg_id {len(missing)}건: {shown(missing)}"] if missing else []
    parts += [f"메시지에 없는 msg_id {len(extra)}건: {_names(extra)}"] if extra else []
    req.expect(
        not missing and not extra,
        f"정상 메시지 {len(bodies)}건, 행 {len(first.rows)}개; " + "; ".join(parts),
        hint=_hint_for(
            first, [f for f in first.messages.files if f.message and str(f.message["msg_id"]) in missing]
        ),
    )
    doubled = sorted(i for i, n in Counter(r.msg_id for r in first.rows).items() if n > 1)
    req.expect(not doubled, f"같은 msg_id 가 여러 행: {_names(doubled)}")
    wrong = [i for i, sent in bodies.items() if not any(_same(got[i], m) for m in sent)]
    req.expect(
        not wrong,
        f"값이 메시지와 다른 행 {len(wrong)}개: "
        + "; ".join(
            f"[{message_label(case_of.get(i, ''))}] {_show(got[i], bodies[i][0])}" for i in wrong[:3]
        ),
    )


def _same(row: ledger.Row, message: object) -> bool:
    """The row holds the message's order_no, and its seq and amount as numbers (whatever the
    column's type), with a processed_at."""
    assert isinstance(message, dict)

    def num(value: object) -> float | None:
        try:
            return float(str(value))
        except ValueError:
            return None

    return (
        str(row.order_no) == str(message["order_no"])
        and num(row.seq) == num(message["seq"])
        and num(row.amount) == num(message["amount"])
        and row.processed_at is not None
        and str(row.processed_at).strip() != ""
    )


def _show(row: ledger.Row, message: object) -> str:
    assert isinstance(message, dict)
    return (
        f"{row.msg_id}: 행 ({row.order_no!r}, {row.seq!r}, {row.amount!r}, {row.processed_at!r}) / "
        f"메시지 ({message['order_no']!r}, {message['seq']!r}, {message['amount']!r})"
    )


def _expect_constraint_kept(req: Check, left: Iterable[tuple[str, bool | None]]) -> None:
    """Every ledger a consume.py run left still has its constraint on msg_id ("a constraint,
    not luck"): dropped in some runs, duplicates are kept out there by luck or by a SELECT."""
    __tracebackhide__ = True
    lost = [what for what, unique in left if unique is False]
    req.expect(
        not lost,
        "consume.py 가 돌고 난 원장의 processed 에서 msg_id 의 PRIMARY KEY/UNIQUE 제약이 사라짐: "
        + ", ".join(lost),
        hint="중복은 DB 제약이 거르게 하세요(CREATE TABLE IF NOT EXISTS 로 제약을 지키고, 테이블을 "
        "제약 없이 다시 만들거나 지우지 마세요).",
    )


@pytest.mark.req("Q3.6")
def test_Q3_6_rerun_adds_no_row(req: Check, fresh_run: Rerun) -> None:
    rerun = fresh_run
    _expect_runs_ok(
        req, rerun.again.runs, "앞선 실행의 상태가 남은 채 같은 메시지를 다시 넣고 돌린 consume.py"
    )
    before, after = rerun.first.rows, rerun.again.rows
    req.expect(before is not None and after is not None, rerun.again.rows_error or rerun.first.rows_error)
    assert before is not None and after is not None
    lost = sorted({r.msg_id for r in before} - {r.msg_id for r in after})
    req.expect(
        not lost, f"다시 돌린 뒤 앞선 실행의 행 {len(lost)}개가 사라짐(장부를 비우고 있나요?): {_names(lost)}"
    )
    req.expect(
        len(after) == len(before),
        f"이미 처리한 메시지 {len(rerun.again.messages.files)}개를 다시 넣고 처리하자 행이 "
        f"{len(before)} → {len(after)}개",
    )
    again = rerun.again
    left = sorted(again.messages.names - again.after["done"])
    req.expect(not left, f"다시 넣은 (중복) 메시지가 done/ 에 없음: {_names(left)}")
    # Two of them came under the names done/ already holds: wherever the student's final
    # move puts such a file, it may not stay behind or count as a poison.
    same = again.messages.names & rerun.first.messages.names
    astray = sorted(f"{n}({d}/)" for d in ("inbox", "processing", "error") for n in same & again.after[d])
    req.expect(
        not astray,
        f"[{label('Q3.6', 'again-same-name')}] 이미 done/ 에 있는 이름으로 다시 넣은 정상 메시지가 "
        f"done/ 로 가지 않음: {', '.join(astray)}",
        hint="done/ 에 같은 이름이 있어도 옮길 수 있어야 합니다: os.rename(src, done/이름) 은 덮어쓰지만 "
        "shutil.move(src, done_디렉터리) 와 mv -n 은 그러지 않습니다.",
    )
    _expect_constraint_kept(
        req,
        [
            (f"메시지 {len(rerun.first.messages.files)}개로 처음 돌린 뒤", rerun.first.unique),
            ("같은 메시지를 다시 넣고 돌린 뒤", rerun.again.unique),
            ("처리한 msg_id 를 단 독약 메시지로 돌린 뒤", rerun.known_ids.unique),
        ],
    )


@pytest.mark.req("Q3.7")
def test_Q3_7_two_consumers_at_once(req: Check, two_consumers: TwoConsumers) -> None:
    both = two_consumers
    race, crowd = both.race, both.crowd
    how = "잠금 앞에서 둘 다 기다리게 한 뒤 동시에 풀어 줌" if race.contended else "동시에 실행"
    _expect_runs_ok(req, race.runs, f"같은 msg_id 의 사본을 하나씩 쥔 두 consume.py({how})")
    doubled = sorted(i for i, n in race.rows_per_id.items() if n > 1)
    req.expect(
        not doubled,
        f"같은 msg_id 의 사본을 하나씩 쥔 두 소비자({how})가 둘 다 넣어 행이 두 개: {_names(doubled)}",
    )
    earlier = both.earlier
    n_before = len(earlier.messages.files)
    before = f"두 consume.py 를 동시에 돌리기 전, 메시지 {n_before}개로 먼저 한 번 돌린 consume.py"
    _expect_runs_ok(req, earlier.runs, before)
    what = (
        f"앞선 실행의 행 {len(earlier.messages.messages)}개가 있는 원장에서, 메시지 "
        f"{len(crowd.messages.files)}개(중복·파싱 실패·필드 누락 포함)에 동시에 돌린 두 consume.py"
    )
    _expect_runs_ok(req, crowd.runs, what)
    problems = _misplaced(crowd)
    req.expect(not problems, f"{what}: " + "; ".join(problems[:6]) + f" [{counts_text(crowd.after)}]")
    req.expect(crowd.rows is not None, crowd.rows_error)
    assert crowd.rows is not None
    ids = [r.msg_id for r in crowd.rows]
    kept = {r.msg_id for r in earlier.rows or []} & earlier.messages.messages.keys()
    lost = sorted(kept - set(ids))
    req.expect(
        not lost,
        f"{what}: 먼저 처리되어 원장에 있던 행 {len(lost)}/{len(kept)}개가 사라짐: {_names(lost)}",
        hint="시작할 때 processed 를 비우거나 다시 만들면, 함께 도는 소비자가 넣은 행까지 지워집니다.",
    )
    expected = crowd.messages.messages.keys() | earlier.messages.messages.keys()
    req.expect(
        len(ids) == len(set(ids)) == len(expected) and set(ids) == expected,
        f"{what}: 행 {len(ids)}개(고유 msg_id {len(set(ids))}개), 기대 {len(expected)}개",
    )
    _expect_constraint_kept(
        req,
        [
            (f"같은 msg_id 의 사본을 하나씩 쥔 두 consume.py({how}) 뒤", race.unique),
            (f"메시지 {len(earlier.messages.files)}개로 먼저 한 번 돌린 뒤", earlier.unique),
            (f"메시지 {len(crowd.messages.files)}개에 두 consume.py 를 동시에 돌린 뒤", crowd.unique),
        ],
    )


@pytest.mark.req("Q3.8")
def test_Q3_8_poison_does_not_loop(req: Check, fresh_run: Rerun) -> None:
    first = fresh_run.first
    run = first.runs[0]
    req.expect(not run.timed_out, f"consume.py 가 {run.describe()}: 독약 메시지를 계속 돌리나요?", run=run)
    poison = {f.name: f for f in first.messages.files if f.ends_in == "error"}
    looped = sorted(set(poison) & set(first.travel.sent_back_to_inbox() if first.travel else []))
    req.expect(
        not looped,
        "독약 메시지를 inbox 로 되돌림: "
        + ", ".join(f"{n}({message_label(poison[n].case)})" for n in looped[:4]),
    )
    stranded = sorted(set(poison) - first.after["error"])
    req.expect(
        not stranded,
        f"error/ 에 없는 독약 메시지 {len(stranded)}/{len(poison)}개: "
        + ", ".join(f"{n}({message_label(poison[n].case)}, {_where(first, n)})" for n in stranded[:4]),
        hint=_hint_for(first, (poison[n] for n in stranded)),
    )
