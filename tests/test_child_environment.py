"""Every process the grader starts gets an environment of its own (``env=``).

Without one, a child started by vfork (what subprocess uses on Linux) execs with the process's
``environ`` array itself, while another thread may be reallocating it: pytest's main thread sets
PYTEST_CURRENT_TEST at every phase of every check while scenario threads start scripts. The exec
then fails with EFAULT (``[Errno 14] Bad address``). Measured here with one thread changing
os.environ and another running /bin/true 2,000 times: 754 failures inheriting the environment,
none with an ``env`` of its own. CI met it once as a harness error ("the script namespace did
not start: [Errno 14] Bad address: '/usr/bin/bwrap'").

Read from the source (ast): a call added later without ``env=`` fails here, not in one CI run
out of many.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STARTS = {"Popen", "run", "call", "check_call", "check_output"}  # subprocess's ways to start one


def _starts_without_env(source: str) -> list[int]:
    """Lines of ``subprocess.X(...)`` calls that start a process with no ``env=``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        target = node.func.value
        starts = node.func.attr in STARTS and isinstance(target, ast.Name) and target.id == "subprocess"
        if starts and not any(k.arg == "env" for k in node.keywords):
            lines.append(node.lineno)
    return lines


def test_every_child_of_the_grader_gets_its_own_environment() -> None:
    found = {
        str(path.relative_to(REPO)): lines
        for path in sorted((REPO / "grader").rglob("*.py"))
        if (lines := _starts_without_env(path.read_text()))
    }
    assert not found, f"processes started with the process's own environ (pass env=...): {found}"


def test_the_check_sees_a_start_without_env() -> None:
    assert _starts_without_env("import subprocess\nsubprocess.run(['true'])\n") == [2]
    assert _starts_without_env("import subprocess\nsubprocess.run(['true'], env={})\n") == []
