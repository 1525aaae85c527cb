package sshserve

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Certificates, as OpenSSH's TrustedUserCAKeys takes them: a user
// certificate signed by one of the trusted CA keys, within its validity
// window, whose critical options this server honours (source-address) or
// refuses (force-command and any other: the dashboard is not a command),
// that permits a terminal (permit-pty), and one of whose principals the
// roles file names, is let in with that principal's role (the strongest
// when several are named). A certificate, its key or its CA listed in the
// revocation list is refused. The key id and serial, which the CA sets,
// name the session in the log and its actions in the audit line.

// parseCAKeys reads a trusted CA keys file: one public key a line, as
// OpenSSH's TrustedUserCAKeys (comments and blank lines allowed, no
// options).
func parseCAKeys(path string, data []byte) (map[string]gossh.PublicKey, error) {
	cas := map[string]gossh.PublicKey{}
	for n, line := range lines(data) {
		key, _, options, rest, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if len(options) > 0 || len(bytes.TrimSpace(rest)) != 0 {
			return nil, fmt.Errorf("%s:%d: a CA key line is the key and a comment, nothing else", path, n)
		}
		if _, ok := key.(*gossh.Certificate); ok {
			return nil, fmt.Errorf("%s:%d: a certificate is not a CA key", path, n)
		}
		cas[string(key.Marshal())] = key
	}
	if len(cas) == 0 {
		return nil, fmt.Errorf("%s: no CA keys: no certificate could connect", path)
	}
	return cas, nil
}

// lines yields the lines of data that are neither blank nor comments,
// trimmed, with their numbers (from 1).
func lines(data []byte) func(func(int, []byte) bool) {
	return func(yield func(int, []byte) bool) {
		for i, raw := range bytes.Split(data, []byte("\n")) {
			line := bytes.TrimSpace(raw)
			if len(line) == 0 || line[0] == '#' {
				continue
			}
			if !yield(i+1, line) {
				return
			}
		}
	}
}

// roleMap is the roles file: the role of each principal.
type roleMap map[string]Role

// parseRoles reads the roles file: `principal role` a line (role viewer
// or operator), # comments.
func parseRoles(path string, data []byte) (roleMap, error) {
	roles := roleMap{}
	seen := map[string]int{}
	for n, line := range lines(data) {
		f := strings.Fields(string(line))
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: want a principal and its role (viewer or operator), got %q", path, n, line)
		}
		r := Role(f[1])
		if r != RoleViewer && r != RoleOperator {
			return nil, fmt.Errorf("%s:%d: role %q: want viewer or operator", path, n, f[1])
		}
		if prev, ok := seen[f[0]]; ok {
			return nil, fmt.Errorf("%s:%d: principal %q is already listed on line %d", path, n, f[0], prev)
		}
		seen[f[0]], roles[f[0]] = n, r
	}
	if len(roles) == 0 {
		return nil, fmt.Errorf("%s: no principals: no certificate could connect", path)
	}
	return roles, nil
}

// revocations is the revocation list: keys (plain, a certificate's, or a
// CA's: then every certificate it signed), certificate serials and key
// ids refused.
type revocations struct {
	keys    map[string]bool // Marshal() of a public key
	hashes  map[string]bool // SHA256:... fingerprints
	ids     map[string]bool
	serials [][2]uint64 // inclusive ranges
	entries int
}

// krlMagic starts an OpenSSH binary KRL.
const krlMagic = "SSHKRL\n\x00"

// parseRevoked reads the revocation list: the lines of ssh-keygen -k's
// text specification (serial: N or N-M, id: KEYID, key: PUBLIC KEY,
// hash: SHA256:...) or a public key alone a line (a plain list of keys),
// # comments. A binary KRL is not read: no maintained Go library reads
// one, and a list this server could not read must not pass for empty.
// An empty list is valid: nothing is revoked.
func parseRevoked(path string, data []byte) (*revocations, error) {
	if bytes.HasPrefix(data, []byte(krlMagic)) {
		return nil, fmt.Errorf("%s: an OpenSSH binary KRL is not read here: give the revoked keys and serials as text, "+
			"the lines ssh-keygen -k takes (serial: 17, serial: 20-25, id: ana@corp, key: ssh-ed25519 AAAA..., hash: SHA256:...)", path)
	}
	rv := &revocations{keys: map[string]bool{}, hashes: map[string]bool{}, ids: map[string]bool{}}
	for n, line := range lines(data) {
		kind, value, _ := strings.Cut(string(line), ":")
		value = strings.TrimSpace(value)
		switch strings.ToLower(strings.TrimSpace(kind)) {
		case "serial":
			lo, hi, err := serialRange(value)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, n, err)
			}
			rv.serials = append(rv.serials, [2]uint64{lo, hi})
		case "id":
			if value == "" {
				return nil, fmt.Errorf("%s:%d: id: names no key id", path, n)
			}
			rv.ids[value] = true
		case "key":
			key, _, _, _, err := gossh.ParseAuthorizedKey([]byte(value))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: key: %v", path, n, err)
			}
			rv.keys[string(plainKey(key).Marshal())] = true
		case "hash", "sha256":
			if !strings.HasPrefix(value, "SHA256:") || len(value) < len("SHA256:")+43 {
				return nil, fmt.Errorf("%s:%d: hash: want a SHA256:... fingerprint (ssh-keygen -lf), got %q", path, n, value)
			}
			rv.hashes[value] = true
		default:
			key, _, _, _, err := gossh.ParseAuthorizedKey(line)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: want serial:, id:, key:, hash: or a public key: %v", path, n, err)
			}
			rv.keys[string(plainKey(key).Marshal())] = true
		}
		rv.entries++
	}
	return rv, nil
}

// serialRange reads "17" or "20-25".
func serialRange(s string) (lo, hi uint64, err error) {
	a, b, isRange := strings.Cut(s, "-")
	if lo, err = strconv.ParseUint(strings.TrimSpace(a), 10, 64); err != nil {
		return 0, 0, fmt.Errorf("serial %q: want a number or a range N-M", s)
	}
	hi = lo
	if isRange {
		if hi, err = strconv.ParseUint(strings.TrimSpace(b), 10, 64); err != nil || hi < lo {
			return 0, 0, fmt.Errorf("serial %q: want a range N-M with N <= M", s)
		}
	}
	return lo, hi, nil
}

// plainKey is a certificate's key, or key itself.
func plainKey(key gossh.PublicKey) gossh.PublicKey {
	if c, ok := key.(*gossh.Certificate); ok {
		return c.Key
	}
	return key
}

// keyRevoked reports whether key (a certificate's key for a certificate)
// is listed.
func (rv *revocations) keyRevoked(key gossh.PublicKey) bool {
	if rv == nil {
		return false
	}
	k := plainKey(key)
	return rv.keys[string(k.Marshal())] || rv.hashes[gossh.FingerprintSHA256(k)]
}

// certRevoked says why cert is revoked ("" when it is not): its serial,
// its key id, its key or its CA listed.
func (rv *revocations) certRevoked(cert *gossh.Certificate) string {
	if rv == nil {
		return ""
	}
	for _, r := range rv.serials {
		if cert.Serial >= r[0] && cert.Serial <= r[1] {
			return fmt.Sprintf("its serial %d is revoked", cert.Serial)
		}
	}
	switch {
	case rv.ids[cert.KeyId]:
		return fmt.Sprintf("its key id %q is revoked", cert.KeyId)
	case rv.keyRevoked(cert.Key):
		return "its key is revoked"
	case rv.keyRevoked(cert.SignatureKey):
		return "its CA is revoked"
	}
	return ""
}

// Grant is what a key or certificate was let in as.
type grant struct {
	role Role
	// name is who a plain key is, for people (its line's name=, else its
	// comment); a certificate is named by its key id.
	name string
	// cert is set for a certificate: its key id, serial, the principal
	// whose role it took and its CA's fingerprint.
	cert *CertInfo
}

// CertInfo names the certificate a session logged in with.
type CertInfo struct {
	KeyID     string
	Serial    uint64
	Principal string
	CA        string // the CA key's fingerprint
}

// errRefused is a refusal to log, with the reason a person can act on.
type errRefused struct{ reason string }

func (e errRefused) Error() string { return e.reason }

// checkCert lets cert in, or says why not; remote is the client's
// address (for source-address), now the time of the validity window.
func checkCert(cert *gossh.Certificate, cas map[string]gossh.PublicKey, roles roleMap, rv *revocations, remote net.Addr, now time.Time) (grant, error) {
	if cert.CertType != gossh.UserCert {
		return grant{}, errRefused{"a host certificate is not a user's"}
	}
	if _, ok := cas[string(cert.SignatureKey.Marshal())]; !ok {
		return grant{}, errRefused{"signed by a CA not in the trusted CA keys (" + gossh.FingerprintSHA256(cert.SignatureKey) + ")"}
	}
	if why := rv.certRevoked(cert); why != "" {
		return grant{}, errRefused{"revoked: " + why}
	}
	if len(cert.ValidPrincipals) == 0 {
		// OpenSSH takes a certificate without principals for any: here
		// the principal is the role, and none is no role.
		return grant{}, errRefused{"the certificate names no principal"}
	}
	best := ""
	for _, p := range cert.ValidPrincipals {
		if r, ok := roles[p]; ok && (best == "" || r == RoleOperator && roles[best] != RoleOperator) {
			best = p
		}
	}
	checker := gossh.CertChecker{SupportedCriticalOptions: []string{"source-address"}, Clock: func() time.Time { return now }}
	principal := best
	if principal == "" {
		principal = cert.ValidPrincipals[0] // the window, the signature and the options are checked first
	}
	if err := checker.CheckCert(principal, cert); err != nil {
		return grant{}, errRefused{strings.TrimPrefix(err.Error(), "ssh: ") + " (valid " + window(cert) + ")"}
	}
	if src, ok := cert.CriticalOptions["source-address"]; ok {
		if err := sourceAllowed(src, remote); err != nil {
			return grant{}, errRefused{err.Error()}
		}
	}
	if best == "" {
		return grant{}, errRefused{fmt.Sprintf("none of its principals %q is in the roles file", cert.ValidPrincipals)}
	}
	if _, ok := cert.Extensions["permit-pty"]; !ok {
		return grant{}, errRefused{"the certificate does not permit a terminal (permit-pty), which the dashboard needs"}
	}
	return grant{role: roles[best], cert: &CertInfo{KeyID: cert.KeyId, Serial: cert.Serial, Principal: best,
		CA: gossh.FingerprintSHA256(cert.SignatureKey)}}, nil
}

// window is a certificate's validity, as ssh-keygen -L says it.
func window(cert *gossh.Certificate) string {
	at := func(u uint64) string {
		if u > 1<<62 {
			return "forever"
		}
		return time.Unix(int64(u), 0).UTC().Format(time.RFC3339)
	}
	if cert.ValidAfter == 0 && cert.ValidBefore == gossh.CertTimeInfinity {
		return "forever"
	}
	return "from " + at(cert.ValidAfter) + " to " + at(cert.ValidBefore)
}

// sourceAllowed checks the critical option source-address: a
// comma-separated list of addresses and CIDR blocks, one of which must
// hold the client's address.
func sourceAllowed(list string, remote net.Addr) error {
	host := remote.String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return fmt.Errorf("source-address: the client's address %q is not an IP address", host)
	}
	var nets []*net.IPNet
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if !strings.Contains(s, "/") {
			if a := net.ParseIP(s); a != nil {
				bits := 32
				if a.To4() == nil {
					bits = 128
				}
				s += "/" + strconv.Itoa(bits)
			}
		}
		_, n, err := net.ParseCIDR(s)
		if err != nil {
			return fmt.Errorf("source-address %q: %q is no address or CIDR block", list, s)
		}
		nets = append(nets, n)
	}
	if slices.ContainsFunc(nets, func(n *net.IPNet) bool { return n.Contains(ip) }) {
		return nil
	}
	return fmt.Errorf("source-address %s does not hold the client's address %s", list, host)
}

// asRefusal is err's reason when it is a refusal.
func asRefusal(err error) (string, bool) {
	var r errRefused
	if errors.As(err, &r) {
		return r.reason, true
	}
	return "", false
}
