"""The claim partner stub (the fixture's own partner.py) as a process the grader controls."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from grader.machinery import children
from grader.machinery.environ import environment, http_session
from grader.machinery.runner import OwnProcess

# The grader's own partner.py (the fixture builder's copy): never the one in a fixture tree a
# student could have edited. It runs on the host as the grader's process, with a token that
# keeps its statistics and controls from the scripts, which only ever POST claims.
PARTNER = Path(str(resources.files("fixtures") / "files" / "partner.py"))
FORKS = Path(__file__).with_name("partner_forks.py")
ANSWER_WAIT = 15.0  # for partner_forks.py to answer a request (a fork, a bind: milliseconds)

LISTENING = re.compile(r"listening on (http://[\d.]+:\d+)")
# A wait_for asks the partner again when its statistics change, and at least this often (the
# condition may also look at something else: whether the consumer still runs, say).
NUDGE = 0.25


class Partner:
    """One partner.py process on a free port, with its statistics and controls: started as
    ``partner.py claim``, or forked by ``forks`` (the same code, loaded once)."""

    def __init__(self, script: Path = PARTNER, forks: PartnerForks | None = None) -> None:
        self._http = http_session()
        self._token = secrets.token_hex(16)
        self._http.headers["X-Partner-Token"] = self._token
        if forks is not None:
            pid, self.url = forks.start(self._token)
            self._end: Callable[[], object] = lambda: forks.stop(pid)
            return
        # Port 0: the partner binds a free port itself and says which (no race for a port).
        process = OwnProcess(
            [sys.executable, "-I", "-B", str(script), "claim", "--port", "0", "--until-stdin-closes"],
            cwd=script.parent,
            env=environment(PARTNER_CONTROL_TOKEN=self._token),
        )
        deadline = time.monotonic() + 15
        while not (said := LISTENING.search(process.stdout_so_far())):
            if not process.running() or time.monotonic() > deadline:
                result = process.kill()
                raise RuntimeError(f"partner.py did not start: {result.tail()}")
            time.sleep(0.02)
        self.url = said.group(1)
        self._end = process.kill

    def stats(self, since: int | None = None, wait: float = 0.0, bodies: bool = False) -> dict[str, Any]:
        """The statistics; with ``since`` (a "version" it answered), once they changed from
        that version or ``wait`` seconds passed. The calls' bodies only with ``bodies``: a
        script may have POSTed megabytes of them, which the partner's ASCII JSON makes six
        times as many bytes (red team 25: 16 MiB asked for at each change grew a grader to
        1.45 GB)."""
        query = "" if since is None else f"&since={since}&wait={wait:.3f}"
        query = f"?bodies={int(bodies)}{query}"
        response = self._http.get(f"{self.url}/_stats{query}", timeout=10 + wait)
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data

    def calls(self, guid: str) -> int:
        return int(self.stats()["by_guid"].get(guid, 0))

    def control(self, **settings: Any) -> None:
        self._http.post(f"{self.url}/_control", json=settings, timeout=10).raise_for_status()

    def wait_for(
        self,
        condition: Callable[[dict[str, Any]], bool],
        timeout: float,
        until: Callable[[], bool] = lambda: False,
    ) -> bool:
        """Ask the statistics until ``condition`` holds (again on each change, and every NUDGE
        seconds); False when ``timeout`` passed first, or ``until`` held first (the process the
        statistics wait on has ended: nothing more will come)."""
        deadline = time.monotonic() + timeout
        version = None
        while (left := deadline - time.monotonic()) > 0:
            stats = self.stats(version, min(left, NUDGE))
            if condition(stats):
                return True
            if until():
                return False
            version = stats["version"]
        return False

    def stop(self) -> None:
        self._end()


class PartnerForks:
    """One process that has loaded partner.py (partner_forks.py) and forks a partner for each
    ``start``: a fork costs a few ms of CPU where a partner's own interpreter costs ~40 (an mq
    grade takes one partner per scene, ~13). A process of the grader's own, like a partner:
    its session is its own and killed whole at ``close``; it ends with the grader (its
    standard input is the grader's pipe) and its partners with it."""

    def __init__(self, script: Path = PARTNER) -> None:
        self._lock = threading.Lock()
        self._said = b""  # what it wrote past the last answer read
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-B", "-S", str(FORKS), str(script)],
            cwd=script.parent,
            env=environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            bufsize=0,
        )

    def _ask(self, request: str) -> dict[str, Any]:
        """Its answer to ``request``, within ANSWER_WAIT (a partner started on its own had as
        long to say where it listens); RuntimeError when it is gone or does not answer."""
        with self._lock:
            assert self._process.stdin is not None and self._process.stdout is not None
            try:
                self._process.stdin.write(request.encode() + b"\n")
                deadline = time.monotonic() + ANSWER_WAIT
                while b"\n" not in self._said:
                    left = deadline - time.monotonic()
                    if left <= 0 or not select.select([self._process.stdout], [], [], left)[0]:
                        self.close()  # stuck: asked again, it ends at once, not after a wait
                        raise RuntimeError(f"partner_forks.py did not answer within {ANSWER_WAIT:g} s")
                    chunk = os.read(self._process.stdout.fileno(), 4096)
                    if not chunk:
                        raise RuntimeError(f"partner_forks.py ended (status {self._process.poll()})")
                    self._said += chunk
            except (OSError, ValueError) as exc:  # it is gone (killed, or closed)
                raise RuntimeError(f"partner_forks.py does not answer: {exc}") from exc
            line, _, self._said = self._said.partition(b"\n")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def start(self, token: str) -> tuple[int, str]:
        """A new partner answering ``token``: its pid and URL."""
        answer = self._ask(f"start {token}")
        if "error" in answer:
            raise RuntimeError(f"partner.py did not start: {answer['error']}")
        return int(answer["pid"]), str(answer["url"])

    def stop(self, pid: int) -> None:
        with contextlib.suppress(RuntimeError):  # gone already: so are its partners
            self._ask(f"stop {pid}")

    def close(self) -> None:
        """Every partner it forked ends, and it does."""
        children.signal_group(self._process, signal.SIGKILL)
        with contextlib.suppress(OSError, ValueError):
            if self._process.stdin is not None:
                self._process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(10)
        if self._process.stdout is not None:
            self._process.stdout.close()


class Spares:
    """Partners started ahead of need, while the machine has a core to spare (a broker's boot
    keeps one core busy and leaves the other mostly idle: measured). Each is handed out once,
    as fresh as one started on demand: its own process, nothing counted yet."""

    def __init__(self, start: Callable[[], Partner]) -> None:
        self._start = start
        self._ready: list[Partner] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def fill_until(self, count: int, done: threading.Event) -> None:
        """Start up to ``count`` partners, one after another, until ``done`` is set. A partner
        that fails to start ends the filling: the scene that needs one starts its own, and
        reports the failure there."""
        for _ in range(count):
            if done.is_set() or self._stop.is_set():
                return
            try:
                partner = self._start()
            except Exception:
                return
            with self._lock:
                if self._stop.is_set():
                    partner.stop()
                    return
                self._ready.append(partner)

    def take(self) -> Partner:
        """A spare, or a partner started now when none is left."""
        with self._lock:
            if self._ready:
                return self._ready.pop(0)
        return self._start()

    def close(self) -> None:
        """Stop the spares nobody took (and any a filler is starting now)."""
        self._stop.set()
        with self._lock:
            unused, self._ready = self._ready, []
        for partner in unused:
            partner.stop()
