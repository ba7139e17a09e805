"""Claim partners forked from one process that has loaded partner.py (the grader's own copy).

    python -I -S partner_forks.py PATH/TO/partner.py

Each partner is a process of its own serving one claim system, as ``partner.py claim --port 0``
would, at a fork's cost (a few ms of CPU) instead of an interpreter's start and imports (~40 ms;
an mq grade starts one for each of its ~13 scenes). Run by grader/machinery/partner.py; it needs
nothing but the standard library. One line in on standard input, one answer line out:

    start TOKEN    {"pid": PID, "url": "http://127.0.0.1:PORT"}  (its statistics and controls
                   answer only TOKEN), or {"error": WHY}
    stop PID       {"stopped": PID}: killed (SIGKILL) and reaped, with every connection it held

At the end of standard input (the grader gone, however it went) every partner is killed; each
partner is also killed by the kernel when this process ends (PR_SET_PDEATHSIG). This file runs
on its own, never imported by the grader.
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import signal
import sys
from types import ModuleType

PR_SET_PDEATHSIG = 1


def _load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("partner", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"partner_forks: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["partner"] = module
    spec.loader.exec_module(module)
    return module


def _serve(partner: ModuleType, token: str, ready: int, parent: int) -> None:
    """The partner's own life (in the forked child): never returns."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent ended before the line above took effect
        os._exit(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # the grader's requests are the parent's alone
    os.dup2(null, 1)  # and so are the answers
    os.environ["PARTNER_CONTROL_TOKEN"] = token
    server = partner.PartnerServer(("127.0.0.1", 0), False)
    host, port = server.server_address[:2]
    os.write(ready, json.dumps({"pid": os.getpid(), "url": f"http://{host}:{port}"}).encode())
    os.close(ready)
    server.serve_forever()
    os._exit(0)


def _start(partner: ModuleType, token: str, children: set[int]) -> dict[str, object]:
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(ready_r)
        try:
            _serve(partner, token, ready_w, os.getppid())
        finally:
            os._exit(1)
    os.close(ready_w)
    children.add(pid)
    said = bytearray()
    while chunk := os.read(ready_r, 4096):  # until the child has said where, or ended
        said += chunk
    os.close(ready_r)
    if said:
        answer: dict[str, object] = json.loads(said)
        return answer
    _stop(pid, children)
    return {"error": f"partner {pid} ended before it listened"}


def _stop(pid: int, children: set[int]) -> None:
    if pid in children:  # ours and not reaped yet: the pid cannot be anybody else's
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        children.discard(pid)


def _reap(children: set[int]) -> None:
    """Reap partners that ended by themselves (they should not: a crash)."""
    for pid in list(children):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            children.discard(pid)


def main() -> int:
    partner = _load(sys.argv[1])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is the grader's to handle
    children: set[int] = set()
    for line in sys.stdin:
        what, _, argument = line.strip().partition(" ")
        if what == "start":
            answer = _start(partner, argument, children)
        elif what == "stop" and argument.isdigit():
            _stop(int(argument), children)
            answer = {"stopped": int(argument)}
        else:
            answer = {"error": f"unknown request: {line.strip()[:80]}"}
        _reap(children)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    for pid in list(children):
        _stop(pid, children)
    return 0


if __name__ == "__main__":
    sys.exit(main())
