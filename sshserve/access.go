package sshserve

import (
	"errors"
	"fmt"
	"net"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// access is who may connect, from its files: the authorized keys (each
// with its role), and for certificates the trusted CA keys, the roles of
// the principals and the revocation list (which also refuses plain
// keys). Each file is read again at every authentication when it changed
// (watchedFile); Reload reads them all at once.
type access struct {
	keys    *watchedFile[map[string]authorizedKey] // nil without --authorized-keys
	cas     *watchedFile[map[string]gossh.PublicKey]
	roles   *watchedFile[roleMap]
	revoked *watchedFile[*revocations] // nil without a revocation list
	now     func() time.Time
}

// newAccess reads the files o names; an error names the file and line.
func newAccess(o Options) (*access, error) {
	a := &access{now: time.Now}
	var err error
	if o.AuthorizedKeysFile == "" && o.TrustedUserCAKeysFile == "" {
		return nil, errors.New("serve: an authorized keys file or a trusted CA keys file is required")
	}
	if (o.TrustedUserCAKeysFile == "") != (o.RolesFile == "") {
		return nil, errors.New("serve: certificates need both the trusted CA keys and the roles of their principals (--trusted-user-ca-keys with --roles)")
	}
	if o.AuthorizedKeysFile != "" {
		if a.keys, err = newWatched(o.AuthorizedKeysFile, "authorized keys", "every key", parseAuthorizedKeys); err != nil {
			return nil, err
		}
	}
	if o.TrustedUserCAKeysFile != "" {
		if a.cas, err = newWatched(o.TrustedUserCAKeysFile, "trusted CA keys", "every certificate", parseCAKeys); err != nil {
			return nil, err
		}
		if a.roles, err = newWatched(o.RolesFile, "roles", "every certificate", parseRoles); err != nil {
			return nil, err
		}
	}
	if o.RevokedKeysFile != "" {
		if a.revoked, err = newWatched(o.RevokedKeysFile, "revoked keys", "every key", parseRevoked); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// check lets key in from remote, or refuses it: an errRefused says why
// (for the log); faults of the files found on the way (a file that became
// unusable: every key is refused until it is fixed) are returned in
// faults, each once.
func (a *access) check(key gossh.PublicKey, remote net.Addr) (g grant, err error, faults []error) {
	note := func(changeErr error) {
		if changeErr != nil {
			faults = append(faults, changeErr)
		}
	}
	var rv *revocations
	if a.revoked != nil {
		var ok bool
		var ch error
		rv, ok, ch = a.revoked.get()
		note(ch)
		if !ok {
			return grant{}, errRefused{"the revocation list is unusable: every key is refused until it is fixed"}, faults
		}
	}
	if cert, ok := key.(*gossh.Certificate); ok {
		if a.cas == nil {
			return grant{}, errRefused{"certificates are not taken here (no --trusted-user-ca-keys)"}, faults
		}
		cas, ok, ch := a.cas.get()
		note(ch)
		roles, rok, rch := a.roles.get()
		note(rch)
		if !ok || !rok {
			return grant{}, errRefused{"the trusted CA keys or the roles file is unusable: every certificate is refused until it is fixed"}, faults
		}
		g, err := checkCert(cert, cas, roles, rv, remote, a.now())
		return g, err, faults
	}
	if rv.keyRevoked(key) {
		return grant{}, errRefused{"the key is revoked"}, faults
	}
	if a.keys == nil {
		return grant{}, errRefused{"plain keys are not taken here (no --authorized-keys): log in with a certificate"}, faults
	}
	keys, ok, ch := a.keys.get()
	note(ch)
	if !ok {
		return grant{}, errRefused{"the authorized keys are unusable: every key is refused until they are fixed"}, faults
	}
	ak, found := keys[string(key.Marshal())]
	if !found {
		return grant{}, errRefused{"not in the authorized keys"}, faults
	}
	return grant{role: ak.role, name: ak.name}, nil, faults
}

// Reloaded is what a reload found in the files.
type Reloaded struct {
	Keys, CAs, Principals, Revoked int
}

// reload reads every file now; a file that is unusable refuses what it
// governs until fixed, and its fault is in err (all of them, joined).
func (a *access) reload() (Reloaded, error) {
	var r Reloaded
	var errs []error
	if a.keys != nil {
		k, err := a.keys.reload()
		r.Keys = len(k)
		errs = append(errs, err)
	}
	if a.cas != nil {
		c, err := a.cas.reload()
		p, perr := a.roles.reload()
		r.CAs, r.Principals = len(c), len(p)
		errs = append(errs, err, perr)
	}
	if a.revoked != nil {
		rv, err := a.revoked.reload()
		if rv != nil {
			r.Revoked = rv.entries
		}
		errs = append(errs, err)
	}
	return r, errors.Join(errs...)
}

// String says what a reload read, for the log.
func (r Reloaded) String() string {
	return fmt.Sprintf("%d authorized keys, %d CA keys, %d principals, %d revocations", r.Keys, r.CAs, r.Principals, r.Revoked)
}
