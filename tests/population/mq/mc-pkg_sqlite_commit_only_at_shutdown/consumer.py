"""python3 consumer.py --claim URL --max-seconds S [--prefetch N]"""
import argparse
import functools
import time

import requests

import cfg
import mqcommon


def on_message(ch, method, props, body, claims_url, plog, deadline):
    if time.monotonic() >= deadline:
        return  # not ours any more; goes back to the queue on close
    mid = props.message_id
    if mid in plog:
        ch.basic_ack(method.delivery_tag)
        print(mid, "already done, ack")
        return
    try:
        status = requests.post(claims_url, data=body, headers={"Content-Type": "application/json"},
                               timeout=cfg.HTTP_TIMEOUT).status_code
    except requests.RequestException as e:
        status = f"error:{type(e).__name__}"
    if status == 201:
        plog.add(mid)
        ch.basic_ack(method.delivery_tag)
    elif status == 422:
        ch.basic_reject(method.delivery_tag, requeue=False)
    elif method.redelivered:
        ch.basic_reject(method.delivery_tag, requeue=False)
    else:
        ch.basic_nack(method.delivery_tag, requeue=True)
    print(mid, status, "(redelivered)" if method.redelivered else "", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--claim", required=True)
    ap.add_argument("--max-seconds", type=float, required=True)
    ap.add_argument("--prefetch", type=int, default=5)
    args = ap.parse_args()
    deadline = time.monotonic() + args.max_seconds
    claims_url = args.claim.rstrip("/") + "/v1/claims"

    with mqcommon.ProcessedLog() as plog:
        conn = mqcommon.connection()
        ch = conn.channel()
        ch.basic_qos(prefetch_count=args.prefetch)
        ch.basic_consume(cfg.CLAIM_QUEUE, functools.partial(on_message, claims_url=claims_url, plog=plog,
                                                            deadline=deadline))
        while time.monotonic() < deadline:
            conn.process_data_events(time_limit=min(1.0, max(0.0, deadline - time.monotonic())))
        conn.close()


if __name__ == "__main__":
    main()
