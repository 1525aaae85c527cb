package webhook_test

import (
	"errors"
	"net"
	"strings"
	"testing"

	"treasury/wire/webhook"
)

// TestServeOnATakenPort: Serve fails with a *ListenError that knows the
// address is in use, and the Status built from it says so in a sentence.
func TestServeOnATakenPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cert, _, _ := webhook.SelfSigned()
	rcv, _ := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: ed(t).Public()})
	_, err = webhook.Serve(ln.Addr().String(), "", cert, rcv)
	var le *webhook.ListenError
	if !errors.As(err, &le) || !le.InUse() || le.Addr != ln.Addr().String() {
		t.Fatalf("Serve on a taken port: %#v", err)
	}
	for _, tc := range []struct {
		st   webhook.Status
		want string
	}{
		{webhook.Status{Addr: le.Addr, Err: le, Holder: "treasury (pid 42)"}, le.Addr + " is in use by treasury (pid 42): payment states come from polling alone"},
		{webhook.Status{Addr: le.Addr, Err: le}, le.Addr + " is in use by another process: payment states"},
		{webhook.Status{Addr: ":1", Err: &webhook.ListenError{Addr: ":1", Err: errors.New("bind: permission denied")}}, "cannot listen on :1 (bind: permission denied): payment states"},
		{webhook.Status{Addr: le.Addr}, ""},
	} {
		got := tc.st.Problem()
		if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
			t.Errorf("Problem() = %q, want %q", got, tc.want)
		}
		if tc.st.Listening() != (tc.st.Err == nil) {
			t.Errorf("Listening() with %v", tc.st.Err)
		}
	}
	if (webhook.Status{Rejections: map[string]int{"a": 2, "b": 3}}).Rejected() != 5 {
		t.Error("Rejected() does not add up the reasons")
	}
	busy := webhook.Status{Rejections: map[string]int{"a": 2, webhook.RejectOverloaded: 7}}
	if busy.Rejected() != 2 || busy.Busy() != 7 {
		t.Errorf("Rejected() = %d, Busy() = %d, want 2 and 7: a busy answer is no refusal", busy.Rejected(), busy.Busy())
	}
}
