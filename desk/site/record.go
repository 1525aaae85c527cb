package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"treasury/desk/audit"
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

// Lines returns the lines of seq from on: one read when a line or none is
// new (each append), an ordered consumer's batches when many are (a
// bastion back after a restart, a new one copying the record).
func (r *Record) Lines(ctx context.Context, from uint64) ([][]byte, error) {
	st, err := r.stream(ctx)
	if err != nil {
		return nil, err
	}
	from = max(from, 1)
	m, err := st.GetMsg(ctx, from)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := [][]byte{m.Data}
	if _, err := st.GetMsg(ctx, from+1); errors.Is(err, jetstream.ErrMsgNotFound) {
		return out, nil
	}
	info, err := st.Info(ctx)
	if err != nil {
		return nil, err
	}
	last := info.State.LastSeq
	// The probes above are bounded by ctx (an unreachable site fails
	// fast); a catch-up of many lines takes the time its size needs.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second+time.Duration(last-from)*time.Second/5000)
	defer cancel()
	// MaxResetAttempts: an ordered consumer otherwise makes itself again
	// for ever when the stream's leader is lost, and Fetch takes no
	// context: a catch-up would wait, the log's lock held, for good.
	c, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
		OptStartSeq: from + 1, MaxResetAttempts: consumerResets})
	if err != nil {
		return nil, err
	}
	for next := from + 1; next <= last; {
		batch, err := c.Fetch(min(int(last-next+1), 1000), jetstream.FetchMaxWait(replicaBatchWait))
		if err != nil {
			return nil, err
		}
		n := 0
		for msg := range batch.Messages() {
			meta, err := msg.Metadata()
			if err != nil || meta.Sequence.Stream != next {
				return nil, fmt.Errorf("the record's line %d came as %v (%v)", next, meta, err)
			}
			out = append(out, msg.Data())
			next++
			n++
		}
		if err := batch.Error(); err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("the record's lines from %d did not come", next)
		}
	}
	return out, nil
}

// replicaBatchWait bounds one batch of a catch-up; consumerResets how
// often a consumer is made again after a failure before its reader gives
// up (and tries again later, at its own pace).
const (
	replicaBatchWait = 2 * time.Second
	consumerResets   = 2
)

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
