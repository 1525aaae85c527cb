package audit

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Replica is the site's copy of the log, when several hosts act on one
// record (a site: desk/site's JetStream stream, replicated across the
// bastions): the sealed lines of the chain in order, the n-th line the
// record of seq n, appended only at its end and only by one writer at a
// time. With a replica, the local file is a copy of it: an append goes
// to the replica first and to the file once the replica took it, and the
// lines other hosts appended are written to the file before anything is
// decided (AppendDecided), so a retry from one host of an attempt another
// host left open reuses that attempt's key. An append the replica cannot
// take is refused: never a line of the local file alone.
type Replica interface {
	// Lines returns the lines of seq from on, in order; none past the
	// end.
	Lines(ctx context.Context, from uint64) ([][]byte, error)
	// Last is the replica's last seq (0: it is empty).
	Last(ctx context.Context) (uint64, error)
	// Put appends line as the line of seq; ErrBehind when the replica
	// holds a line of seq already (another host appended first).
	Put(ctx context.Context, seq uint64, line []byte) error
	// Name names the replica in what the log says ("the site's record
	// (stream TREASURY_AUDIT)").
	Name() string
}

// Lives is what a replica may know of the site's processes (desk/site's
// does): each process that writes the record says, while it runs, that it
// runs (Register), so another host can tell an attempt of a bastion that
// runs (on its way) from one of a bastion that died (interrupted), as
// procs/<id>.lock tells it on one host.
type Lives interface {
	Register(procID string) (stop func())
	// Alive says whether procID said it runs lately, and whether this
	// host has heard of it at all.
	Alive(procID string) (alive, known bool)
}

// ErrSiteUnreachable is why an append is refused while the site's record
// cannot be read or appended; ErrDiverged while the local copy differs
// from it.
var (
	ErrSiteUnreachable = errors.New("the site's record cannot be reached")
	ErrDiverged        = errors.New("the local copy differs from the site's record")
)

// ErrBehind is a replica's answer to an append when another host
// appended first: the log reads the new lines and decides again.
var ErrBehind = errors.New("audit: another host appended to the site's record first")

// replicaWait bounds one call to the replica: an append that cannot reach
// it in that time is refused, never left waiting on a person.
const replicaWait = 5 * time.Second

// maxRaces bounds how often an append decides again after another host
// appended first.
const maxRaces = 8

// pullReplica brings the local file level with the replica: the lines
// other hosts appended are written to it (and given to the followers);
// at the first pull, the lines of the local file the replica lacks (a
// host that kept its record alone before it joined the site) are put to
// the replica. A local file that differs from the replica is said
// (diverged) and refuses every later append. The caller holds l.mu and
// the exclusive file lock, and has read the file to its end.
func (l *Log) pullReplica() error {
	if l.replica == nil {
		return nil
	}
	if l.diverged != nil {
		return l.diverged
	}
	ctx, cancel := context.WithTimeout(context.Background(), replicaWait)
	defer cancel()
	if !l.joined {
		if err := l.join(ctx); err != nil {
			return err
		}
		l.joined = true
	}
	lines, err := l.replica.Lines(ctx, l.w.s.LastSeq+1)
	if err != nil {
		return l.unreachable(err)
	}
	l.siteErr = nil
	return l.copyLines(lines)
}

// copyLines writes lines of the replica, the next of the chain, to the
// local file, in one write and one sync.
func (l *Log) copyLines(lines [][]byte) error {
	if len(lines) == 0 {
		return nil
	}
	seq, head := l.w.s.LastSeq, l.head()
	var buf []byte
	for _, line := range lines {
		r, h, err := unseal(line)
		if err != nil || r.Hash != h || r.Seq != seq+1 || r.Prev != head {
			return l.diverge(fmt.Sprintf("its line of seq %d does not follow seq %d", seq+1, seq))
		}
		seq, head = r.Seq, h
		buf = append(append(buf, line...), '\n')
	}
	if err := l.write(buf); err != nil {
		return err
	}
	for _, line := range lines {
		l.take(line, l.end)
		l.end += int64(len(line) + 1)
	}
	return nil
}

// join compares the local file with the replica once: equal, behind (the
// replica's lines are read next), or ahead (its lines are put to the
// replica); a line of one seq that differs is a divergence.
func (l *Log) join(ctx context.Context) error {
	last, err := l.replica.Last(ctx)
	if err != nil {
		return l.unreachable(err)
	}
	local := l.w.s.LastSeq
	common := min(last, local)
	if common > 0 {
		theirs, err := l.replica.Lines(ctx, common)
		if err != nil || len(theirs) == 0 {
			return l.unreachable(fmt.Errorf("its line of seq %d cannot be read: %v", common, err))
		}
		mine, err := l.localLines(common)
		if err != nil {
			return err
		}
		if len(mine) == 0 || !bytes.Equal(mine[0], theirs[0]) {
			return l.diverge(fmt.Sprintf("its line of seq %d differs from this host's", common))
		}
	}
	if local <= last {
		return nil
	}
	mine, err := l.localLines(last + 1)
	if err != nil {
		return err
	}
	for i, line := range mine {
		if err := l.replica.Put(ctx, last+1+uint64(i), line); err != nil {
			if errors.Is(err, ErrBehind) {
				return l.diverge(fmt.Sprintf("another host appended its line of seq %d while this host put its own", last+1+uint64(i)))
			}
			return l.unreachable(err)
		}
	}
	l.notices = append(l.notices, fmt.Sprintf("audit: %d lines this host kept alone (seq %d to %d) were put to %s", len(mine), last+1, local, l.replica.Name()))
	return nil
}

// localLines reads the local file's lines of seq from on.
func (l *Log) localLines(from uint64) ([][]byte, error) {
	var out [][]byte
	br := bufio.NewReader(io.NewSectionReader(l.f, 0, l.end))
	for {
		line, err := br.ReadBytes('\n')
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) > 0 {
			if r, _, uerr := unseal(line); uerr == nil && r.Seq >= from {
				out = append(out, line)
			}
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
	}
}

// putReplica puts a sealed line to the replica before it is written to
// the local file.
func (l *Log) putReplica(seq uint64, line []byte) error {
	if l.replica == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), replicaWait)
	defer cancel()
	err := l.replica.Put(ctx, seq, line)
	if err != nil && !errors.Is(err, ErrBehind) {
		return l.unreachable(err)
	}
	return err
}

// unreachable is why an append is refused while the replica cannot be
// read or appended.
func (l *Log) unreachable(err error) error {
	l.siteErr = fmt.Errorf("audit: %s cannot be reached (%v): actions are refused until it can, never recorded on this host alone%w",
		l.replica.Name(), err, quiet{ErrSiteUnreachable})
	return l.siteErr
}

// diverge notes that the local file and the replica differ: a break the
// log reports, and every later append refused.
func (l *Log) diverge(detail string) error {
	msg := fmt.Sprintf("the local copy %s and %s differ: %s; move the local copy aside (it is kept for the inquiry) and start again to copy the site's", l.path, l.replica.Name(), detail)
	l.diverged = fmt.Errorf("audit: %s%w", msg, quiet{ErrDiverged})
	l.shrunk = append(l.shrunk, Break{Kind: Diverged, Detail: msg, Digest: digest([]byte(msg))})
	return l.diverged
}

// Pull reads what other hosts appended to the replica now, not at the
// next append: its watcher calls it when the replica grows, so every
// host's followers (the open attempts, the audit view) see a line of
// another host within moments. Without a replica it reads the file.
func (l *Log) Pull() error {
	return l.locked(func() error { return nil })
}

// Comparison is a local copy of the log against the site's record.
type Comparison struct {
	// Local and Site are how many lines each holds (an intact chain's
	// last seq).
	Local, Site uint64
	// Differ is the first seq whose lines differ (0: none).
	Differ uint64
}

// Same reports whether the copy holds the site's record exactly.
func (c Comparison) Same() bool { return c.Differ == 0 && c.Local == c.Site }

// Compare reads the local copy at path and the site's record whole and
// compares them line by line (audit verify --cluster).
func Compare(ctx context.Context, path string, rep Replica) (Comparison, error) {
	f, err := os.Open(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Comparison{}, fmt.Errorf("audit: %w", err)
	}
	var mine [][]byte
	if f != nil {
		defer f.Close()
		br := bufio.NewReader(f)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 && line[len(line)-1] == '\n' {
				mine = append(mine, bytes.TrimSuffix(line, []byte("\n")))
			}
			if err != nil {
				break
			}
		}
	}
	theirs, err := rep.Lines(ctx, 1)
	if err != nil {
		return Comparison{}, fmt.Errorf("audit: %s: %w", rep.Name(), err)
	}
	c := Comparison{Local: uint64(len(mine)), Site: uint64(len(theirs))}
	for i := range min(len(mine), len(theirs)) {
		if !bytes.Equal(mine[i], theirs[i]) {
			c.Differ = uint64(i + 1)
			break
		}
	}
	return c, nil
}

// quiet wraps an error for errors.Is without adding to the message.
type quiet struct{ err error }

func (q quiet) Error() string { return "" }
func (q quiet) Unwrap() error { return q.err }
