"""The grader's own AMQP client: lay out the lab's topology, publish claims, read queues.

Checks never trust the student's scripts to set the stage for another step: a consumer
check publishes with this (correct) publisher into a topology declared here.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pika
import pika.exceptions

from fixtures.claims import Claim

CLAIM_EXCHANGE, DEAD_EXCHANGE = "eai.claim", "eai.dlx"
CLAIM_QUEUE, DEAD_QUEUE = "claim.in", "claim.dead"
CLAIM_KEY, DEAD_KEY = "claim", "claim.dead"
PRECONDITION_FAILED = 406  # AMQP's reply to a declaration that differs from what is there
DLX_ARGUMENTS = {"x-dead-letter-exchange": DEAD_EXCHANGE, "x-dead-letter-routing-key": DEAD_KEY}


# The grader's connections, kept open in the thread that opened them (a scene runs in one
# thread) until the scene lets them go: a connection costs the node ~4.6 ms of CPU and the
# grader ~2 ms, and a scene used to open one for every publish, look and drain (~100 a grade).
_kept = threading.local()


def _kept_connections() -> dict[str, tuple[Any, Any]]:
    kept: dict[str, tuple[Any, Any]] = _kept.__dict__.setdefault("connections", {})
    return kept


def _close(connection: Any) -> None:
    with contextlib.suppress(Exception):  # gone already, or the broker closed it: all the same
        connection.close()


def _open(url: str) -> tuple[Any, Any]:
    parameters = pika.URLParameters(url)
    # A broker in a memory alarm blocks publishers instead of refusing them: never wait forever.
    parameters.blocked_connection_timeout = 30
    parameters.socket_timeout = 10
    parameters.heartbeat = 0  # kept through a scene's quiet spells: no heartbeat to miss
    connection = pika.BlockingConnection(parameters)
    try:
        opened = connection.channel()
        opened.confirm_delivery()  # every publish of the grader is confirmed
    except BaseException:
        _close(connection)
        raise
    return connection, opened


@contextlib.contextmanager
def channel(url: str) -> Iterator[Any]:
    """A channel (in confirm mode) on a connection of its own, closed at the block's end: what
    is done on it (a consumer, say) ends with it."""
    connection, opened = _open(url)
    try:
        yield opened
    finally:
        _close(connection)


@contextlib.contextmanager
def kept_channel(url: str) -> Iterator[Any]:
    """A channel (in confirm mode) on the grader's connection to ``url`` in this thread: opened
    at the first use and kept until ``let_go(url)``; for publishing and looking, never for
    consuming (a consumer would live on). Any error in the block closes it, and the next use
    opens another; so does a connection the broker closed meanwhile (a deleted vhost); a
    channel the broker closed (a refused declaration) is opened again."""
    kept = _kept_connections()
    connection, opened = kept.pop(url, (None, None))
    if connection is not None:
        try:
            connection.process_data_events(0)  # what the broker said meanwhile (a close) is read
            if connection.is_open and not opened.is_open:  # a refusal closed the channel only
                opened = connection.channel()
                opened.confirm_delivery()
            alive = connection.is_open
        except Exception:
            alive = False
        if not alive:
            _close(connection)
            connection = None
    if connection is None:
        connection, opened = _open(url)
    try:
        yield opened
    except BaseException:
        _close(connection)
        raise
    kept[url] = (connection, opened)


def let_go(url: str) -> None:
    """Close this thread's kept connection to ``url`` (a scene's end)."""
    connection, _ = _kept_connections().pop(url, (None, None))
    if connection is not None:
        _close(connection)


def declare_topology(url: str, *, bind_claim: bool = True, claim_key: str = CLAIM_KEY) -> None:
    """The lab's topology exactly as step 2 describes it; without the queues, or with claim.in
    bound under another key, for the unroutable cases."""
    with kept_channel(url) as ch:
        ch.exchange_declare(CLAIM_EXCHANGE, "direct", durable=True)
        ch.exchange_declare(DEAD_EXCHANGE, "direct", durable=True)
        if not bind_claim:
            return
        ch.queue_declare(CLAIM_QUEUE, durable=True, arguments=DLX_ARGUMENTS)
        ch.queue_declare(DEAD_QUEUE, durable=True)
        ch.queue_bind(CLAIM_QUEUE, CLAIM_EXCHANGE, claim_key)
        ch.queue_bind(DEAD_QUEUE, DEAD_EXCHANGE, DEAD_KEY)


def refused_again(url: str, bind_claim: bool, claim_key: str) -> str | None:
    """The broker's words when the same ``declare_topology`` is refused now (406
    PRECONDITION_FAILED: a queue or exchange of that name is there with other properties, so
    a script deleted and declared it again, as a stream or not durable, say); None when it is
    taken, or when the broker cannot be asked (nobody's proof)."""
    try:
        declare_topology(url, bind_claim=bind_claim, claim_key=claim_key)
    except pika.exceptions.ChannelClosedByBroker as exc:
        return exc.reply_text if exc.reply_code == PRECONDITION_FAILED else None
    except pika.exceptions.AMQPError:
        return None
    return None


def changed_topology(api: Callable[[str, str], Any], vhost: str) -> list[str]:
    """What of the topology ``declare_topology`` lays out the vhost no longer holds as laid out
    (read through the management API ``api(method, path)``), in Korean; [] when all is there,
    and when it cannot be told: a listing that did not answer (the vhost gone, a node too busy
    to say) is nobody's proof that the scripts changed anything (red team 10: a classmate's
    scene was blamed while another grade's flood kept the node busy)."""
    listed = [api("GET", f"{kind}/{vhost}") for kind in ("queues", "exchanges", "bindings")]
    if any(not isinstance(each, list) for each in listed) or not listed[1]:
        return []  # (a vhost always holds its amq.* exchanges, which no script may delete)
    queues = {q.get("name"): q for q in listed[0]}
    exchanges = {e.get("name"): e for e in listed[1]}
    bindings = {(b.get("source"), b.get("destination"), b.get("routing_key")) for b in listed[2]}
    changed = [
        f"교환기 {name} 가 없거나 direct 가 아님"
        for name in (CLAIM_EXCHANGE, DEAD_EXCHANGE)
        if exchanges.get(name, {}).get("type") != "direct"
    ]
    claim_in = queues.get(CLAIM_QUEUE)
    if claim_in is None:
        changed.append(f"큐 {CLAIM_QUEUE} 가 없음")
    elif any((claim_in.get("arguments") or {}).get(k) != v for k, v in DLX_ARGUMENTS.items()):
        changed.append(f"큐 {CLAIM_QUEUE} 의 DLX 인자가 다름")
    if DEAD_QUEUE not in queues:
        changed.append(f"큐 {DEAD_QUEUE} 가 없음")
    for source, queue, key in (
        (CLAIM_EXCHANGE, CLAIM_QUEUE, CLAIM_KEY),
        (DEAD_EXCHANGE, DEAD_QUEUE, DEAD_KEY),
    ):
        if (source, queue, key) not in bindings:
            changed.append(f"바인딩 {source} -[{key}]-> {queue} 가 없음")
    return changed


def _properties(claim: Claim) -> pika.BasicProperties:
    return pika.BasicProperties(delivery_mode=2, message_id=claim.guid, content_type="application/json")


def publish(url: str, *claims: Claim, compact: bool = False) -> None:
    """Publish like the model publisher: persistent, message_id = guid, confirmed. The body is
    the claim file's bytes, or with ``compact`` the same JSON on one line."""
    with kept_channel(url) as ch:
        for claim in claims:
            body = claim.compact if compact else claim.data
            ch.basic_publish(CLAIM_EXCHANGE, CLAIM_KEY, body, mandatory=True, properties=_properties(claim))


def put(url: str, queue: str, *claims: Claim) -> int:
    """Put claims straight into ``queue`` (the default exchange: no binding needed), confirmed;
    how many went in (0 when the queue does not exist)."""
    with kept_channel(url) as ch:
        for n, claim in enumerate(claims):
            try:
                ch.basic_publish("", queue, claim.data, mandatory=True, properties=_properties(claim))
            except pika.exceptions.UnroutableError:
                return n
    return len(claims)


@dataclass(frozen=True)
class Message:
    body: bytes
    exchange: str
    routing_key: str
    redelivered: bool
    properties: Any  # pika.BasicProperties
    unreadable: str = ""  # why the grader's client could not decode it (a script's odd headers)

    @property
    def headers(self) -> dict[str, Any]:
        return dict(self.properties.headers or {})

    @property
    def message_id(self) -> str | None:
        return getattr(self.properties, "message_id", None)


UNREADABLE_MOST = 1000  # messages a drain passes over as unreadable before it gives up


def drain(url: str, queue: str) -> list[Message]:
    """Take every ready message out of ``queue`` (the vhost is thrown away afterwards).

    A message whose properties the client cannot decode (a script may set a timestamp header
    past 2^63, or nest tables 1,500 deep: the broker takes it, pika's decoder raises and the
    connection is lost, red team 15) is in the list as unreadable, saying so: taken without
    an ack it is gone from the queue, and the drain goes on over a new connection."""
    out: list[Message] = []
    while True:
        try:
            with kept_channel(url) as ch:
                while True:
                    method, properties, body = ch.basic_get(queue, auto_ack=True)
                    if method is None:
                        return out
                    out.append(
                        Message(body, method.exchange, method.routing_key, method.redelivered, properties)
                    )
        except pika.exceptions.StreamLostError as exc:
            if sum(1 for m in out if m.unreadable) >= UNREADABLE_MOST:
                raise
            why = f"AMQP 클라이언트가 메시지의 속성을 해석하지 못함({exc})"
            out.append(Message(b"", "", "", False, pika.BasicProperties(), unreadable=why[:300]))


def put_back(url: str, queue: str, messages: list[Message]) -> None:
    """Put drained messages back into ``queue`` as they were (body and properties, headers
    such as x-death included), in order; unreadable ones are gone."""
    with kept_channel(url) as ch:
        for message in messages:
            if not message.unreadable:
                ch.basic_publish("", queue, message.body, mandatory=True, properties=message.properties)


def ready(url: str, queue: str) -> int | None:
    """Ready messages of ``queue`` (accurate over AMQP); None when the queue does not exist."""
    with kept_channel(url) as ch:
        try:
            return int(ch.queue_declare(queue, passive=True).method.message_count)
        except pika.exceptions.ChannelClosedByBroker:
            return None


def wait_ready(url: str, queue: str, at_least: int, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while True:
        n = ready(url, queue)
        if (n or 0) >= at_least or time.monotonic() > deadline:
            return n
        time.sleep(0.1)


def nacks_publish(url: str) -> bool:
    """True once a confirmed publish to claim.in is refused (a policy has taken effect)."""
    with kept_channel(url) as ch:
        try:
            ch.basic_publish(CLAIM_EXCHANGE, CLAIM_KEY, b"{}", mandatory=True)
        except pika.exceptions.NackError:
            return True
    return False
