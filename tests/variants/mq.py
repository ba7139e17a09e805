"""Variants of the mq lab's reference solution (solutions/mq)."""

from __future__ import annotations

from tests.variants.variant import Edit, Replace, Variant

# ---------------------------------------------------------------------------------------------
# Correct alternative 1: a callback consumer. basic_consume(on_message_callback=...) on an
# object that keeps the SQLite record, driven by process_data_events(time_limit=...) until the
# deadline; basic_nack(requeue=False) instead of basic_reject for the dead letters; urllib with
# a 3 s timeout; its own table (seen/mid) with INSERT OR REPLACE; basic_cancel at the end.
# ---------------------------------------------------------------------------------------------

ALT1_CONSUMER = r'''#!/usr/bin/env python3
"""청구 소비자 (콜백 방식): claim.in 의 청구를 청구 시스템의 POST /v1/claims 로 넘긴다.

    python3 consumer.py --claim http://127.0.0.1:9202 --max-seconds 30 [--prefetch 5]
"""
import argparse
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

import pika

AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_FILE = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")


class ClaimForwarder:
    def __init__(self, claim_url, db_file):
        self.endpoint = claim_url.rstrip("/") + "/v1/claims"
        folder = os.path.dirname(db_file)
        if folder:
            os.makedirs(folder, exist_ok=True)
        self.db = sqlite3.connect(db_file)
        self.db.execute("CREATE TABLE IF NOT EXISTS seen (mid TEXT PRIMARY KEY, at REAL)")
        self.db.commit()

    def already_done(self, mid):
        if not mid:
            return False
        return self.db.execute("SELECT count(*) FROM seen WHERE mid = ?", (mid,)).fetchone()[0] > 0

    def remember(self, mid):
        if mid:
            self.db.execute("INSERT OR REPLACE INTO seen (mid, at) VALUES (?, ?)",
                            (mid, time.time()))
            self.db.commit()

    def post(self, body):
        req = urllib.request.Request(self.endpoint, data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=3) as resp:
                return resp.status
        except urllib.error.HTTPError as e:
            return e.code
        except Exception as e:  # 연결 거부, 시간 초과 ... 모두 일시 오류
            print(f"청구 시스템 호출 실패: {e!r}", file=sys.stderr, flush=True)
            return None

    def on_message(self, ch, method, props, body):
        mid = props.message_id
        if self.already_done(mid):
            print(f"{mid}: 이미 처리함, ack 만", flush=True)
            ch.basic_ack(delivery_tag=method.delivery_tag)
            return
        status = self.post(body)
        if status == 201:
            self.remember(mid)
            ch.basic_ack(delivery_tag=method.delivery_tag)
            print(f"{mid}: 201, ack", flush=True)
        elif status == 422:
            # 업무 거절: 되돌리지 않는다 -> DLX
            ch.basic_nack(delivery_tag=method.delivery_tag, requeue=False)
            print(f"{mid}: 422, DLQ 로", flush=True)
        elif method.redelivered:
            ch.basic_nack(delivery_tag=method.delivery_tag, requeue=False)
            print(f"{mid}: 재배달인데 또 실패({status}), DLQ 로", flush=True)
        else:
            ch.basic_nack(delivery_tag=method.delivery_tag, requeue=True)
            print(f"{mid}: 일시 오류({status}), 한 번 되돌림", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--claim", required=True)
    parser.add_argument("--max-seconds", type=float, required=True)
    parser.add_argument("--prefetch", type=int, default=5)
    args = parser.parse_args()

    forwarder = ClaimForwarder(args.claim, DB_FILE)
    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=args.prefetch)  # 소비 시작 전에!
    tag = channel.basic_consume(queue="claim.in", on_message_callback=forwarder.on_message,
                                auto_ack=False)
    stop_at = time.monotonic() + args.max_seconds
    while True:
        left = stop_at - time.monotonic()
        if left <= 0:
            break
        connection.process_data_events(time_limit=min(left, 0.5))
    channel.basic_cancel(tag)
    connection.close()
    forwarder.db.close()
    print("끝", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

# ---------------------------------------------------------------------------------------------
# Correct alternative 2: a short publisher that parses the file and publishes json.dumps of it
# (the lab's decision: parsed-JSON equality passes), sys.argv instead of argparse, exit codes
# 3/4 for unroutable/nacked.
# ---------------------------------------------------------------------------------------------

ALT2_PUBLISH = r'''#!/usr/bin/env python3
"""청구 JSON 파일 하나를 eai.claim 에 발행한다 (발행 확인 + mandatory)."""
import json
import os
import sys

import pika
from pika.exceptions import NackError, UnroutableError

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def main():
    if len(sys.argv) != 2:
        print("사용법: publish.py 청구JSON파일", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        claim = json.load(f)
    body = json.dumps(claim)  # 파싱한 JSON 을 다시 직렬화: 값은 같다

    props = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=2,
        message_id=claim["guid"],
    )
    conn = pika.BlockingConnection(pika.URLParameters(URL))
    ch = conn.channel()
    ch.confirm_delivery()
    try:
        ch.basic_publish(exchange="eai.claim", routing_key="claim", body=body,
                         properties=props, mandatory=True)
    except UnroutableError:
        print("라우팅 불가: claim 키로 묶인 큐가 없음", file=sys.stderr)
        return 3
    except NackError:
        print("브로커가 거절(nack)함", file=sys.stderr)
        return 4
    finally:
        conn.close()
    print("발행 확인:", claim["guid"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

# ---------------------------------------------------------------------------------------------
# Correct alternative 3: requests (a Session, timeout=(connect, read)), the consume generator
# with a shorter inactivity timeout and the deadline checked before handling, a decision table
# returned by a pure function, and INSERT OR IGNORE + rowcount on success.
# ---------------------------------------------------------------------------------------------

ALT3_CONSUMER = r'''#!/usr/bin/env python3
"""claim.in -> claim system, with requests. Ack after 201; 422 -> DLQ; transient: once more."""
import argparse
import logging
import os
import pathlib
import sqlite3
import sys
import time

import pika
import requests

log = logging.getLogger("consumer")

ACK, RETRY, DEAD = "ack", "retry", "dead"


def decide(status, redelivered):
    if status == 201:
        return ACK
    if status == 422:
        return DEAD
    return DEAD if redelivered else RETRY


class Record:
    def __init__(self, path):
        path = pathlib.Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(str(path))
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS processed_messages ("
            " id INTEGER PRIMARY KEY, message_id TEXT UNIQUE NOT NULL, status INTEGER)"
        )
        self.conn.commit()

    def has(self, message_id):
        cur = self.conn.execute(
            "SELECT 1 FROM processed_messages WHERE message_id = ?", (message_id,))
        return cur.fetchone() is not None

    def add(self, message_id, status):
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO processed_messages (message_id, status) VALUES (?, ?)",
            (message_id, status))
        self.conn.commit()
        return cur.rowcount == 1


def call_claim_system(session, url, body):
    try:
        response = session.post(url, data=body, timeout=(1.0, 2.5),
                                headers={"Content-Type": "application/json"})
    except requests.RequestException as exc:
        log.warning("no answer from the claim system: %s", exc)
        return None
    return response.status_code


def run(args, record):
    session = requests.Session()
    url = args.claim.rstrip("/") + "/v1/claims"
    params = pika.URLParameters(os.environ.get("EAI_AMQP_URL",
                                               "amqp://guest:guest@127.0.0.1:5672/%2F"))
    connection = pika.BlockingConnection(params)
    try:
        ch = connection.channel()
        ch.basic_qos(prefetch_count=args.prefetch)
        deadline = time.time() + args.max_seconds
        for method, props, body in ch.consume("claim.in", auto_ack=False, inactivity_timeout=0.2):
            if time.time() > deadline:
                break
            if method is None:
                continue
            mid = props.message_id
            if mid and record.has(mid):
                ch.basic_ack(method.delivery_tag)
                log.info("%s duplicate, acked", mid)
                continue
            status = call_claim_system(session, url, body)
            what = decide(status, method.redelivered)
            if what == ACK:
                if mid and not record.add(mid, status):
                    log.info("%s was recorded meanwhile", mid)
                ch.basic_ack(method.delivery_tag)
            elif what == RETRY:
                ch.basic_nack(method.delivery_tag, requeue=True)
            else:
                ch.basic_reject(method.delivery_tag, requeue=False)
            log.info("%s -> %s (%s)", mid, what, status)
        ch.cancel()
    finally:
        connection.close()


def main():
    logging.basicConfig(level=logging.INFO)
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=int, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    args = p.parse_args()
    record = Record(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))
    try:
        run(args, record)
    finally:
        record.conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

# ---------------------------------------------------------------------------------------------
# Correct alternative 4: the topology from tables, queues declared before the exchanges, the
# connection as a context manager, and passive declarations afterwards to check it all exists.
# ---------------------------------------------------------------------------------------------

ALT4_TOPOLOGY = r'''#!/usr/bin/env python3
"""토폴로지: 큐 먼저, 교환기, 바인딩, 그리고 passive 선언으로 확인."""
import os
import sys

import pika
from pika.exchange_type import ExchangeType

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")

QUEUES = {
    "claim.dead": None,
    "claim.in": {"x-dead-letter-exchange": "eai.dlx", "x-dead-letter-routing-key": "claim.dead"},
}
EXCHANGES = ["eai.dlx", "eai.claim"]
BINDINGS = [("claim.dead", "eai.dlx", "claim.dead"), ("claim.in", "eai.claim", "claim")]


def main():
    with pika.BlockingConnection(pika.URLParameters(URL)) as conn:
        ch = conn.channel()
        for name, args in QUEUES.items():
            ch.queue_declare(queue=name, durable=True, arguments=args)
        for name in EXCHANGES:
            ch.exchange_declare(exchange=name, exchange_type=ExchangeType.direct, durable=True)
        for queue, exchange, key in BINDINGS:
            ch.queue_bind(queue=queue, exchange=exchange, routing_key=key)
        # 확인: 없으면 404 로 채널이 닫히고 예외가 난다
        for name in EXCHANGES:
            ch.exchange_declare(exchange=name, passive=True)
        for name in QUEUES:
            ok = ch.queue_declare(queue=name, passive=True)
            print(f"{name}: ready {ok.method.message_count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

# ---------------------------------------------------------------------------------------------
# Correct alternative 5: start_consuming() stopped by connection.call_later(max_seconds,
# channel.stop_consuming); http.client by hand with a timeout; SQLite in autocommit mode
# (isolation_level=None); basic_reject(requeue=True) for the one retry.
# ---------------------------------------------------------------------------------------------

ALT5_CONSUMER = r"""#!/usr/bin/env python3
# 소비자: start_consuming 으로 돌고, --max-seconds 뒤 call_later 로 stop_consuming.
import argparse
import http.client
import os
import sqlite3
import sys
import urllib.parse

import pika

AMQP_URL = os.getenv("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
DB_PATH = os.getenv("EAI_MQ_DB", "/root/eaimw/mq/processed.db")
TIMEOUT = 2


def post_claim(base, body):
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=TIMEOUT)
    try:
        conn.request("POST", u.path.rstrip("/") + "/v1/claims", body=body,
                     headers={"Content-Type": "application/json"})
        return conn.getresponse().status
    except (OSError, http.client.HTTPException) as e:
        print("claim system error:", repr(e), flush=True)
        return None
    finally:
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    opts = ap.parse_args()

    os.makedirs(os.path.dirname(os.path.abspath(DB_PATH)), exist_ok=True)
    db = sqlite3.connect(DB_PATH, isolation_level=None)  # autocommit: 곧바로 디스크에
    db.execute("CREATE TABLE IF NOT EXISTS done (id TEXT PRIMARY KEY)")

    def on_claim(ch, method, props, body):
        mid = props.message_id
        if mid and db.execute("SELECT id FROM done WHERE id = ?", (mid,)).fetchone():
            ch.basic_ack(method.delivery_tag)
            return
        code = post_claim(opts.claim, body)
        if code == 201:
            if mid:
                db.execute("INSERT OR IGNORE INTO done (id) VALUES (?)", (mid,))
            ch.basic_ack(method.delivery_tag)
        elif code == 422 or method.redelivered:
            ch.basic_reject(method.delivery_tag, requeue=False)
        else:
            ch.basic_reject(method.delivery_tag, requeue=True)
        print(mid, code, "redelivered" if method.redelivered else "", flush=True)

    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=opts.prefetch)
    channel.basic_consume("claim.in", on_claim)
    connection.call_later(opts.max_seconds, channel.stop_consuming)
    try:
        channel.start_consuming()
    finally:
        connection.close()
        db.close()


if __name__ == "__main__":
    main()
"""

CORRECT: list[Variant] = [
    Variant(
        "callback-consumer",
        "basic_consume callbacks driven by process_data_events(time_limit=...) until the "
        "deadline; basic_nack(requeue=False) for dead letters; its own table, INSERT OR REPLACE",
        (Replace("consumer.py", ALT1_CONSUMER),),
    ),
    Variant(
        "reserialised-publisher",
        "publishes json.dumps(json.load(f)): the same JSON value, other bytes (lab decision)",
        (Replace("publish.py", ALT2_PUBLISH),),
    ),
    Variant(
        "requests-consumer",
        "requests with timeout=(1, 2.5), a decision function, INSERT OR IGNORE + rowcount",
        (Replace("consumer.py", ALT3_CONSUMER),),
    ),
    Variant(
        "tables-topology",
        "queues before exchanges, declared from tables, then checked with passive declares",
        (Replace("topology.py", ALT4_TOPOLOGY),),
    ),
    Variant(
        "start-consuming-consumer",
        "start_consuming() ended by call_later(max_seconds, stop_consuming); http.client by "
        "hand; SQLite in autocommit mode; basic_reject(requeue=True) for the retry",
        (Replace("consumer.py", ALT5_CONSUMER),),
    ),
]


def _alt1_with(old: str, new: str) -> str:
    """ALT1_CONSUMER with one mistake (``old`` must be there)."""
    if old not in ALT1_CONSUMER:
        raise AssertionError(f"ALT1_CONSUMER has no {old!r}")
    return ALT1_CONSUMER.replace(old, new)


WRONG: list[Variant] = [
    # step 2 ------------------------------------------------------------------------------
    Variant(
        "topology-ignores-eai-amqp-url",
        "topology.py hard-codes the default URL: it declares on 127.0.0.1:5672, vhost /, "
        "never in the vhost the grader hands it",
        (Edit("topology.py",
              'AMQP_URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")',
              'AMQP_URL = "amqp://guest:guest@127.0.0.1:5672/%2F"'),),
        rejected_on="M2.1",
    ),
    Variant(
        "dlx-not-durable",
        "eai.dlx declared without durable=True",
        (Edit("topology.py",
              'channel.exchange_declare(DEAD_LETTER_EXCHANGE, exchange_type="direct", '
              "durable=True)",
              'channel.exchange_declare(DEAD_LETTER_EXCHANGE, exchange_type="direct")'),),
        rejected_on="M2.2",
    ),
    Variant(
        "claim-in-without-dlx-arguments",
        "claim.in declared durable but without the two dead-letter arguments",
        (Edit("topology.py",
              "        durable=True,\n"
              "        arguments={\n"
              '            "x-dead-letter-exchange": DEAD_LETTER_EXCHANGE,\n'
              '            "x-dead-letter-routing-key": DEAD_KEY,\n'
              "        },\n",
              "        durable=True,\n"),),
        rejected_on="M2.3",
    ),
    Variant(
        "binding-key-is-queue-name",
        "eai.claim -> claim.in bound with the queue's name (claim.in) instead of the key claim",
        (Edit("topology.py",
              "channel.queue_bind(CLAIM_QUEUE, CLAIM_EXCHANGE, routing_key=CLAIM_KEY)",
              "channel.queue_bind(CLAIM_QUEUE, CLAIM_EXCHANGE, routing_key=CLAIM_QUEUE)"),),
        rejected_on="M2.4",
    ),
    # step 3 ------------------------------------------------------------------------------
    Variant(
        "transient-messages",
        "lab mistake: durable queue, but the message is published without delivery_mode 2",
        (Edit("publish.py",
              "        delivery_mode=pika.DeliveryMode.Persistent,  # a durable queue alone is not "
              "enough\n", ""),),
        rejected_on="M3.2",
    ),
    Variant(
        "message-id-is-claim-id",
        "message_id set to the claim's claimId instead of its guid",
        (Edit("publish.py", "        message_id=guid,\n",
              "        message_id=json.loads(body)[\"claimId\"],\n"),),
        rejected_on="M3.2",
    ),
    Variant(
        "no-content-type",
        "published without content_type application/json",
        (Edit("publish.py", '        content_type="application/json",\n', ""),),
        rejected_on="M3.2",
    ),
    Variant(
        "no-mandatory",
        "confirms on, but mandatory left False: an unroutable claim is confirmed and dropped",
        (Edit("publish.py",
              "channel.basic_publish(CLAIM_EXCHANGE, CLAIM_KEY, body, properties, mandatory=True)",
              "channel.basic_publish(CLAIM_EXCHANGE, CLAIM_KEY, body, properties)"),),
        rejected_on="M3.3",
    ),
    Variant(
        "no-publisher-confirms",
        "confirm_delivery() never called: neither a return nor a nack raises anything",
        (Edit("publish.py", "        channel.confirm_delivery()\n", ""),),
        rejected_on="M3.4",
    ),
    # step 4 ------------------------------------------------------------------------------
    Variant(
        "auto-ack",
        "lab mistake: auto_ack=True, so the broker forgets a claim as soon as it is delivered",
        (
            Edit("consumer.py", "channel.consume(CLAIM_QUEUE, inactivity_timeout=0.5)",
                 "channel.consume(CLAIM_QUEUE, inactivity_timeout=0.5, auto_ack=True)"),
            Edit("consumer.py", "        channel.basic_ack(tag)\n", ""),
            Edit("consumer.py", "        channel.basic_reject(tag, requeue=False)\n",
                 "        pass\n"),
            Edit("consumer.py", "        channel.basic_nack(tag, requeue=True)\n",
                 "        pass\n"),
        ),
        rejected_on="M4.3",
    ),
    Variant(
        "ack-on-receipt",
        "acks each message as soon as it arrives, then calls the claim system (failures only "
        "logged: the message is already gone)",
        (
            Edit("consumer.py", "    status = post_claim(claim_url, body)\n",
                 "    channel.basic_ack(tag)  # got it\n"
                 "    status = post_claim(claim_url, body)\n"),
            Edit("consumer.py",
                 "        record(db, message_id)\n        channel.basic_ack(tag)\n",
                 "        record(db, message_id)\n"),
            Edit("consumer.py", "        channel.basic_reject(tag, requeue=False)\n", ""),
            Edit("consumer.py", "        channel.basic_nack(tag, requeue=True)\n", ""),
        ),
        rejected_on="M4.4",
    ),
    Variant(
        "never-exits-when-idle",
        "the deadline is only checked after a message: an idle consumer never ends",
        (Edit("consumer.py",
              "        if method is not None:  # None: half a second without a message\n"
              "            handle(channel, method, properties, body, claim_url, db)\n",
              "        if method is None:  # nothing to do: wait for the next one\n"
              "            continue\n"
              "        handle(channel, method, properties, body, claim_url, db)\n"),),
        rejected_on="M4.2",
    ),
    # step 5 ------------------------------------------------------------------------------
    Variant(
        "business-rejection-requeued",
        "lab mistake: a 422 is nacked with requeue, a poison message that comes back forever",
        (Edit("consumer.py",
              "        channel.basic_reject(tag, requeue=False)\n"
              '        log.info("%s: rejected by the claim system (422), dead-lettered", '
              "message_id)\n",
              "        channel.basic_nack(tag, requeue=True)\n"
              '        log.info("%s: rejected by the claim system (422), requeued", '
              "message_id)\n"),),
        rejected_on="M5.1",
    ),
    # step 6 ------------------------------------------------------------------------------
    Variant(
        "transient-requeued-forever",
        "no redelivered check: a 503 claim is requeued again and again, never dead-lettered",
        (Edit("consumer.py",
              "    elif method.redelivered:\n"
              "        # Failed before and failed again: requeueing without limit would let a long "
              "outage\n"
              "        # keep the whole queue spinning on these messages. Off to claim.dead.\n"
              "        channel.basic_reject(tag, requeue=False)\n"
              '        log.warning("%s: failed again when redelivered (%s), dead-lettered", '
              "message_id, status)\n",
              ""),),
        rejected_on="M6.1",
    ),
    Variant(
        "transient-dead-at-once",
        "a 503 or no answer is dead-lettered at once, without the one retry",
        (Edit("consumer.py", "        channel.basic_nack(tag, requeue=True)\n",
              "        channel.basic_reject(tag, requeue=False)\n"),),
        rejected_on="M6.1",
    ),
    Variant(
        "only-http-errors-caught",
        "post_claim catches HTTPError only: a refused connection (URLError) crashes the consumer",
        (Edit("consumer.py",
              "    except (OSError, http.client.HTTPException) as exc:  # refused, reset, "
              "timed out, garbled\n"
              '        log.warning("claim system did not answer: %r", exc)\n'
              "        return None\n",
              ""),),
        rejected_on="M6.2",
    ),
    Variant(
        "no-http-timeout",
        "urlopen without a timeout: a claim system that hangs hangs the consumer",
        (Edit("consumer.py", "urllib.request.urlopen(request, timeout=HTTP_TIMEOUT)",
              "urllib.request.urlopen(request)"),),
        rejected_on="M6.3",
    ),
    # step 7 ------------------------------------------------------------------------------
    Variant(
        "no-basic-qos",
        "basic_qos never called: the consumer takes the whole queue unacked",
        (Edit("consumer.py", "    channel.basic_qos(prefetch_count=prefetch)\n", ""),),
        rejected_on="M7.1",
    ),
    Variant(
        "qos-after-basic-consume",
        "the callback consumer sets basic_qos after basic_consume: too late, no limit",
        (Replace("consumer.py", _alt1_with(
            "    channel.basic_qos(prefetch_count=args.prefetch)  # 소비 시작 전에!\n"
            '    tag = channel.basic_consume(queue="claim.in", '
            "on_message_callback=forwarder.on_message,\n"
            "                                auto_ack=False)\n",
            '    tag = channel.basic_consume(queue="claim.in", '
            "on_message_callback=forwarder.on_message,\n"
            "                                auto_ack=False)\n"
            "    channel.basic_qos(prefetch_count=args.prefetch)\n")),),
        rejected_on="M7.1",
    ),
    Variant(
        "prefetch-always-5",
        "basic_qos(prefetch_count=5) whatever --prefetch says",
        (Edit("consumer.py", "    channel.basic_qos(prefetch_count=prefetch)\n",
              "    channel.basic_qos(prefetch_count=5)\n"),),
        rejected_on="M7.2",
    ),
    # step 8 ------------------------------------------------------------------------------
    Variant(
        "dedup-in-a-set",
        "the table is created, but processed message_ids are kept in a Python set: forgotten "
        "when the consumer restarts",
        (
            Edit("consumer.py", 'log = logging.getLogger("consumer")\n',
                 'log = logging.getLogger("consumer")\nPROCESSED: set[str] = set()\n'),
            Edit("consumer.py",
                 '    row = db.execute("SELECT 1 FROM processed WHERE message_id = ?", '
                 "(message_id,)).fetchone()\n"
                 "    return row is not None\n",
                 "    return message_id in PROCESSED\n"),
            Edit("consumer.py",
                 "    with db:  # commits at once: the record is on disk before we ack\n"
                 '        db.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)", '
                 "(message_id,))\n",
                 "    PROCESSED.add(message_id)\n"),
        ),
        rejected_on="M8.2",
    ),
    Variant(
        "record-never-committed",
        "the INSERT is never committed: the same process sees it, a restarted one does not",
        (Edit("consumer.py",
              "    with db:  # commits at once: the record is on disk before we ack\n"
              '        db.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)", '
              "(message_id,))\n",
              '    db.execute("INSERT OR IGNORE INTO processed (message_id) VALUES (?)", '
              "(message_id,))\n"),),
        rejected_on="M8.2",
    ),
    Variant(
        "db-beside-the-script",
        "EAI_MQ_DB ignored: the record is kept in processed.db next to consumer.py",
        (Edit("consumer.py",
              'DB_PATH = Path(os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db"))',
              'DB_PATH = Path(__file__).resolve().parent / "processed.db"'),),
        rejected_on="M8.3",
    ),
    Variant(
        "duplicate-skipped-not-acked",
        "a known message_id is skipped without calling the claim system, but never acked: it "
        "sits unacked, and comes back at every restart",
        (Edit("consumer.py",
              '        log.info("%s: already processed, ack without calling the claim system", '
              "message_id)\n"
              "        channel.basic_ack(tag)\n",
              '        log.info("%s: already processed, skipped", message_id)\n'),),
        rejected_on="M8.1",
    ),
    Variant(
        "duplicate-dead-lettered",
        "a known message_id is rejected to claim.dead instead of acked",
        (Edit("consumer.py",
              '        log.info("%s: already processed, ack without calling the claim system", '
              "message_id)\n"
              "        channel.basic_ack(tag)\n",
              '        log.info("%s: already processed, dropped", message_id)\n'
              "        channel.basic_reject(tag, requeue=False)\n"),),
        rejected_on="M8.1",
    ),
    Variant(
        "recorded-on-receipt",
        "the message_id is recorded before the POST: a claim that failed is never tried again",
        (
            Edit("consumer.py", "    status = post_claim(claim_url, body)\n",
                 "    record(db, message_id)\n    status = post_claim(claim_url, body)\n"),
            Edit("consumer.py", "        record(db, message_id)\n        channel.basic_ack(tag)\n",
                 "        channel.basic_ack(tag)\n"),
        ),
        rejected_on="M8.4",
    ),
]
