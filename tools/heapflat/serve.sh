# serve.sh, sourced by heapflat.sh and leftover.sh: the setup both share.
#
# start_serve NAME PORT STATS_EVERY [ENV...] makes a work directory ($W),
# a profile over an embedded sandbox sped up 240 times (retain 24h: the
# simulator's world stays bounded) and an SSH key authorized for it,
# starts $BIN serve on 127.0.0.1:PORT with its stats every STATS_EVERY
# (ENV: more variables for it, as NAME=VALUE), and sets $PID, $TM (a tmux
# session name for the walk), $SSH (the OpenSSH command of a session) and
# a trap that ends them both.
start_serve() {
	local name=$1 port=$2 every=$3
	shift 3
	W=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
	TM="$name-${W##*.}"
	mkdir -p "$W/state" "$W/config/treasury"
	cat >"$W/config/treasury/config.yaml" <<EOC
profile: sb
profiles:
  sb:
    environment: sandbox
    embedded_sandbox: {speed: 240, retain: 24h}
EOC
	ssh-keygen -q -t ed25519 -N '' -f "$W/key" >/dev/null
	cp "$W/key.pub" "$W/authorized_keys"
	env XDG_STATE_HOME="$W/state" XDG_CONFIG_HOME="$W/config" "$@" \
		"$BIN" serve --listen "127.0.0.1:$port" --authorized-keys "$W/authorized_keys" \
		--host-key "$W/hostkey" --stats-every "$every" >"$W/serve.out" 2>&1 &
	PID=$!
	SSH="ssh -F /dev/null -tt -i $W/key -p $port -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR walk@127.0.0.1"
	trap stop_serve EXIT
}

stop_serve() {
	tmux kill-session -t "$TM" 2>/dev/null || true
	kill "$PID" 2>/dev/null || true
	wait "$PID" 2>/dev/null || true
}
