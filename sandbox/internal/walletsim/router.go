package walletsim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
	"treasury/wire/wallet"
)

// op is one operation: the credential type it needs ("" for any), the
// permission it needs ("" for none) and what it does.
type op struct {
	typ  string
	perm string
	fn   func(*call)
}

// methods maps the HTTP methods a path supports to their operations; any
// other method answers 501.
type methods map[string]op

func read(fn func(*call)) op    { return op{fn: fn} }
func control(fn func(*call)) op { return op{typ: wallet.CredControls, fn: fn} }
func transact(fn func(*call)) op {
	return op{typ: wallet.CredTransactions, fn: fn}
}
func needs(perm string, fn func(*call)) op { return op{typ: wallet.CredControls, perm: perm, fn: fn} }

// call is one request being served, with the world locked and moved to now.
type call struct {
	s    *Sim
	w    *world
	rw   http.ResponseWriter
	r    *http.Request
	cred Credential
	now  time.Time
}

// serve authenticates, picks the operation by method, checks the
// credential covers it, that a body is JSON (415 otherwise) and that the
// env's gate lets the request through, and runs it with the world locked.
func (s *Sim) serve(ms methods) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		now := s.env.Clock.Now()
		s.advance(now)
		c := &call{s: s, w: s.w, rw: rw, r: r, now: now}
		cred, ok := s.authenticate(r, now)
		if !ok {
			simkit.WalletUnauthorized(rw)
			return
		}
		c.cred = cred
		o, ok := ms[r.Method]
		if !ok {
			simkit.WalletUnimplemented(rw, s.env.RequestID())
			return
		}
		if (o.typ != "" && cred.Type != o.typ) || (o.perm != "" && !cred.has(o.perm)) {
			c.fail(apierr.GRPCPermissionDenied, reasonUnauthorized, "unauthorized request")
			return
		}
		if ct, ok := simkit.JSONBody(r); !ok {
			simkit.WalletUnsupportedMedia(rw, ct, s.env.RequestID())
			return
		}
		if f := s.env.Refuse(apierr.Wallet, r); f != nil {
			f.WriteWallet(rw, s.env.Host, s.env.RequestID())
			return
		}
		o.fn(c)
	})
}

// has reports whether the credential holds perm, directly or by a
// resource:* wildcard.
func (cr Credential) has(perm string) bool {
	for _, p := range cr.Permissions {
		if p == perm || p == "*" || (strings.HasSuffix(p, ":*") && strings.HasPrefix(perm, strings.TrimSuffix(p, "*"))) {
			return true
		}
	}
	return false
}

// sees reports whether the credential covers a vault: a credential with
// vault:<id> permissions covers only those vaults.
func (cr Credential) sees(vaultID string) bool {
	scoped := false
	for _, p := range cr.Permissions {
		if v, ok := strings.CutPrefix(p, "vault:"); ok && v != "*" {
			scoped = true
			if v == vaultID {
				return true
			}
		}
	}
	return !scoped
}

func (c *call) ok(v any) { simkit.WriteJSON(c.rw, http.StatusOK, v) }

func (c *call) fail(code int, reason, message string) {
	simkit.WalletError(c.rw, code, reason, message, c.s.env.Host, c.s.env.RequestID())
}

// invalid answers 400 ERR000.020; its message never names the field.
func (c *call) invalid() { c.fail(apierr.GRPCInvalidArgument, reasonInvalid, "invalid request") }

// bad answers 400 INVALID_ARGUMENT with reason.
func (c *call) bad(reason, message string) { c.fail(apierr.GRPCInvalidArgument, reason, message) }

// precondition answers 400 FAILED_PRECONDITION with reason.
func (c *call) precondition(reason, message string) {
	c.fail(apierr.GRPCFailedPrecondition, reason, message)
}

func (c *call) notFound(reason, message string) { c.fail(apierr.GRPCNotFound, reason, message) }

func (c *call) exists(reason, message string) { c.fail(apierr.GRPCAlreadyExists, reason, message) }

func (c *call) parser(message string) { simkit.WalletParserError(c.rw, message, c.s.env.RequestID()) }

// ids reads path ids that must be UUIDs; on a bad one it answers
// ERR000.020 and returns false.
func (c *call) ids(names ...string) ([]string, bool) {
	out := make([]string, len(names))
	for i, n := range names {
		v := c.r.PathValue(n)
		if !simkit.IsUUID(v) {
			c.invalid()
			return nil, false
		}
		out[i] = strings.ToLower(v)
	}
	return out, true
}

// decode reads a JSON body into v. An empty body leaves v zero (required
// fields then fail validation); a body the parser refuses answers 400
// without ErrorInfo, with the parser's message.
func (c *call) decode(v any) bool {
	raw, err := io.ReadAll(io.LimitReader(c.r.Body, 1<<20))
	if err != nil {
		c.parser("read body: " + err.Error())
		return false
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return true
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			c.parser(fmt.Sprintf("proto: (line 1:%d): invalid value for %s field %s", te.Offset, te.Value, te.Field))
		} else {
			c.parser("proto: syntax error: " + err.Error())
		}
		return false
	}
	return true
}

// routes registers every path of the interface.
func (s *Sim) routes() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc(wallet.PathToken, s.token)
	m.Handle(wallet.PathCredentials, s.serve(methods{"GET": control(listCredentials), "POST": control(createCredential)}))

	m.Handle("/v2/vaults", s.serve(methods{"GET": read(listVaults)}))
	m.Handle("/v2/vaults/{vaultId}", s.serve(methods{"GET": read(getVault)}))
	m.Handle("/v2/vaults/{vaultId}/balances", s.serve(methods{"GET": read(vaultBalances)}))
	m.Handle("/v2/vaults/{vaultId}/wallets", s.serve(methods{"GET": read(listWallets), "POST": control(createWallet)}))
	for _, wp := range []string{"/v2/vaults/{vaultId}/wallets/{walletId}", "/v2/wallets/{walletId}"} {
		m.Handle(wp, s.serve(methods{"GET": read(getWallet)}))
	}
	// A wallet's sub-resources are served under one form of its path only
	// (Options.NestedWalletPaths); the other form falls to the unknown route.
	wp := "/v2/wallets/{walletId}"
	if s.opts.NestedWalletPaths {
		wp = "/v2/vaults/{vaultId}/wallets/{walletId}"
	}
	m.Handle(wp+"/balances", s.serve(methods{"GET": read(walletBalances)}))
	m.Handle(wp+"/settings", s.serve(methods{"PUT": control(putSettings)}))
	m.Handle(wp+"/sequence", s.serve(methods{"GET": read(getSequence)}))
	m.Handle(wp+"/transactions", s.serve(methods{"GET": read(listTransactions), "POST": transact(createTransfer)}))
	m.Handle(wp+"/transactions/raw", s.serve(methods{"POST": transact(createRaw)}))
	m.Handle(wp+"/transactions/estimate-fee", s.serve(methods{"POST": transact(estimateFee)}))
	m.Handle(wp+"/transactions/{txId}", s.serve(methods{"GET": read(getTransaction)}))
	m.Handle(wp+"/transactions/{txId}/freeze", s.serve(methods{"PUT": transact(freeze)}))
	m.Handle(wp+"/transactions/{txId}/unfreeze", s.serve(methods{"PUT": transact(unfreeze)}))
	m.Handle(wp+"/transactions/{txId}/freeze-history", s.serve(methods{"GET": read(freezeHistory)}))
	m.Handle(wp+"/policy-rules/limits", s.serve(methods{"GET": needs(permLimitRead, listWalletLimits), "POST": needs(permLimitWrite, createLimit)}))
	m.Handle(wp+"/policy-rules/limits/{limitId}", s.serve(methods{"DELETE": needs(permLimitWrite, deleteLimit)}))
	m.Handle("/v2/policy-rules", s.serve(methods{"GET": needs(permPolicyRead, listRules)}))
	m.Handle("/v2/policy-rules/limits", s.serve(methods{"GET": needs(permLimitRead, listAllLimits)}))

	m.Handle("/v2/counterparties", s.serve(methods{"GET": read(listCounterparties), "POST": control(createCounterparty)}))
	m.Handle("/v2/counterparties/{counterpartyId}", s.serve(methods{"GET": read(getCounterparty)}))
	m.Handle("/v2/counterparties/{counterpartyId}/addresses", s.serve(methods{"GET": read(listAddresses), "POST": control(createAddress)}))
	m.Handle("/v2/counterparties/{counterpartyId}/addresses/{addressId}", s.serve(methods{"GET": read(getAddress), "DELETE": control(deleteAddress)}))

	m.Handle("/v2/webhooks", s.serve(methods{"GET": read(listWebhooks), "POST": control(createWebhook)}))
	m.Handle("/v2/webhooks/{webhookId}", s.serve(methods{"GET": read(getWebhook), "DELETE": control(deleteWebhook)}))
	m.Handle("/v2/webhooks/{webhookId}/subscriptions", s.serve(methods{"GET": read(listSubscriptions), "POST": control(addSubscriptions)}))
	m.Handle("/v2/webhooks/{webhookId}/subscriptions/{subscriptionId}", s.serve(methods{"GET": read(getSubscription), "DELETE": control(deleteSubscription)}))

	m.Handle(wallet.PathSweeps, s.serve(methods{"GET": read(listSweeps)}))
	m.Handle(wallet.PathSweeps+"/{sweepId}", s.serve(methods{"GET": read(getSweep)}))
	m.Handle(wallet.PathSweeps+"/{sweepId}/trigger", s.serve(methods{"POST": transact(triggerSweep)}))
	m.Handle(wallet.PathSweeps+"/{sweepId}/instances/{instanceId}/transactions", s.serve(methods{"GET": read(instanceTransactions)}))

	m.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) {
		simkit.WalletStatus(rw, apierr.GRPCNotFound, "Not Found", s.env.RequestID())
	})
	return m
}
