"""The grader's own child processes: looked at without reaping them, signalled only while
their number is still theirs.

A process's id (and, for one started in a session of its own, its process group's id) stays its
own until its parent reaps it; from then on the number is free, and on a busy machine (pid_max
is 32768 here, a grade starts hundreds of processes, a class several grades at once) the kernel
hands it to another process within a minute or two. A kill aimed by number at a child reaped
earlier may then kill a stranger: a process of another grade, a classmate's box. So a child is
never reaped before the grader is done signalling it: ``ended`` asks without reaping (waitid
with WNOWAIT: an ended child stays a zombie that holds its number), and ``signal_group`` signals
a child's group only while the child is unreaped (a zombie leader keeps its group's id
reserved, whatever members the group still has).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from typing import Any


def ended(child: subprocess.Popen[Any]) -> bool:
    """Whether ``child`` has ended, without reaping it (its number stays its own)."""
    if child.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # reaped by another thread's wait meanwhile
        return True


def signal_group(child: subprocess.Popen[Any], signum: int) -> None:
    """Signal the process group ``child`` leads (started with start_new_session), unless the
    child is reaped already: then its group's id may be somebody else's."""
    if child.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, signum)
