"""amqptap.py reads AMQP 0-9-1 as the relay carries it: frames built here byte by byte as the
specification lays them out (section 4.2.3), fed in pieces of every size. That a real consumer's
acks are read on their way to a real node is shown by the mq variants graded through the relay
(tests/variants/mq/acks_a_copy_first)."""

from __future__ import annotations

import struct

import pytest

from grader.machinery.amqptap import PROTOCOL_HEADER, AmqpLog, Connection, Cut, message_id


def _frame(kind: int, channel: int, payload: bytes) -> bytes:
    return struct.pack(">BHI", kind, channel, len(payload)) + payload + b"\xce"


def _short(text: str) -> bytes:
    raw = text.encode()
    return bytes([len(raw)]) + raw


def _method(channel: int, cls: int, method: int, args: bytes) -> bytes:
    return _frame(1, channel, struct.pack(">HH", cls, method) + args)


def _header(channel: int, mid: str | None, headers: bytes = b"\x00\x00\x00\x03abc") -> bytes:
    flags = (1 << 15) | (1 << 13) | (1 << 12) | ((1 << 7) if mid is not None else 0)
    props = _short("application/json") + headers + b"\x02" + (_short(mid) if mid is not None else b"")
    return _frame(2, channel, struct.pack(">HHQH", 60, 0, 2, flags) + props)


def _deliver(channel: int, tag: int, mid: str | None) -> bytes:
    args = _short("amq.ctag-x" if channel == 1 else "mine") + struct.pack(">QB", tag, 0)
    args += _short("") + _short("claim.in")
    return _method(channel, 60, 60, args) + _header(channel, mid) + _frame(3, channel, b"{}")


def _get_ok(channel: int, tag: int, mid: str) -> bytes:
    args = struct.pack(">QB", tag, 1) + _short("") + _short("claim.in") + struct.pack(">I", 0)
    return _method(channel, 60, 71, args) + _header(channel, mid) + _frame(3, channel, b"{}")


def _settle(channel: int, method: int, tag: int, bits: int) -> bytes:
    return _method(channel, 60, method, struct.pack(">QB", tag, bits))


def _fed(connection: Connection, client: bytes, server: bytes, piece: int) -> None:
    for side, data in ((connection.server, server), (connection.client, client)):
        for at in range(0, len(data), piece):
            side(data[at : at + piece])


OPENED = PROTOCOL_HEADER + _method(1, 20, 10, b"\x00") + _method(2, 20, 10, b"\x00")  # channel.open x2


@pytest.mark.parametrize("piece", [1, 3, 7, 64, 1 << 16])
def test_settlements_are_tied_to_their_deliveries_message_ids(piece: int) -> None:
    log = AmqpLog()
    connection = log.connection()
    server = _deliver(1, 1, "a") + _deliver(1, 2, "b") + _deliver(1, 3, "c") + _deliver(1, 4, "d")
    server += _get_ok(2, 1, "e") + _deliver(1, 5, None) + _frame(8, 0, b"")  # a heartbeat
    connection.client(OPENED)
    client = _settle(1, 80, 2, 1)  # ack multiple up to 2: a and b
    client += _settle(1, 90, 3, 1)  # reject c, requeue
    client += _settle(1, 120, 0, 1)  # nack all outstanding (tag 0, multiple, no requeue): d and the last
    client += _settle(2, 80, 1, 0)  # ack e (basic.get)
    # Then the server's frames: no script settles a delivery it has not been given.
    _fed(connection, client, server, piece)
    got = [(s.message_id, s.how, s.requeue) for s in log.settlements]
    assert got == [
        ("a", "ack", False),
        ("b", "ack", False),
        ("c", "reject", True),
        ("d", "nack", False),
        (None, "nack", False),
        ("e", "ack", False),
    ]
    assert not log.opaque and not log.problems
    assert [s.message_id for s in log.settled("ack")] == ["a", "b", "e"]
    assert [s.message_id for s in log.settled("ack", "b")] == ["b"]


def test_a_channel_closed_begins_its_tags_again() -> None:
    log = AmqpLog()
    connection = log.connection()
    connection.server(_deliver(1, 1, "old"))
    connection.client(PROTOCOL_HEADER + _method(1, 20, 40, struct.pack(">H", 200) + _short("") + b"\0" * 4))
    connection.server(_method(1, 20, 41, b""))  # close-ok
    connection.client(_method(1, 20, 10, b"\x00"))  # opened again: its tags begin at 1 again
    connection.server(_deliver(1, 1, "new"))
    connection.client(_settle(1, 80, 1, 0))
    assert [s.message_id for s in log.settled("ack")] == ["new"]


def test_an_ack_of_a_watched_message_is_acted_on_before_it_goes_on() -> None:
    """stop_at_ack: done as the piece holding the ack is read, before the relay passes it on
    (the caller's ``client`` returns only after), once per ack; None ends it."""
    log = AmqpLog()
    connection = log.connection()
    seen: list[int] = []
    log.stop_at_ack("b", lambda: seen.append(len(log.settlements)))
    connection.client(OPENED)
    connection.server(_deliver(1, 1, "a") + _deliver(1, 2, "b") + _deliver(1, 3, "b"))
    connection.client(_settle(1, 80, 1, 0) + _settle(1, 90, 2, 0))  # a acked, b rejected: nothing
    assert seen == []
    connection.client(_settle(1, 80, 3, 0))
    assert seen == [3]
    log.stop_at_ack("b", None)
    connection.server(_deliver(1, 4, "b"))
    connection.client(_settle(1, 80, 4, 0))
    assert seen == [3]

    def failing() -> None:
        raise ZeroDivisionError("a stop that fails is a problem noted, never the relay's")

    log.stop_at_ack("c", failing)
    connection.server(_deliver(1, 5, "c"))
    connection.client(_settle(1, 80, 5, 0))
    assert "ZeroDivisionError" in log.problems[-1] and not log.opaque


def test_a_stop_may_cut_the_connection_before_the_ack_goes_on() -> None:
    """A stop that returns True: the piece holding the ack is not passed on (Cut, which the
    relay takes as a reset of both sides); the ack was still read, and the stop done first."""
    log = AmqpLog()
    connection = log.connection()
    done: list[str] = []

    def kill() -> bool:
        done.append("killed")
        return True

    log.stop_at_ack("b", kill)
    connection.client(OPENED)
    connection.server(_deliver(1, 1, "a") + _deliver(1, 2, "b"))
    connection.client(_settle(1, 80, 1, 0))  # another message's ack: passed on
    with pytest.raises(Cut):
        connection.client(_settle(1, 80, 2, 0))
    assert done == ["killed"] and [s.message_id for s in log.settled("ack")] == ["a", "b"]


def test_bytes_that_are_not_amqp_make_the_connection_opaque_never_an_error() -> None:
    log = AmqpLog()
    connection = log.connection()
    connection.client(b"GET / HTTP/1.1\r\n\r\n")
    connection.client(_settle(1, 80, 1, 0))  # no longer read
    assert log.opaque and log.problems and not log.settlements
    broken = AmqpLog().connection()
    broken.server(_frame(1, 1, b"\x00\x3c")[:-1] + b"\x00")  # a frame that does not end in 0xCE
    assert broken.opaque


def test_connections_end_and_are_waited_for() -> None:
    log = AmqpLog()
    connection = log.connection()
    assert not log.ended(timeout=0.0)
    connection.end()
    assert log.ended(timeout=0.0)


def test_message_id_after_every_property_before_it() -> None:
    flags = 0xFF80  # content-type ... expiration, then message-id
    props = _short("t") + _short("e") + b"\x00\x00\x00\x00" + b"\x02" + b"\x05" + _short("c") + _short("r")
    props += _short("60000") + _short("the-id")
    assert message_id(struct.pack(">HHQH", 60, 0, 0, flags) + props) == "the-id"
    assert message_id(struct.pack(">HHQH", 60, 0, 0, 1 << 15) + _short("t")) is None


def _consume(channel: int, tag: str, no_ack: bool) -> bytes:
    args = struct.pack(">H", 0) + _short("claim.in") + _short(tag) + bytes([2 if no_ack else 0]) + b"\0" * 4
    return _method(channel, 60, 20, args)


def test_a_delivery_to_a_no_ack_consumer_is_an_ack_as_it_is_sent() -> None:
    """auto_ack=True (a consumer's no-ack flag, or basic.get's): the broker counts the message
    delivered when it sends it, and no basic.ack ever follows."""
    log = AmqpLog()
    connection = log.connection()
    connection.client(OPENED + _consume(1, "", True) + _consume(2, "mine", False))
    connection.server(_method(1, 60, 21, _short("amq.ctag-x")) + _method(2, 60, 21, _short("mine")))
    connection.server(_deliver(1, 1, "auto") + _deliver(2, 1, "manual"))
    get = struct.pack(">H", 0) + _short("claim.in") + b"\x01"
    connection.client(_method(3, 20, 10, b"\x00") + _method(3, 60, 70, get))
    connection.server(_get_ok(3, 1, "got"))
    connection.client(_settle(2, 80, 1, 0))
    assert [s.message_id for s in log.settled("ack")] == ["auto", "got", "manual"]


@pytest.mark.parametrize("version", [b"\x00\x00\x09\x01", b"\x01\x01\x00\x09", b"\x01\x01\x08\x00"])
def test_every_protocol_version_rabbitmq_speaks_is_read(version: bytes) -> None:
    """0-9 and 0-8 frame basic.ack alike: a script cannot go unread by asking for them."""
    log = AmqpLog()
    connection = log.connection()
    for byte in b"AMQP" + version:  # a piece at a time
        connection.client(bytes([byte]))
    connection.client(_method(1, 20, 10, b"\x00"))
    connection.server(_deliver(1, 1, "a"))
    connection.client(_settle(1, 80, 1, 0))
    assert [s.message_id for s in log.settled("ack")] == ["a"] and not log.opaque


def test_in_a_transaction_settlements_take_effect_at_commit() -> None:
    """tx.select: an ack counts where tx.commit is, and a rollback takes it back (red team 29:
    ack, record, commit is record-then-ack to the broker)."""
    log = AmqpLog()
    connection = log.connection()
    connection.client(OPENED + _method(1, 90, 10, b""))  # tx.select
    connection.server(_deliver(1, 1, "a") + _deliver(1, 2, "b"))
    stops: list[int] = []
    log.stop_at_ack("a", lambda: stops.append(len(log.settlements)))
    connection.client(_settle(1, 80, 1, 0))  # ack a ...
    assert not log.settled("ack") and not stops
    connection.client(_method(1, 90, 20, b""))  # ... committed: taken in there
    assert stops == [1]
    connection.client(_settle(1, 80, 2, 0) + _method(1, 90, 30, b""))  # ack b, rolled back
    assert [s.message_id for s in log.settled("ack")] == ["a"]
    connection.client(_settle(1, 90, 2, 0) + _method(1, 90, 20, b""))  # b rejected after all
    assert [(s.message_id, s.how) for s in log.settlements] == [("a", "ack"), ("b", "reject")]
