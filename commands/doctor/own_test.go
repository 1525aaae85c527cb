package doctor

import (
	"os"
	"path/filepath"
	"testing"

	"treasury/desk/audit"
	"treasury/kit/portowner"
)

// TestOwnReceiverByTheProcess: a treasury is known by what it holds and
// runs, not by its program's name: a versioned binary on a bastion
// (treasury-1.4.2) whose serve holds this state directory's writer mark
// is this host's serve; a process of another name that holds no mark is
// not; a serve of another profile is not this profile's.
func TestOwnReceiverByTheProcess(t *testing.T) {
	state := t.TempDir()
	mark := filepath.Join(state, audit.ProcsDir, "0a1b2c.lock")
	serve := portowner.Process{PID: 4242, Command: "treasury-1.4.2", Exe: "/opt/treasury-1.4.2",
		Args: []string{"/opt/treasury-1.4.2", "--profile", "prod", "serve", "--listen", ":2222"}, Files: []string{"/dev/null", mark}}
	if cmd, ok := ownReceiver(serve, "prod", state); !ok || cmd != "serve" {
		t.Errorf("a versioned binary's serve holding the state directory's mark: %q %v", cmd, ok)
	}
	if _, ok := ownReceiver(serve, "uat", state); ok {
		t.Error("a serve of another profile taken for this one's")
	}
	other := serve
	other.Files, other.Command, other.Exe, other.Args = []string{"/var/log/x"}, "nginx", "/usr/sbin/nginx", []string{"/usr/sbin/nginx", "serve"}
	if _, ok := ownReceiver(other, "prod", state); ok {
		t.Error("a process that is no treasury taken for one")
	}
	if _, ok := ownReceiver(serve, "prod", t.TempDir()); ok {
		t.Error("a treasury of another state directory, under another name, taken for this host's")
	}
}

// TestOwnReceiverOfThisExecutable: another process of this very
// executable, whatever it is named, is a treasury; this process itself
// (the doctor holds no receiver) is not.
func TestOwnReceiverOfThisExecutable(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	pr := portowner.Process{PID: os.Getpid() + 1, Command: "tr-2", Exe: self, Args: []string{"/opt/tr-2", "serve"}}
	if cmd, ok := ownReceiver(pr, "ops", t.TempDir()); !ok || cmd != "serve" {
		t.Errorf("another process of this executable: %q %v", cmd, ok)
	}
	pr.PID = os.Getpid()
	if _, ok := ownReceiver(pr, "ops", t.TempDir()); ok {
		t.Error("the doctor's own process taken for a receiver")
	}
}
