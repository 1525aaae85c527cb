package sandbox_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/custody"
	"treasury/wire/wallet"
)

// cusIntentRaw reads an intent answer as a generic map.
func cusIntentRaw(t *testing.T, e cusEnv, id string) map[string]any {
	t.Helper()
	st, _, b := sandboxtest.Send(t, http.MethodGet, e.base+"/intents/"+id, e.tok, nil)
	var m map[string]any
	if err := json.Unmarshal(b, &m); st != http.StatusOK || err != nil {
		t.Fatalf("intent %s: HTTP %d %s", id, st, b)
	}
	return m
}

// TestSpec3_2_LockedEndpointEverywhere locks an EVM endpoint through an
// intent and checks that it is reported Locked wherever it is used: the
// list, GET one, the intent that refers to it, a second lock intent, and a
// wallet transfer to its address, which is refused (ERR013.030) until an
// unlock intent executes.
func TestSpec3_2_LockedEndpointEverywhere(t *testing.T) {
	e := cusStart(t, nil)
	var ep custody.Endpoint
	for _, it := range cusPage(t, e, "lock", custody.LockUnlocked, "limit", "100").Items {
		if it.Data.LedgerID == "ethereum-mainnet" {
			ep = it.Data
			break
		}
	}
	if ep.ID == "" {
		t.Fatal("no unlocked ethereum endpoint")
	}
	base, wtok, _ := walTxEnv(t, e.srv, "ETHEREUM")
	transfer := func(addr string) (int, []byte) {
		st, _, b := sandboxtest.Send(t, http.MethodPost, base+"/transactions", wtok,
			[]byte(`{"asset":"ETH","qty":"0.001","destinationAddress":"`+addr+`"}`))
		return st, b
	}
	if st, b := transfer(ep.Address); st != http.StatusOK {
		t.Fatalf("transfer to an unlocked endpoint: HTTP %d %s", st, b)
	}

	if st, b := cusPropose(t, e, cusIntent(e, "lock-it", custody.PayloadLock, ep, time.Hour, nil)); st != http.StatusAccepted {
		t.Fatalf("lock intent: HTTP %d %s", st, b)
	}
	e.srv.Clock().Advance(time.Minute)

	locked := cusPage(t, e, "address", ep.Address)
	if len(locked.Items) != 1 || locked.Items[0].Data.Lock != custody.LockLocked {
		t.Fatalf("list by address after the lock: %+v", locked.Items)
	}
	found := false
	for _, it := range cusPage(t, e, "lock", custody.LockLocked, "limit", "100").Items {
		found = found || it.Data.ID == ep.ID
	}
	if !found {
		t.Fatal("the lock filter does not list the locked endpoint")
	}
	var one custody.SignedEndpoint
	sandboxtest.Get(t, e.base+"/endpoints/"+ep.ID, e.tok, &one)
	if one.Data.Lock != custody.LockLocked || one.Data.Metadata.Revision != ep.Metadata.Revision+1 {
		t.Fatalf("GET one after the lock: %+v", one.Data)
	}
	in := cusIntentRaw(t, e, "lock-it")
	st, _ := in["endpoint"].(map[string]any)
	if in["status"] != custody.IntentExecuted || st["id"] != ep.ID || st["lock"] != custody.LockLocked || st["revision"] != float64(ep.Metadata.Revision+1) {
		t.Fatalf("intent after the lock: %v", in)
	}
	code, b := cusPropose(t, e, cusIntent(e, "lock-again", custody.PayloadLock, one.Data, time.Hour, nil))
	sandboxtest.ExpectPlain(t, "lock a locked endpoint", code, b, http.StatusConflict)
	if !strings.Contains(string(b), "Locked") {
		t.Fatalf("lock a locked endpoint: %s does not say Locked", b)
	}

	for _, addr := range []string{ep.Address, "0x" + strings.ToUpper(ep.Address[2:])} {
		code, b := transfer(addr)
		expectWallet(t, "transfer to a locked endpoint", code, b, apierr.GRPCFailedPrecondition, "ERR013.030")
		if !strings.Contains(string(b), ep.ID) {
			t.Fatalf("refusal %s does not name the endpoint", b)
		}
	}

	if code, b := cusPropose(t, e, cusIntent(e, "unlock-it", custody.PayloadUnlock, one.Data, time.Hour, nil)); code != http.StatusAccepted {
		t.Fatalf("unlock intent: HTTP %d %s", code, b)
	}
	e.srv.Clock().Advance(time.Minute)
	in = cusIntentRaw(t, e, "unlock-it")
	if st, _ := in["endpoint"].(map[string]any); st["lock"] != custody.LockUnlocked {
		t.Fatalf("intent after the unlock: %v", in)
	}
	var tx wallet.Transaction
	if code, b := transfer(ep.Address); code != http.StatusOK || json.Unmarshal(b, &tx) != nil || tx.DestinationAddress != ep.Address {
		t.Fatalf("transfer after the unlock: HTTP %d %s", code, b)
	}
}
