"""Ctrl-C, SIGTERM and SIGHUP: the first one stops the checks, none cuts the teardown short.

The first signal raises KeyboardInterrupt in the main thread, so pytest stops running checks
and tears down (scripts killed, the student's files put back, results written). From then on,
and inside any ``held()`` section, a signal only prints that the grader is finishing: a second
Ctrl-C or a SIGTERM during teardown can no longer skip the restore or results.json.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
FINISHING = "\n채점기: 정리 중입니다(학생 파일 되돌리기, 결과 기록). 끝날 때까지 기다려 주세요.\n"


class Interrupts:
    def __init__(self) -> None:
        self.stopping = False  # a signal came (or the teardown began): never raise again
        self.received: list[int] = []
        self._held = 0
        self._pending = False

    def install(self) -> None:
        if threading.current_thread() is threading.main_thread():
            for signum in SIGNALS:
                signal.signal(signum, self._on_signal)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.received.append(signum)
        if self.stopping or self._held:
            self._pending = self._pending or not self.stopping
            with contextlib.suppress(OSError):
                os.write(2, FINISHING.encode())
            return
        self.stopping = True
        raise KeyboardInterrupt(f"signal {signum}")

    def finishing(self) -> None:
        """The teardown begins: from now on signals only wait for it."""
        self.stopping = True

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """A section no signal interrupts; one that came meanwhile stops the checks after it.
        (Signals reach the main thread only: elsewhere there is nothing to hold.)"""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1
        if not self._held and self._pending and not self.stopping:
            self._pending = False
            self.stopping = True
            raise KeyboardInterrupt("signal during a held section")
