"""What a box's scripts tell an AMQP 0-9-1 broker, read from the bytes the relay carries for
them (relay.py): which deliveries, by message-id, they acknowledged, rejected or nacked, in
the order they did.

Otherwise the grader knows a consumer's acks only from the broker's queue figures, which a
script keeps as they were by publishing a copy of a message into its queue and acking the
original at once (red team 28: such a consumer acked every claim before its POST and its
record, and passed the checks that kill it between the two). A settlement read here is the
script's own word, seen before the broker has it.

Read as far as that needs (AMQP 0-9-1, section 4.2.3 framing): from the broker, basic.deliver
and basic.get-ok with the content header that follows (its properties, for message-id), and
basic.consume-ok; from the scripts, basic.ack, basic.nack and basic.reject, and basic.consume
and basic.get for their no-ack flag (a delivery to a no-ack consumer is acknowledged as it is
sent: an "ack" here, where it is read); from either, channel.open and
channel.close (a channel's delivery tags begin again). On a channel in transaction mode
(tx.select) a settlement takes effect at the next tx.commit, and is taken in there; a
tx.rollback takes the ones since back (red team 29: a correct consumer that acked, recorded,
then committed was taken to have acked before it recorded). Bytes that do not read as AMQP stop the
reading of their connection, which is then ``opaque``; they never stop its carrying.
"""

from __future__ import annotations

import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

PROTOCOL_HEADER = b"AMQP\x00\x00\x09\x01"  # the client's first bytes (0-9-1; 0-9 and 0-8 differ
# in their last four, and RabbitMQ speaks them with the same framing and basic methods)
FRAME_METHOD, FRAME_HEADER, FRAME_END = 1, 2, 0xCE
CHANNEL, BASIC, TX = 20, 60, 90
OPEN, CLOSE, CLOSE_OK = 10, 40, 41
SELECT, COMMIT, ROLLBACK = 10, 20, 30  # tx
CONSUME, CONSUME_OK, DELIVER, GET, GET_OK, ACK, REJECT, NACK = 20, 21, 60, 70, 71, 80, 90, 120
MESSAGE_ID_BIT = 7  # of the first property-flags word; the properties before it, in order:
_BEFORE_MESSAGE_ID = ((15, "s"), (14, "s"), (13, "t"), (12, "o"), (11, "o"), (10, "s"), (9, "s"), (8, "s"))


class NotAmqp(ValueError):
    """Bytes that do not read as AMQP 0-9-1 frames."""


class Cut(Exception):
    """A stop at an ack asked for its connection to be cut there: the piece that holds the ack
    never reaches the broker (as if its sender had died before the ack left it)."""


Stop = Callable[[], bool | None]  # what to do at an ack; True: cut the connection there


@dataclass(frozen=True)
class Settlement:
    """A delivery the scripts settled: ``how`` is "ack", "nack" or "reject"."""

    message_id: str | None
    how: str
    requeue: bool
    redelivered: bool = False  # the delivery it settled came flagged redelivered


class _Frames:
    """Frames out of a byte stream fed in pieces: (type, channel, payload)."""

    def __init__(self, header: bytes) -> None:
        self._buffer = bytearray()
        self._header = header  # what comes before any frame (the client's protocol header)
        self.offset = 0  # bytes consumed so far

    def feed(self, data: bytes) -> Iterator[tuple[int, int, bytes]]:
        self._buffer += data
        if self.offset < len(self._header):
            taken = min(len(self._header) - self.offset, len(self._buffer))
            named = b"AMQP"[self.offset :]  # the protocol's name; its version may be any
            if self._buffer[: min(taken, len(named))] != named[:taken]:
                raise NotAmqp("no AMQP protocol header")
            del self._buffer[:taken]
            self.offset += taken
        while len(self._buffer) >= 7:
            kind, channel, size = struct.unpack_from(">BHI", self._buffer)
            if len(self._buffer) < 8 + size:
                return
            if self._buffer[7 + size] != FRAME_END:
                raise NotAmqp(f"frame of type {kind} does not end with 0xCE")
            payload = bytes(self._buffer[7 : 7 + size])
            del self._buffer[: 8 + size]
            self.offset += 8 + size
            yield kind, channel, payload


def _shortstr(payload: bytes, at: int) -> tuple[bytes, int]:
    size = payload[at]
    return payload[at + 1 : at + 1 + size], at + 1 + size


def message_id(header: bytes) -> str | None:
    """The message-id property of a content header frame's payload, if it has one."""
    at = 12  # class id, weight, body size
    (flags,) = struct.unpack_from(">H", header, at)
    at += 2
    more = flags
    while more & 1:  # further flag words follow while the last bit is set
        (more,) = struct.unpack_from(">H", header, at)
        at += 2
    if not flags & (1 << MESSAGE_ID_BIT):
        return None
    for bit, kind in _BEFORE_MESSAGE_ID:
        if flags & (1 << bit):
            if kind == "s":
                at += 1 + header[at]
            elif kind == "t":
                at += 4 + struct.unpack_from(">I", header, at)[0]
            else:
                at += 1
    value, _ = _shortstr(header, at)
    return value.decode("utf-8", "replace")


@dataclass
class _Channel:
    waiting: int | None = None  # a delivery's tag, until its content header comes
    waiting_acked: bool = False  # ... sent to a no-ack consumer (or basic.get): acked as sent
    waiting_again: bool = False  # ... flagged redelivered
    # unsettled tag -> (message-id, redelivered)
    delivered: dict[int, tuple[str | None, bool]] = field(default_factory=dict)
    no_ack: set[bytes] = field(default_factory=set)  # consumer tags of no-ack consumers
    consuming: bool | None = None  # a basic.consume with no tag of its own: its no-ack flag
    getting: bool = False  # the last basic.get's no-ack flag
    transacted: bool = False  # tx.select: settlements wait for tx.commit
    uncommitted: list[tuple[int, Settlement]] = field(default_factory=list)  # (tag, settlement)


class Connection:
    """One carried connection: ``client`` and ``server`` are fed what each side sent, in
    order (each from one thread); ``end`` once both are done."""

    def __init__(self, log: AmqpLog, number: int) -> None:
        self._log = log
        self.number = number
        self._client, self._server = _Frames(PROTOCOL_HEADER), _Frames(b"")
        self._channels: dict[int, _Channel] = {}
        self._due: list[Stop] = []  # stops met while reading, done before passing on
        self.opaque = False
        self.ended = False

    def client(self, data: bytes) -> None:
        self._read(self._client, data, self._from_client)

    def server(self, data: bytes) -> None:
        self._read(self._server, data, self._from_server)

    def end(self) -> None:
        with self._log.changed:
            self.ended = True
            self._log.changed.notify_all()

    def _read(self, frames: _Frames, data: bytes, take: Callable[[int, int, bytes], None]) -> None:
        with self._log.changed:
            if not self.opaque:
                try:
                    for kind, channel, payload in frames.feed(data):
                        take(kind, channel, payload)
                except Exception as exc:  # whatever it was, the carrying goes on
                    self.opaque = True
                    self._log.problems.append(f"connection {self.number}: {exc}")
            self._log.changed.notify_all()
            due, self._due = self._due, []
        cut = False
        for stop in due:  # the piece is passed on only after: the broker has not the ack yet
            try:
                cut = bool(stop()) or cut
            except Exception as exc:
                with self._log.changed:
                    self._log.problems.append(f"connection {self.number}: a stop failed: {exc!r}")
        if cut:
            raise Cut(f"connection {self.number}: cut at an ack")

    def _settle(self, settled: Settlement) -> None:
        self._log.settlements.append(settled)
        stop = self._log.stops.get(settled.message_id or "")
        if settled.how == "ack" and stop is not None:
            self._due.append(stop)

    def _from_server(self, kind: int, number: int, payload: bytes) -> None:
        channel = self._channels.setdefault(number, _Channel())
        if kind == FRAME_HEADER and channel.waiting is not None:
            mid = message_id(payload)
            if channel.waiting_acked:
                self._settle(Settlement(mid, "ack", False, channel.waiting_again))
            else:
                channel.delivered[channel.waiting] = (mid, channel.waiting_again)
            channel.waiting = None
        elif kind == FRAME_METHOD:
            cls, method = struct.unpack_from(">HH", payload)
            if (cls, method) == (BASIC, DELIVER):
                consumer, at = _shortstr(payload, 4)
                channel.waiting, again = struct.unpack_from(">QB", payload, at)
                channel.waiting_acked, channel.waiting_again = consumer in channel.no_ack, bool(again & 1)
            elif (cls, method) == (BASIC, GET_OK):
                channel.waiting, again = struct.unpack_from(">QB", payload, 4)
                channel.waiting_acked, channel.waiting_again = channel.getting, bool(again & 1)
            elif (cls, method) == (BASIC, CONSUME_OK) and channel.consuming is not None:
                if channel.consuming:
                    channel.no_ack.add(_shortstr(payload, 4)[0])
                channel.consuming = None
            elif (cls, method) in ((CHANNEL, CLOSE), (CHANNEL, CLOSE_OK)):
                self._channels.pop(number, None)  # its unsettled deliveries go back to their queues

    def _from_client(self, kind: int, number: int, payload: bytes) -> None:
        if kind != FRAME_METHOD:
            return
        cls, method = struct.unpack_from(">HH", payload)
        if (cls, method) in ((CHANNEL, OPEN), (CHANNEL, CLOSE), (CHANNEL, CLOSE_OK)):
            self._channels.pop(number, None)
            return
        if cls == TX:
            channel = self._channels.setdefault(number, _Channel())
            if method == SELECT:
                channel.transacted = True
            elif method == COMMIT:
                for _, settled in channel.uncommitted:
                    self._settle(settled)
                channel.uncommitted.clear()
            elif method == ROLLBACK:  # the deliveries are the scripts' to settle again
                channel.delivered.update(
                    (tag, (settled.message_id, settled.redelivered)) for tag, settled in channel.uncommitted
                )
                channel.uncommitted.clear()
            return
        if (cls, method) == (BASIC, CONSUME):
            _, at = _shortstr(payload, 6)  # after the reserved short: the queue
            tag, at = _shortstr(payload, at)
            no_ack = bool(payload[at] & 2)
            channel = self._channels.setdefault(number, _Channel())
            if tag:
                if no_ack:
                    channel.no_ack.add(tag)
            else:  # the broker names it in consume-ok
                channel.consuming = no_ack
            return
        if (cls, method) == (BASIC, GET):
            _, at = _shortstr(payload, 6)
            self._channels.setdefault(number, _Channel()).getting = bool(payload[at] & 1)
            return
        if cls != BASIC or method not in (ACK, REJECT, NACK):
            return
        tag, bits = struct.unpack_from(">QB", payload, 4)
        multiple = method != REJECT and bool(bits & 1)
        requeue = bool(bits & (2 if method == NACK else 1)) if method != ACK else False
        how = {ACK: "ack", REJECT: "reject", NACK: "nack"}[method]
        channel = self._channels.setdefault(number, _Channel())
        tags = sorted(t for t in channel.delivered if tag == 0 or t <= tag) if multiple else [tag]
        for each in tags:
            mid, again = channel.delivered.pop(each, (None, False))
            settled = Settlement(mid, how, requeue, again)
            if channel.transacted:
                channel.uncommitted.append((each, settled))
            else:
                self._settle(settled)


class AmqpLog:
    """Every connection one box's scripts made to the broker, and what they settled on each."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.connections: list[Connection] = []
        self.settlements: list[Settlement] = []
        self.problems: list[str] = []
        self.stops: dict[str, Stop] = {}  # message-id -> what to do at its ack

    def stop_at_ack(self, message_id: str, act: Stop | None) -> None:
        """At each ack of ``message_id`` read from the scripts, ``act()`` is done before the
        piece that holds it goes on to the broker (in the relay's thread: the broker has not
        taken the ack yet); when it returns True, that piece is never passed on and the
        connection is cut both ways (``Cut``, which the relay takes as a reset). None: no more."""
        with self.changed:
            if act is None:
                self.stops.pop(message_id, None)
            else:
                self.stops[message_id] = act

    def connection(self) -> Connection:
        """A new carried connection."""
        with self.changed:
            made = Connection(self, len(self.connections))
            self.connections.append(made)
            return made

    @property
    def opaque(self) -> bool:
        """Some connection did not read as AMQP: what it settled is not known."""
        with self.changed:
            return any(c.opaque for c in self.connections)

    def settled(self, how: str, message_id: str | None = None) -> list[Settlement]:
        """What the scripts settled so, in the order they did: of ``message_id`` only, or of any."""
        with self.changed:
            return [
                s
                for s in self.settlements
                if s.how == how and (message_id is None or s.message_id == message_id)
            ]

    def ended(self, timeout: float) -> bool:
        """Every connection carried so far has ended (its scripts are gone), all of it read."""
        deadline = time.monotonic() + timeout
        with self.changed:
            return self.changed.wait_for(
                lambda: all(c.ended for c in self.connections), max(0.0, deadline - time.monotonic())
            )
