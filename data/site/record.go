package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"treasury/data/audit"
)

// The site's record: one stream, one subject, its n-th message the audit
// line of seq n.
const (
	RecordStream  = "TREASURY_AUDIT"
	RecordSubject = "treasury.audit"
)

// Record is the site's record of actions, an audit.Replica: a JetStream
// stream kept by Replicas nodes, never deleted from or purged, appended
// only when the appender has read it to its end (the expected last
// sequence), each line once (its message id, within the stream's
// duplicate window, so an append whose answer was lost is not written
// twice when tried again).
type Record struct{ s *Site }

// Record is the site's record of actions.
func (s *Site) Record() *Record { return &Record{s: s} }

var _ audit.Replica = (*Record)(nil)

func (r *Record) stream(ctx context.Context) (jetstream.Stream, error) {
	return r.s.stream(ctx, jetstream.StreamConfig{Name: RecordStream, Subjects: []string{RecordSubject},
		Description: "treasury: the site's record of actions (audit.jsonl, one line a message)",
		Storage:     jetstream.FileStorage, Replicas: r.s.opts.Replicas, Retention: jetstream.LimitsPolicy,
		MaxMsgs: -1, MaxBytes: -1, MaxAge: 0, Discard: jetstream.DiscardOld,
		DenyDelete: true, DenyPurge: true, Duplicates: 2 * time.Minute, MaxMsgSize: 1 << 20})
}

// Name names the record in what the audit log says.
func (r *Record) Name() string {
	return fmt.Sprintf("the site's record (stream %s on %s)", RecordStream, r.s.opts.Name)
}

// Lines returns the lines of seq from on.
func (r *Record) Lines(ctx context.Context, from uint64) ([][]byte, error) {
	st, err := r.stream(ctx)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for seq := max(from, 1); ; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, m.Data)
	}
}

// Last is the record's last seq.
func (r *Record) Last(ctx context.Context) (uint64, error) {
	st, err := r.stream(ctx)
	if err != nil {
		return 0, err
	}
	info, err := st.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.LastSeq, nil
}

// Put appends line as the line of seq, when the record holds seq-1
// lines; audit.ErrBehind when another host appended first.
func (r *Record) Put(ctx context.Context, seq uint64, line []byte) error {
	if _, err := r.stream(ctx); err != nil {
		return err
	}
	sum := sha256.Sum256(line)
	ack, err := r.s.js.Publish(ctx, RecordSubject, line, jetstream.WithExpectStream(RecordStream),
		jetstream.WithExpectLastSequence(seq-1), jetstream.WithMsgID(fmt.Sprintf("%d-%s", seq, hex.EncodeToString(sum[:12]))))
	var apiErr *jetstream.APIError
	switch {
	case errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant):
		return audit.ErrBehind
	case err != nil:
		return err
	case ack.Sequence != seq:
		return fmt.Errorf("the record took the line as seq %d, not %d", ack.Sequence, seq)
	}
	return nil
}

// Watch calls fn when a line is appended to the record, by any host.
func (r *Record) Watch(fn func()) (stop func(), err error) { return r.s.Notify(RecordSubject, fn) }
