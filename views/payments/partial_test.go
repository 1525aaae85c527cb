package paymentsview

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/wire/money"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

// TestPaymentsPartialRecordMarked: a payment known only from a webhook
// notification (no internalId, parties, country, payout or fees) shows
// those as not known yet, in the list and in the detail, never as blanks;
// the detail says the full record is being read, then, when the read
// fails (the platform does not know the id), why.
func TestPaymentsPartialRecordMarked(t *testing.T) {
	e := plainWorld(t)
	const id = "0badf00d-0000-4000-8000-00000000beef" // unknown to the sandbox: its read by id fails
	now := e.Ctx.Clock()
	e.P.Store.ApplyPaymentEvent(webhook.Event{ID: "evt-partial", EventType: "PAYMENT_STATE_TRANSITION", CreateDate: now,
		EventData: webhook.EventData{PaymentID: id, PaymentState: payments.Initiated, CreatedAt: now, ExpiresAt: now.Add(time.Hour),
			SourceCurrency: "USD", SourceAmount: money.N(money.MustParse("100.00")),
			DestinationCurrency: "INR", PayoutAmount: money.N(money.MustParse("8300.00"))}})
	if p, ok := held(t, e).Get(id); !ok || !p.Partial {
		t.Fatalf("the notified payment is not held as partial: %+v", p)
	}

	v := New(e.Ctx, e.P)
	send(v, ui.StoreChanged{})
	list := v.Render(120, 40)
	var row string
	for _, l := range strings.Split(list, "\n") {
		if strings.Contains(l, id[:8]) {
			row = l
		}
	}
	if row == "" {
		t.Fatalf("no row for the notified payment:\n%s", list)
	}
	// Internal id, corridor country and beneficiary are marked, not blank.
	if !regexp.MustCompile(`0badf00d\S*… +… +INITIATED .*USD→INR … .* …\s*$`).MatchString(row) {
		t.Errorf("the partial row does not mark what it does not know:\n%q", row)
	}

	// The detail, before the read by id answered: loading.
	pending := v.Update(ui.Open{View: Name, Args: []string{id}})
	body := v.Render(120, 80)
	for _, want := range []string{"Partial record: known only from a webhook notification", "loading the full record (GET /v3/payments/{id})",
		"internalId    not known yet", "USD→INR, country and payout not known yet", "originator    not known yet", "beneficiary   not known yet",
		"fees          not known yet"} {
		if !strings.Contains(body, want) {
			t.Errorf("the detail lacks %q:\n%s", want, body)
		}
	}
	for _, bad := range []*regexp.Regexp{regexp.MustCompile(`\(\)`), regexp.MustCompile(`via\s*\n`), regexp.MustCompile(`(?m)^(internalId|fees|beneficiary)\s*$`)} {
		if bad.MatchString(body) {
			t.Errorf("the detail shows an unknown field as empty (%s):\n%s", bad.String(), body)
		}
	}

	if strings.Contains(body, "reads it again") {
		t.Errorf("the detail says the read failed before it answered:\n%s", body)
	}

	// Once the read failed: why, and that the poll tries again.
	viewtest.Drive(v, pending)
	send(v, ui.StoreChanged{})
	body = v.Render(120, 80)
	for _, want := range []string{"Could not read the full record (GET /v3/payments/{id})", "the next poll of the payments reads it again", "internalId    not known yet"} {
		if !strings.Contains(body, want) {
			t.Errorf("after the failed read the detail lacks %q:\n%s", want, body)
		}
	}
}
