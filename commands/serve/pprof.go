package serve

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"treasury/process"
)

// pprofEnv names the loopback address (127.0.0.1:6060) where serve
// answers Go's profiling endpoints (go tool pprof
// http://127.0.0.1:6060/debug/pprof/profile?seconds=30): what a number of
// sessions costs is found where it is spent (tools/idlecpu). Unset, nothing
// listens.
const pprofEnv = "TREASURY_PPROF"

// startPprof serves the profiles on the address pprofEnv names, only on a
// loopback address: a profile shows the program's memory, which holds
// credentials.
func startPprof(ctx context.Context, e *process.Env) error {
	addr := e.Getenv(pprofEnv)
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s: %w", pprofEnv, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s: %q is not a loopback address", pprofEnv, addr)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s: %w", pprofEnv, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	fmt.Fprintf(e.Stderr, "treasury serve: profiles on http://%s/debug/pprof/\n", l.Addr())
	return nil
}
