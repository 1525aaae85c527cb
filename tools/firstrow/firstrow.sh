#!/usr/bin/env bash
# firstrow.sh BINARY [STARTS=15]
#
# How soon the dashboard shows data, the way a user sees it: the time
# from the process's start to the first quote row on a real terminal.
# Each start runs BINARY (the dashboard over its embedded sandbox, its
# own state and config directories) in a new detached tmux session at
# 120x40, and reads the pane every few milliseconds until a rate row of
# the overview shows (a pair and a number: `BTC/USD  65822.28`); the
# clock starts just before tmux starts the process. The state directory
# is warmed by a first run that is not counted (its history file, the
# payments dialect), as it is on a desk that used the tool before.
# Prints each start's time, then min / median / max.
#
# Needs tmux. ROW (a regexp for grep -E) changes what is waited for.
set -euo pipefail
BIN=$(readlink -f "$1")
N=${2:-15}
ROW=${ROW:-'^[A-Z]{3,5}/[A-Z]{3,5} +[0-9]'}
W=$(mktemp -d "${TMPDIR:-/tmp}/firstrow.XXXXXX")
TM="firstrow-${W##*.}"
mkdir -p "$W/state" "$W/config"
trap 'tmux kill-session -t "$TM" 2>/dev/null || true' EXIT
now() { date +%s%N; }
# one start: prints the milliseconds to the row (or "never" after 10 s)
start() {
	tmux kill-session -t "$TM" 2>/dev/null || true
	local t0 t
	t0=$(now)
	tmux new-session -d -s "$TM" -x 120 -y 40 \
		"env XDG_STATE_HOME=$W/state XDG_CONFIG_HOME=$W/config TERM=xterm-256color $BIN"
	while :; do
		if tmux capture-pane -p -t "$TM" 2>/dev/null | grep -Eq "$ROW"; then
			t=$(now)
			echo $(((t - t0) / 1000000))
			break
		fi
		if [ $(($(now) - t0)) -gt 10000000000 ]; then
			echo never
			break
		fi
		sleep 0.003
	done
	tmux send-keys -t "$TM" q
	sleep 1
	tmux kill-session -t "$TM" 2>/dev/null || true
}
start >/dev/null # warms the state directory
sleep 1
ms=()
for i in $(seq 1 "$N"); do
	m=$(start)
	echo "start $i: $m ms"
	ms+=("$m")
	sleep 0.5
done
printf '%s\n' "${ms[@]}" | grep -v never | sort -n | awk '{a[NR]=$1} END {if (NR) printf "first quote row: min %d ms  median %d ms  max %d ms  (%d starts)\n", a[1], a[int((NR+1)/2)], a[NR], NR}'
echo "($W)"
