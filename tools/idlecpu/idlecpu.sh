#!/usr/bin/env bash
# idlecpu.sh BINARY [SESSIONS] [SECONDS] [PORT]
#
# What idle SSH sessions of `treasury serve` cost: starts BINARY serve over
# the embedded sandbox with a 100k-payment history (its own state and
# config directories, port and ed25519 key), lets it warm up, reads its CPU
# ticks (utime+stime of /proc/PID/stat) over SECONDS with no session, then
# opens one OpenSSH client in a tmux window (120x40, inside `script` so
# its output is counted), idle on the payments view (key 4), then on the
# quotes view (key 2), then on the overview (key 1; not with
# NO_OVERVIEW=1), measuring each; then opens SESSIONS more and does the
# same; then closes them and does it once more with the one; and prints
# what the SESSIONS add on each view: with one session open the
# data layer already polls what the view needs and holds the windows it
# asks for, so the difference is the sessions' own cost. Then it closes
# them and measures with none once more. Prints one line per phase: CPU %
# of one core, and bytes a second each client received.
#
# EXTERNAL=1 serves the sandbox from a process of its own (`BINARY sandbox
# --write-profile`) that `serve` reads over loopback: the sandbox's work,
# which swings by points of a core from minute to minute, is then not in
# the figures, and what sessions add stands out of a smaller baseline.
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
SBX=
CONFIG=()
if [ -n "${EXTERNAL:-}" ]; then
	env XDG_STATE_HOME=$W/sandbox-state "$BIN" sandbox --addr 127.0.0.1:0 --history-payments "$HIST" \
		--write-profile "$W/external.yaml" >"$W/sandbox.out" 2>&1 &
	SBX=$!
	for _ in $(seq 1 600); do [ -s "$W/external.yaml" ] && break; sleep 0.5; done
	[ -s "$W/external.yaml" ] || { cat "$W/sandbox.out"; kill "$SBX"; exit 1; }
	CONFIG=(--config "$W/external.yaml")
fi
ssh-keygen -q -t ed25519 -N '' -f "$W/key" >/dev/null
cp "$W/key.pub" "$W/authorized_keys"
TCK=$(getconf CLK_TCK)

env XDG_STATE_HOME=$W/state XDG_CONFIG_HOME=$W/config ${PPROF:+TREASURY_PPROF=$PPROF} \
	"$BIN" serve "${CONFIG[@]}" --listen 127.0.0.1:$PORT --authorized-keys "$W/authorized_keys" \
	--host-key "$W/hostkey" --max-sessions $((N + 5)) --max-per-source $((N + 5)) >"$W/serve.out" 2>&1 &
PID=$!
cleanup() {
	tmux kill-session -t "$TM" 2>/dev/null || true
	pkill -f "$W/logs/" 2>/dev/null || true
	kill "$PID" 2>/dev/null || true
	wait "$PID" 2>/dev/null || true
	if [ -n "$SBX" ]; then
		kill "$SBX" 2>/dev/null || true
		wait "$SBX" 2>/dev/null || true
	fi
}
trap cleanup EXIT

ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
bytes() { # SESSIONS: what the open sessions s0..s(SESSIONS-1) received
	local i
	for i in $(seq 0 $(($1 - 1))); do cat "$W/logs/$i.log" 2>/dev/null || true; done | wc -c
}
CPU=0
measure() { # label sessions: prints a line, and leaves the CPU % in CPU
	local t0 b0 t1 b1 s0 s1 line
	s0=$(date +%s.%N); t0=$(ticks); b0=$(bytes "$2")
	sleep "$SECS"
	s1=$(date +%s.%N); t1=$(ticks); b1=$(bytes "$2")
	line=$(awk -v l="$1" -v t0="$t0" -v t1="$t1" -v s0="$s0" -v s1="$s1" -v b0="$b0" -v b1="$b1" -v n="$2" -v tck="$TCK" \
		'BEGIN { d = s1 - s0; printf "%-24s cpu %5.2f %% of a core   %s\n", l, 100 * (t1 - t0) / tck / d, (n > 0 ? sprintf("%.0f B/s per session", (b1 - b0) / d / n) : "") }')
	echo "$line"
	CPU=$(awk '{print $2}' <<<"${line#"$1"}")
}
SSH="ssh -F /dev/null -tt -i $W/key -p $PORT -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR idle@127.0.0.1"
open() { # FIRST LAST: opens the sessions sFIRST..sLAST, each in a tmux window
	for i in $(seq "$1" "$2"); do
		if [ "$i" -eq 0 ]; then
			tmux new-session -d -s "$TM" -x 120 -y 40 -n s0 "script -q -f -c '$SSH' $W/logs/0.log"
		else
			sleep 0.3
			tmux new-window -d -t "$TM" -n "s$i" "script -q -f -c '$SSH' $W/logs/$i.log"
		fi
	done
	sleep 5
	local up
	up=$(tmux list-windows -t "$TM" | wc -l)
	[ "$up" -eq $(($2 + 1)) ] || echo "warning: $up of $(($2 + 1)) sessions up" >&2
}
VIEWS=(4:payments 2:quotes)
[ -n "${NO_OVERVIEW:-}" ] || VIEWS+=(1:overview)
declare -A CPUS
phase() { # SESSIONS: every view in turn with that many sessions open
	local v
	for v in "${VIEWS[@]}"; do
		for i in $(seq 0 $(($1 - 1))); do tmux send-keys -t "$TM:s$i" "${v%%:*}"; done
		sleep "$SETTLE"
		tmux capture-pane -p -t "$TM:s0" | head -3 >"$W/screen-${v#*:}-$1.txt"
		measure "$(basename "$BIN") $1 ${v#*:}" "$1"
		CPUS[$1 ${v#*:}]=$CPU
	done
}
added() { # print what the N sessions add on each view
	local v
	for v in "${VIEWS[@]}"; do
		awk -v n="$N" -v v="${v#*:}" -v a="${CPUS[1 ${v#*:}]}" -v b="${CPUS[$((N + 1)) ${v#*:}]}" \
			'BEGIN { printf "  %d more sessions on %s: %+.2f %% of a core\n", n, v, b - a }'
	done
}

sleep "$WARM"
kill -0 "$PID" || { cat "$W/serve.out"; exit 1; }
measure "$(basename "$BIN") none" 0
# One session first: the data layer then polls what the view needs (and
# holds the windows it asks for) as it will with more; what the other N
# add is the sessions' own cost. The phases go 1, N+1, then 1 again, and
# the two one-session figures are averaged. (The upward "drift" of this
# baseline seen before was the N sessions still open: see the closing of
# the windows below. With no session the serve holds steady to within
# half a point over a quarter of an hour.)
open 0 0
phase 1
for k in "${!CPUS[@]}"; do CPUS[first $k]=${CPUS[$k]}; done
open 1 "$N"
phase $((N + 1))
# A window's `script` outlives kill-window (it ignores the hangup, its ssh
# stays connected): it is ended by name, or the phases "after" would still
# have the N sessions open.
for i in $(seq 1 "$N"); do
	tmux kill-window -t "$TM:s$i"
	pkill -f "$W/logs/$i.log" || true
done
sleep "$SETTLE"
left=$(pgrep -fc "^ssh -F /dev/null .* -p $PORT " || true)
[ "$left" -eq 1 ] || echo "warning: $left ssh clients open after closing $N of $((N + 1))" >&2
phase 1
for v in "${VIEWS[@]}"; do
	k="1 ${v#*:}"
	CPUS[$k]=$(awk -v a="${CPUS[first $k]}" -v b="${CPUS[$k]}" 'BEGIN { print (a + b) / 2 }')
done
added
tmux kill-session -t "$TM"
pkill -f "$W/logs/" || true
sleep "$SETTLE"
measure "$(basename "$BIN") none again" 0
echo "($W)"
