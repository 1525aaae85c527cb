package audit

import (
	"fmt"
	"path/filepath"

	"treasury/kit/diskfree"
	"treasury/kit/words"
)

// check is what Writable does after a failed write: it writes and syncs a
// probe file next to the log (through Options.Wrap, as the log's lines
// are), then removes it. It returns why the directory cannot be written,
// with the free space when it can tell; nil when the probe was written.
func (l *Log) check() error {
	dir := filepath.Dir(l.path)
	err := diskfree.Probe(dir, l.wrap)
	if err == nil {
		return nil
	}
	msg := fmt.Sprintf("audit: %s cannot be written (%v)", dir, err)
	if free, ferr := diskfree.Avail(dir); ferr == nil {
		msg += "; " + words.Bytes(free) + " free"
	}
	return fmt.Errorf("%s; last write: %w", msg, l.unwritable)
}
