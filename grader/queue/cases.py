"""The grader's own inputs for steps 6–8: ledgers for order-check.sql, queue dirs for lag.sh,
names for replay.sh. Pure data from a random generator: every class of the edge map
(grader/queue/edges.py) in every build; the seed varies only the values inside a class.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from fixtures.queue_messages import not_utf8

Row = dict[str, object]
STAMP = "2026-11-02T10:00:00+00:00"


# Step 6: ledgers -------------------------------------------------------------------------------
@dataclass(frozen=True)
class LedgerCase:
    """One ledger of the grader's for order-check.sql, with at most one kind of fault."""

    rid: str  # the id judging it: Q6.2 (a repeated seq), Q6.3 (a hole), Q6.4 (clean)
    key: str  # its class in the edge map
    detail: str  # the fault, in Korean, with its values
    rows: tuple[Row, ...]  # in the order they are stored


def seqs_text(seqs: Iterable[int]) -> str:
    """1,2,3,4,6,6,7 -> '1..4,6,6,7': runs of three or more shortened."""
    ordered = sorted(seqs)
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{ordered[i]}..{ordered[j]}")
        else:
            parts += [str(s) for s in ordered[i : j + 1]]
        i = j + 1
    return ",".join(parts)


@dataclass
class _Ledger:
    rng: random.Random
    orders: dict[str, list[int]] = field(default_factory=dict)  # order_no -> seqs, by order_no

    def add(self, order_no: str, seqs: Iterable[int]) -> str:
        self.orders[order_no] = list(seqs)
        return order_no

    def rows(self) -> tuple[Row, ...]:
        """Every row, stored scrambled: within an order n, 1, n-1, 2, ... (neither ascending nor
        descending), orders taken in turn, so neither rowid nor insertion order is seq order."""
        lanes = [[(order_no, s) for s in _zigzag(seqs)] for order_no, seqs in self.orders.items() if seqs]
        out: list[Row] = []
        while any(lanes):
            for lane in lanes:
                if lane:
                    order_no, seq = lane.pop(0)
                    out.append(
                        {
                            "msg_id": f"m-{self.rng.getrandbits(40):010x}",
                            "order_no": order_no,
                            "seq": seq,
                            "amount": self.rng.randrange(1_000, 500_000, 100),
                            "processed_at": STAMP,
                        }
                    )
        return tuple(out)


def _zigzag(seqs: Sequence[int]) -> list[int]:
    ordered = sorted(seqs, reverse=True)
    out: list[int] = []
    while ordered:
        out.append(ordered.pop(0))
        if ordered:
            out.append(ordered.pop())
    return out


def order_ledgers(rng: random.Random) -> list[LedgerCase]:
    """A clean ledger of many orders (lengths 1, 2, 9, 10, 11, 101 and small ones, each from
    seq 1) and ledgers that each add to it one repeated seq, one set of holes, or a hole and a
    repeat in one order (which a count of rows against the span of seqs does not see)."""
    number = rng.randrange(10_000, 80_000)

    def order_no() -> str:
        nonlocal number
        number += rng.randrange(1, 50)
        return f"ORD-{number}"

    sizes = {
        "first": rng.randrange(4, 9),  # the smallest order_no
        "one": 1,
        "two": 2,
        "nine": 9,
        "ten": 10,
        "eleven": 11,
        "small": rng.randrange(5, 9),
        "hundred": 101,
        "last": rng.randrange(4, 9),  # the largest order_no
    }
    names = {role: order_no() for role in sizes}
    base = {names[role]: list(range(1, n + 1)) for role, n in sizes.items()}

    def ledger(rid: str, key: str, detail: str, changes: dict[str, list[int]] | None = None) -> LedgerCase:
        built = _Ledger(rng)
        for name, seqs in (base | (changes or {})).items():
            built.add(name, seqs)
        return LedgerCase(rid, key, detail, built.rows())

    def dup(key: str, role: str, seq: int, times: int = 2) -> LedgerCase:
        name = names[role]
        seqs = base[name] + [seq] * (times - 1)
        detail = f"주문 {name} 의 seq {seqs_text(base[name])} 에 {seq} 이(가) {times}번"
        return ledger("Q6.2", key, detail, {name: seqs})

    def hole(key: str, role: str, missing: Iterable[int]) -> LedgerCase:
        name = names[role]
        gone = set(missing)
        seqs = [s for s in base[name] if s not in gone]
        return ledger("Q6.3", key, f"주문 {name} 의 seq {seqs_text(seqs)}", {name: seqs})

    def both(rid: str, key: str, role: str, gone: int, twice: int) -> LedgerCase:
        """A hole and a repeat in one order, its first and last seq kept: as many rows as
        MAX(seq) - MIN(seq) + 1, so the repeat fills the hole for a count against the span."""
        name = names[role]
        seqs = [s for s in base[name] if s != gone] + [twice]
        return ledger(rid, key, f"주문 {name} 의 seq {seqs_text(seqs)}", {name: seqs})

    def extra(key: str, seqs: list[int]) -> LedgerCase:
        name = order_no()
        return ledger("Q6.3", key, f"주문 {name} 의 seq {seqs_text(seqs)}", {name: seqs})

    small, first, last = sizes["small"], sizes["first"], sizes["last"]
    one_row = _Ledger(rng)
    one_row.add(order_no(), [1])
    return [
        ledger("Q6.4", "clean-widths", f"주문 {len(base)}개(길이 {', '.join(map(str, sizes.values()))})"),
        LedgerCase("Q6.4", "clean-empty", "행 없음", ()),
        LedgerCase("Q6.4", "clean-one-row", "한 주문에 seq 1 하나", one_row.rows()),
        dup("dup-first", "ten", 1),
        dup("dup-middle", "small", rng.randrange(2, small)),
        dup("dup-last", "nine", 9),
        dup("dup-at-10", "eleven", 10),
        dup("dup-at-100", "hundred", 100),
        dup("dup-one-element", "one", 1),
        dup("dup-three-times", "small", rng.randrange(2, small), times=3),
        both("Q6.2", "dup-and-hole", "small", *_apart(rng, small)),
        extra("hole-1-2-4", [1, 2, 4]),
        extra("hole-1-2-6", [1, 2, 6]),
        extra("hole-1-3-5-9", [1, 3, 5, 9]),
        extra("hole-two-element", [1, 3]),
        hole("hole-width-2", "ten", (4, 5)),
        hole("hole-width-5", "ten", range(3, 8)),
        hole("hole-after-first", "small", (2,)),
        hole("hole-before-last", "small", (small - 1,)),
        hole("hole-at-10", "eleven", (10,)),
        hole("hole-at-100", "hundred", (100,)),
        hole("hole-first-order", "first", (rng.randrange(2, first),)),
        hole("hole-last-order", "last", (rng.randrange(2, last),)),
        both("Q6.3", "hole-and-dup", "eleven", 10, 9),
    ]


def _apart(rng: random.Random, n: int) -> tuple[int, int]:
    """In an order 1..n: a seq to take out (neither the first nor the last) and another one,
    any, to repeat."""
    gone = rng.randrange(2, n)
    twice = rng.choice([s for s in range(1, n + 1) if s != gone])
    return gone, twice


# Step 7: queue dirs ----------------------------------------------------------------------------
@dataclass(frozen=True)
class LagLayout:
    """A queue dir of the grader's and the thresholds lag.sh is run with on it."""

    files: dict[str, int]  # plain files directly inside inbox, processing, error, done
    thresholds: tuple[tuple[int, frozenset[str]], ...]  # (threshold, its Q7.2 classes)
    shows: frozenset[str]  # its Q7.1 classes
    subdirs: dict[str, int] = field(default_factory=dict)  # dir -> files in a subfolder of it
    hidden: int = 0  # hidden regular files in inbox (counted or not: both accepted)
    blank_named: int = 0  # files of inbox, processing, error named with a blank: `… (2).json`

    @property
    def inbox_counts(self) -> frozenset[int]:
        """What lag.sh may report for inbox (a hidden file may count or not)."""
        return frozenset({self.files["inbox"], self.files["inbox"] + self.hidden})


def _t(threshold: int, *keys: str) -> tuple[int, frozenset[str]]:
    return threshold, frozenset(keys)


def lag_layouts(rng: random.Random) -> list[LagLayout]:
    def done() -> int:
        return rng.randrange(1, 6)

    return [
        LagLayout(
            {"inbox": 0, "processing": 0, "error": 0, "done": 0},
            (_t(0, "zero", "threshold-equal"),),
            frozenset({"count-0", "not-root-q"}),
        ),
        LagLayout(
            {"inbox": 1, "processing": 1, "error": 0, "done": done()},
            (_t(0, "zero", "threshold-above"), _t(1, "threshold-equal"), _t(2, "threshold-below")),
            frozenset({"count-1", "count-0", "done-ignored"}),
        ),
        LagLayout(
            {"inbox": 10, "processing": 9, "error": 11, "done": done()},
            (_t(9, "across-9-10", "threshold-above"), _t(10, "threshold-equal"), _t(11, "threshold-below")),
            frozenset({"count-widths", "blank-names"}),
            blank_named=2,
        ),
        LagLayout(
            {"inbox": 9, "processing": rng.randrange(2, 8), "error": 10, "done": done()},
            (_t(10, "across-9-10", "threshold-below"), _t(9, "threshold-equal"), _t(8, "threshold-above")),
            frozenset({"count-widths"}),
        ),
        LagLayout(
            {"inbox": 100, "processing": rng.randrange(2, 8), "error": 11, "done": done()},
            (
                _t(99, "across-99-100", "threshold-above"),
                _t(100, "threshold-equal"),
                _t(101, "threshold-below"),
            ),
            frozenset({"count-widths"}),
        ),
        LagLayout(
            {"inbox": 99, "processing": 0, "error": 1, "done": 0},
            (_t(100, "across-99-100", "threshold-below"),),
            frozenset({"count-widths"}),
        ),
        LagLayout(  # an exit status is a byte: `exit $inbox` or `exit $((inbox - t))` reads 0
            {"inbox": 256, "processing": 0, "error": rng.randrange(1, 4), "done": 0},
            (_t(0, "over-by-256", "threshold-above"),),
            frozenset({"count-widths"}),
        ),
        LagLayout(  # two anomalies meet: subfolders beside exactly as many files as the threshold
            {
                "inbox": (waiting := rng.randrange(2, 7)),
                "processing": 1,
                "error": rng.randrange(1, 4),
                "done": done(),
            },
            (_t(waiting, "subfolder-at-threshold"),),
            frozenset({"subdirectory"}),
            subdirs={"inbox": rng.randrange(1, 4), "processing": 2, "error": 1},
        ),
        LagLayout(
            {"inbox": rng.randrange(2, 7), "processing": 0, "error": 0, "done": done()},
            (_t(50),),
            frozenset({"dotfile"}),
            hidden=1,
        ),
    ]


# Step 8: names ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayCase:
    rid: str  # Q8.1 (moved), Q8.2 (not in error/), Q8.3 (hostile)
    key: str
    argument: str
    moves: str | None = None  # the name in error/ it must move to inbox/ (Q8.1)


@dataclass(frozen=True)
class ReplayLayout:
    """The queue every replay case starts from (file names to bytes, per dir)."""

    dirs: dict[str, dict[str, bytes]]
    held: str  # a directory inside error/ (with a file in it)
    cases: tuple[ReplayCase, ...]


def replay_layout(rng: random.Random, bodies: Sequence[bytes], live: str, outside: str) -> ReplayLayout:
    """``bodies``: message bytes to fill the queue with (at least 12); ``live``: the queue's path
    as the script sees it; ``outside``: a file outside the queue."""
    prefix = f"q{rng.getrandbits(24):06x}"
    names = [f"{prefix}-{i:04d}.json" for i in range(1, 14)]
    inbox, processing, done, error = names[0:2], names[2:3], names[3:6], names[6:9]
    spaced = f"{prefix} {rng.randrange(2, 9)}.json"
    empty, crlf, odd = names[9], names[11], names[12]
    body = iter(bodies)
    dirs = {
        "inbox": {n: next(body) for n in inbox},
        "processing": {n: next(body) for n in processing},
        "done": {n: next(body) for n in done},
        "error": {n: next(body) for n in error}
        | {spaced: next(body), empty: b"", crlf: next(body).replace(b"\n", b"\r\n")}
        | {odd: not_utf8(next(body))},  # error/ holds what could not be read: any bytes
    }
    held = f"held-{rng.randrange(10, 99)}"

    def q(rid: str, key: str, argument: str, moves: str | None = None) -> ReplayCase:
        return ReplayCase(rid, key, argument, moves)

    return ReplayLayout(
        dirs,
        held,
        (
            q("Q8.2", "in-done-only", done[0]),
            q("Q8.2", "in-inbox-only", inbox[0]),
            q("Q8.2", "in-processing-only", processing[0]),
            q("Q8.2", "nowhere", names[10]),
            q("Q8.3", "dotdot-path", f"../done/{done[1]}"),
            q("Q8.3", "absolute-outside", outside),
            q("Q8.3", "absolute-done", f"{live}/done/{done[2]}"),
            q("Q8.3", "empty", ""),
            q("Q8.3", "dot", "."),
            q("Q8.3", "dot", ".."),
            q("Q8.3", "directory", held),
            q("Q8.3", "glob", "*"),
            q("Q8.3", "space-not-there", f"{prefix} copy 2.json"),
            q("Q8.3", "two-names", f"{error[1]} {error[2]}"),
            q("Q8.1", "plain-name", error[0], moves=error[0]),
            q("Q8.1", "name-with-space", spaced, moves=spaced),
            q("Q8.1", "empty-file", empty, moves=empty),
            q("Q8.1", "crlf-file", crlf, moves=crlf),
            q("Q8.1", "not-utf8-file", odd, moves=odd),
        ),
    )
