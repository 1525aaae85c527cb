package serve

import (
	"path/filepath"
	"testing"

	"treasury/sshserve"
)

// TestSessionSaveFolderPerUser: each SSH user saves into a folder of its
// own under the state directory, whatever the user name holds.
func TestSessionSaveFolderPerUser(t *testing.T) {
	for user, want := range map[string]string{"ana": "ana", "../ben": ".._ben", "..": "_..", "": "_", "a b/c": "a_b_c"} {
		got := sshSession("/state", sshserve.Session{User: user}).SaveDir
		if got != filepath.Join("/state", "exports", want) {
			t.Errorf("user %q saves into %s", user, got)
		}
	}
}
