#!/usr/bin/env bash
# mq_smoke.sh: walk the mq lab once with the reference solution on a PRIVATE RabbitMQ node.
#
#   bash bench/mq_smoke.sh   (as root, with rabbitmq-server; PY: a python with pika, default .venv)
#
# Starts its own node with fixtures/files/mq-up.sh on free ports (own epmd, own data dir), so
# a broker on 5672/15672/4369 is neither used nor disturbed, and removes everything at the end.
# Shows: topology twice; a good, a no-docs and a BUSY claim through consumer.py; the partner's
# call counts; where each claim ended; the live prefetch; a second publish of the good claim.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$here/.venv/bin/python}
SOL=$here/solutions/mq

read -r MQ_AMQP_PORT MQ_MGMT_PORT MQ_DIST_PORT MQ_EPMD_PORT PARTNER_PORT < <("$PY" - <<'EOF'
import socket
socks = [socket.socket() for _ in range(5)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))
EOF
)
work=$(mktemp -d /tmp/mq-smoke.XXXXXX)
export MQ_NODE=smoke$$@localhost MQ_BASE=$work/node
export MQ_AMQP_PORT MQ_MGMT_PORT MQ_DIST_PORT MQ_EPMD_PORT
export ERL_EPMD_PORT=$MQ_EPMD_PORT # every rabbitmqctl below talks to the private epmd
chmod 755 "$work"                  # user rabbitmq must reach $MQ_BASE
vhost=smoke-$RANDOM
export EAI_AMQP_URL="amqp://guest:guest@127.0.0.1:$MQ_AMQP_PORT/$vhost"
export EAI_MQ_DB=$work/processed.db
mgmt=http://127.0.0.1:$MQ_MGMT_PORT/api
partner_pid=

stop_all() {
    [ -n "$partner_pid" ] && kill "$partner_pid" 2>/dev/null
    if [ -s "$MQ_BASE/node.pid" ]; then
        # The fastest clean stop of a throwaway node: SIGKILL the VM (its erl_child_setup and
        # inet_gethost children exit with it), then its private epmd.
        kill -KILL "$(cat "$MQ_BASE/node.pid")" 2>/dev/null || true
    fi
    epmd -port "$MQ_EPMD_PORT" -kill >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap stop_all EXIT

ok=0
check() { # check WHAT EXPECTED SEEN
    if [ "$2" = "$3" ]; then echo "  ok   $1: $3"; else echo "  FAIL $1: expected $2, saw $3"; ok=1; fi
}
ctl() { rabbitmqctl -s -n "$MQ_NODE" "$@"; }
depth() { ctl list_queues -p "$vhost" name messages | awk -v q="$1" '$1 == q {print $2}'; }
calls() { curl -s "$partner/_stats" | "$PY" -c "import json,sys; print(json.load(sys.stdin)['by_guid'].get('$1', 0))"; }
dead_ids() { # message_ids in claim.dead, peeked and requeued through the management API
    curl -s -u guest:guest -H 'content-type: application/json' \
        -d '{"count":100,"ackmode":"reject_requeue_true","encoding":"auto"}' \
        "$mgmt/queues/$vhost/claim.dead/get" |
        "$PY" -c "import json,sys; print(' '.join(sorted(m['properties']['message_id'] for m in json.load(sys.stdin))))"
}

t0=$(date +%s.%N)
bash "$here/fixtures/files/mq-up.sh"
echo "node ready after $(echo "$(date +%s.%N) - $t0" | bc) s"
curl -sf -u guest:guest -X PUT "$mgmt/vhosts/$vhost" >/dev/null
curl -sf -u guest:guest -X PUT -H 'content-type: application/json' \
    -d '{"configure":".*","write":".*","read":".*"}' "$mgmt/permissions/$vhost/guest" >/dev/null

claim() { # claim FILE GUID CLAIM_ID DOCS_JSON
    cat >"$1" <<EOF
{"guid": "$2", "claimId": "$3", "policyNo": "P-20931", "insured": "김하나", "amount": 350000, "docs": $4, "submittedAt": "2026-11-02T09:15:00+09:00"}
EOF
}
uuid() { "$PY" -c 'import uuid; print(uuid.uuid4())'; }
good=$(uuid) nodocs=$(uuid) busy=$(uuid)
claim "$work/good.json" "$good" CLM-2026-0001 '["receipt.pdf"]'
claim "$work/nodocs.json" "$nodocs" CLM-2026-0002 '[]'
claim "$work/busy.json" "$busy" BUSY-2026-0003 '["receipt.pdf"]'

echo "== topology twice, publish three claims"
"$PY" "$SOL/topology.py"
"$PY" "$SOL/topology.py"
for f in good nodocs busy; do "$PY" "$SOL/publish.py" "$work/$f.json"; done
check "claim.in before consuming" 3 "$(depth claim.in)"

coproc PARTNER { exec "$PY" "$here/fixtures/files/partner.py" claim --port "$PARTNER_PORT"; }
partner_pid=$PARTNER_PID
read -r line <&"${PARTNER[0]}"
echo "$line"
partner=${line##* }
curl -s -X POST -d '{"delay": 0.5}' "$partner/_control" >/dev/null # slow enough to see prefetch

echo "== consumer.py --max-seconds 5"
"$PY" "$SOL/consumer.py" --claim "$partner" --max-seconds 5 &
consumer=$!
sleep 1.5
consumers=$(ctl list_consumers -p "$vhost" queue_name ack_required prefetch_count)
wait "$consumer"
check "consumer while running (queue ack_required prefetch)" "claim.in	true	5" "$consumers"
check "calls for the good claim" 1 "$(calls "$good")"
check "calls for the no-docs claim" 1 "$(calls "$nodocs")"
check "calls for the BUSY claim" 2 "$(calls "$busy")"
check "claim.in after" 0 "$(depth claim.in)"
check "claim.dead holds no-docs and BUSY" "$(echo "$nodocs $busy" | tr ' ' '\n' | sort | xargs)" \
    "$(dead_ids)"

echo "== the good claim published again, a new consumer on the same EAI_MQ_DB"
"$PY" "$SOL/publish.py" "$work/good.json"
"$PY" "$SOL/consumer.py" --claim "$partner" --max-seconds 2
check "calls for the good claim" 1 "$(calls "$good")"
check "claim.in after" 0 "$(depth claim.in)"
check "claim.dead unchanged" 2 "$(depth claim.dead)"

[ "$ok" = 0 ] && echo "mq smoke: all checks passed" || echo "mq smoke: FAILED"
exit "$ok"
