"""Step 8: replay.sh FILENAME moves error/FILENAME back to inbox/ and nothing else, ever.

Every run tries names to move (plain, with a space, an empty file, CRLF line ends, bytes that
are not UTF-8), names not in error/ (in done/, inbox/, processing/, nowhere) and hostile names
(paths, empty, ., .., a directory, a glob, blanks); a failure names the case.
"""

from __future__ import annotations

import pytest

from grader.queue.edges import label
from grader.queue.scenarios import ReplayRun
from grader.verdict import Check

BYTES_HINT = "파일은 글자로 읽어 다시 쓰지 말고 그대로 옮기세요: mv 나 os.rename(줄끝·인코딩이 바뀌지 않게)."
_BYTES_HINTS = {"crlf-file": BYTES_HINT, "not-utf8-file": BYTES_HINT}
QUOTE_HINT = '변수는 늘 따옴표로 감싸세요: mv "$Q/error/$1" "$Q/inbox/" (공백이나 * 가 든 이름).'


def _changes(run: ReplayRun, against: dict[str, str]) -> str:
    gone = sorted(against.keys() - run.after.keys())
    new = sorted(run.after.keys() - against.keys())
    changed = sorted(k for k in against.keys() & run.after.keys() if against[k] != run.after[k])
    parts = [
        f"사라짐 {gone[:3]}" if gone else "",
        f"생김 {new[:3]}" if new else "",
        f"내용 바뀜 {changed[:3]}" if changed else "",
    ]
    return ", ".join(p for p in parts if p) or "변화 없음"


def _shown(run: ReplayRun) -> str:
    return f"[{label(run.case.rid, run.case.key)}] replay.sh {run.case.argument!r}"


def _refused(req: Check, run: ReplayRun, hint: str | None = None) -> None:
    __tracebackhide__ = True
    req.expect(
        not run.run.timed_out and run.run.returncode != 0,
        f"{_shown(run)}: {run.run.describe()} (기대: 0 이 아닌 코드)",
        run=run.run,
    )
    req.expect(
        run.after == run.before and run.outside_intact,
        f"{_shown(run)} 뒤 큐가 바뀜: {_changes(run, run.before)}"
        + ("" if run.outside_intact else "; 큐 밖의 파일이 옮겨짐"),
        hint=hint,
        run=run.run,
    )


def _of(runs: list[ReplayRun], rid: str) -> list[ReplayRun]:
    return [r for r in runs if r.case.rid == rid]


@pytest.mark.req("Q8.1")
def test_Q8_1_moves_the_file_back_unchanged(req: Check, replay_runs: list[ReplayRun]) -> None:
    for run in _of(replay_runs, "Q8.1"):
        req.expect_ran(run.run, _shown(run))
        req.expect(
            run.after == run.expected,
            f"{_shown(run)} 뒤: {_changes(run, run.before)} (기대: error/ → inbox/ 한 파일만, 내용 그대로)",
            hint=QUOTE_HINT if " " in run.case.argument else _BYTES_HINTS.get(run.case.key),
            run=run.run,
        )


@pytest.mark.req("Q8.2")
def test_Q8_2_refuses_a_name_not_in_error(req: Check, replay_runs: list[ReplayRun]) -> None:
    for run in _of(replay_runs, "Q8.2"):
        _refused(req, run)


@pytest.mark.req("Q8.3")
def test_Q8_3_refuses_hostile_names(req: Check, replay_runs: list[ReplayRun]) -> None:
    for run in _of(replay_runs, "Q8.3"):
        _refused(req, run, hint=QUOTE_HINT if run.case.key in ("glob", "two-names") else None)
