#!/usr/bin/env bash
# idlecpu.sh BINARY [SESSIONS] [SECONDS] [PORT]
#
# What idle SSH sessions of `treasury serve` cost: starts BINARY serve over
# the embedded sandbox with a 100k-payment history (its own state and
# config directories, port and ed25519 key), lets it warm up, reads its CPU
# ticks (utime+stime of /proc/PID/stat) over SECONDS with no session, then
# opens SESSIONS OpenSSH clients in tmux windows (120x40, each inside
# `script` so its output is counted), idle on the payments view (key 4),
# then on the quotes view (key 2), then on the overview (key 1; not with
# NO_OVERVIEW=1), and measures again. Prints one line per
# phase: CPU % of one core, and bytes a second each client received.
set -euo pipefail
BIN=$(readlink -f "$1")
N=${2:-20}
SECS=${3:-60}
PORT=${4:-$((20000 + RANDOM % 20000))}
WARM=${WARM:-45}
SETTLE=${SETTLE:-15}
HIST=${HIST:-100000}
W=$(mktemp -d "${TMPDIR:-/tmp}/idlecpu.XXXXXX")
TM="idlecpu-${W##*.}"
mkdir -p "$W/state" "$W/config/treasury" "$W/logs"
cat >"$W/config/treasury/config.yaml" <<EOF
profile: big
profiles:
  big:
    environment: sandbox
    embedded_sandbox: {history_payments: $HIST}
EOF
ssh-keygen -q -t ed25519 -N '' -f "$W/key" >/dev/null
cp "$W/key.pub" "$W/authorized_keys"
TCK=$(getconf CLK_TCK)

env XDG_STATE_HOME=$W/state XDG_CONFIG_HOME=$W/config ${PPROF:+TREASURY_PPROF=$PPROF} \
	"$BIN" serve --listen 127.0.0.1:$PORT --authorized-keys "$W/authorized_keys" \
	--host-key "$W/hostkey" --max-sessions $((N + 5)) --max-per-source $((N + 5)) >"$W/serve.out" 2>&1 &
PID=$!
cleanup() {
	tmux kill-session -t "$TM" 2>/dev/null || true
	kill "$PID" 2>/dev/null || true
	wait "$PID" 2>/dev/null || true
}
trap cleanup EXIT

ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
bytes() { { cat "$W"/logs/*.log 2>/dev/null || true; } | wc -c; }
measure() { # label
	local t0 b0 t1 b1 s0 s1
	s0=$(date +%s.%N); t0=$(ticks); b0=$(bytes)
	sleep "$SECS"
	s1=$(date +%s.%N); t1=$(ticks); b1=$(bytes)
	awk -v l="$1" -v t0="$t0" -v t1="$t1" -v s0="$s0" -v s1="$s1" -v b0="$b0" -v b1="$b1" -v n="$2" -v tck="$TCK" \
		'BEGIN { d = s1 - s0; printf "%-22s cpu %5.2f %% of a core   %s\n", l, 100 * (t1 - t0) / tck / d, (n > 0 ? sprintf("%.0f B/s per session", (b1 - b0) / d / n) : "") }'
}

sleep "$WARM"
kill -0 "$PID" || { cat "$W/serve.out"; exit 1; }
measure "$(basename "$BIN") none" 0

SSH="ssh -F /dev/null -tt -i $W/key -p $PORT -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR idle@127.0.0.1"
tmux new-session -d -s "$TM" -x 120 -y 40 -n s0 "script -q -f -c '$SSH' $W/logs/0.log"
for i in $(seq 1 $((N - 1))); do
	sleep 0.3
	tmux new-window -d -t "$TM" -n "s$i" "script -q -f -c '$SSH' $W/logs/$i.log"
done
sleep 5
for i in $(seq 0 $((N - 1))); do tmux send-keys -t "$TM:s$i" 4; done
sleep "$SETTLE"
up=$(tmux list-windows -t "$TM" | wc -l)
[ "$up" -eq "$N" ] || echo "warning: $up of $N sessions up" >&2
tmux capture-pane -p -t "$TM:s0" | head -3 >"$W/screen-payments.txt"
measure "$(basename "$BIN") $N payments" "$N"

for i in $(seq 0 $((N - 1))); do tmux send-keys -t "$TM:s$i" 2; done
sleep "$SETTLE"
tmux capture-pane -p -t "$TM:s0" | head -3 >"$W/screen-quotes.txt"
measure "$(basename "$BIN") $N quotes" "$N"

if [ -z "${NO_OVERVIEW:-}" ]; then
	for i in $(seq 0 $((N - 1))); do tmux send-keys -t "$TM:s$i" 1; done
	sleep "$SETTLE"
	tmux capture-pane -p -t "$TM:s0" | head -3 >"$W/screen-overview.txt"
	measure "$(basename "$BIN") $N overview" "$N"
fi
echo "($W)"
