// Package nonroot runs a test as an unprivileged user when the test binary
// runs as root. Permission bits (a read-only directory, a file of mode
// 0400) bind every user but root, and a CI machine or a container may run
// the tests as root: a test of what a read-only state directory does
// would then prove nothing. As root, Run starts the test binary again for
// the one test, as the user nobody, and reports its result; otherwise the
// test runs where it is.
//
// A package that uses Run calls Main from its TestMain.
package nonroot

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
)

// envVar marks the test binary started again by Run.
const envVar = "TREASURY_TEST_NONROOT"

// Nobody is the user and group the test runs as when the binary runs as
// root.
const Nobody = 65534

// Main runs the tests of a package (call it from TestMain): in a binary
// Run started again, it first drops root for Nobody, so the test sees
// permissions as an operator would.
func Main(m *testing.M) int {
	if os.Getenv(envVar) == "1" && os.Geteuid() == 0 {
		if err := syscall.Setgroups(nil); err != nil {
			fmt.Fprintln(os.Stderr, "nonroot: setgroups:", err)
			return 2
		}
		if err := syscall.Setgid(Nobody); err != nil {
			fmt.Fprintln(os.Stderr, "nonroot: setgid:", err)
			return 2
		}
		if err := syscall.Setuid(Nobody); err != nil {
			fmt.Fprintln(os.Stderr, "nonroot: setuid:", err)
			return 2
		}
	}
	return m.Run()
}

// Run makes the calling test run as a user who is not root. Not root, it
// returns false and the test goes on. As root, it runs this test alone in
// the test binary started again as Nobody, fails t with its output when
// that run fails, and returns true: the caller returns at once.
func Run(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return false
	}
	if os.Getenv(envVar) == "1" {
		t.Fatal("nonroot: still root after dropping privileges")
	}
	bin, err := copyBinary(t)
	if err != nil {
		t.Fatalf("nonroot: %v", err)
	}
	cmd := exec.Command(bin, "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), envVar+"=1", "TMPDIR="+os.TempDir())
	cmd.Dir = os.TempDir() // nobody may not enter the package's folder
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as user %s: %v\n%s", strconv.Itoa(Nobody), err, out)
	}
	if !regexp.MustCompile(`(?m)^--- PASS: ` + regexp.QuoteMeta(t.Name()) + ` `).Match(out) {
		t.Fatalf("as user %d: the test did not run and pass:\n%s", Nobody, out)
	}
	return true
}

// copyBinary copies the test binary into a folder Nobody may enter (go
// test builds it in one only root may), and returns its path.
func copyBinary(t *testing.T) (string, error) {
	dir, err := os.MkdirTemp(os.TempDir(), "nonroot-")
	if err != nil {
		return "", err
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	b, err := os.ReadFile(os.Args[0])
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, filepath.Base(os.Args[0]))
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		return "", err
	}
	return bin, nil
}
