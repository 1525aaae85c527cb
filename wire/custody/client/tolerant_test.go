package client_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/custody"
	"treasury/wire/custody/client"
	"treasury/wire/transport"
)

// otherServer answers as another legal implementation: limit capped at 50
// (problem+json above), open fields in other shapes, extra fields, items
// newest first, and one item that cannot be read.
func otherServer(t *testing.T, n int, queries *[]string) *client.Client {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*queries = append(*queries, r.URL.RawQuery)
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		if limit > 50 {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(400)
			fmt.Fprint(w, `{"type":"https://example/errors/validation","title":"Invalid query","status":400,"detail":"limit must be <= 50"}`)
			return
		}
		from := 0
		if a := r.URL.Query().Get("startingAfter"); a != "" {
			from, _ = strconv.Atoi(strings.TrimPrefix(a, "ep"))
			from++
		}
		var items []string
		for i := from; i < min(from+limit, n); i++ {
			created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n-i) * time.Hour).Format(time.RFC3339)
			data := fmt.Sprintf(`{"id":"ep%d","alias":"alias %d","address":"0x%d","lock":"Unlocked","trustScore":70,"schemaVersion":2,`+
				`"parameters":{"type":"Ethereum","ABI":[{"type":"function","name":"transfer","inputs":[]}]},`+
				`"metadata":{"revision":1,"createdAt":%q,"createdBy":{"id":"u%d","name":"Ana"},"customProperties":{"listing":"whitelisted","tier":3,"reviewed":true}}}`,
				i, i, i, created, i)
			if i == 7 {
				data = `{"id":"ep7","lock":{"state":"Locked"}}`
			}
			items = append(items, `{"data":`+data+`,"signature":"sig","signingKey":"k","_links":{}}`)
		}
		next := ""
		if from+limit < n {
			next = fmt.Sprintf(`,"nextStartingAfter":"ep%d"`, from+limit-1)
		}
		fmt.Fprintf(w, `{"items":[%s],"count":%d%s}`, strings.Join(items, ","), len(items), next)
	}))
	t.Cleanup(ts.Close)
	tr, err := transport.New(transport.Config{Interface: apierr.Custody, BaseURL: ts.URL, Auth: auth.NewStatic(auth.NewSecret("t")),
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return client.New(tr, "d1", custody.Signer{})
}

func TestEndpointsFromAnotherImplementation(t *testing.T) {
	var queries []string
	c := otherServer(t, 120, &queries)
	ctx, skips := wire.WithSkips(context.Background())
	eps, err := c.Endpoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != 119 || skips.Count() != 1 || skips.List()[0].ID != "ep7" || !strings.Contains(skips.List()[0].Reason, "lock") {
		t.Fatalf("%d endpoints, skips %v: want 119 and ep7 skipped naming lock", len(eps), skips.List())
	}
	for _, q := range queries {
		if strings.Contains(q, "sort") {
			t.Fatalf("query %q sends a parameter the spec does not document", q)
		}
	}
	if !strings.HasPrefix(queries[0], "limit=100") || !strings.HasPrefix(queries[1], "limit=50") || c.PageSizes()["endpoints"] != 50 {
		t.Fatalf("queries %v, sizes %v: want 100 refused, then 50 remembered", queries[:2], c.PageSizes())
	}
	for i := 1; i < len(eps); i++ {
		if eps[i].Metadata.CreatedAt.Before(eps[i-1].Metadata.CreatedAt) {
			t.Fatal("endpoints not oldest first")
		}
	}
	e := eps[0]
	if e.Metadata.CreatedBy != "Ana" || e.Listing() != custody.Whitelisted || e.Metadata.CustomProperties["tier"] != "3" || !e.HasABI() ||
		!strings.HasPrefix(e.Parameters.ABI, `[{"type":"function"`) || !strings.Contains(string(e.RawJSON()), "schemaVersion") {
		t.Fatalf("endpoint %+v raw %s", e, e.RawJSON())
	}
}
