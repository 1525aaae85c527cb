package actions_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/sandbox"
	walletclient "treasury/wire/wallet/client"
)

// Each way an attempt can end gives exactly one line, with who acted (the
// SSH user, key and role when over SSH), the target, the environment, the
// outcome and the ids; the log stays one intact chain.
func TestEveryOutcomeIsOneLineWithIdentity(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	tx := e.freezable(t)
	sws, err := e.p.Wallet.Sweeps(ctx)
	if err != nil || len(sws) == 0 {
		t.Fatalf("sweeps: %v %v", sws, err)
	}
	env := e.act.Identity().Environment
	viewer := audit.Who{Via: audit.ViaSSH, User: "ana", Key: "SHA256:abc", Role: "viewer", From: "10.0.0.9:50022"}
	sshViewer := actions.New(actions.Clients{Transactions: e.p.WalletTransactions},
		actions.Identity{Profile: "sandbox", Environment: env, Who: viewer, ReadOnly: true}, e.log)

	type step struct {
		name    string
		run     func() error
		outcome string
		who     audit.Who
		check   func(r audit.Record) bool
	}
	k := e.act.Key(actions.Freeze, tx.ID)
	mid := k.ID
	steps := []step{
		{"done", func() error {
			_, _, err := e.act.FreezeTx(ctx, walletclient.Route{}, tx, true, "hold", k)
			return err
		}, audit.OutcomeDone, tester,
			func(r audit.Record) bool { return r.MutationID == mid && r.Target.ID == tx.ID && r.Reason == "hold" }},
		{"ssh viewer refused", func() error {
			return sshViewer.Refused(actions.TxAttempt(tx, false, "", ""), actions.ErrReadOnly)
		}, audit.OutcomeRefused, viewer, func(r audit.Record) bool { return strings.Contains(r.Error, "read-only") }},
		{"ssh viewer through the actor", func() error {
			_, _, err := sshViewer.FreezeTx(ctx, walletclient.Route{}, tx, false, "release", sshViewer.Key(actions.Unfreeze, tx.ID))
			return err
		}, audit.OutcomeRefused, viewer, func(r audit.Record) bool { return r.Action == actions.Unfreeze }},
		{"wrong prod code", func() error { return e.act.Cancelled(actions.TxAttempt(tx, false, "release", "k1"), true) },
			audit.OutcomeRefused, tester, func(r audit.Record) bool { return r.Error == actions.ErrWrongCode.Error() && r.MutationID == "k1" }},
		{"cancelled", func() error { return e.act.Cancelled(actions.SweepAttempt(sws[0], "k2"), false) },
			audit.OutcomeCancelled, tester, func(r audit.Record) bool { return r.Error == "" && r.Target.Kind == "sweep" && r.MutationID == "k2" }},
		{"sweep done", func() error {
			_, _, err := e.act.TriggerSweep(ctx, sws[0], e.act.Key(actions.Sweep, sws[0].ID))
			return err
		}, audit.OutcomeDone, tester,
			func(r audit.Record) bool { return r.Target.Detail["instance"] != "" }},
		{"failed: the sweep is running", func() error {
			_, _, err := e.act.TriggerSweep(ctx, sws[0], e.act.Key(actions.Sweep, sws[0].ID))
			return err
		}, audit.OutcomeFailed, tester, func(r audit.Record) bool { return r.ErrorCode == "ERR017.006" && r.Error != "" }},
		{"unknown: the answer could not be read", func() error {
			rt, _, err := e.act.FreezeRoute(ctx, tx, false)
			if err != nil {
				return err
			}
			e.faults(t, sandbox.FaultSettings{MalformedRate: 1})
			defer e.faults(t, sandbox.FaultSettings{})
			_, _, err = e.act.FreezeTx(ctx, rt, tx, false, "release", e.act.Key(actions.Unfreeze, tx.ID))
			return err
		}, audit.OutcomeUnknown, tester, func(r audit.Record) bool { return r.Error != "" }},
	}
	lines := 0
	for _, s := range steps {
		err := s.run()
		if (err == nil) != (s.outcome == audit.OutcomeDone || s.outcome == audit.OutcomeCancelled) {
			t.Errorf("%s: err %v", s.name, err)
		}
		es := e.audit(t)
		// What was sent is an attempt line and its outcome; what was not,
		// one line.
		sent := s.outcome == audit.OutcomeDone || s.outcome == audit.OutcomeFailed || s.outcome == audit.OutcomeUnknown
		want := lines + 1
		if sent {
			want++
		}
		if len(es) != want {
			t.Fatalf("%s: %d lines, want %d", s.name, len(es), want)
		}
		lines = want
		r := es[len(es)-1]
		if r.Outcome != s.outcome || r.Who != s.who || r.Environment != env || env == "" || r.Profile == "" || r.Time.IsZero() ||
			r.Seq != uint64(len(es)) || !s.check(r) {
			t.Errorf("%s: line %+v, want outcome %s by %v", s.name, r, s.outcome, s.who)
		}
		if a := es[len(es)-2]; sent && (a.Outcome != audit.OutcomeAttempt || r.Attempt != a.Seq || a.Who != s.who ||
			a.Action != r.Action || a.Target.ID != r.Target.ID || a.Request == "") {
			t.Errorf("%s: attempt line %+v before %+v", s.name, a, r)
		}
	}
	if _, err := audit.VerifyFile(e.log.Path()); err != nil {
		t.Fatal(err)
	}
}

// A log that can no longer be written refuses every action before
// anything is sent.
func TestUnwritableLogRefusesActions(t *testing.T) {
	e := newEnv(t, false)
	tx := e.freezable(t)
	e.log.Close()
	_, _, err := e.act.FreezeTx(context.Background(), walletclient.Route{}, tx, true, "hold", actions.Key{ID: actions.NewKey()})
	if err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("err %v", err)
	}
	if errors.Is(err, actions.ErrReadOnly) {
		t.Fatal("not a read-only refusal")
	}
}
