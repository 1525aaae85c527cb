package payworld

import (
	"net/http"
	"regexp"

	"treasury/sandbox/internal/authsim"
	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Handler serves the payments interface (paths relative to its base URL).
// Scopes: payments:read for payments, filters and state history;
// identities:read for identities and instruments; ledger:read for ledger
// transactions and balances; quotes:create and payments:create to create.
//
// It answers as the vendor's published document says: the document's
// operations only (no GET /v3/payments, no /v2/payments paths), its
// request rules and its record and error shapes. With Options.Spec it also
// serves what only the spec's wording has: GET /v3/payments?internalId=,
// GET /v2/payments/{id} and POST /v2/payments/filter.
func (w *World) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v3/payments/{id}", w.guard(authsim.ScopePaymentsRead, w.getOne))
	mux.HandleFunc("GET /v3/payments/{id}/states", w.guard(authsim.ScopePaymentsRead, w.getStates))
	mux.HandleFunc("POST "+payments.PathPayments, w.guard(authsim.ScopePaymentsCreate, w.create))
	mux.HandleFunc("POST "+payments.PathFilterV3, w.guard(authsim.ScopePaymentsRead, w.filter))
	mux.HandleFunc("GET "+payments.PathIdentities, w.guard(authsim.ScopeIdentitiesRead, w.identities))
	mux.HandleFunc("GET "+payments.PathIdentities+"/{id}"+payments.SuffixInstruments, w.guard(authsim.ScopeIdentitiesRead, w.instruments))
	mux.HandleFunc("GET "+payments.PathLedger, w.guard(authsim.ScopeLedgerRead, w.ledger))
	mux.HandleFunc("GET "+payments.PathBalances, w.guard(authsim.ScopeLedgerRead, w.getBalances))
	mux.HandleFunc("POST "+pathQuoteCollection, w.guard(authsim.ScopeQuotesCreate, w.createQuotes))
	if w.spec {
		mux.HandleFunc("GET "+payments.PathPayments, w.guard(authsim.ScopePaymentsRead, w.byInternalID))
		mux.HandleFunc("GET /v2/payments/{id}", w.guard(authsim.ScopePaymentsRead, w.getOne))
		mux.HandleFunc("POST "+payments.PathFilterV2, w.guard(authsim.ScopePaymentsRead, w.filter))
	} else {
		// The document has only POST on /v3/payments.
		mux.HandleFunc(payments.PathPayments, func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Allow", http.MethodPost)
			w.fail(rw, r, http.StatusMethodNotAllowed, "USR_003", apierr.TypeUser, "Method Not Allowed",
				"Only POST is allowed on "+payments.PathPayments+"; search payments with POST "+payments.PathFilterV3+".")
		})
	}
	mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) {
		w.fail(rw, r, http.StatusNotFound, "USR_002", apierr.TypeNotFound, "Resource Not Found",
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
		if ct, ok := simkit.DocumentJSONBody(r); !ok {
			simkit.PaymentsUnsupportedMedia(rw, r, w.env.Clock.Now(), ct)
			return
		}
		if f := w.env.Refuse(apierr.Payments, r); f != nil {
			f.WritePayments(rw, r, w.env.Clock.Now())
			return
		}
		w.Advance()
		h(rw, r, c)
	}
}

func (w *World) fail(rw http.ResponseWriter, r *http.Request, status int, code, typ, title, desc string) {
	simkit.PaymentsError(rw, r, w.env.Clock.Now(), status, code, typ, title, desc)
}

// badRequest answers 400 USR_001; the document's type of a validation
// error is USER_VALIDATION_ERROR.
func (w *World) badRequest(rw http.ResponseWriter, r *http.Request, desc string) {
	w.fail(rw, r, http.StatusBadRequest, "USR_001", typeValidation, "Bad Request", desc)
}

// typeValidation is the error type the document's examples give a request
// that fails validation.
const typeValidation = "USER_VALIDATION_ERROR"

func (w *World) notFound(rw http.ResponseWriter, r *http.Request, what string) {
	w.fail(rw, r, http.StatusNotFound, "USR_002", apierr.TypeNotFound, "Resource Not Found", "No "+what+" was found.")
}

// noAccount answers 500 CFG_001: the org has no prefunded account in cur.
func (w *World) noAccount(rw http.ResponseWriter, r *http.Request, cur string) {
	w.fail(rw, r, http.StatusInternalServerError, "CFG_001", apierr.TypeConfiguration, "Configuration Error",
		"No prefunded account is configured for currency "+simkit.Quoted(cur)+"; contact support.")
}

func (w *World) foreign(rw http.ResponseWriter, r *http.Request) {
	w.fail(rw, r, http.StatusForbidden, "AUTH_051", apierr.TypeAuth, "Forbidden",
		"The payment was created by a different organization.")
}

// uuidPattern is the form of a paymentId (format: uuid in the document).
var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// findOwn looks the path's payment up, answering 400 (an id that is not a
// uuid, which the document refuses; the spec face looks it up and answers
// 404), 404 or 403 AUTH_051 itself. w.mu must be read-held.
func (w *World) findOwn(rw http.ResponseWriter, r *http.Request, c authsim.Claims) (uint32, bool) {
	id := r.PathValue("id")
	if !w.spec && !uuidPattern.MatchString(id) {
		w.badRequest(rw, r, "paymentId must be a UUID, got "+simkit.Quoted(id)+".")
		return 0, false
	}
	seq, ok := w.lookup(id)
	if !ok {
		w.notFound(rw, r, "payment with id "+simkit.Quoted(id))
		return 0, false
	}
	if w.payment(seq).flags&fForeign != 0 || (c.Org != "" && c.Org != w.org) {
		w.foreign(rw, r)
		return 0, false
	}
	return seq, true
}

// getOne answers GET /v3/payments/{id} (and the spec face's /v2 form):
// PaymentWithDetailsV2.
func (w *World) getOne(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	seq, ok := w.findOwn(rw, r, c)
	if !ok {
		return
	}
	simkit.WriteJSON(rw, http.StatusOK, w.record(seq, w.processed, byID))
}

func (w *World) getStates(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	seq, ok := w.findOwn(rw, r, c)
	if !ok {
		return
	}
	simkit.WriteJSON(rw, http.StatusOK, transitionsResponse{StateTransitions: w.payment(seq).transitionsAt(w.processed)})
}

// byInternalID answers the spec's GET /v3/payments?internalId= (spec face
// only): {data: [...]}, empty when nothing matches.
func (w *World) byInternalID(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	id := r.URL.Query().Get("internalId")
	if id == "" {
		w.badRequest(rw, r, "The query parameter internalId is required.")
		return
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	out := paymentList{Data: []paymentRecord{}}
	if seq, ok := w.lookupInternal(id); ok && w.payment(seq).flags&fForeign == 0 {
		out.Data = append(out.Data, w.record(seq, w.processed, byID))
	}
	simkit.WriteJSON(rw, http.StatusOK, out)
}

func (w *World) getBalances(rw http.ResponseWriter, r *http.Request, _ authsim.Claims) {
	cur := r.URL.Query().Get("currency")
	if cur != "" && w.currencyIndex(cur) < 0 {
		w.noAccount(rw, r, cur)
		return
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	simkit.WriteJSON(rw, http.StatusOK, balancesResponse{Timestamp: ms(w.processed), Balances: w.balances(cur)})
}
