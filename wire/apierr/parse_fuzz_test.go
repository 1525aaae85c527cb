package apierr

import (
	"encoding/json"
	"strings"
	"testing"

	"treasury/wire/wiretest"
)

var ifaces = []Interface{Liquidity, Payments, Auth, Reporting, Wallet, Custody}

// FuzzParse: any error body from any interface, with any status, parses to
// an *Error without panicking, carrying where it came from; it renders and
// advises; a body that is not JSON is kept as a one-line excerpt.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"code":"USR_067","type":"USER_ERROR","status":402,"timestamp":"2026-11-02T10:00:00Z","title":"Insufficient balance","description":"Add funds."}`,
		`{"status":402,"errors":{"code":"USR_067","type":"USER_ERROR","status":402,"timestamp":"2026-11-02T10:00:00Z"}}`,
		`{"status":500,"errors":[{"code":"SYS_001","type":"SYSTEM_ERROR","status":500,"timestamp":"2026-11-02T10:00:00Z"},{"code":"x"}]}`,
		`{"error":"invalid_client","error_description":"Client authentication failed","code":"AUTH_003","type":"AUTH_ERROR","status":401}`,
		`{"code":9,"message":"vault is archived","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ERR009.012","domain":"api.example","metadata":{}},{"@type":"type.googleapis.com/google.rpc.RequestInfo","requestId":"r-1"}]}`,
		`{"code":16,"message":"Unauthorized"}`,
		`{"code":3,"message":"proto: syntax error","details":[{"@type":"type.googleapis.com/google.rpc.RequestInfo","requestId":"r-2"}]}`,
		`{"status":404,"error":"Not Found","message":"quote q1 not found"}`,
		`{"type":"about:blank","title":"Bad Request","status":400,"detail":"pageSize above 1000"}`,
		`{"error":{"code":42,"message":"nested"}}`, `{"errors":[{"code":"E1","detail":"first"}]}`,
		"<html>\r\n<h1>502 Bad Gateway</h1></html>", "", "null", `{"errors":[]}`, `{"details":[{"@type":7}],"code":5}`,
		`{"errors":"` + strings.Repeat("\xff", 250) + `"}`, "\u202e\x1b[31m" + strings.Repeat("é", 120),
	} {
		for i, iface := range ifaces {
			if i%2 == len(s)%2 || iface == Wallet || iface == Payments {
				f.Add(uint8(i), 400+len(s)%105, []byte(s))
			}
		}
	}
	for i, b := range wiretest.Seeds("errors") {
		f.Add(uint8(i), 500, b)
	}
	f.Fuzz(func(t *testing.T, which uint8, status int, body []byte) {
		iface := ifaces[int(which)%len(ifaces)]
		e := Parse(iface, "GET", "/p", status, body)
		if e == nil || e.Interface != iface || e.HTTPStatus != status || e.Method != "GET" || e.Path != "/p" {
			t.Fatalf("Parse gave %+v", e)
		}
		if e.Class > ClassTimeout || e.Class.String() == "" {
			t.Fatalf("class %d", e.Class)
		}
		if e.Error() == "" || e.Guidance() == "" {
			t.Fatalf("%+v renders %q, advises %q", e, e.Error(), e.Guidance())
		}
		_ = e.Label()
		if !json.Valid(body) {
			if e.Message != excerpt(body) || strings.ContainsAny(e.Message, "\r\n") || len(e.Message) > 203 {
				t.Fatalf("non-JSON body gave message %q", e.Message)
			}
		}
	})
}

// norm is s as it comes back from JSON (invalid UTF-8 replaced).
func norm(s string) string {
	b, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(b, &out)
	return out
}

// FuzzPaymentsShapes: the payments error object reads the same in each of
// its three shapes (flat, wrapped as an object, wrapped in an array) and
// keeps what it was sent; its class follows the code, not the shape.
func FuzzPaymentsShapes(f *testing.F) {
	f.Add(402, "USR_067", TypeUser, "Insufficient balance", "Add funds.", "2026-11-02T10:00:00Z")
	f.Add(500, "CFG_009", "", "", "", "")
	f.Add(401, "AUTH_001", TypeAuth, "", "token expired", "yesterday")
	f.Add(404, "", TypeNotFound, "", "no such payment", "")
	f.Add(503, "SYS_\x00", "\xff", "\u202e", "line\nbreak", "")
	f.Fuzz(func(t *testing.T, status int, code, typ, title, desc, ts string) {
		flat := PaymentsBody{Code: code, Type: typ, Status: status, Timestamp: ts, Title: title, Description: desc}
		b, err := json.Marshal(flat)
		if err != nil {
			t.Fatal(err)
		}
		obj := []byte(`{"status":` + jsonInt(status) + `,"errors":` + string(b) + `}`)
		arr := []byte(`{"status":` + jsonInt(status) + `,"errors":[` + string(b) + `]}`)
		want := Class(0)
		for i, body := range [][]byte{b, obj, arr} {
			e := Parse(Payments, "POST", "/v3/payments", status, body)
			if code == "" && title == "" && desc == "" {
				if e.Code != "" || e.Class != classByStatus(status) {
					t.Fatalf("shape %d: an empty object read as %+v", i, e)
				}
				continue
			}
			if e.Code != norm(code) || e.Type != norm(typ) || e.Title != norm(title) || e.Message != norm(desc) || e.Timestamp != norm(ts) {
				t.Fatalf("shape %d %s read as %+v", i, body, e)
			}
			if i == 0 {
				want = e.Class
			} else if e.Class != want {
				t.Fatalf("shape %d classed %v, flat %v", i, e.Class, want)
			}
			if c := classifyPayments(status, norm(code), norm(typ)); e.Class != c {
				t.Fatalf("class %v, table says %v", e.Class, c)
			}
		}
	})
}

// FuzzWalletShape: the wallet error object keeps its gRPC code, message,
// reason, domain and request id, and is classed by the code.
func FuzzWalletShape(f *testing.F) {
	f.Add(9, "vault is archived", "ERR009.012", "api.example", "r-1", true)
	f.Add(16, "Unauthorized", "", "", "", false)
	f.Add(-1, "\x1b]52;c;aGk=\a", "\xfe", "", "\u0000", true)
	f.Fuzz(func(t *testing.T, code int, msg, reason, domain, rid string, info bool) {
		w := WalletBody{Code: code, Message: msg}
		if info {
			w.Details = append(w.Details, ErrorInfo(reason, domain))
		}
		w.Details = append(w.Details, RequestInfo(rid))
		b, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		e := Parse(Wallet, "GET", "/v1/vaults", GRPCHTTPStatus(code), b)
		if code == 0 {
			if e.GRPCCode != 0 || e.Class != classByStatus(GRPCHTTPStatus(code)) {
				t.Fatalf("code 0 read as %+v", e)
			}
			return
		}
		if e.GRPCCode != code || e.Type != GRPCName(code) || e.Message != norm(msg) || e.RequestID != norm(rid) || e.Class != classifyWallet(code) {
			t.Fatalf("%s read as %+v", b, e)
		}
		if info && (e.Code != norm(reason) || e.Domain != norm(domain)) {
			t.Fatalf("%s: reason %q domain %q", b, e.Code, e.Domain)
		}
	})
}

// FuzzPlainShapes: the plain body {status, error, message} and RFC 7807
// problem details {type, title, status, detail} of liquidity and custody
// keep their message, and are classed by the HTTP status.
func FuzzPlainShapes(f *testing.F) {
	f.Add(404, "Not Found", "quote q1 not found", "about:blank")
	f.Add(500, "", "", "")
	f.Add(429, "\xff", "\u2028", "urn:x")
	f.Fuzz(func(t *testing.T, status int, reason, msg, typ string) {
		plain, _ := json.Marshal(PlainBody{Status: status, Error: reason, Message: msg})
		problem, _ := json.Marshal(map[string]any{"type": typ, "title": reason, "status": status, "detail": msg})
		for _, iface := range []Interface{Liquidity, Custody} {
			e := Parse(iface, "GET", "/x", status, plain)
			if want := firstOf(norm(msg), norm(reason)); want != "" && e.Message != want {
				t.Fatalf("%s read as %+v", plain, e)
			}
			p := Parse(iface, "GET", "/x", status, problem)
			if p.Title != norm(reason) || msg != "" && p.Message != norm(msg) {
				t.Fatalf("%s read as %+v", problem, p)
			}
			if e.Class != classByStatus(status) || p.Class != classByStatus(status) {
				t.Fatalf("classes %v %v, status says %v", e.Class, p.Class, classByStatus(status))
			}
		}
	})
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestParseAllocationBounded: a megabyte of adversarial error body (the
// transport reads at most 64 KiB of one) costs a bounded multiple of its
// size, in each interface's parser, where it holds its lists.
func TestParseAllocationBounded(t *testing.T) {
	for _, c := range []struct {
		iface Interface
		key   string
	}{{Payments, "errors"}, {Wallet, "details"}, {Liquidity, "errors"}, {Custody, ""}} {
		t.Run(string(c.iface)+"/"+c.key, func(t *testing.T) {
			wiretest.Bounded(t, c.key, func(b []byte) { _ = Parse(c.iface, "GET", "/x", 500, b) })
		})
	}
}
