package sandbox_test

import (
	"slices"
	"testing"

	"treasury/figures"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// documentPayins are the payin values the vendor's document names (the
// quote's payinCategory: PRE_FUNDING, CREDIT_FUNDING, JIT_FUNDING and the
// deprecated FUNDED and T_PLUS_ONE; the payment's payin, "how this
// payment is funded", has the example FUNDED).
var documentPayins = []string{"PRE_FUNDING", "FUNDED", "JIT_FUNDING", "CREDIT_FUNDING", "T_PLUS_ONE"}

// TestFundingFollowsTheDocument: every payment the default face answers
// (each checked against the document by Listen) says a payin the document
// names, every class among them; a just-in-time payment waits in
// AWAITING_FUNDING, then either its funds came before its
// jitFundingExpiresAt (VALIDATING, on its way) or they never did (DECLINED
// after it, USR_067); its ledger reserves nothing (TestPayLedgerAndBalances
// holds the ledger). The variant face writes the deprecated names and
// JIT, as a server built from the document does, and the classes are the
// same.
func TestFundingFollowsTheDocument(t *testing.T) {
	e := payStart(t, nil)
	all := payFilterAll(t, e, payments.Filter{}, 100)
	classes := map[figures.Class]int{}
	funded, expired := 0, 0
	for _, p := range all {
		if !slices.Contains(documentPayins, p.Originator.Payin) {
			t.Fatalf("payment %s: payin %q is not one the document names (%v)", p.PaymentID, p.Originator.Payin, documentPayins)
		}
		f := figures.FundingOf(&p)
		classes[f.Class]++
		if f.Class != figures.JustInTime || p.PaymentState.Unfinished() {
			continue
		}
		if (p.Originator.Payin == "JIT_FUNDING") != (f.Class == figures.JustInTime) || p.JITFundingExpiresAt.IsZero() {
			t.Fatalf("payment %s: payin %s, jitFundingExpiresAt %v", p.PaymentID, p.Originator.Payin, p.JITFundingExpiresAt)
		}
		var h payments.StateTransitions
		sandboxtest.Get(t, e.base+payments.PathPaymentV3+p.PaymentID+payments.SuffixStates, e.tok, &h)
		var path []payments.State
		var left payments.StateTransition
		for _, s := range h.StateTransitions {
			path = append(path, s.UpdatedTo)
			if s.UpdatedFrom == payments.AwaitingFunding {
				left = s
			}
		}
		if len(path) < 3 || path[0] != payments.Initiated || path[1] != payments.AwaitingFunding {
			t.Fatalf("payment %s (just in time) went %v", p.PaymentID, path)
		}
		switch left.UpdatedTo {
		case payments.Validating:
			if left.UpdatedAt.After(p.JITFundingExpiresAt) {
				t.Fatalf("payment %s: funded at %v, after its jitFundingExpiresAt %v", p.PaymentID, left.UpdatedAt, p.JITFundingExpiresAt)
			}
			funded++
		case payments.Declined:
			var full payments.Payment
			sandboxtest.Get(t, e.base+payments.PathPaymentV3+p.PaymentID, e.tok, &full)
			if !left.UpdatedAt.After(p.JITFundingExpiresAt) || len(full.Errors) == 0 || full.Errors[0].Code != "USR_067" {
				t.Fatalf("payment %s: declined at %v (due %v) with %v", p.PaymentID, left.UpdatedAt, p.JITFundingExpiresAt, full.Errors)
			}
			expired++
		default:
			t.Fatalf("payment %s left AWAITING_FUNDING for %s", p.PaymentID, left.UpdatedTo)
		}
	}
	if classes[figures.Prefunded] == 0 || classes[figures.JustInTime] == 0 || classes[figures.Credit] == 0 || classes[figures.Other] != 0 {
		t.Errorf("classes %v: want prefunded, just in time and credit, no other", classes)
	}
	if funded == 0 || expired == 0 {
		t.Errorf("%d just-in-time payments funded, %d expired: want both", funded, expired)
	}

	v := payStart(t, func(o *sandbox.Options) { o.Variant = true })
	byID := map[string]payments.Payment{}
	for _, p := range all {
		byID[p.PaymentID] = p
	}
	for _, p := range payFilterAll(t, v, payments.Filter{}, 100) {
		want := map[figures.Class]string{figures.Prefunded: "FUNDED", figures.JustInTime: "JIT", figures.Credit: "T_PLUS_ONE"}
		d := byID[p.PaymentID]
		if f := figures.FundingOf(&p); f.Class != figures.FundingOf(&d).Class || p.Originator.Payin != want[f.Class] {
			t.Fatalf("variant payment %s: payin %q (%s), the default face's %q", p.PaymentID, p.Originator.Payin, f.Class.Label(), d.Originator.Payin)
		}
	}
}
