package audit

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
)

// ProcsDir is the folder of the state directory where each process that
// can write the log marks itself running (procs/<id>.lock, held locked for
// its life): what tells a treasury process apart (doctor).
const ProcsDir = "procs"

// Liveness is whether the process that wrote a line still runs.
type Liveness int

const (
	// Ended: the process is gone (killed, exited, the machine restarted).
	Ended Liveness = iota
	// Alive: the process runs now.
	Alive
	// Unknown: the line was written on another host, or before lines
	// named their process; nothing here can tell.
	Unknown
)

// procs is the state directory's register of running processes: each
// process that can write the log holds an exclusive advisory lock on
// procs/<id>.lock for its life. The kernel releases the lock when the
// process ends, however it ends, so a lock another process can take is
// the mark of one that ended.
type procs struct {
	dir, self, host string

	mu sync.Mutex
	f  *os.File // this process's mark, locked while it runs
}

// register marks this process running (once) and removes the marks of
// processes that ended.
func (p *procs) register() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f != nil {
		return nil
	}
	if err := os.MkdirAll(p.dir, 0o700); err != nil {
		return err
	}
	// Locked before it is named: a mark another process finds is always
	// locked while its process runs (a sweep never sees it unlocked).
	tmp := filepath.Join(p.dir, "."+p.self+".new")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if ok, err := tryLock(f); err != nil || !ok {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("lock %s: %v", tmp, cmpErr(err, "held by another process"))
	}
	if err := os.Rename(tmp, p.mark(p.self)); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	p.f = f
	p.sweep()
	return nil
}

// sweep removes the marks of processes that ended; the caller holds p.mu.
func (p *procs) sweep() {
	names, _ := filepath.Glob(filepath.Join(p.dir, "*.lock"))
	for _, name := range names {
		if name == p.mark(p.self) {
			continue
		}
		if f, err := os.OpenFile(name, os.O_RDWR, 0); err == nil {
			if ok, _ := tryLock(f); ok {
				os.Remove(name)
			}
			f.Close()
		}
	}
}

// release ends this process's mark.
func (p *procs) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f != nil {
		os.Remove(p.mark(p.self))
		p.f.Close()
		p.f = nil
	}
}

func (p *procs) mark(id string) string { return filepath.Join(p.dir, id+".lock") }

// alive says whether the process pr, which wrote a line on host, runs.
func (p *procs) alive(pr *Proc, host string) Liveness {
	switch {
	case pr == nil || pr.ID == "" || strings.ContainsAny(pr.ID, `/\.`):
		return Unknown
	case pr.ID == p.self:
		return Alive
	case host != p.host:
		return Unknown
	}
	f, err := os.OpenFile(p.mark(pr.ID), os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return Ended
	}
	if err != nil {
		return Unknown
	}
	defer f.Close()
	ok, err := tryLock(f)
	switch {
	case err != nil:
		return Unknown
	case ok:
		return Ended // its lock was free: released when the process ended
	}
	return Alive
}

// Alive says whether the process pr, which wrote a line on host, still
// runs: Alive for this process and for a process of this host that holds
// its mark; Ended for one of this host that does not; Unknown for another
// host's, or a line that names no process.
//
// With a replica that knows the site's processes (Lives), a process of
// another host is Alive while it says it runs, Ended once it stopped
// saying so, Unknown when this host never heard of it.
func (l *Log) Alive(pr *Proc, host string) Liveness {
	if lv, ok := l.replica.(Lives); ok && host != l.host && pr != nil && pr.ID != "" {
		switch alive, known := lv.Alive(pr.ID); {
		case alive:
			return Alive
		case known:
			return Ended
		}
		return Unknown
	}
	return l.live.alive(pr, host)
}

// newProcID is an id for this process's run.
func newProcID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// osUser is the name of the user this process runs as.
func osUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}

func cmpErr(err error, otherwise string) string {
	if err != nil {
		return err.Error()
	}
	return otherwise
}
