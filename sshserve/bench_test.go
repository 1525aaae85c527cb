package sshserve

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

// The benchmark's SSH clients run in a child process (this test binary
// running TestHelperSSHClients), so that the memory measured is the
// server's alone.
const (
	helperAddrEnv = "SERVE_HELPER_ADDR"
	helperKeyEnv  = "SERVE_HELPER_KEY"
	helperHostEnv = "SERVE_HELPER_HOST_KEY"
)

// TestHelperSSHClients is the benchmark's client process: for each line
// "open" on stdin it connects, opens a PTY session, waits for the program's
// first frame and answers "ready". It does nothing in a normal test run.
func TestHelperSSHClients(t *testing.T) {
	addr := os.Getenv(helperAddrEnv)
	if addr == "" {
		t.Skip("only run as the benchmark's client process")
	}
	keyPEM, err := os.ReadFile(os.Getenv(helperKeyEnv))
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.ParsePrivateKey(keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{addr: addr, hostKey: hostPublicKey(t, os.Getenv(helperHostEnv))}
	k := testKey{signer: signer}
	in := bufio.NewScanner(os.Stdin)
	for i := 0; in.Scan(); i++ {
		user := fmt.Sprintf("u%d", i)
		tm := ts.openTerm(t, user, k, "xterm-256color")
		tm.waitFor(t, "hello "+user+" ")
		fmt.Println("ready")
	}
}

// BenchmarkSessionMemory measures what one more open session costs the
// server: Go heap plus goroutine stacks, after a GC, per session.
func BenchmarkSessionMemory(b *testing.B) {
	dir := b.TempDir()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "bench")
	if err != nil {
		b.Fatal(err)
	}
	keyFile := filepath.Join(dir, "client_key")
	writeFile(b, keyFile, string(pem.EncodeToMemory(block)))
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		b.Fatal(err)
	}
	k := testKey{signer: signer, line: strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey())))}
	ts := startServer(b, []string{k.line}, Options{
		MaxSessions: 1 << 20,
		Log:         slog.New(slog.DiscardHandler),
		NewModel: func(_ context.Context, s Session) (tea.Model, func(), error) {
			return &testModel{s: s}, nil, nil
		},
	})
	hostFile := filepath.Join(filepath.Dir(ts.keyFile), "host_ed25519")

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSSHClients$", "-test.timeout=30m")
	cmd.Env = append(os.Environ(), helperAddrEnv+"="+ts.addr, helperKeyEnv+"="+keyFile, helperHostEnv+"="+hostFile)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	replies := bufio.NewScanner(stdout)
	open := func() {
		fmt.Fprintln(stdin, "open")
		for replies.Scan() {
			if replies.Text() == "ready" {
				return
			}
		}
		b.Fatalf("client process stopped: %v", replies.Err())
	}
	open() // warm up: first-use allocations are not per session
	measure := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc + ms.StackInuse
	}

	before := measure()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		open()
	}
	b.StopTimer()
	after := measure()
	if got := ts.Sessions(); got != b.N+1 {
		b.Fatalf("%d sessions open, want %d", got, b.N+1)
	}
	b.ReportMetric(float64(int64(after)-int64(before))/float64(b.N), "bytes/session")
}
