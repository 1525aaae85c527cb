package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/wallet"
)

// answer_latency serves a request at once and answers it late: a client
// that gives up before the answer (or dies) has had its trigger applied.
func TestAnswerLatencyAppliesThenAnswersLate(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	tok, read := walTokens(t, srv)
	sweeps := func() []wallet.SweepConfig {
		var page wallet.SweepsPage
		if st := sandboxtest.Get(t, srv.Endpoints().Wallet+wallet.PathSweeps, read, &page); st != http.StatusOK {
			t.Fatalf("sweeps: HTTP %d", st)
		}
		return page.SweepConfigurations
	}
	sw := sweeps()[0]
	if sw.SweepRunning {
		t.Fatal("the first sweep is running already")
	}
	if err := srv.SetFaults(sandbox.FaultSettings{AnswerLatency: sandbox.Duration(time.Hour), Path: "/trigger"}); err != nil {
		t.Fatal(err)
	}
	// Limited to the triggers: a read is answered at once.
	sweeps()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.Endpoints().Wallet+wallet.PathSweeps+"/"+sw.ID+"/trigger",
		bytes.NewReader([]byte(`{"mutationId":"5f0c1c36-7f4e-4c8e-9d6a-2b7f3d1e9a01"}`)))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the trigger was answered before its latency: %v", err)
	}
	if err := srv.SetFaults(sandbox.FaultSettings{}); err != nil {
		t.Fatal(err)
	}
	if got := sweeps()[0]; got.ID != sw.ID || !got.SweepRunning {
		t.Fatalf("after the unanswered trigger: %+v, want it running", got)
	}
}
