#!/usr/bin/env bash
# heapflat.sh BINARY [MINUTES=30] [PORT]
#
# Whether the live heap of `treasury serve` stays flat once the windows are
# full: starts BINARY serve over an embedded sandbox sped up 240 times
# (retain 24h: the simulator's world stays bounded), logging its stats
# every minute (the live heap after a collection of its own), with Go's
# profiles on loopback. At minute WALK (7) it opens one OpenSSH session at
# 120x40, walks every view (keys 1-9, a few seconds each, and the payments
# view sorted and filtered), closes it, and takes heap profiles before the
# session, just after it, at minute MID when set, and at the end. Prints the stats, a line a
# minute; the
# profiles stay in the work directory it names (compare them with
# `go tool pprof -diff_base before.heap end.heap`).
#
# Needs ssh, ssh-keygen, script, tmux, curl. The machine's other load
# slows the sandbox, not the heap.
set -euo pipefail
# shellcheck source=serve.sh
. "$(dirname "$0")/serve.sh"
BIN=$(readlink -f "$1")
MIN=${2:-30}
PORT=${3:-$((20000 + RANDOM % 20000))}
PP=${PPROF:-127.0.0.1:$((40000 + RANDOM % 20000))}
WALK=${WALK:-7}
start_serve heapflat "$PORT" 1m TREASURY_PPROF="$PP"
heap() { curl -fsS -o "$W/$1.heap" "http://$PP/debug/pprof/heap?gc=1" || echo "no profile $1" >&2; }

sleep $((WALK * 60))
kill -0 "$PID" || { cat "$W/serve.out"; exit 1; }
heap before
tmux new-session -d -s "$TM" -x 120 -y 40 "$SSH"
sleep 8
for k in 1 2 3 4 5 6 7 8 9; do
	tmux send-keys -t "$TM" "$k"
	sleep 6
done
tmux send-keys -t "$TM" 4
sleep 4
tmux send-keys -t "$TM" s
sleep 4
tmux send-keys -t "$TM" / F A I L Enter
sleep 6
tmux capture-pane -p -t "$TM" | head -5 >"$W/screen.txt"
tmux kill-session -t "$TM"
sleep 20
heap after
# MID (a minute after the walk), when set, takes one more profile: the
# start of the stretch to compare with the end once the windows are full.
if [ -n "${MID:-}" ]; then
	sleep $(((MID - WALK) * 60 - 120))
	heap mid
	sleep $(((MIN - MID) * 60))
else
	sleep $(((MIN - WALK) * 60 - 120))
fi
heap end
# The stats are JSON lines in the sessions log: minute, live heap (and
# the least any collection found in the minute), goroutines, sessions, their models not yet freed, payments held, and
# the derivations built of all.
grep '"process stats"' "$W/state/treasury/sessions.log" | sed -E \
	's/.*"time":"[^T]*T([0-9:]{5}).*"live_heap_bytes":([0-9]+)[0-9]{6},"live_heap_floor_bytes":([0-9]+)[0-9]{6},.*"goroutines":([0-9]+),"sessions":([0-9]+),"models_held":([0-9]+),"payments_held":([0-9]+),"derivations":([0-9]+),"derivations_built":\[([^]]*)\].*/\1  heap \2 MB (floor \3 MB)  goroutines \4  sessions \5 (models held \6)  payments held \7  derivations \8, built: \9/'
echo "($W)"
