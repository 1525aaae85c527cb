#!/usr/bin/env bash
# scope90d.sh BINARY [SESSIONS=20] [PORT=2247]
#
# The measure of a wide scope over many sessions: starts `BINARY sandbox
# --history-payments ${HIST:-100000}` (its own process, on PORT+1), then
# `BINARY serve` on it (PORT, its own state and config directories, stats
# every 10 s), waits WARM (30) seconds, opens SESSIONS OpenSSH-like
# sessions with tools/sshload (120x40), types `:payments all 90d` in every
# one at once, and prints how long the scope took to show (the
# first part of the older payments shown: ten thousand at least; then
# the whole window held), the live heap the serve logged
# while they stayed open (HOLD, 60 s), and the reads the platform
# received: GET /v3/payments/{id} and all of the payments interface,
# counted by the sandbox from the keys on. SANDBOX=BINARY2 serves the
# platform with another binary (one whose stats count reads by id);
# PPROF=host:port has serve answer Go's profiles there.
set -euo pipefail
BIN=$(readlink -f "$1")
N=${2:-20}
PORT=${3:-2247}
SBX=$(readlink -f "${SANDBOX:-$BIN}")
HIST=${HIST:-100000}
WARM=${WARM:-30}
HOLD=${HOLD:-60}
HERE=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/scope90d.XXXXXX")
mkdir -p "$W/state" "$W/config" "$W/sbstate"
ssh-keygen -q -t ed25519 -N '' -f "$W/key" >/dev/null
cp "$W/key.pub" "$W/authorized_keys"
env XDG_STATE_HOME=$W/sbstate "$SBX" sandbox --addr 127.0.0.1:$((PORT + 1)) --history-payments "$HIST" \
	--write-profile "$W/external.yaml" >"$W/sandbox.out" 2>&1 &
SPID=$!
cleanup() {
	kill "${PID:-}" "$SPID" 2>/dev/null || true
	wait 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 600); do [ -s "$W/external.yaml" ] && break; sleep 0.5; done
env XDG_STATE_HOME=$W/state XDG_CONFIG_HOME=$W/config ${PPROF:+TREASURY_PPROF=$PPROF} "$BIN" serve --config "$W/external.yaml" \
	--listen 127.0.0.1:$PORT --authorized-keys "$W/authorized_keys" --host-key "$W/hostkey" \
	--stats-every 10s --max-sessions $((N + 5)) --max-per-source $((N + 5)) >"$W/serve.out" 2>&1 &
PID=$!
sleep "$WARM"
stats() { curl -fsS "http://127.0.0.1:$((PORT + 1))/_sandbox/stats"; }
before=$(stats)
(cd "$HERE/../.." && go build -o "$W/sshload" ./tools/sshload)
"$W/sshload" -addr 127.0.0.1:$PORT -key "$W/key" -n "$N" -send ':' -send 'payments all 90d\r' \
	-first 'scope \[all [0-9]{5,}\]' -until 'scope \[all 1[0-9]{5}\]' -hold "${HOLD}s" -dump
after=$(stats)
echo "platform before: $before"
echo "platform after:  $after"
grep '"process stats"' "$W/state/treasury/sessions.log" | tail -n $((HOLD / 10 + 2)) | sed -E \
	's/.*"time":"[^T]*T([0-9:]{8}).*"live_heap_bytes":([0-9]+)[0-9]{6},"live_heap_floor_bytes":([0-9]+)[0-9]{6},.*"goroutines":([0-9]+),"sessions":([0-9]+),"models_held":([0-9]+),"payments_held":([0-9]+),"derivations":([0-9]+),.*"upstream_requests":([0-9]+).*/\1  heap \2 MB (floor \3 MB)  goroutines \4  sessions \5  payments held \7  derivations \8  upstream \9/'
echo "($W)"
