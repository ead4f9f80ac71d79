#!/usr/bin/env bash
# What `npm test` needs on this machine: PostgreSQL, RabbitMQ and Redis running locally (started here
# when installed but stopped), Debian's Chromium headless shell for the browser tests and Debian's kubectl (with
# kustomize) for the Kubernetes manifests' test (each installed when missing).
# With TEST_DATABASE_URL / TEST_AMQP_URL / TEST_REDIS_URL pointing elsewhere, those servers are left alone.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif have sudo; then sudo "$@"; else return 1; fi; }

if [ -z "${TEST_DATABASE_URL:-}" ] && have pg_isready && ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  echo "Starting PostgreSQL…"
  as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start || true
fi
if [ -z "${TEST_REDIS_URL:-}" ] && have redis-server && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "Starting Redis…"
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
fi
if [ -z "${TEST_AMQP_URL:-}" ] && have rabbitmq-server; then
  # A broker that accepts connections but no longer answers them (out of file descriptors, or wedged
  # with its diagnostics still saying it runs) is restarted: an AMQP handshake is what tests need.
  amqp_answers() {
    timeout 30 node -e "require('amqplib').connect('amqp://guest:guest@127.0.0.1:5672', { timeout: 20000 })
      .then((c) => c.close()).then(() => process.exit(0), () => process.exit(1))" >/dev/null 2>&1
  }
  if rabbitmq-diagnostics -q check_port_connectivity >/dev/null 2>&1 && ! amqp_answers; then
    echo "RabbitMQ does not answer: restarting it…"
    as_root pkill -9 -f beam.smp || true
    sleep 2
  fi
  if ! rabbitmq-diagnostics -q check_port_connectivity >/dev/null 2>&1; then
    echo "Starting RabbitMQ…"
    as_root rabbitmq-server -detached || true
    for _ in $(seq 1 45); do rabbitmq-diagnostics -q check_port_connectivity >/dev/null 2>&1 && break; sleep 2; done
  fi
fi

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}" ]; then
  echo "Installing Debian's Chromium headless shell for the browser tests…"
  if ! (as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null); then
    echo "Chromium is missing: install Debian's 'chromium-headless-shell' package or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi
if ! have kubectl; then
  echo "Installing Debian's kubectl for the Kubernetes manifests' test…"
  if ! (as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kubectl >/dev/null); then
    echo "kubectl is missing: install Debian's 'kubectl' package." >&2
    exit 1
  fi
fi
