#!/usr/bin/env bash
# broker.sh: the population's own RabbitMQ node, for writing and trying mq submissions.
#
#   tests/population/broker.sh up     start it (idempotent) and print the environment to use
#   tests/population/broker.sh down   stop it and remove its data
#
# The node is named rabbit@localhost, as in the lab, but listens on 127.0.0.1:5790 (management
# 15790) and registers with an epmd of its own on port 4390, so it never meets a broker on the
# lab's default ports. Scripts reach it through EAI_AMQP_URL; `rabbitmqctl -n rabbit@localhost`
# reaches it with ERL_EPMD_PORT=4390 set (`eval "$(tests/population/broker.sh up)"`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export MQ_NODE=rabbit@localhost MQ_AMQP_PORT=5790 MQ_MGMT_PORT=15790 MQ_DIST_PORT=25790 \
    MQ_EPMD_PORT=4390 MQ_BASE=/var/lib/rabbitmq/population
case "${1:-}" in
    up)
        fixtures=${POD_FIXTURES:-$here/.pod-fixtures}
        home=$(mktemp -d)
        "$here/pod.sh" "$home" true  # builds the fixture tree when missing
        rm -rf "$home"
        bash "$fixtures/eaimw/mq/mq-up.sh" >&2
        echo "export EAI_AMQP_URL='amqp://guest:guest@127.0.0.1:5790/%2F' ERL_EPMD_PORT=4390"
        ;;
    down)
        ERL_EPMD_PORT=4390 rabbitmqctl -n rabbit@localhost stop >/dev/null 2>&1 || true
        epmd -port 4390 -kill >/dev/null 2>&1 || true
        rm -rf "$MQ_BASE"
        ;;
    *)
        echo "usage: broker.sh up|down" >&2
        exit 2
        ;;
esac
