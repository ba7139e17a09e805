#!/usr/bin/env python3
"""publish.py CLAIM_JSON_FILE

Publish one claim to eai.claim (routing key "claim") and wait for the broker's verdict.

I followed the "Asynchronous publisher example" of the pika docs: an asynchronous
SelectConnection, Confirm.Select on the channel, and every Basic.Ack / Basic.Nack matched
against the delivery tag of the message we sent (tags count 1, 2, ... per channel once
confirms are on; "multiple" covers every tag up to the one given). With mandatory=True an
unroutable message comes back as Basic.Return *before* its Basic.Ack, so the Ack alone is
not proof of delivery.

exit 0  confirmed (acked and not returned)
exit 2  returned: unroutable (nothing bound for "claim")
exit 3  nacked by the broker (e.g. queue full with overflow=reject-publish)
exit 4  connection / channel failure, or no verdict in time
exit 64 usage, unreadable or invalid JSON, no guid
"""
import json
import os
import sys

import pika
from pika.spec import Basic

URL = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
EXCHANGE = "eai.claim"
ROUTING_KEY = "claim"
VERDICT_TIMEOUT = 15.0


class ConfirmedPublisher:
    def __init__(self, body: bytes, message_id: str) -> None:
        self.body = body
        self.message_id = message_id
        self.next_tag = 0          # delivery tag the broker will give our next publish
        self.our_tag = None        # the tag of the one message we publish
        self.returned = None       # reply_text of a Basic.Return for our message
        self.exit_code = 4
        self.connection = None

    # --- connection / channel -------------------------------------------------------------
    def run(self) -> int:
        self.connection = pika.SelectConnection(
            pika.URLParameters(URL),
            on_open_callback=self.on_connection_open,
            on_open_error_callback=self.on_connection_open_error,
            on_close_callback=self.on_connection_closed,
        )
        self.connection.ioloop.call_later(VERDICT_TIMEOUT, self.on_timeout)
        self.connection.ioloop.start()
        return self.exit_code

    def on_connection_open(self, connection) -> None:
        connection.channel(on_open_callback=self.on_channel_open)

    def on_connection_open_error(self, _connection, error) -> None:
        print(f"publish: cannot connect: {error!r}", file=sys.stderr)
        self.exit_code = 4
        self.connection.ioloop.stop()

    def on_connection_closed(self, _connection, _reason) -> None:
        self.connection.ioloop.stop()

    def on_channel_open(self, channel) -> None:
        self.channel = channel
        channel.add_on_close_callback(self.on_channel_closed)
        channel.add_on_return_callback(self.on_return)
        channel.confirm_delivery(ack_nack_callback=self.on_confirm, callback=self.on_confirm_select_ok)

    def on_channel_closed(self, _channel, reason) -> None:
        if self.exit_code == 4:
            print(f"publish: channel closed: {reason!r}", file=sys.stderr)
        if self.connection.is_open:
            self.connection.close()

    # --- publishing -----------------------------------------------------------------------
    def on_confirm_select_ok(self, _frame) -> None:
        props = pika.BasicProperties(
            delivery_mode=pika.DeliveryMode.Persistent,
            message_id=self.message_id,
            content_type="application/json",
        )
        self.channel.basic_publish(EXCHANGE, ROUTING_KEY, self.body, properties=props, mandatory=True)
        self.next_tag += 1
        self.our_tag = self.next_tag

    def on_return(self, _channel, method, _props, _body) -> None:
        self.returned = f"{method.reply_code} {method.reply_text}"

    def on_confirm(self, frame) -> None:
        method = frame.method
        tag, multiple = method.delivery_tag, method.multiple
        covers_ours = tag == self.our_tag or (multiple and self.our_tag is not None and tag >= self.our_tag)
        if not covers_ours:
            return
        if isinstance(method, Basic.Ack):
            if self.returned is not None:
                print(f"publish: unroutable, returned by the broker: {self.returned}", file=sys.stderr)
                self.exit_code = 2
            else:
                print(f"publish: confirmed message_id={self.message_id} (delivery tag {tag})")
                self.exit_code = 0
        elif isinstance(method, Basic.Nack):
            print(f"publish: NACKed by the broker (delivery tag {tag})", file=sys.stderr)
            self.exit_code = 3
        self.connection.close()

    def on_timeout(self) -> None:
        print("publish: no confirm within %.0fs" % VERDICT_TIMEOUT, file=sys.stderr)
        self.exit_code = 4
        if self.connection.is_open:
            self.connection.close()
        else:
            self.connection.ioloop.stop()


def main(argv) -> int:
    if len(argv) != 2:
        print("usage: publish.py CLAIM_JSON_FILE", file=sys.stderr)
        return 64
    try:
        with open(argv[1], "rb") as fh:
            body = fh.read()           # published byte for byte
        claim = json.loads(body)
        guid = claim["guid"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"publish: bad claim file {argv[1]}: {exc!r}", file=sys.stderr)
        return 64
    if not isinstance(guid, str) or not guid:
        print("publish: the claim has no usable guid", file=sys.stderr)
        return 64
    return ConfirmedPublisher(body, guid).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
