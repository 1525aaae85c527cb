package apierr

import (
	"strconv"
	"strings"
)

// Guidance is what the operator should do about the error, in one or two
// sentences, from the spec's tables: whether it is retried and what to fix.
// Specific codes get specific advice; the rest get their class's.
func (e *Error) Guidance() string {
	if g := e.staticTokenGuidance(); g != "" {
		return g
	}
	if g := e.tokenGuidance(); g != "" {
		return g
	}
	if g := codeGuidance(e.Code); g != "" {
		return g
	}
	switch {
	case e.Poll != "" && e.Class == ClassTimeout:
		return "Each call was answered or is still waiting, but the poll's calls together took longer than its budget: the next poll tries again. If it persists, the platform answers slowly (the overview's interfaces panel shows each one's latency); check the service's status."
	}
	switch e.Class {
	case ClassUnreachable:
		return "The interface could not be reached: not retried. Check " + e.urlKey() + " and the network (DNS, firewall, proxy)."
	case ClassTimeout:
		return "The interface accepted the connection but did not answer in time: not retried within the call; the next poll tries again. If it persists, check " + e.urlKey() + " and the service's status."
	case ClassCredentials:
		return "The token issuer refused the credentials. Check " + e.key("client_id") + " and its secret."
	case ClassRetry:
		if e.RequestID != "" {
			return "Transient platform error: retried with backoff. If it persists, report requestId " + e.RequestID + " to the operator."
		}
		return "Transient platform error: retried with backoff (2, 4, 8, 16, 32 s). If it persists, report the code and time to the operator."
	case ClassRefreshAuth:
		return "The token was expired or invalid: a new token is fetched and the request retried once. If it persists, check the client credentials of the profile."
	case ClassFixRequest:
		return "The request was rejected as invalid: retrying it unchanged will fail again. Correct the input or the profile."
	case ClassResolve:
		return "Not retryable until the account condition is resolved (insufficient balance, credit limit or past-due invoice). Resolve it, then resubmit."
	case ClassForbidden:
		return "The credentials do not cover this operation: do not retry with them. Ask for the missing scope, permission or credential type."
	case ClassNotFound:
		return "The record does not exist or is not visible to these credentials. Check the id."
	case ClassState:
		return "The record's current state does not allow this action. Refresh it and check its state."
	case ClassConflict:
		return "An equivalent record already exists. Use it instead of creating another."
	case ClassOperator:
		return "A configuration problem on the platform side: not retryable. Contact the operator's support with the code and timestamp."
	case ClassMalformed:
		return "The response could not be read as the interface's JSON (a read was tried twice). If it persists, report the endpoint and time to the operator."
	}
	return "Unexpected error. Check the request log for details."
}

// key names a setting of the interface's profile section, or the section
// when the error does not know its profile.
func (e *Error) key(name string) string {
	if e.ConfigKey != "" {
		return e.ConfigKey + "." + name
	}
	return "the " + string(e.Interface) + " " + name + " of the profile"
}

// urlKey names the setting that holds the address called: the payments
// section's auth_url for the token issuer, else the interface's base_url.
func (e *Error) urlKey() string {
	if e.Interface != Auth {
		return e.key("base_url")
	}
	if e.ConfigKey != "" {
		return e.ConfigKey + ".auth_url"
	}
	return "the payments auth_url of the profile"
}

// StaticToken reports whether the interface takes a static bearer token
// from the profile (token, token_env or token_file: liquidity, custody)
// rather than one fetched from client credentials (payments and reporting
// from the payments issuer, wallet from its own exchange). A static token is
// not renewed on a 401: the request is not retried, and only the profile
// can fix it.
func (i Interface) StaticToken() bool { return i == Liquidity || i == Custody }

// staticTokenGuidance is the advice for a 401 of an interface with a static
// bearer token: the OAuth advice ("a new token is fetched and the request
// retried once", "check the client credentials") is untrue there. The
// doctor's auth check gives the same words.
func (e *Error) staticTokenGuidance() string {
	if !e.Interface.StaticToken() || (e.HTTPStatus != 401 && e.Class != ClassRefreshAuth) {
		return ""
	}
	keys := "the " + string(e.Interface) + " token_env or token_file of the profile"
	if e.ConfigKey != "" {
		keys = e.ConfigKey + ".token_env or token_file"
	}
	return "The " + string(e.Interface) + " interface refused the profile's bearer token (HTTP 401): a static token is not renewed, so the request is not retried. Check " +
		keys + " (a token of this environment, not expired)."
}

// tokenGuidance is the advice for a refused request that points at the
// profile rather than the record: an unknown custody domain, and a
// refused token request, which says more than its code: spec 5.6 (the wallet answers a wrong client id or
// secret with 400 ERR000.020, never 401) and 4.2 (the payments token needs
// the client secret and the audience of the environment).
func (e *Error) tokenGuidance() string {
	if e.HTTPStatus < 400 || e.HTTPStatus >= 500 || e.HTTPStatus == 429 || (e.Method != "POST" && e.Interface != Custody) {
		return ""
	}
	switch {
	case e.Interface == Custody && e.HTTPStatus == 404 && strings.HasPrefix(e.Path, "/v1/domains/") && strings.HasSuffix(e.Path, "/endpoints"):
		return "The custody service does not know this domain, or the token may not see it. Check " + e.key("domain_id") + " (and that the token is for that domain)."
	case e.Interface == Wallet && strings.HasSuffix(e.Path, "/credentials/oauth/token"):
		return "The wallet token exchange refused the client id or secret (spec 5.6: a wrong clientId or clientSecret gives 400 ERR000.020). Check " +
			e.key("client_id") + " and its secret (client_secret_env or client_secret_file)."
	case e.Interface == Auth && strings.HasSuffix(e.Path, "/oauth/token"):
		return "The payments token issuer refused the credentials (HTTP " + itoa(e.HTTPStatus) + "): check the client secret (" +
			e.key("client_secret_env") + " or client_secret_file) and the audience (" + e.key("audience") + ", urn:<service>-<test|prod>:<tenant>), then the client id."
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }

// codeGuidance holds advice for the codes that the spec names.
func codeGuidance(code string) string {
	switch code {
	case "AUTH_001", "AUTH_003":
		return "The token was expired or invalid: a new token is fetched and the request retried once. If it persists, check the payments client credentials."
	case "AUTH_002":
		return "The token is valid but lacks the scope for this operation: do not retry with the same credentials. Ask for the scope on the API credentials."
	case "AUTH_051":
		return "The payment was created by a different organization. Permanent: do not retry."
	case "USR_067":
		return "Insufficient balance: not retryable until funds are added. Fund the account, then resubmit."
	case "USR_062", "USR_063", "USR_064", "USR_065", "USR_066":
		return "A business rule or account condition (credit limit, balance, past-due invoice) blocked it. Resolve the condition before resubmitting."
	case "ERR000.002":
		return "The wallet credential's type or permissions do not cover this operation or vault. Freeze, unfreeze and sweep need a TRANSACTIONS credential; policies need policy:*, limits keylimit:* on a CONTROLS credential."
	case "ERR000.020":
		return "The wallet interface rejected the request as invalid (a field, page size, filter or id). Correct it; retrying unchanged fails again."
	case "ERR009.106":
		return "The wallet is not provisioned yet. Wait until its status is PROVISIONED."
	case "ERR010.008":
		return "This transaction's state does not allow freezing or unfreezing (for example a rejected outgoing transaction). Refresh it and check its status."
	case "ERR017.006":
		return "This sweep configuration is already running. Wait for the running sweep to finish before triggering it again."
	case "ERR006.016":
		return "The limit is pending approval or does not exist, so it cannot be deleted now."
	case "ERR006.005":
		return "A policy denied the transaction; it ends REJECTED. See the problems entry for the policy."
	}
	switch {
	case strings.HasPrefix(code, "CFG_"):
		return "A configuration problem on the platform side: not retryable. Contact the operator's support with the code and timestamp."
	case strings.HasPrefix(code, "SYS_"):
		return "Transient system error: retried with backoff (2, 4, 8, 16, 32 s). If it persists, report the code and time to the operator."
	}
	return ""
}

// CodeGuidance is the advice for a code the spec names (a payments code
// such as USR_067, or a wallet reason such as ERR006.005), or for its
// prefix (CFG_, SYS_); "" when the code has none of its own.
func CodeGuidance(code string) string { return codeGuidance(code) }
