"""The gate batch's grades pass (grader/machinery/admission.py): how many run at once follows
what the machine shows. The machine's figures are given to it here (a clock that moves a
window a look, cores busy or idle as the test says); the gate's waits are on real events."""

from __future__ import annotations

import threading
from pathlib import Path

from grader.machinery.admission import Admission, CpuTimes, available_memory, cpu_times, idle_cores
from tests.waiting import SAFETY

CORES = 2
TICKS = 100  # a core's ticks in a window


class Machine:
    """/proc/stat and /proc/meminfo as the test sets them; each look moves the clock a window."""

    def __init__(self, busy_cores: float, memory: int = 8 << 30) -> None:
        self.busy_cores = busy_cores
        self.memory = memory
        self.now = 0.0
        self.ticks = CpuTimes(0, 0)
        self.armed = False  # from now on, count the gate's looks
        self.looks = self.asks = 0
        self.looked_again = threading.Event()  # a second look: it did not go after the first
        self.asked_again = threading.Event()  # the same, of the memory

    def clock(self) -> float:
        self.now += 1.0
        return self.now

    def cpu(self) -> CpuTimes:
        self.looks += self.armed
        if self.looks >= 2:
            self.looked_again.set()
        self.ticks = CpuTimes(
            self.ticks.busy + round(self.busy_cores * TICKS), self.ticks.total + CORES * TICKS
        )
        return self.ticks

    def available(self) -> int:
        self.asks += self.armed
        if self.asks >= 2:
            self.asked_again.set()
        return self.memory

    def gate(self, least: int, most: int) -> Admission:
        return Admission(
            least, most, cores=CORES, window=1.0, cpu=self.cpu, available=self.available, clock=self.clock
        )


def _enter_aside(gate: Admission) -> tuple[threading.Thread, list[bool]]:
    went: list[bool] = []
    thread = threading.Thread(target=lambda: went.append(gate.enter()), daemon=True)
    thread.start()
    return thread, went


def test_idle_cores_are_read_from_the_machines_own_figures() -> None:
    before, after = CpuTimes(busy=100, total=400), CpuTimes(busy=250, total=600)
    assert idle_cores(before, after, 2) == 2 * (1 - 150 / 200)
    assert idle_cores(after, after, 2) == 0.0  # no time passed: nothing to spare
    now = cpu_times()
    assert 0 <= now.busy <= now.total
    assert available_memory() > 0
    assert available_memory(Path("/proc/self/status")) == 0  # no MemAvailable line: nothing


def test_least_always_go_and_one_more_goes_for_each_window_of_spare_cores() -> None:
    machine = Machine(busy_cores=0.2)
    gate = machine.gate(least=1, most=3)
    assert gate.enter() and gate.enter() and gate.enter()
    assert (gate.allowed, gate.peak) == (3, 3)
    thread, went = _enter_aside(gate)  # most are in: it waits for one to end
    gate.leave()
    thread.join(SAFETY)
    assert went == [True] and gate.peak == 3


def test_busy_cores_keep_more_out_and_an_end_makes_room() -> None:
    machine = Machine(busy_cores=1.8)  # 0.2 of a core idle: less than SPARE
    gate = machine.gate(least=2, most=4)
    assert gate.enter() and gate.enter()
    machine.armed = True
    thread, went = _enter_aside(gate)
    assert machine.looked_again.wait(SAFETY)  # it looked at the machine and did not go
    gate.leave()  # one ended: the next takes its place without a look
    thread.join(SAFETY)
    assert went == [True] and gate.allowed == 2 and gate.peak == 2
    waiting, told = _enter_aside(gate)
    gate.close()  # the batch stopped: it is told, and never goes
    waiting.join(SAFETY)
    assert told == [False] and gate.peak == 2


def test_no_more_than_least_while_memory_is_short() -> None:
    machine = Machine(busy_cores=0.0, memory=256 << 20)
    gate = machine.gate(least=1, most=4)
    assert gate.enter()
    machine.armed = True
    thread, went = _enter_aside(gate)
    assert machine.asked_again.wait(SAFETY)  # spare cores were seen, yet it did not go
    assert gate.allowed == 2
    machine.memory = 8 << 30
    thread.join(SAFETY)
    assert went == [True] and gate.peak == 2
