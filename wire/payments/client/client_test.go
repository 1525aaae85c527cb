package client_test

import (
	"context"
	"strings"
	"testing"

	"treasury/sandbox"
	"treasury/wire/payments"
	"treasury/wire/payments/client"
)

// TestGetVersionsHistoryAndInternalID reads payments in each terminal
// state by id (with the failure code), their state history and the
// internalId look-up, from both faces.
func TestGetVersionsHistoryAndInternalID(t *testing.T) {
	faces(t, nil, testGetVersionsHistoryAndInternalID)
}

func testGetVersionsHistoryAndInternalID(t *testing.T, srv *sandbox.Server, _ bool) {
	c, w := fullClient(t, srv, client.Options{})
	ctx := context.Background()
	samples := srv.Info().Samples
	for _, st := range []payments.State{payments.Completed, payments.Failed, payments.Declined, payments.Returned} {
		id := samples[strings.ToLower(string(st))+"_payment_id"]
		if id == "" {
			t.Fatalf("no %s sample", st)
		}
		v3, err := c.Get(ctx, id)
		if err != nil {
			t.Fatalf("Get %s: %v", st, err)
		}
		if v3.PaymentID != id || v3.PaymentState != st {
			t.Fatalf("%s: got %s %s", st, v3.PaymentID, v3.PaymentState)
		}
		if st.FailedTerminal() != (len(v3.Errors) == 1 && v3.Errors[0].Code != "") {
			t.Fatalf("%s: v3 errors %+v", st, v3.Errors)
		}
		if v3.Originator.SourceAmount.IsZero() || v3.Originator.SourceCurrency == "" || v3.InternalID() == "" {
			t.Fatalf("%s: originator %+v", st, v3.Originator)
		}
		h, err := c.StateHistory(ctx, id)
		if err != nil {
			t.Fatalf("StateHistory %s: %v", st, err)
		}
		if len(h) < 2 || h[0].UpdatedTo != payments.Initiated || h[len(h)-1].UpdatedTo != st || !h[len(h)-1].UpdatedAt.Equal(v3.LastStateUpdatedAt) {
			t.Fatalf("%s history %+v", st, h)
		}
		for i := 1; i < len(h); i++ {
			if h[i].UpdatedFrom != h[i-1].UpdatedTo || h[i].UpdatedAt.Before(h[i-1].UpdatedAt) {
				t.Fatalf("%s history is not a chain: %+v", st, h)
			}
		}
		byInt, err := c.ByInternalID(ctx, v3.InternalID())
		if err != nil || byInt.PaymentID != id {
			t.Fatalf("ByInternalID %s: %s, %v", v3.InternalID(), byInt.PaymentID, err)
		}
	}
	if n := len(w.All()); n != 0 {
		t.Fatalf("%d retries against a healthy sandbox", n)
	}
}

// TestBalancesAndTokenTest reads the balances and tests the token (an
// array of one object from the document's face, the spec's object from the
// variant).
func TestBalancesAndTokenTest(t *testing.T) {
	faces(t, nil, testBalancesAndTokenTest)
}

func testBalancesAndTokenTest(t *testing.T, srv *sandbox.Server, _ bool) {
	c, _ := fullClient(t, srv, client.Options{})
	ctx := context.Background()
	b, err := c.Balances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Balances) != 3 || b.Timestamp.IsZero() {
		t.Fatalf("balances %+v", b)
	}
	for _, x := range b.Balances {
		if x.Currency == "" || x.AvailableBalance.Decimal().IsNegative() || x.ReservedBalance.Decimal().IsNegative() {
			t.Fatalf("balance %+v", x)
		}
	}
	tt, err := c.TokenTest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tt.Message != "token_ok" || tt.SecondsToExpiry <= 0 || tt.SecondsToExpiry > payments.TokenLifetimeSeconds {
		t.Fatalf("token test %+v", tt)
	}
	noAuth := client.New(nil, client.Options{})
	if _, err := noAuth.TokenTest(ctx); err != client.ErrNoAuth {
		t.Fatalf("token test without an auth transport: %v", err)
	}
}

// TestIdentitiesAndInstruments walks the query-token lists in small pages
// and finds each payment's beneficiary and instrument; an originator's
// instruments are an empty list (the document answers 404, the variant an
// empty page).
func TestIdentitiesAndInstruments(t *testing.T) {
	faces(t, nil, testIdentitiesAndInstruments)
}

func testIdentitiesAndInstruments(t *testing.T, srv *sandbox.Server, _ bool) {
	ctx := context.Background()
	big, _ := fullClient(t, srv, client.Options{})
	small, _ := fullClient(t, srv, client.Options{PageSize: 7})
	all, err := big.Identities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	paged, err := small.Identities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]payments.Identity{}
	for i, id := range all {
		ids[id.IdentityID] = id
		if paged[i].IdentityID != id.IdentityID {
			t.Fatalf("identity %d differs between page sizes", i)
		}
	}
	if len(all) < 20 || len(ids) != len(all) || len(paged) != len(all) {
		t.Fatalf("%d identities (%d distinct), %d in pages of 7", len(all), len(ids), len(paged))
	}
	pays, err := big.AllFiltered(ctx, payments.Filter{PaymentStates: []payments.State{payments.Completed}})
	if err != nil || len(pays) < 5 {
		t.Fatalf("%d completed payments, %v", len(pays), err)
	}
	for _, p := range pays[:5] {
		ben, ok := ids[p.Destination.BeneficiaryIdentityID]
		if !ok || ben.PaymentRole != payments.RoleBeneficiary {
			t.Fatalf("payment %s: beneficiary %s not listed", p.PaymentID, p.Destination.BeneficiaryIdentityID)
		}
		ins, err := small.Instruments(ctx, ben.IdentityID)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, in := range ins {
			found = found || in.FinancialInstrumentID == p.Destination.BeneficiaryFinancialInstrumentID
		}
		if !found {
			t.Fatalf("payment %s: instrument %s not among the %d of %s", p.PaymentID, p.Destination.BeneficiaryFinancialInstrumentID, len(ins), ben.IdentityID)
		}
	}
	orig := srv.Info().Samples["originator_identity_id"]
	if ins, err := big.Instruments(ctx, orig); err != nil || len(ins) != 0 {
		t.Fatalf("instruments of an originator: %v, %v; want an empty list", ins, err)
	}
}

// TestCryptoPayoutHasOneHash: a payout on a blockchain names its
// transaction once: cryptoTransactionHash and the TX_HASH tracking
// reference are the same hash (the document describes both as the
// transaction on the destination network).
func TestCryptoPayoutHasOneHash(t *testing.T) {
	faces(t, nil, func(t *testing.T, srv *sandbox.Server, _ bool) {
		c, _ := fullClient(t, srv, client.Options{})
		ctx := context.Background()
		seen := 0
		for p, err := range c.Filter(ctx, payments.Filter{PaymentStates: []payments.State{payments.Completed}, DestinationCurrencies: []string{"RLUSD"}}) {
			if err != nil {
				t.Fatal(err)
			}
			d, err := c.Get(ctx, p.PaymentID)
			if err != nil {
				t.Fatal(err)
			}
			pd, _ := d.PayoutExecutionDetails.Get()
			for _, r := range pd.TrackingReferences {
				if r.ReferenceType == "TX_HASH" {
					seen++
					if string(r.Value) != d.CryptoTransactionHash {
						t.Fatalf("%s: cryptoTransactionHash %s, TX_HASH %s", p.PaymentID, d.CryptoTransactionHash, r.Value)
					}
				}
			}
			if seen >= 3 {
				break
			}
		}
		if seen == 0 {
			t.Fatal("no completed RLUSD payout with a TX_HASH reference")
		}
	})
}
