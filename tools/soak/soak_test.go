package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(agentEnv); spec != "" {
		os.Exit(runAgent(spec, os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// The soak's short form: the scenario and three randomized
// schedules on one host, one on a site of three, every fault kind
// injected (a full disk where a tmpfs can be mounted): no contradiction.
// The same scenario with reconciliation off (the behaviour the issue
// found) is a contradiction the soak reports.
func TestSoakFindsNoContradiction(t *testing.T) {
	var out bytes.Buffer
	res, err := soak(config_{schedules: 4, siteSchedules: 1, seed: 45, timeout: 2 * time.Second}, &out)
	t.Log(out.String())
	if err != nil {
		t.Fatal(err)
	}
	if res.contradictions != 0 || res.schedules != 4 || res.siteSchedules != 1 {
		t.Fatalf("%+v", res)
	}
	kinds := []string{faultHold, faultLoseAnswer, faultLoseRequest, faultKill, faultStop, faultTear}
	if !strings.Contains(out.String(), "full-disk faults left out") {
		kinds = append(kinds, faultFull)
	}
	for _, k := range kinds {
		if res.faults[k] == 0 {
			t.Errorf("no %s injected: %v", k, res.faults)
		}
	}

	out.Reset()
	res, err = soak(config_{schedules: 1, seed: 45, timeout: 2 * time.Second, blind: true}, &out)
	t.Log(out.String())
	if err != nil {
		t.Fatal(err)
	}
	if res.contradictions == 0 || !strings.Contains(out.String(), "the answer replayed the past") {
		t.Fatalf("reconciliation off, the scenario: %+v, want the contradiction found", res)
	}
}
