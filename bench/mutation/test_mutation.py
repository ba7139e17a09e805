"""Checks of the benchmark's own parts (no grader run): `pytest bench/mutation`."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from .confirm import confirm
from .explain import Explanation
from .mutant import FLAKY, Mutant, changed_lines, from_unified_diff
from .ops import mutants_of
from .verdict import ERROR, KILLED, SEED_DEPENDENT, SURVIVED, Run, Verdict, combine, read_results

REPO = Path(__file__).resolve().parents[2]


def _changes(name: str, text: str) -> set[tuple[str, tuple[str, ...]]]:
    return {(m.operator, changed_lines(text, m.text)[2]) for m in mutants_of(name, text)}


@pytest.mark.parametrize("name", ["order-check.sql", "lag.sh", "replay.sh", "schema.csv"])
def test_every_mutant_of_a_reference_file_is_distinct_and_changed(name: str) -> None:
    text = (REPO / "solutions/queue" / name).read_text()
    found = mutants_of(name, text)
    assert found and all(m.text != text for m in found)
    assert len({m.text for m in found}) == len(found)


def test_sql_clauses_are_dropped_within_their_parentheses() -> None:
    sql = "SELECT a, LAG(seq) OVER (PARTITION BY o ORDER BY seq) FROM t WHERE x > 1 AND y = 2;"
    changes = _changes("q.sql", sql)
    assert (
        "sql/drop-clause",
        ("SELECT a, LAG(seq) OVER ( ORDER BY seq) FROM t WHERE x > 1 AND y = 2;",),
    ) in changes
    assert ("sql/drop-clause", ("SELECT a, LAG(seq) OVER (PARTITION BY o ORDER BY seq) FROM t ;",)) in changes
    assert (
        "sql/drop-condition",
        ("SELECT a, LAG(seq) OVER (PARTITION BY o ORDER BY seq) FROM t WHERE y = 2;",),
    ) in changes
    assert (
        "sql/as-text",
        (
            "SELECT a, LAG(seq) OVER (PARTITION BY o ORDER BY CAST(seq AS TEXT)) "
            "FROM t WHERE x > 1 AND y = 2;",
        ),
    ) in changes


def test_sql_group_by_having_and_join_are_dropped() -> None:
    sql = "SELECT o FROM t JOIN u ON u.k = t.k AND u.z = 1 GROUP BY o HAVING COUNT(*) > 1 ORDER BY o;"
    dropped = {added[0] for op, added in _changes("q.sql", sql) if op == "sql/drop-clause"}
    assert dropped == {
        "SELECT o FROM t  GROUP BY o HAVING COUNT(*) > 1 ORDER BY o;",
        "SELECT o FROM t JOIN u ON u.k = t.k AND u.z = 1  HAVING COUNT(*) > 1 ORDER BY o;",
        "SELECT o FROM t JOIN u ON u.k = t.k AND u.z = 1 GROUP BY o  ORDER BY o;",
        "SELECT o FROM t JOIN u ON u.k = t.k AND u.z = 1 GROUP BY o HAVING COUNT(*) > 1 ;",
    }


def test_shell_exits_mv_and_guards() -> None:
    script = (
        'case $1 in\n    "" | */*) exit 2 ;;\nesac\n[ -f "$x" ] || exit 1\n'
        'mv "$x" "$y" && echo moved\n[ "$n" -le "$t" ] || exit 2\n'
    )
    changes = _changes("s.sh", script)
    assert ("sh/drop-mv", ("echo moved",)) in changes
    assert ("sh/drop-mv", ('cp "$x" "$y" && echo moved',)) in changes
    assert ("sh/drop-exit", ('[ -f "$x" ]',)) in changes
    assert ("sh/exit-code", ('[ -f "$x" ] || exit 0',)) in changes
    assert ("sh/drop-case-guard", ("*/*) exit 2 ;;",)) in changes
    assert ("sh/drop-case-guard", ()) in changes  # the whole case ... esac
    assert ("sh/flip-test", ('[ "$n" -lt "$t" ] || exit 2',)) in changes
    assert ("sh/as-text", ('[[ ! "$n" > "$t" ]] || exit 2',)) in changes


def test_an_explanation_matches_by_snippets_not_line_numbers() -> None:
    mutant = Mutant("solutions/x.py", "core/NumberReplacer", 40, ("x  =  1",), ("x  =  2",), SURVIVED)
    assert Explanation("solutions/x.py", "core/NumberReplacer", "x = 1", "= 2", "equivalent", "r").matches(
        mutant
    )
    assert not Explanation("solutions/x.py", "core/NumberReplacer", "x = 1", "= 0", "outside", "r").matches(
        mutant
    )


def test_a_unified_diff_gives_the_changed_line() -> None:
    diff = "--- mutation diff ---\n--- aa\n+++ bb\n@@ -7,3 +7,3 @@\n a\n-b = 1\n+b = 2\n c\n"
    assert from_unified_diff(diff) == (8, ("b = 1",), ("b = 2",))


def test_errors_and_timeouts_are_never_kills(tmp_path: Path) -> None:
    results = tmp_path / "r.json"
    results.write_text(
        json.dumps(
            {
                "tests": [
                    {"number": "Q1.1", "extra_data": {"outcome": "failed"}, "output": "x"},
                    {"number": "Q1.2", "extra_data": {"outcome": "error"}, "output": "y"},
                ]
            }
        )
    )
    assert read_results(results, 1)[0] == ERROR
    assert read_results(tmp_path / "missing.json", 1)[0] == ERROR
    assert combine([Run(1, KILLED), Run(2, "timeout")]) == "timeout"
    assert combine([Run(1, KILLED), Run(2, SURVIVED)]) == SEED_DEPENDENT
    assert combine([Run(1, KILLED), Run(2, KILLED)]) == KILLED


def test_a_verdict_line_round_trips() -> None:
    verdict = Verdict(KILLED, (Run(3, KILLED, ("M4.1",), (), 1, 2.5, "관찰"),))
    assert Verdict.from_output("noise\n" + verdict.to_line() + "\n") == verdict


def test_a_thin_kill_not_repeated_is_flaky() -> None:
    thin = Mutant("f", "op", 1, ("a",), ("b",), KILLED, ("M7.1",))
    broad = Mutant("f", "op", 2, ("a",), ("b",), KILLED, ("M4.1", "M4.2", "M5.1"))
    survived = Verdict(SURVIVED, (Run(1, SURVIVED),))
    out = confirm([thin, broad], lambda m: survived, threading.Event())
    assert [m.status for m in out] == [FLAKY, KILLED]
    killed = Verdict(KILLED, (Run(1, KILLED, ("M7.1",)),))
    assert confirm([thin], lambda m: killed, threading.Event())[0].status == KILLED
