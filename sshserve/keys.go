package sshserve

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	gossh "golang.org/x/crypto/ssh"
)

// authorizedKey is one line of the authorized keys file.
type authorizedKey struct {
	role    Role
	comment string
	// name is the name= option of the line, else its comment: who the key
	// is, for people (the audit log, "in flight from …").
	name string
	line int
}

// parseAuthorizedKeys reads an OpenSSH authorized_keys file. Each line is
// `[options] type base64 [comment]`. The options read are role="viewer" or
// role="operator" (default viewer) and name="Ana Lima", who the key is
// (default: its comment). The OpenSSH restrictions that do not
// widen access and that this server never grants anyway (no-pty excepted:
// the dashboard needs a terminal) are accepted and ignored: restrict,
// no-port-forwarding, no-agent-forwarding, no-X11-forwarding, no-user-rc.
// Any other option (from=, command=, expiry-time=, ...) is an error rather
// than being silently ignored, since ignoring it would widen access.
func parseAuthorizedKeys(path string, data []byte) (map[string]authorizedKey, error) {
	keys := map[string]authorizedKey{}
	for i, raw := range bytes.Split(data, []byte("\n")) {
		n := i + 1
		line := bytes.TrimSpace(raw)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, comment, options, rest, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if len(bytes.TrimSpace(rest)) != 0 {
			return nil, fmt.Errorf("%s:%d: unexpected text after the key", path, n)
		}
		role, name := RoleViewer, strings.TrimSpace(comment)
		for _, opt := range options {
			r, nm, err := parseKeyOption(opt)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, n, err)
			}
			if r != "" {
				role = r
			}
			if nm != "" {
				name = nm
			}
		}
		id := string(key.Marshal())
		if prev, ok := keys[id]; ok {
			return nil, fmt.Errorf("%s:%d: key %s is already listed on line %d", path, n, gossh.FingerprintSHA256(key), prev.line)
		}
		keys[id] = authorizedKey{role: role, comment: comment, name: name, line: n}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no keys: nobody could connect", path)
	}
	return keys, nil
}

// parseKeyOption returns the role or the name an option sets ("" when it
// sets none).
func parseKeyOption(opt string) (Role, string, error) {
	name, value, hasValue := strings.Cut(opt, "=")
	switch strings.ToLower(name) {
	case "role":
		v := strings.Trim(value, `"`)
		switch Role(v) {
		case RoleViewer, RoleOperator:
			return Role(v), "", nil
		}
		return "", "", fmt.Errorf("role %q: want role=\"viewer\" or role=\"operator\"", v)
	case "name":
		v := strings.TrimSpace(strings.Trim(value, `"`))
		if v == "" {
			return "", "", errors.New(`name="" names nobody: give who the key is (name="Ana Lima")`)
		}
		return "", v, nil
	case "restrict", "no-port-forwarding", "no-agent-forwarding", "no-x11-forwarding", "no-user-rc":
		if hasValue {
			return "", "", fmt.Errorf("option %q takes no value", name)
		}
		return "", "", nil
	}
	return "", "", fmt.Errorf("option %q is not supported here (only role=, name=, restrict, no-port-forwarding, no-agent-forwarding, no-X11-forwarding, no-user-rc)", name)
}

// loadHostKey reads an OpenSSH private host key, creating an ed25519 one
// (mode 0600) when the file does not exist. A key readable by group or
// others is refused, as sshd does.
func loadHostKey(path string) (gossh.Signer, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createHostKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("host key %s: mode %04o lets others read it; run chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("host key %s: %v", path, err)
	}
	return signer, nil
}

func createHostKey(path string) (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "treasury serve host key")
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if _, err := f.Write(pem.EncodeToMemory(block)); err != nil {
		f.Close()
		return nil, fmt.Errorf("host key %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("host key %s: %w", path, err)
	}
	return gossh.NewSignerFromKey(priv)
}
