package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"treasury/data/diskfree"
	"treasury/data/words"
)

// probeSize is what the writability probe writes: more than a line of the
// log, so that a disk with room for the probe has room for the next lines.
const probeSize = 8 << 10

// check is what Writable does after a failed write: it writes and syncs a
// probe file next to the log (through Options.Wrap, as the log's lines
// are), then removes it. It returns why the directory cannot be written,
// with the free space when it can tell; nil when the probe was written.
func (l *Log) check() error {
	dir := filepath.Dir(l.path)
	fail := func(err error) error {
		msg := fmt.Sprintf("audit: %s cannot be written (%v)", dir, err)
		if free, ferr := diskfree.Avail(dir); ferr == nil {
			msg += "; " + words.Bytes(free) + " free"
		}
		return fmt.Errorf("%s; last write: %w", msg, l.unwritable)
	}
	f, err := os.CreateTemp(dir, ".audit-probe-*")
	if err != nil {
		return fail(err)
	}
	name := f.Name()
	defer os.Remove(name)
	_, err = l.writer(f).Write(bytes.Repeat([]byte{'\n'}, probeSize))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	return nil
}
