package serve

import (
	"context"
	"crypto/ed25519"
	"encoding/pem"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/config"
	"treasury/sandbox/sandboxtest"
)

// A broken authorized_keys file, or a host key others can read, stops
// `treasury serve` before it opens any state (no audit log, history or
// request log in the state directory) or starts the sandbox it would
// poll: the error names the file and the line.
func TestServeChecksItsKeysBeforeAnythingElse(t *testing.T) {
	_, pub := newSigner(t)
	key := string(ssh.MarshalAuthorizedKey(pub))
	for name, c := range map[string]struct {
		keys    string
		hostKey os.FileMode
		want    string
	}{
		"an unknown option":          {keys: "# operators\n" + `from="10.0.0.0/8" ` + key, want: "authorized_keys:2"},
		"an unknown role":            {keys: `role="admin" ` + key, want: "authorized_keys:1"},
		"a host key others can read": {keys: `role="operator" ` + key, hostKey: 0o644, want: "lets others read it"},
	} {
		t.Run(name, func(t *testing.T) {
			e, stderr := clitest.Env(t, io.Discard)
			dir := t.TempDir()
			keys := filepath.Join(dir, "authorized_keys")
			if err := os.WriteFile(keys, []byte(c.keys), 0o600); err != nil {
				t.Fatal(err)
			}
			args := []string{"--listen", clitest.FreeAddr(t), "--authorized-keys", keys}
			if c.hostKey != 0 {
				host := filepath.Join(dir, "host_key")
				_, priv, _ := ed25519.GenerateKey(nil)
				block, err := ssh.MarshalPrivateKey(priv, "")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(host, pem.EncodeToMemory(block), 0o600); err != nil {
					t.Fatal(err)
				}
				os.Chmod(host, c.hostKey)
				args = append(args, "--host-key", host)
			}
			if code := clitest.Run(context.Background(), Command, e, args...); code != 1 || !strings.Contains(stderr.String(), c.want) {
				t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr.String(), c.want)
			}
			state := config.StateDir(e.Getenv)
			entries, _ := os.ReadDir(state)
			for _, en := range entries {
				if en.Name() != "ssh_host_ed25519_key" {
					t.Errorf("the state directory holds %s after a refused start", en.Name())
				}
			}
		})
	}
}

// syncBuf is a buffer written by the command's goroutine and read by the
// test's.
type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// `treasury serve` says its host key's fingerprint at start, on stdout and
// in sessions.log: the one operators publish and people check on first
// connect (what ssh-keygen -lf prints).
func TestServeSaysItsHostKey(t *testing.T) {
	_, pub := newSigner(t)
	dir := t.TempDir()
	keys := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(keys, ssh.MarshalAuthorizedKey(pub), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	cfg := profiletest.Write(t, srv, clitest.FreeAddr(t), nil)
	var out syncBuf
	e, _ := clitest.Env(t, &out)
	host := filepath.Join(dir, "host_key")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- clitest.Run(ctx, Command, e, "--config", cfg, "--listen", clitest.FreeAddr(t), "--authorized-keys", keys, "--host-key", host,
			"--stats-every", "0")
	}()
	deadline := time.Now().Add(20 * time.Second) // a hang guard, not a speed
	for !strings.Contains(out.String(), "host key SHA256:") {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no host key said: %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	b, err := os.ReadFile(host)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.ParsePrivateKey(b)
	if err != nil {
		t.Fatal(err)
	}
	want := ssh.FingerprintSHA256(signer.PublicKey())
	if !strings.Contains(out.String(), "host key "+want+" (ed25519, "+host+")") {
		t.Fatalf("stdout %q, want %s", out.String(), want)
	}
	log, _ := os.ReadFile(filepath.Join(config.StateDir(e.Getenv), "sessions.log"))
	if !strings.Contains(string(log), `"host_key":"`+want+`"`) {
		t.Fatalf("sessions.log:\n%s", log)
	}
}
