package site

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestTheNodeHoldsNoPlaintextPassword: a node given the site's password
// checks clients against its bcrypt hash: its log says nothing of
// plaintext passwords, a client with another password is refused
// (authorization) and one with the site's connects.
func TestTheNodeHoldsNoPlaintextPassword(t *testing.T) {
	log := &syncBuffer{}
	addr := freePorts(t, 1)[0]
	s, err := Start(Options{Name: "one", Node: "one", Listen: addr, User: "treasury", Password: "site-secret", Replicas: 1,
		StoreDir: filepath.Join(t.TempDir(), "nats"), Log: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	connect := func(password string) error {
		nc, err := nats.Connect("nats://"+addr, nats.UserInfo("treasury", password), nats.Timeout(2*time.Second))
		if err == nil {
			nc.Close()
		}
		return err
	}
	if err := connect("not-the-sites"); !refusedCredentials(err) {
		t.Errorf("another password: %v, want an authorization violation", err)
	}
	if err := connect("site-secret"); err != nil {
		t.Errorf("the site's password: %v", err)
	}
	if strings.Contains(log.String(), "Plaintext") {
		t.Errorf("the node's log speaks of plaintext passwords:\n%s", log)
	}
}
