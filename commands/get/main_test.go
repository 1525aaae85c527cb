package get

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sandboxcmd "treasury/commands/sandbox"
	"treasury/kit/pubkey"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
)

// sharedFace is the profile of the package's sandbox, which the gets of
// getRun read (set by TestMain): the embedded sandbox's world (seed 1,
// its clock running from now, so that the windows read back from this
// host's clock hold records) with the 600 history payments of the views'
// tests, and pages of 20 payments, so that a read of them all walks 30
// pages. Under -race, a sandbox of the built-in profile's 3,000 payments
// started for each get, and read whole, was most of the package's time;
// TestGetBuiltinProfile still runs one.
var sharedFace string

// sharedContract checks the shared sandbox's payments exchanges against
// the vendor's document; each get on it reports what was found.
var sharedContract *sandboxtest.Violations

// sharedPageSize is the shared profile's payments page_size.
const sharedPageSize = 20

func TestMain(m *testing.M) {
	os.Exit(runShared(m))
}

func runShared(m *testing.M) int {
	dir, err := os.MkdirTemp("", "treasury-get-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if sharedContract, err = sandboxtest.NewViolations(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv, err := sandbox.Listen("127.0.0.1:0", sandbox.Options{Seed: 1, HistoryPayments: 600, Observe: sharedContract.Observe})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start sandbox:", err)
		return 1
	}
	defer srv.Close()
	if sharedFace, err = writeShared(srv, dir); err != nil {
		fmt.Fprintln(os.Stderr, "write the sandbox's profile:", err)
		return 1
	}
	return m.Run()
}

// writeShared writes srv's profile into dir, its payments read in pages
// of sharedPageSize.
func writeShared(srv *sandbox.Server, dir string) (string, error) {
	pubPEM, err := pubkey.MarshalPEM(srv.WebhookPublicKey())
	if err != nil {
		return "", err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	listen := ln.Addr().String()
	ln.Close()
	path := filepath.Join(dir, "sandbox.yaml")
	if _, err := sandboxcmd.WriteProfile(srv, path, "", listen, pubPEM); err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	text := string(b)
	const key = "\n        payments:\n"
	if !strings.Contains(text, key) {
		return "", fmt.Errorf("no payments section in the profile:\n%s", text)
	}
	text = strings.Replace(text, key, key+fmt.Sprintf("            page_size: %d\n", sharedPageSize), 1)
	return path, os.WriteFile(path, []byte(text), 0o600)
}
