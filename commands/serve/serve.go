// Package serve is the `treasury serve` command: the dashboard served over
// SSH (package treasury/serve) to every client, over one runtime: one
// store, one set of clients and credentials for every session.
package serve

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	goruntime "runtime"
	"sync/atomic"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/commands/cli"
	"treasury/commands/dashboard"
	"treasury/config"
	"treasury/desk/audit"
	"treasury/kit/journal"
	"treasury/kit/logfile"
	"treasury/kit/sdnotify"
	"treasury/process"
	"treasury/sshserve"
	"treasury/views/saved"
)

// Command serves the dashboard over SSH: one runtime (one store, one set
// of clients and credentials) for every session.
func Command(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
	// SIGHUP reloads the access files; caught from the start, so that one
	// sent early does not end the process (its default).
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var o sshserve.Options
	fs.StringVar(&o.Listen, "listen", sshserve.DefaultListen, "`address` to listen on")
	fs.StringVar(&o.HostKeyFile, "host-key", "", "host key `file` (ed25519; created with mode 0600 when missing; default in the state directory)")
	fs.StringVar(&o.AuthorizedKeysFile, "authorized-keys", "", "OpenSSH authorized_keys `file`; role=\"operator\" lets a key act, other keys are viewers (this or --trusted-user-ca-keys is required)")
	fs.StringVar(&o.TrustedUserCAKeysFile, "trusted-user-ca-keys", "", "`file` of CA public keys whose OpenSSH user certificates may connect (OpenSSH TrustedUserCAKeys; needs --roles)")
	fs.StringVar(&o.RolesFile, "roles", "", "`file` giving each certificate principal its role: `principal viewer|operator` a line")
	fs.StringVar(&o.RevokedKeysFile, "revoked-keys", "", "revocation list `file`: keys, and certificates by serial: N[-M], id: KEYID, key: or hash:, refused (OpenSSH RevokedKeys, as text)")
	fs.IntVar(&o.MaxSessions, "max-sessions", sshserve.DefaultMaxSessions, "most sessions at once")
	fs.DurationVar(&o.IdleTimeout, "idle-timeout", sshserve.DefaultIdleTimeout, "end a session without input for this long")
	fs.DurationVar(&o.LoginGrace, "login-grace", sshserve.DefaultLoginGrace, "close a connection that has not authenticated within this `duration` (OpenSSH LoginGraceTime)")
	o.MaxStartups = sshserve.DefaultMaxStartups()
	fs.Var(&o.MaxStartups, "max-startups", "`start:rate:full`: with start connections waiting to authenticate, refuse a new one with a chance of rate%, growing to 100% at full (OpenSSH MaxStartups; one number is a hard cap)")
	statsEvery := fs.Duration("stats-every", 10*time.Minute, "log the process's memory, sessions and upstream requests every `interval` (0: never)")
	fs.IntVar(&o.MaxPerSource, "max-per-source", sshserve.DefaultMaxPerSource, "most connections waiting to authenticate from one address (OpenSSH PerSourceMaxStartups)")
	metricsListen := fs.String("metrics-listen", "", "serve Prometheus metrics (/metrics), /healthz and /readyz over HTTP on this `address` (such as 127.0.0.1:9464; default: none)")
	logStderr := fs.Bool("log-stderr", false, "log to stderr too, one line a record led by its syslog priority (as journald keeps it; the default when stderr is the journal)")
	if err := cli.ParseFlags(fs, e, &g, args); err != nil {
		return err
	}
	if o.AuthorizedKeysFile == "" && o.TrustedUserCAKeysFile == "" {
		fmt.Fprintln(e.Stderr, "treasury serve: --authorized-keys or --trusted-user-ca-keys is required: only listed public keys, or certificates of a trusted CA, may connect")
		return cli.ErrUsage
	}
	if (o.TrustedUserCAKeysFile == "") != (o.RolesFile == "") {
		fmt.Fprintln(e.Stderr, "treasury serve: --trusted-user-ca-keys and --roles go together: a certificate's principal is given its role in the roles file")
		return cli.ErrUsage
	}
	cfg, err := g.LoadConfig(e)
	if err != nil {
		return err
	}
	// Who may connect, and as whom the server answers, are checked before
	// anything is opened or sent: a broken authorized_keys or a host key
	// others can read stops the start here, with the file and line.
	stateDir := config.StateDir(e.Getenv)
	if o.HostKeyFile == "" {
		if err := os.MkdirAll(stateDir, 0o700); err != nil {
			return fmt.Errorf("state directory: %w", err)
		}
		o.HostKeyFile = filepath.Join(stateDir, "ssh_host_ed25519_key")
	}
	fingerprint, err := sshserve.CheckKeys(o)
	if err != nil {
		return err
	}
	if err := startPprof(ctx, e); err != nil {
		return err
	}
	// The session log is opened first, so that what the runtime logs (a
	// webhook port in use, refused notifications) is in the SSH server's
	// log too.
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	logFile, err := logfile.Open(filepath.Join(stateDir, "sessions.log"), g.Logs)
	if err != nil {
		return fmt.Errorf("session log: %w", err)
	}
	defer logFile.Close()
	o.Log = serverLog(e, logFile, *logStderr)
	rt, err := process.OpenLog(ctx, e, cfg, o.Log)
	if err != nil {
		return err
	}
	defer rt.Close()
	if err := dashboard.CheckProfile(rt); err != nil {
		return err
	}
	if err := startAlertHook(ctx, rt); err != nil {
		return err
	}
	// An interface no view polls until someone watches it is read once
	// now: the server knows it has data of each (readiness) and that its
	// credentials work, before anyone connects.
	rt.Platform.ReadEach(ctx)
	// held counts the sessions' models not yet freed by the collector: a
	// soak test's stats show a session that ended but is still held.
	var held atomic.Int64
	// :ctx: the other profiles of the file whose ssh_roles name a
	// session's role, opened when a session switches to them.
	var ctxs dashboard.Contexts
	if cfg.File != "" {
		ctxs = newContexts(ctx, e, config.Options{ConfigFile: g.ConfigFile, ReadOnly: g.ReadOnly, Getenv: e.Getenv, CheckSearch: saved.Check}, rt, o.Log)
	}
	o.NewModel = func(ctx context.Context, s sshserve.Session) (tea.Model, func(), error) {
		ss := sshSession(rt.StateDir, s)
		ss.Term = s.Term
		ss.Life = ctx // the session's reads end when its client goes
		sh := dashboard.NewShell(rt, nil, ss, ctxs)
		held.Add(1)
		goruntime.AddCleanup(sh, func(n *atomic.Int64) { n.Add(-1) }, &held)
		return sh, sh.Close, nil
	}
	rt.Metrics.Roles(string(sshserve.RoleViewer), string(sshserve.RoleOperator))
	o.OnSession = func(role sshserve.Role) func() { return rt.Metrics.Session(string(role)) }
	srv, err := sshserve.New(o)
	if err != nil {
		return err
	}
	mon := newMonitor(ctx, rt)
	if *metricsListen != "" {
		addr, err := startMonitor(ctx, *metricsListen, mon, o.Log)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.Stdout, "metrics on http://%s/metrics, health on /healthz and /readyz\n", addr)
		o.Log.Info("monitoring", "listen", addr.String())
	}
	ln, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	listen := ln.Addr().String()
	fmt.Fprintf(e.Stdout, "serving the dashboard (profile %s, %s) over SSH on %s; sessions logged to %s\n",
		rt.Config.Profile, rt.Config.Environment, listen, logFile.Name())
	// The fingerprint people check on first connect (ssh-keygen -lf shows
	// the same).
	fmt.Fprintf(e.Stdout, "host key %s (ed25519, %s)\n", fingerprint, o.HostKeyFile)
	o.Log.Info("serving", "listen", listen, "host_key", fingerprint, "host_key_file", o.HostKeyFile,
		"profile", rt.Config.Profile, "environment", rt.Config.Environment)
	go logStats(ctx, o.Log, *statsEvery, rt, srv, &held)

	notifier := sdnotify.FromEnv(e.Getenv)
	if err := watchdog(ctx, notifier, e.Getenv, mon.pulse, o.Log); err != nil {
		return err
	}
	mon.listening.Store(true) // the listener is open: connections queue until Serve takes them
	go announce(ctx, notifier, mon, listen, o.Log)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				reload(notifier, srv, mon, listen)
			}
		}
	}()
	err = srv.Serve(ctx, ln)
	_, _ = notifier.Notify(sdnotify.Stopping)
	fmt.Fprintln(e.Stdout, "stopped")
	return err
}

// serverLog is the server's log: sessions.log, in JSON, and, when asked
// or when stderr is the journal (JOURNAL_STREAM), stderr in the lines
// journald keeps (kit/journal).
func serverLog(e *process.Env, file io.Writer, toStderr bool) *slog.Logger {
	h := slog.Handler(slog.NewJSONHandler(file, nil))
	if f, ok := e.Stderr.(*os.File); toStderr || ok && journal.IsJournal(f, e.Getenv) {
		h = slog.NewMultiHandler(h, journal.NewHandler(e.Stderr, nil))
	}
	return slog.New(h)
}

// sshSession is one SSH client's session: its renderer and output, its
// identity for the audit log, read-only unless its key is an operator's,
// and its own folder for saved files (the state directory's
// exports/<user>: never another person's, never the server's working
// directory; the flash of a save names the file).
func sshSession(stateDir string, s sshserve.Session) dashboard.Session {
	return dashboard.Session{
		Colors:   s.Colors,
		Dark:     s.Dark,
		Terminal: true,
		Who:      sshWho(s),
		ReadOnly: s.Role != sshserve.RoleOperator,
		SaveDir:  filepath.Join(stateDir, "exports", userDir(s.User)),
	}
}

// sshWho is who an SSH session acts as in the audit log: the user name
// the client sent, the key's fingerprint, the role, the address, and the
// certificate's key id and serial when it logged in with one.
func sshWho(s sshserve.Session) audit.Who {
	w := audit.Who{Via: audit.ViaSSH, User: s.User, Name: s.Name, Key: s.Fingerprint, Role: string(s.Role), From: s.RemoteAddr}
	if c := s.Cert; c != nil {
		w.Cert = audit.Cert{KeyID: c.KeyID, Serial: c.Serial}
	}
	return w
}

// userDir is a folder name for an SSH user name: letters, digits, dot,
// dash and underscore kept, anything else (a slash, a dot-dot) replaced.
func userDir(user string) string {
	out := []rune(user)
	for i, r := range out {
		if !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			out[i] = '_'
		}
	}
	s := string(out)
	if s == "" || s == "." || s == ".." {
		s = "_" + s
	}
	return s
}
