#!/usr/bin/env bash
# leftover.sh BINARY [PORT]
#
# What a session leaves behind once it is gone: starts BINARY serve over an
# embedded sandbox sped up 240 times (retain 24h), stats every 30 s, lets
# the windows fill (WARM minutes, 8), then opens one OpenSSH session at
# 240x60 in tmux that visits every view (1-9, I, L, A), opens
# `:payments failed 7d`, searches the payments (`/FAIL`) and sorts them
# (`s`), and leaves (what each step showed is in walk.txt and
# screen.txt). AFTER minutes (4) later it prints the stats line
# before the session and the last, and whether the live heap's floor
# (the least a collection found in the interval) is within 16 MB of
# before and the derivations built are the same. The stats lines
# stay in the work directory it names.
#
# Needs ssh, ssh-keygen, tmux.
set -euo pipefail
# shellcheck source=serve.sh
. "$(dirname "$0")/serve.sh"
BIN=$(readlink -f "$1")
PORT=${2:-$((20000 + RANDOM % 20000))}
WARM=${WARM:-8}
AFTER=${AFTER:-4}
start_serve leftover "$PORT" 30s
stats() { grep '"process stats"' "$W/state/treasury/sessions.log"; }
sleep $((WARM * 60))
kill -0 "$PID" || { cat "$W/serve.out"; exit 1; }
before=$(stats | tail -1)
tmux new-session -d -s "$TM" -x 240 -y 60 "$SSH"
sleep 8
for k in 1 2 3 4 5 6 7 8 9 I L A; do
	tmux send-keys -t "$TM" "$k"
	sleep 5
	tmux capture-pane -p -t "$TM" | sed -n 4,6p >>"$W/walk.txt"
done
tmux send-keys -t "$TM" ':'
sleep 1
tmux send-keys -t "$TM" 'payments failed 7d' Enter
sleep 10
tmux capture-pane -p -t "$TM" | sed -n 4,12p >>"$W/walk.txt"
tmux send-keys -t "$TM" Enter # the first reason group's payments
sleep 5
tmux send-keys -t "$TM" s
sleep 4
tmux send-keys -t "$TM" / F A I L Enter
sleep 6
tmux capture-pane -p -t "$TM" >"$W/screen.txt"
tmux kill-session -t "$TM"
sleep $((AFTER * 60))
after=$(stats | tail -1)
field() { sed -E "s/.*\"$1\":([0-9]+).*/\\1/"; }
built() { sed -E 's/.*"derivations_built":\[([^]]*)\].*/\1/' | tr ',' '\n' | sort; }
hb=$(field live_heap_bytes <<<"$before")
ha=$(field live_heap_bytes <<<"$after")
# The floor is the least live heap any collection found over the stats
# interval: the heap held for good (a 240x sandbox's polls swing the
# other by tens of megabytes from one line to the next).
fb=$(field live_heap_floor_bytes <<<"$before")
fa=$(field live_heap_floor_bytes <<<"$after")
echo "before the session: heap $((hb / 1000000)) MB (floor $((fb / 1000000)) MB)  derivations built $(built <<<"$before" | grep -c .)  payments held $(field payments_held <<<"$before")"
echo "${AFTER} min after it:   heap $((ha / 1000000)) MB (floor $((fa / 1000000)) MB)  derivations built $(built <<<"$after" | grep -c .)  payments held $(field payments_held <<<"$after")"
d=$(((fa - fb) / 1000000))
echo "floor difference: $d MB $([ "${d#-}" -le 16 ] && echo '(within 16 MB)' || echo '(MORE THAN 16 MB)')"
if diff <(built <<<"$before") <(built <<<"$after") >"$W/built.diff"; then
	echo "derivations built: the same"
else
	echo "derivations built differ (< before, > after):"
	cat "$W/built.diff"
fi
echo "($W)"
