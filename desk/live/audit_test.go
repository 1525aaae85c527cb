package live_test

import (
	"context"
	"testing"
	"time"

	"treasury/desk/audit"
	"treasury/desk/live"
)

// An append reaches the store before it returns: a subscriber watching
// the Audit topic is signalled and reads the new line first.
func TestFollowAuditPushesAppends(t *testing.T) {
	s := live.New(live.Options{Inline: true})
	l, err := audit.Open(t.TempDir(), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := live.FollowAudit(s, l); err != nil {
		t.Fatal(err)
	}
	if err := live.FollowAudit(s, l); err == nil {
		t.Fatal("the topic added twice")
	}
	s.FetchNow(context.Background(), live.Audit)
	if snap := live.Get(s, live.AuditKey); !snap.Loaded() || len(snap.Data) != 0 {
		t.Fatalf("empty log: loaded %v, %d lines", snap.Loaded(), len(snap.Data))
	}
	sub := s.Subscribe()
	defer sub.Close()
	sub.Watch(live.Audit)
	for _, id := range []string{"a", "b"} {
		if _, err := l.Append(audit.Record{Action: "lock", Target: audit.Target{Kind: "endpoint", ID: id}, Outcome: audit.OutcomeDone}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-sub.C():
	case <-time.After(5 * time.Second):
		t.Fatal("no signal after an append")
	}
	got := live.Get(s, live.AuditKey)
	if len(got.Data) != 2 || got.Data[0].Target.ID != "b" || got.Data[0].Seq != 2 {
		t.Fatalf("audit topic %+v, want b then a", got.Data)
	}
	s.Start(context.Background())
	defer s.Close()
	if err := s.AddFeed(live.Feed{Topic: "late"}); err == nil {
		t.Fatal("a feed added after Start")
	}
}
