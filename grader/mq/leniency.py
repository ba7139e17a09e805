"""The mq lab's leniency model (grader/machinery/leniency.py): the ways a correct student may write
each artefact, each with the submissions that show the grader accepts it."""

from __future__ import annotations

from grader.machinery.leniency import Leniency

LENIENCY = Leniency()
way = LENIENCY.way

way(
    "status.txt",
    "UTF-8 with a BOM, CRLF line ends, no final newline, colour codes kept",
    "variant status_crlf_bom",
    "population me-windows_crlf_bom_notepad",
)
way(
    "topology.py",
    "queues before exchanges, from tables, checked after with passive declares",
    "variant tables_topology",
    "population mb-httpclient_getopt_passive_topology",
)
way(
    "topology.py",
    "more than the lab lists: an alternate exchange, an audit queue, an ingress exchange bound to eai.claim",
    "population mc-extras_alternate_exchange_compact_body",
    "population mc-passive_checks_exchange_bind",
)
way(
    "publish.py",
    "the claim re-serialised (same JSON value, other bytes)",
    "variant reserialised_publisher",
    "population mj-threadpool_callbacks_reserialised_json",
)
way(
    "consumer.py",
    "a consume() generator with an inactivity timeout",
    "variant reference",
    "population mf-monotonic-consume_generator_httpclient_clamped",
)
way(
    "consumer.py",
    "basic_consume with process_data_events, or start_consuming ended by call_later",
    "variant callback_consumer",
    "variant start_consuming_consumer",
)
way(
    "consumer.py",
    "HTTP by urllib, requests or http.client",
    "variant reference",
    "variant requests_consumer",
    "variant start_consuming_consumer",
)
way(
    "consumer.py",
    "the work in a child process, or the POSTs on a thread pool with acks handed "
    "back to the connection's thread",
    "variant consumer_works_in_a_child_process",
    "population ma-production_threadpool_threadsafe_acks",
    "population mg-threadpool",
)
way(
    "consumer.py",
    "the record in any table and shape: a row per message_id, a JSON list in one "
    "row, a table of its own next to others",
    "variant reference",
    "variant json_list_record_consumer",
    "variant same_transaction_consumer",
)
way(
    "consumer.py",
    "the check and the record in one transaction held across the POST",
    "variant same_transaction_consumer",
    "population mi-onetx_begin_immediate_post_inside",
)
way(
    "status.txt",
    "saved with -q (no header line), --unit gb, through tee or a Python one-liner",
    "population ml-crlf_threadpool_generator_quiet_status",
    "population ml-bom_korean_sqlite3_cli_dedup",
    "population ml-generator_priority_lazy_ae",
)
way(
    "topology.py",
    "arguments beyond the lab's on its queues and exchanges: x-max-priority on claim.in, "
    "a lazy or quorum claim.dead, an alternate exchange on eai.dlx",
    "population ml-generator_priority_lazy_ae",
    "population ml-basicget_refill_quorum_dead",
)
way(
    "consumer.py",
    "basic_get in a loop, holding no more than --prefetch unacked itself",
    "population ml-basicget_refill_quorum_dead",
)
way(
    "consumer.py",
    "the record written through the sqlite3 shell, or with no busy timeout",
    "variant record_without_busy_timeout",
    "population ml-bom_korean_sqlite3_cli_dedup",
)
way(
    "consumer.py",
    "options as --claim=URL (getopt), timeouts from the environment in milliseconds",
    "population mk-generator-workers",
    "population mk-thread-per-message",
)
