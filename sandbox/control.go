package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"treasury/kit/pubkey"
	"treasury/sandbox/internal/simkit"
)

// Info is what GET /_sandbox/info answers: how to reach and use the sandbox.
type Info struct {
	Seed        int64             `json:"seed"`
	Now         time.Time         `json:"now"`
	Speed       float64           `json:"speed"`
	Frozen      bool              `json:"frozen"`
	Interfaces  map[string]string `json:"interfaces"`
	Credentials InfoCredentials   `json:"credentials"`
	// WebhookPublicKey verifies the notifications (PEM).
	WebhookPublicKey string            `json:"webhook_public_key"`
	Samples          map[string]string `json:"samples,omitempty"`
}

// InfoCredentials are the sandbox's public test credentials.
type InfoCredentials struct {
	PaymentsClientID        string            `json:"payments_client_id"`
	PaymentsClientSecret    string            `json:"payments_client_secret"`
	PaymentsAudience        string            `json:"payments_audience"`
	PaymentsLimitedClientID string            `json:"payments_limited_client_id"`
	PaymentsLimitedSecret   string            `json:"payments_limited_client_secret"`
	Wallet                  map[string]string `json:"wallet"`
	LiquidityToken          string            `json:"liquidity_token"`
	CustodyToken            string            `json:"custody_token"`
	CustodyDomainID         string            `json:"custody_domain_id"`
	CustodyOperatorID       string            `json:"custody_operator_id"`
}

// Info describes the sandbox, with interface paths relative to its root.
func (s *Sandbox) Info() Info {
	c := s.opts.Credentials
	w := map[string]string{}
	for _, cr := range c.Wallet {
		w[cr.ClientID] = cr.ClientSecret + " (" + cr.Type + ")"
	}
	pem, _ := pubkey.MarshalPEM(s.WebhookPublicKey())
	return Info{
		Seed: s.opts.Seed, Now: s.env.Clock.Now(), Speed: s.env.Clock.Speed(), Frozen: s.env.Clock.Frozen(),
		Interfaces: map[string]string{
			"liquidity": PrefixLiquidity, "auth": PrefixAuth, "payments": PrefixPayments,
			"reporting": PrefixReporting, "wallet": PrefixWallet, "custody": PrefixCustody,
		},
		Credentials: InfoCredentials{
			PaymentsClientID: c.PaymentsClientID, PaymentsClientSecret: c.PaymentsClientSecret,
			PaymentsAudience: c.PaymentsAudience, PaymentsLimitedClientID: c.PaymentsLimitedClientID,
			PaymentsLimitedSecret: c.PaymentsLimitedClientSecret, Wallet: w,
			LiquidityToken: c.LiquidityToken, CustodyToken: c.CustodyToken,
			CustodyDomainID: c.CustodyDomainID, CustodyOperatorID: OperatorID(s.opts.Seed),
		},
		WebhookPublicKey: string(pem),
		Samples:          s.world.Samples(),
	}
}

// webhookSettings is the JSON of GET and PUT /_sandbox/webhooks.
type webhookSettings struct {
	URL           string  `json:"url"`
	HeaderPrefix  string  `json:"header_prefix"`
	DuplicateRate float64 `json:"duplicate_rate"`
	ReorderRate   float64 `json:"reorder_rate"`
}

// control serves the sandbox's own API:
//
//	GET  /info                 Info
//	GET  /faults, PUT /faults  FaultSettings (PUT replaces, PATCH merges)
//	GET  /webhooks, PUT        the callback and delivery quirks
//	GET  /clock                {now, speed, frozen}
//	POST /clock/advance        {"by": "1h"} moves the clock forward
//	GET  /stats                Stats: requests received per interface
//	GET  /keys                 Keys: every idempotency key applied (ground truth)
func (s *Sandbox) control() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, r *http.Request) {
		simkit.WriteJSON(w, http.StatusOK, s.Keys())
	})
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, r *http.Request) {
		simkit.WriteJSON(w, http.StatusOK, s.Stats())
	})
	mux.HandleFunc("GET /info", func(w http.ResponseWriter, r *http.Request) {
		simkit.WriteJSON(w, http.StatusOK, s.Info())
	})
	mux.HandleFunc("GET /faults", func(w http.ResponseWriter, r *http.Request) {
		simkit.WriteJSON(w, http.StatusOK, s.env.Faults.Get())
	})
	setFaults := func(merge bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			var f FaultSettings
			if merge {
				f = s.env.Faults.Get()
			}
			if err := strictJSON(r, &f); err != nil {
				simkit.PlainError(w, http.StatusBadRequest, "faults: "+err.Error())
				return
			}
			if err := s.env.Faults.Set(f); err != nil {
				simkit.PlainError(w, http.StatusBadRequest, "faults: "+err.Error())
				return
			}
			simkit.WriteJSON(w, http.StatusOK, f)
		}
	}
	mux.HandleFunc("PUT /faults", setFaults(false))
	mux.HandleFunc("PATCH /faults", setFaults(true))
	mux.HandleFunc("GET /webhooks", func(w http.ResponseWriter, r *http.Request) {
		o := s.Webhooks()
		simkit.WriteJSON(w, http.StatusOK, webhookSettings{URL: o.URL, HeaderPrefix: o.HeaderPrefix, DuplicateRate: o.DuplicateRate, ReorderRate: o.ReorderRate})
	})
	mux.HandleFunc("PUT /webhooks", func(w http.ResponseWriter, r *http.Request) {
		cur := s.Webhooks()
		in := webhookSettings{URL: cur.URL, HeaderPrefix: cur.HeaderPrefix, DuplicateRate: cur.DuplicateRate, ReorderRate: cur.ReorderRate}
		if err := strictJSON(r, &in); err != nil {
			simkit.PlainError(w, http.StatusBadRequest, "webhooks: "+err.Error())
			return
		}
		cur.URL, cur.HeaderPrefix, cur.DuplicateRate, cur.ReorderRate = in.URL, in.HeaderPrefix, in.DuplicateRate, in.ReorderRate
		if err := s.SetWebhooks(cur); err != nil {
			simkit.PlainError(w, http.StatusBadRequest, "webhooks: "+err.Error())
			return
		}
		simkit.WriteJSON(w, http.StatusOK, in)
	})
	mux.HandleFunc("GET /clock", func(w http.ResponseWriter, r *http.Request) {
		simkit.WriteJSON(w, http.StatusOK, map[string]any{"now": s.env.Clock.Now(), "speed": s.env.Clock.Speed(), "frozen": s.env.Clock.Frozen()})
	})
	mux.HandleFunc("POST /clock/advance", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			By simkit.Duration `json:"by"`
		}
		if err := strictJSON(r, &in); err != nil || in.By <= 0 {
			simkit.PlainError(w, http.StatusBadRequest, `clock: body must be {"by": "<positive duration>"}`)
			return
		}
		s.AdvanceClock(time.Duration(in.By))
		simkit.WriteJSON(w, http.StatusOK, map[string]any{"now": s.env.Clock.Now()})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		simkit.PlainError(w, http.StatusNotFound, fmt.Sprintf("no control endpoint %s %s; see GET /_sandbox/info", r.Method, r.URL.Path))
	})
	return mux
}

// AdvanceClock moves the sandbox clock forward by d and brings the payments
// world up to it at once, so that the state changes in between are notified
// now: a frozen world has no ticker, and would otherwise wait for the next
// payments request.
func (s *Sandbox) AdvanceClock(d time.Duration) {
	s.env.Clock.Advance(d)
	s.world.Advance()
}

func strictJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// index answers GET / with a short guide.
func (s *Sandbox) index(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "treasury sandbox (seed %d)\n\ninterfaces: %s %s %s %s %s %s\ncontrol:    %s/info, %s/faults, %s/webhooks, %s/clock, %s/stats\n",
		s.opts.Seed, PrefixLiquidity, PrefixAuth, PrefixPayments, PrefixReporting, PrefixWallet, PrefixCustody,
		PrefixControl, PrefixControl, PrefixControl, PrefixControl, PrefixControl)
}

// Keys is the platform's ground truth of the idempotency keys it applied
// (GET /_sandbox/keys): the wallet's mutationIds (freezes, unfreezes,
// sweep triggers) and the custody intents, each in the order applied.
// A soak compares the audit log's outcomes with it (tools/soak).
type Keys struct {
	Wallet  []AppliedKey `json:"wallet"`
	Custody []AppliedKey `json:"custody"`
}

// AppliedKey is one key the platform applied: on Target (a transaction,
// a sweep configuration, an endpoint), Action (FREEZE, UNFREEZE, TRIGGER,
// v0_LockEndpoint, v0_UnlockEndpoint), Order its place among the keys of
// its interface; Instance the run a trigger started, Status an intent's
// status now.
type AppliedKey struct {
	Key      string `json:"key"`
	Target   string `json:"target"`
	Action   string `json:"action"`
	Order    int    `json:"order"`
	Instance string `json:"instance,omitempty"`
	Status   string `json:"status,omitempty"`
}

// Keys returns the keys applied so far.
func (s *Sandbox) Keys() Keys {
	var k Keys
	for _, a := range s.wallet.Applied() {
		k.Wallet = append(k.Wallet, AppliedKey{Key: a.Key, Target: a.Target, Action: a.Action, Order: a.Order, Instance: a.Instance})
	}
	for _, p := range s.custody.Proposed() {
		k.Custody = append(k.Custody, AppliedKey{Key: p.ID, Target: p.Endpoint, Action: p.Type, Order: p.Order, Status: p.Status})
	}
	return k
}
