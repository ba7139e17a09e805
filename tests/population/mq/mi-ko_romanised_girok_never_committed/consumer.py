#!/usr/bin/env python3
# consumer.py --claim <cheonggu siseutem URL> --max-seconds <cho> [--prefetch N]
import argparse
import os
import sqlite3
import sys
import time

import pika
import requests

jeopsok_juso = os.environ.get("EAI_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
girok_db = os.environ.get("EAI_MQ_DB", "/root/eaimw/mq/processed.db")

TAIMAUT = 3.0  # cho (초)


def insu_bunseok():
    p = argparse.ArgumentParser()
    p.add_argument("--claim", required=True)
    p.add_argument("--max-seconds", type=float, required=True)
    p.add_argument("--prefetch", type=int, default=5)
    return p.parse_args()


def girok_yeolgi(gyeongno):
    db = sqlite3.connect(gyeongno)
    db.execute("CREATE TABLE IF NOT EXISTS cheori_girok (message_id TEXT PRIMARY KEY, cheori_sigak TEXT)")
    return db


def imi_cheori(db, message_id):
    # imi cheorihan message_id inga? (이미 처리한 message_id 인가?)
    return db.execute("SELECT 1 FROM cheori_girok WHERE message_id = ?", (message_id,)).fetchone() is not None


def girok_namgigi(db, message_id):
    # seonggong girok (성공 기록) -> geu dameum ack
    db.execute("INSERT OR IGNORE INTO cheori_girok VALUES (?, datetime('now'))", (message_id,))


def cheonggu_jeonsong(url, bonmun, namneun_sigan):
    """Returns the HTTP status, or None for yeongyeol silpae / sigan chogwa (연결 실패·시간 초과)."""
    try:
        r = requests.post(url.rstrip("/") + "/v1/claims", data=bonmun,
                          headers={"Content-Type": "application/json"},
                          timeout=max(0.2, min(TAIMAUT, namneun_sigan)))
        return r.status_code
    except requests.RequestException as e:
        print("  ilsi oryu (일시 오류):", type(e).__name__)
        return None


def main():
    insu = insu_bunseok()
    machim = time.monotonic() + insu.max_seconds
    db = girok_yeolgi(girok_db)

    yeongyeol = pika.BlockingConnection(pika.URLParameters(jeopsok_juso))
    chaeneol = yeongyeol.channel()
    chaeneol.basic_qos(prefetch_count=insu.prefetch)

    for mesodeu, sokseong, bonmun in chaeneol.consume("claim.in", inactivity_timeout=0.5):
        if time.monotonic() >= machim:
            break
        if mesodeu is None:
            continue  # swineun jung (쉬는 중)
        taegeu = mesodeu.delivery_tag
        mid = sokseong.message_id

        if mid and imi_cheori(db, mid):
            print(mid, "imi cheori -> ack man (이미 처리 -> ack 만)")
            chaeneol.basic_ack(taegeu)
            continue

        sangtae = cheonggu_jeonsong(insu.claim, bonmun, machim - time.monotonic())
        print(mid, "->", sangtae, "(jaebaedal)" if mesodeu.redelivered else "")
        if sangtae == 201:
            if mid:
                girok_namgigi(db, mid)
            chaeneol.basic_ack(taegeu)
        elif sangtae == 422:
            chaeneol.basic_reject(taegeu, requeue=False)   # eommu georeul -> DLX
        elif mesodeu.redelivered:
            chaeneol.basic_reject(taegeu, requeue=False)   # du beon silpae -> DLX
        else:
            chaeneol.basic_nack(taegeu, requeue=True)      # han beon doedollim

    chaeneol.cancel()
    yeongyeol.close()
    db.close()


if __name__ == "__main__":
    main()
