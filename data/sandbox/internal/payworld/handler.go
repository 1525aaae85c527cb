package payworld

import (
	"net/http"

	"treasury/data/apierr"
	"treasury/data/payments"
	"treasury/data/sandbox/internal/authsim"
	"treasury/data/sandbox/internal/simkit"
)

// Handler serves the payments interface (paths relative to its base URL).
// Scopes: payments:read for payments, filters and state history;
// identities:read for identities and instruments; ledger:read for ledger
// transactions and balances; quotes:create and payments:create to create.
func (w *World) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v2/payments/{id}", w.guard(authsim.ScopePaymentsRead, w.getV2))
	mux.HandleFunc("GET /v3/payments/{id}", w.guard(authsim.ScopePaymentsRead, w.getV3))
	mux.HandleFunc("GET /v3/payments/{id}/states", w.guard(authsim.ScopePaymentsRead, w.getStates))
	mux.HandleFunc("GET "+payments.PathPayments, w.guard(authsim.ScopePaymentsRead, w.byInternalID))
	mux.HandleFunc("POST "+payments.PathPayments, w.guard(authsim.ScopePaymentsCreate, w.create))
	mux.HandleFunc("POST "+payments.PathFilterV2, w.guard(authsim.ScopePaymentsRead, w.filterV2))
	mux.HandleFunc("POST "+payments.PathFilterV3, w.guard(authsim.ScopePaymentsRead, w.filterV3))
	mux.HandleFunc("GET "+payments.PathIdentities, w.guard(authsim.ScopeIdentitiesRead, w.identities))
	mux.HandleFunc("GET "+payments.PathIdentities+"/{id}"+payments.SuffixInstruments, w.guard(authsim.ScopeIdentitiesRead, w.instruments))
	mux.HandleFunc("GET "+payments.PathLedger, w.guard(authsim.ScopeLedgerRead, w.ledger))
	mux.HandleFunc("GET "+payments.PathBalances, w.guard(authsim.ScopeLedgerRead, w.getBalances))
	mux.HandleFunc("POST "+payments.PathQuotes, w.guard(authsim.ScopeQuotesCreate, w.createQuote))
	mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) {
		w.fail(rw, http.StatusNotFound, "USR_002", apierr.TypeNotFound, "Resource Not Found",
			"No operation "+r.Method+" "+r.URL.Path+" on the payments interface.")
	})
	return mux
}

// guard checks the token and scope, then that a body is JSON (415
// otherwise) and that the env's gate lets the request through, and brings
// the world up to the clock.
func (w *World) guard(scope string, h func(http.ResponseWriter, *http.Request, authsim.Claims)) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		var c authsim.Claims
		if w.auth != nil {
			var ok bool
			if c, ok = w.auth.Authorize(rw, r, scope); !ok {
				return
			}
		} else {
			c.Org = w.org
		}
		if ct, ok := simkit.JSONBody(r); !ok {
			simkit.PaymentsUnsupportedMedia(rw, w.env.Clock.Now(), ct)
			return
		}
		if f := w.env.Refuse(apierr.Payments, r); f != nil {
			f.WritePayments(rw, w.env.Clock.Now())
			return
		}
		w.Advance()
		h(rw, r, c)
	}
}

func (w *World) fail(rw http.ResponseWriter, status int, code, typ, title, desc string) {
	simkit.PaymentsError(rw, w.env.Clock.Now(), status, code, typ, title, desc)
}

func (w *World) badRequest(rw http.ResponseWriter, desc string) {
	w.fail(rw, http.StatusBadRequest, "USR_001", apierr.TypeUser, "Bad Request", desc)
}

func (w *World) notFound(rw http.ResponseWriter, what string) {
	w.fail(rw, http.StatusNotFound, "USR_002", apierr.TypeNotFound, "Resource Not Found", "No "+what+" was found.")
}

// noAccount answers 500 CFG_001: the org has no prefunded account in cur.
func (w *World) noAccount(rw http.ResponseWriter, cur string) {
	w.fail(rw, http.StatusInternalServerError, "CFG_001", apierr.TypeConfiguration, "Configuration Error",
		"No prefunded account is configured for currency "+simkit.Quoted(cur)+"; contact support.")
}

func (w *World) foreign(rw http.ResponseWriter) {
	w.fail(rw, http.StatusForbidden, "AUTH_051", apierr.TypeAuth, "Forbidden",
		"The payment was created by a different organization.")
}

// findOwn looks the path's payment up, answering 404 or 403 AUTH_051
// itself. w.mu must be read-held.
func (w *World) findOwn(rw http.ResponseWriter, r *http.Request, c authsim.Claims) (uint32, bool) {
	seq, ok := w.lookup(r.PathValue("id"))
	if !ok {
		w.notFound(rw, "payment with id "+simkit.Quoted(r.PathValue("id")))
		return 0, false
	}
	if w.pays[seq].flags&fForeign != 0 || (c.Org != "" && c.Org != w.org) {
		w.foreign(rw)
		return 0, false
	}
	return seq, true
}

func (w *World) getV2(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	w.get(rw, r, c, false)
}
func (w *World) getV3(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	w.get(rw, r, c, true)
}

func (w *World) get(rw http.ResponseWriter, r *http.Request, c authsim.Claims, v3 bool) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	seq, ok := w.findOwn(rw, r, c)
	if !ok {
		return
	}
	simkit.WriteJSON(rw, http.StatusOK, w.record(seq, w.processed, v3))
}

func (w *World) getStates(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	seq, ok := w.findOwn(rw, r, c)
	if !ok {
		return
	}
	simkit.WriteJSON(rw, http.StatusOK, payments.StateTransitions{StateTransitions: w.pays[seq].transitionsAt(w.processed)})
}

// byInternalID answers GET /v3/payments?internalId=: {data: [...]}, empty
// when nothing matches.
func (w *World) byInternalID(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	id := r.URL.Query().Get("internalId")
	if id == "" {
		w.badRequest(rw, "The query parameter internalId is required.")
		return
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	out := payments.PaymentList{Data: []payments.Payment{}}
	if seq, ok := w.lookupInternal(id); ok && w.pays[seq].flags&fForeign == 0 {
		out.Data = append(out.Data, w.record(seq, w.processed, true))
	}
	simkit.WriteJSON(rw, http.StatusOK, out)
}

func (w *World) getBalances(rw http.ResponseWriter, r *http.Request, _ authsim.Claims) {
	cur := r.URL.Query().Get("currency")
	if cur != "" && currencyIndex(cur) < 0 {
		w.noAccount(rw, cur)
		return
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	simkit.WriteJSON(rw, http.StatusOK, payments.Balances{Timestamp: ms(w.processed), Balances: w.balances(cur)})
}
