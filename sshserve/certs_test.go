package sshserve

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"treasury/sshserve/sshservetest"
)

// Certificates from ssh-keygen -s over a real SSH client: a valid one
// gets its principal's role (the strongest of its principals in the
// roles file) and its key id and serial reach the session and its log;
// an expired, not yet valid, wrong-principal, revoked, unknown-CA,
// no-pty, force-command or source-address-elsewhere one is refused, the
// log saying why. An edit of the revocation list or the roles file takes
// effect for the next connection; open sessions keep running.
func TestCertificates(t *testing.T) {
	ca := sshservetest.NewCA(t)
	other := ca.Keygen(t, "other-ca")
	cas := filepath.Join(ca.Dir, "trusted_ca")
	roles := filepath.Join(ca.Dir, "roles")
	revoked := filepath.Join(ca.Dir, "revoked")
	writeFile(t, cas, "# the site's CA\n"+sshservetest.PublicLine(t, ca.Key))
	writeFile(t, roles, "# principal role\ntreasury-ops operator\ntreasury-desk viewer\n")
	writeFile(t, revoked, "# nothing yet\n")
	ts := startServer(t, nil, Options{TrustedUserCAKeysFile: cas, RolesFile: roles, RevokedKeysFile: revoked, RefusalLogEvery: time.Nanosecond})

	ops := testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "ben@corp", Principals: "treasury-ops", Serial: "17", Validity: "-5m:+1h"})}
	both := testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "cleo@corp", Principals: "treasury-desk,treasury-ops", Serial: "18"})}
	desk := testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "ana@corp", Principals: "treasury-desk", Serial: "0", Validity: "-1h:+1h", Options: []string{"source-address=127.0.0.0/8,::1"}})}
	for _, c := range []struct {
		user, keyID string
		key         testKey
		serial      uint64
		want        Role
	}{
		{"ben", "ben@corp", ops, 17, RoleOperator},
		{"cleo", "cleo@corp", both, 18, RoleOperator},
		{"ana", "ana@corp", desk, 0, RoleViewer},
	} {
		tm := ts.openTerm(t, c.user, c.key, "xterm")
		s := ts.ev.next(t, c.user, "start").s
		if s.Role != c.want || s.Cert == nil || s.Cert.KeyID != c.keyID || s.Cert.Serial != c.serial ||
			s.Fingerprint != gossh.FingerprintSHA256(c.key.signer.PublicKey().(*gossh.Certificate).Key) {
			t.Errorf("%s: session %+v (cert %+v), want role %s, key id %s, serial %d and the fingerprint of its key", c.user, s, s.Cert, c.want, c.keyID, c.serial)
		}
		tm.waitFor(t, "role="+string(c.want))
		if rec := ts.logs.next(t, "ssh session start"); rec["cert_key_id"] != c.keyID || rec["cert_serial"] == "" || rec["cert_ca"] == "" {
			t.Errorf("%s: session start logged %v", c.user, rec)
		}
	}

	refused := func(name string, k testKey, reason string) {
		t.Helper()
		c, err := ts.dial("mallory", k)
		if err == nil {
			c.Close()
			t.Errorf("%s: let in", name)
			return
		}
		rec := ts.logs.next(t, "ssh key refused")
		if !strings.Contains(rec["reason"], reason) || rec["cert_key_id"] == "" {
			t.Errorf("%s: refusal logged %v, want the reason %q", name, rec, reason)
		}
	}
	refused("expired", testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "old@corp", Principals: "treasury-ops", Serial: "20", Validity: "-2d:-1d"})}, "cert has expired")
	refused("not yet valid", testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "early@corp", Principals: "treasury-ops", Serial: "21", Validity: "+1d:+2d"})}, "cert is not yet valid")
	refused("wrong principal", testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "eve@corp", Principals: "root,admin", Serial: "22"})}, `none of its principals ["root" "admin"] is in the roles file`)
	refused("no principal", testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "any@corp", Principals: "", Serial: "23"})}, "names no principal")
	refused("another CA", testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "x@elsewhere", Principals: "treasury-ops", Serial: "24", By: other})}, "CA not in the trusted CA keys")
	refused("no pty", testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "batch@corp", Principals: "treasury-ops", Serial: "25", Options: []string{"no-pty"}})}, "permit-pty")
	refused("force-command", testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "cmd@corp", Principals: "treasury-ops", Serial: "26", Options: []string{"force-command=/bin/true"}})}, `unsupported critical option "force-command"`)
	refused("source-address elsewhere", testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "far@corp", Principals: "treasury-ops", Serial: "27", Options: []string{"source-address=192.0.2.0/24"}})}, "does not hold the client's address 127.0.0.1")

	// Revoked: by serial, by key id, by key; the list is read again at
	// the next connection. The open sessions are not cut.
	open := ts.openTerm(t, "ben", ops, "xterm")
	ts.ev.next(t, "ben", "start")
	writeFile(t, revoked, "serial: 17\nid: cleo@corp\nkey: "+string(gossh.MarshalAuthorizedKey(desk.signer.PublicKey().(*gossh.Certificate).Key)))
	refused("revoked serial", ops, "its serial 17 is revoked")
	refused("revoked key id", both, `its key id "cleo@corp" is revoked`)
	refused("revoked key", desk, "its key is revoked")
	open.waitFor(t, "role=operator")
	if _, err := open.sess.SendRequest("window-change", false, gossh.Marshal(struct{ W, H, PW, PH uint32 }{100, 30, 0, 0})); err != nil {
		t.Fatalf("the open session was cut by the revocation: %v", err)
	}
	open.waitFor(t, "size=100x30")

	// A plain key is no certificate: without authorized keys, refused.
	plain := newTestKey(t, "plain")
	if c, err := ts.dial("plain", plain); err == nil {
		c.Close()
		t.Error("a plain key let in with certificates alone")
	}
	// A binary KRL is not taken for an empty list: every key is refused.
	writeFile(t, revoked, krlMagic+"\x00\x00\x00\x01")
	fresh := testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "dan@corp", Principals: "treasury-ops", Serial: "30"})}
	if c, err := ts.dial("dan", fresh); err == nil {
		c.Close()
		t.Error("an unreadable revocation list let a certificate in")
	}
	if rec := ts.logs.next(t, "revoked keys unusable: refusing every key until fixed"); !strings.Contains(rec["error"], "binary KRL is not read") {
		t.Errorf("fault logged %v", rec)
	}
}

// Reload (SIGHUP) reads the roles again: a new session of the same
// certificate takes its principal's new role, the open session keeps
// running with the role it had; a broken file is said at once.
func TestReloadChangesTheRoleOfNewSessions(t *testing.T) {
	ca := sshservetest.NewCA(t)
	cas, roles := filepath.Join(ca.Dir, "trusted_ca"), filepath.Join(ca.Dir, "roles")
	writeFile(t, cas, sshservetest.PublicLine(t, ca.Key))
	writeFile(t, roles, "treasury-ops viewer\n")
	ts := startServer(t, nil, Options{TrustedUserCAKeysFile: cas, RolesFile: roles})
	k := testKey{signer: ca.Sign(t, sshservetest.Cert{KeyID: "ben@corp", Principals: "treasury-ops", Serial: "5"})}
	first := ts.openTerm(t, "ben", k, "xterm")
	if s := ts.ev.next(t, "ben", "start").s; s.Role != RoleViewer {
		t.Fatalf("role %s, want viewer", s.Role)
	}
	first.waitFor(t, "role=viewer")

	writeFile(t, roles, "treasury-ops operator\n")
	if r, err := ts.Reload(); err != nil || r.Principals != 1 || r.CAs != 1 {
		t.Fatalf("Reload: %+v %v", r, err)
	}
	ts.logs.next(t, "access files reloaded")
	second := ts.openTerm(t, "ben2", k, "xterm")
	if s := ts.ev.next(t, "ben2", "start").s; s.Role != RoleOperator {
		t.Errorf("after the reload, a new session's role is %s, want operator", s.Role)
	}
	second.waitFor(t, "role=operator")
	if ts.Sessions() != 2 {
		t.Errorf("%d sessions run, want the first still running beside the second", ts.Sessions())
	}
	first.stdin.Write([]byte("x")) // still served
	first.waitFor(t, "role=viewer")

	writeFile(t, roles, "treasury-ops admin\n")
	if _, err := ts.Reload(); err == nil || !strings.Contains(err.Error(), `roles:1: role "admin"`) {
		t.Errorf("a broken roles file reloaded: %v", err)
	}
	if c, err := ts.dial("ben3", k); err == nil {
		c.Close()
		t.Error("a certificate let in while the roles file is broken")
	}
}

// Faults of the roles, CA and revocation files name the file and line.
func TestCertFilesFaultsNameFileAndLine(t *testing.T) {
	a := newTestKey(t, "a")
	for _, c := range []struct {
		name  string
		parse func(string, []byte) error
		in    string
		want  string
	}{
		{"roles: one field", func(p string, d []byte) error { _, err := parseRoles(p, d); return err }, "# x\nops\n", "f:2: want a principal and its role"},
		{"roles: unknown role", func(p string, d []byte) error { _, err := parseRoles(p, d); return err }, "ops root\n", `f:1: role "root"`},
		{"roles: twice", func(p string, d []byte) error { _, err := parseRoles(p, d); return err }, "ops operator\nops viewer\n", `f:2: principal "ops" is already listed on line 1`},
		{"roles: empty", func(p string, d []byte) error { _, err := parseRoles(p, d); return err }, "# none\n", "f: no principals"},
		{"ca: options", func(p string, d []byte) error { _, err := parseCAKeys(p, d); return err }, `role="operator" ` + a.line, "f:1: a CA key line is the key"},
		{"ca: garbage", func(p string, d []byte) error { _, err := parseCAKeys(p, d); return err }, "\nssh-ed25519 !!\n", "f:2:"},
		{"ca: empty", func(p string, d []byte) error { _, err := parseCAKeys(p, d); return err }, "", "f: no CA keys"},
		{"revoked: serial", func(p string, d []byte) error { _, err := parseRevoked(p, d); return err }, "serial: 9-3\n", `f:1: serial "9-3"`},
		{"revoked: hash", func(p string, d []byte) error { _, err := parseRevoked(p, d); return err }, "hash: MD5:aa\n", "f:1: hash: want a SHA256"},
		{"revoked: junk", func(p string, d []byte) error { _, err := parseRevoked(p, d); return err }, "# ok\nwhat: ever\n", "f:2: want serial:, id:, key:, hash: or a public key"},
		{"revoked: KRL", func(p string, d []byte) error { _, err := parseRevoked(p, d); return err }, krlMagic + "\x01", "binary KRL is not read here"},
	} {
		if err := c.parse("f", []byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	rv, err := parseRevoked("f", []byte("# a plain list of keys, and a hash\n"+a.line+"\nhash: "+a.fingerprint()+"\nserial: 4-6\n"))
	if err != nil || rv.entries != 3 || !rv.keyRevoked(a.signer.PublicKey()) || !rv.hashes[a.fingerprint()] {
		t.Errorf("parsed %+v %v", rv, err)
	}
	if rv, err := parseRevoked("f", nil); err != nil || rv.entries != 0 {
		t.Errorf("an empty list: %+v %v", rv, err)
	}
}
