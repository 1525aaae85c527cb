package sandbox_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/wallet"
)

// TestSpec4_3_TokensBoundToTheirQuery checks spec 4.3 rule 1: a page token
// continues only the query that issued it. Used with another filter, sort,
// size or list it is a 400 in the interface's model; with the same query it
// reads the next page.
func TestSpec4_3_TokensBoundToTheirQuery(t *testing.T) {
	e := payStart(t, nil)
	filter := func(states, dir string, size int, tok string) (int, []byte) {
		body := `{"filter":{"paymentStates":[` + states + `]},"sort":{"sortField":"initiatedAt","sortDirection":"` + dir + `"},"page":{"size":` + itoa(size)
		if tok != "" {
			body += `,"lastPageToken":"` + tok + `"`
		}
		st, _, b := sandboxtest.Send(t, http.MethodPost, e.base+payments.PathFilterV3, e.tok, []byte(body+"}}"))
		return st, b
	}
	st, b := filter(`"COMPLETED"`, "DESC", 5, "")
	var first payments.FilterResponse
	if json.Unmarshal(b, &first); st != 200 || first.Page.LastPageToken == "" {
		t.Fatalf("first filter page: HTTP %d %.200s", st, b)
	}
	tok := first.Page.LastPageToken
	for name, try := range map[string]func() (int, []byte){
		"another filter": func() (int, []byte) { return filter(`"FAILED"`, "DESC", 5, tok) },
		"another sort":   func() (int, []byte) { return filter(`"COMPLETED"`, "ASC", 5, tok) },
		"another size":   func() (int, []byte) { return filter(`"COMPLETED"`, "DESC", 6, tok) },
	} {
		st, b := try()
		expectPayments(t, "filter token with "+name, st, b, 400, "USR_001", typeValidation)
	}
	if st, b := filter(`"COMPLETED"`, "DESC", 5, tok); st != 200 {
		t.Fatalf("filter token with its own query: HTTP %d %.200s", st, b)
	}

	// Identities and instruments: next-token is bound to the list and limit.
	var ids payments.IdentitiesPage
	sandboxtest.Get(t, e.base+payments.PathIdentities+"?limit=5", e.tok, &ids)
	if ids.NextToken == "" {
		t.Fatal("no next-token on a page of 5 identities")
	}
	st, _, b = sandboxtest.Send(t, http.MethodGet, e.base+payments.PathIdentities+"?limit=6&next-token="+url.QueryEscape(ids.NextToken), e.tok, nil)
	expectPayments(t, "identities token with another limit", st, b, 400, "USR_001", typeValidation)
	if st := sandboxtest.Get(t, e.base+payments.PathIdentities+"?limit=5&next-token="+url.QueryEscape(ids.NextToken), e.tok, nil); st != 200 {
		t.Fatalf("identities token with its own limit: HTTP %d", st)
	}
	var all payments.IdentitiesPage
	sandboxtest.Get(t, e.base+payments.PathIdentities+"?limit=100", e.tok, &all)
	var insTok, insPath string
	for _, id := range all.Data {
		var ins payments.InstrumentsPage
		p := e.base + payments.PathIdentities + "/" + id.IdentityID + payments.SuffixInstruments
		if sandboxtest.Get(t, p+"?limit=1", e.tok, &ins); ins.NextToken != "" {
			insTok, insPath = ins.NextToken, p
			break
		}
	}
	if insTok == "" {
		t.Fatal("no identity with two instruments")
	}
	for name, u := range map[string]string{
		"instruments token with another limit":  insPath + "?limit=2&next-token=" + url.QueryEscape(insTok),
		"instruments token on identities":       e.base + payments.PathIdentities + "?limit=1&next-token=" + url.QueryEscape(insTok),
		"identities token on instruments":       insPath + "?limit=5&next-token=" + url.QueryEscape(ids.NextToken),
		"instruments token of another identity": e.base + payments.PathIdentities + "/" + all.Data[0].IdentityID + payments.SuffixInstruments + "?limit=1&next-token=" + url.QueryEscape(insTok),
	} {
		st, _, b := sandboxtest.Send(t, http.MethodGet, u, e.tok, nil)
		expectPayments(t, name, st, b, 400, "USR_001", typeValidation)
	}
	if st := sandboxtest.Get(t, insPath+"?limit=1&next-token="+url.QueryEscape(insTok), e.tok, nil); st != 200 {
		t.Fatalf("instruments token with its own limit: HTTP %d", st)
	}

	// Wallet: pagination.pageToken is bound to the list, filter, order and size.
	wtok, w, _ := walRead(t, e.srv)
	list := e.srv.Endpoints().Wallet + wallet.PathWallets + "/" + w.ID + "/transactions?"
	var page wallet.TransactionsPage
	sandboxtest.Get(t, list+wallet.QueryPageSize+"=1", wtok, &page)
	if page.Filter.NextPageToken == "" {
		t.Fatal("no nextPageToken on a page of 1 transaction")
	}
	pt := url.QueryEscape(page.Filter.NextPageToken)
	for name, q := range map[string]string{
		"another size":   wallet.QueryPageSize + "=2",
		"another order":  wallet.QueryPageSize + "=1&" + wallet.QueryOrderBy + "=created_at",
		"another filter": wallet.QueryPageSize + "=1&" + wallet.QueryFilter + "=" + url.QueryEscape(`status != "FAILED"`),
	} {
		st, _, b := sandboxtest.Send(t, http.MethodGet, list+q+"&"+wallet.QueryPageToken+"="+pt, wtok, nil)
		expectWallet(t, "wallet token with "+name, st, b, apierr.GRPCInvalidArgument, "ERR000.015")
	}
	if st := sandboxtest.Get(t, list+wallet.QueryPageSize+"=1&"+wallet.QueryPageToken+"="+pt, wtok, nil); st != 200 {
		t.Fatalf("wallet token with its own query: HTTP %d", st)
	}
}
