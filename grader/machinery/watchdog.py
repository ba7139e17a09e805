"""What a process started, ended when that process ends however it ends (SIGKILL included).

A batch starts graders in sessions of their own (each restores its lab root on SIGTERM) and a
RabbitMQ node for the class; killed with SIGKILL, it could stop none of them (red team 26 found
a class node still running hours later). ``Watchdog`` starts this file as a program beside
it, never imported there:

    python -I watchdog.py REPO GRACE

and tells it, one JSON object a line on its standard input, what to end should the input end
before it is told otherwise:

    {"add": "group", "pid": PID, "state": DIR, "lab_root": DIR}
                        a grader's process group (PID: its leader): SIGTERM, GRACE seconds, then
                        SIGKILL; then what a grader killed mid-run leaves (its scripts' mounts,
                        control groups, working copies) is undone from its state dir, as the
                        next grader of that lab root would (rundir.recover)
    {"add": "node", "path": BASE}      a private RabbitMQ node started in BASE (nodes.stop_node)
    {"add": "folder", "path": PATH}    a folder of the process's own, removed last
    {"drop": KIND, ...the same key}    that one needs nothing more

The end of its input is the end of the process that holds the pipe's other end (nothing else
holds it: subprocess closes every other descriptor in the processes it starts). Whatever is
still named then is ended: groups first, nodes next, folders last. The program runs in a
session of its own and ignores SIGINT, so a Ctrl-C meant for the batch does not reach it.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

KILLED = 10.0  # seconds for a SIGKILLed leader to be gone (its locks let go) before its recovery


class Watchdog:
    """The watching program, and the lines that tell it what to end (see the module's text)."""

    def __init__(self, grace: float) -> None:
        """``grace``: the seconds a SIGTERMed group has before SIGKILL."""
        from grader.machinery.environ import environment  # here: the program itself has no path yet

        repo = Path(__file__).resolve().parents[2]
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-B", __file__, str(repo), str(grace)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            env=environment(),  # never the live environ (tests/test_child_environment.py)
            start_new_session=True,
        )

    def _say(self, **line: object) -> None:
        stdin = self._proc.stdin
        assert stdin is not None
        with contextlib.suppress(BrokenPipeError):  # the watchdog is gone: nothing to add
            stdin.write(json.dumps(line).encode() + b"\n")  # one write: threads share the pipe
            stdin.flush()

    def guard_group(self, pid: int, state: Path, lab_root: Path) -> None:
        """A grader's process group, and what its recovery needs."""
        self._say(add="group", pid=pid, state=str(state), lab_root=str(lab_root))

    def release_group(self, pid: int) -> None:
        self._say(drop="group", pid=pid)

    def guard_node(self, base: Path) -> None:
        self._say(add="node", path=str(base))

    def release_node(self, base: Path) -> None:
        self._say(drop="node", path=str(base))

    def guard_folder(self, path: Path) -> None:
        self._say(add="folder", path=str(path))

    def release_folder(self, path: Path) -> None:
        self._say(drop="folder", path=str(path))

    def close(self) -> None:
        """End the watching: what is still named is ended now (nothing, when all went well)."""
        if self._proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self._proc.stdin.close()
        self._proc.wait()

    def __enter__(self) -> Watchdog:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


# The program -------------------------------------------------------------------------------


def _end_groups(groups: dict[int, int], grace: float) -> None:
    """SIGTERM every group whose leader still runs (its pidfd not readable), then SIGKILL the
    ones still there when the shared grace is over, and wait for those to be gone: a leader's
    locks (its lab root's) must be let go before its recovery. ``groups``: leader pid -> pidfd."""
    alive = {pid: fd for pid, fd in groups.items() if not select.select([fd], [], [], 0)[0]}
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, KILLED)):
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, sig)
        deadline = time.monotonic() + wait
        while alive and (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select(list(alive.values()), [], [], left)
            alive = {pid: fd for pid, fd in alive.items() if fd not in ready}


def main(repo: str, grace: float) -> None:
    sys.path.insert(0, repo)
    from grader.machinery.nodes import stop_node
    from grader.machinery.rundir import recover
    from grader.machinery.treecopy import remove_tree

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    groups: dict[int, tuple[int, Path, Path]] = {}  # leader pid -> pidfd, state dir, lab root
    paths: dict[str, list[str]] = {"node": [], "folder": []}
    for raw in sys.stdin.buffer:
        line = json.loads(raw)
        if line.get("add") == "group":
            with contextlib.suppress(ProcessLookupError):  # ended already
                fd = os.pidfd_open(line["pid"])
                groups[line["pid"]] = (fd, Path(line["state"]), Path(line["lab_root"]))
        elif line.get("drop") == "group" and line["pid"] in groups:
            os.close(groups.pop(line["pid"])[0])
        elif line.get("add") in paths:
            paths[line["add"]].append(line["path"])
        elif line.get("drop") in paths:
            with contextlib.suppress(ValueError):
                paths[line["drop"]].remove(line["path"])
    _end_groups({pid: fd for pid, (fd, _, _) in groups.items()}, grace)
    for _, state, lab_root in groups.values():
        with contextlib.suppress(Exception):  # refused (rundir's own word): the node comes next
            recover(state, lab_root)  # undoes what the killed grader left
    for base in paths["node"]:
        stop_node(Path(base))
    for path in paths["folder"]:
        remove_tree(Path(path))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
