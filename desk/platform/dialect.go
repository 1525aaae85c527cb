package platform

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	payclient "treasury/wire/payments/client"
)

// dialectFile holds, in the state directory, what each profile's payments
// server was learnt to take where the spec's wording and the vendor's
// document differ (payclient.Dialect), so a restart does not probe again.
const dialectFile = "payments-dialect.json"

// dialects remembers the dialects learnt, per profile and base URL: a
// profile pointed at another server starts afresh.
type dialects struct {
	path string // "" remembers nothing
	mu   sync.Mutex
}

// key names a profile's payments server.
func dialectKey(profile, baseURL string) string { return profile + " " + baseURL }

// load returns what was learnt of key (the zero dialect when nothing was,
// or the file cannot be read: learning again costs a request or two).
func (d *dialects) load(key string) payclient.Dialect {
	if d.path == "" {
		return payclient.Dialect{}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.readLocked()[key]
}

func (d *dialects) readLocked() map[string]payclient.Dialect {
	m := map[string]payclient.Dialect{}
	b, err := os.ReadFile(d.path)
	if err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// save records what was learnt of key, replacing the file whole.
func (d *dialects) save(key string, v payclient.Dialect) error {
	if d.path == "" {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	m := d.readLocked()
	m[key] = v
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(d.path), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	tmp := d.path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, d.path)
}
