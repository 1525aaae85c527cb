package actions

import (
	"context"
	"fmt"
	"testing"
	"time"

	"treasury/desk/audit"
	"treasury/wire/wallet"
)

// BenchmarkKeyNothingOpen is the key a dialog takes on a record with no
// key left open (the usual case): the log read to its end and the
// record's open keys looked up; nothing is read from the platform. The
// log holds 10,000 lines of other records.
func BenchmarkKeyNothingOpen(b *testing.B) {
	log, err := audit.Open(b.TempDir(), audit.Options{Host: "h"})
	if err != nil {
		b.Fatal(err)
	}
	defer log.Close()
	p := NewPending()
	if _, err := p.Follow(log); err != nil {
		b.Fatal(err)
	}
	for i := range 5000 {
		at, _ := log.Append(audit.Record{Action: Freeze, Outcome: audit.OutcomeAttempt, MutationID: fmt.Sprint("k", i),
			Target: audit.Target{Kind: "transaction", ID: fmt.Sprint("t", i)}})
		log.Append(audit.Record{Action: Freeze, Outcome: audit.OutcomeDone, MutationID: fmt.Sprint("k", i), Attempt: at.Seq,
			Target: audit.Target{Kind: "transaction", ID: fmt.Sprint("t", i)}})
	}
	act := New(Clients{Pending: p}, Identity{}, log)
	tx := wallet.Transaction{ID: "t-new"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if k, err := act.TxKey(ctx, tx, true); err != nil || k.ID == "" {
			b.Fatal(k, err)
		}
	}
}

// BenchmarkJudgeFreeze is judging an open key against a freeze history of
// 100 events read from the platform: what reconciling adds to one read.
func BenchmarkJudgeFreeze(b *testing.B) {
	events := make([]wallet.FreezeEvent, 100)
	for i := range events {
		events[i] = wallet.FreezeEvent{Action: wallet.ActionFreeze, MutationID: fmt.Sprint("m", i), PerformedAt: time.Unix(int64(i), 0)}
	}
	at := PendingAttempt{Action: Freeze, ID: "m50", Before: map[string]string{"history": "50"}}
	b.ReportAllocs()
	for b.Loop() {
		if j := judgeFreeze(at, wallet.Transaction{}, events); j.applied == nil {
			b.Fatal(j)
		}
	}
}
