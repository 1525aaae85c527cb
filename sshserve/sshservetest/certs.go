// Package sshservetest makes, for tests, the keys and OpenSSH user
// certificates an admin makes with ssh-keygen: a CA, user keys it signs
// with a key id, principals, a serial, a validity window and options,
// and the signer a client offers them with.
package sshservetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// CA is a certificate authority's key, made by ssh-keygen in a folder of
// the test's.
type CA struct {
	Dir, Key string // the folder and the CA's private key
	n        int
}

// NewCA makes a CA key (ssh-keygen -t ed25519) in a temporary folder.
func NewCA(tb testing.TB) *CA {
	tb.Helper()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		tb.Fatal("ssh-keygen makes the certificates of these tests: apt-get install openssh-client")
	}
	ca := &CA{Dir: tb.TempDir()}
	ca.Key = ca.Keygen(tb, "ca")
	return ca
}

// Keygen makes an ed25519 key pair in the CA's folder and returns its
// private key's path (the public key is beside it, .pub).
func (ca *CA) Keygen(tb testing.TB, name string) string {
	tb.Helper()
	path := filepath.Join(ca.Dir, name)
	Run(tb, "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path)
	return path
}

// Run runs ssh-keygen with args.
func Run(tb testing.TB, args ...string) {
	tb.Helper()
	if out, err := exec.Command("ssh-keygen", args...).CombinedOutput(); err != nil {
		tb.Fatalf("ssh-keygen %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// PublicLine is the public key line of a key file (key + ".pub").
func PublicLine(tb testing.TB, key string) string {
	tb.Helper()
	raw, err := os.ReadFile(key + ".pub")
	if err != nil {
		tb.Fatal(err)
	}
	return string(raw)
}

// Cert is a certificate request: ssh-keygen -s CA -I KeyID -z Serial
// [-n Principals] [-V Validity] [-O Options...].
type Cert struct {
	KeyID, Principals, Serial, Validity string
	Options                             []string
	// By signs with another CA key than the CA's own (a path).
	By string
}

// Sign makes a new user key, has it signed as c says, and returns the
// signer a client offers the certificate with.
func (ca *CA) Sign(tb testing.TB, c Cert) gossh.Signer {
	tb.Helper()
	ca.n++
	key := ca.Keygen(tb, fmt.Sprintf("user%d", ca.n))
	by := ca.Key
	if c.By != "" {
		by = c.By
	}
	serial := c.Serial
	if serial == "" {
		serial = "0"
	}
	args := []string{"-q", "-s", by, "-I", c.KeyID, "-z", serial}
	if c.Principals != "" { // none: for OpenSSH, valid for any principal
		args = append(args, "-n", c.Principals)
	}
	if c.Validity != "" {
		args = append(args, "-V", c.Validity)
	}
	for _, o := range c.Options {
		args = append(args, "-O", o)
	}
	Run(tb, append(args, key+".pub")...)
	raw, err := os.ReadFile(key + "-cert.pub")
	if err != nil {
		tb.Fatal(err)
	}
	pub, _, _, _, err := gossh.ParseAuthorizedKey(raw)
	if err != nil {
		tb.Fatal(err)
	}
	priv, err := os.ReadFile(key)
	if err != nil {
		tb.Fatal(err)
	}
	signer, err := gossh.ParsePrivateKey(priv)
	if err != nil {
		tb.Fatal(err)
	}
	cs, err := gossh.NewCertSigner(pub.(*gossh.Certificate), signer)
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}
