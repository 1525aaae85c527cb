package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/wallet"
)

// maxTokenBody bounds a token response.
const maxTokenBody = 1 << 20

// fallbackLifetime is used when an issuer omits expires_in: short, so a
// token whose life is unknown is not kept long.
const fallbackLifetime = 5 * time.Minute

// maxLifetime bounds how long a token is kept, whatever expires_in says:
// the spec's tokens live an hour, and seconds beyond 292 years overflow a
// time.Duration into a negative life (a token expired at issue, fetched
// again on every call).
const maxLifetime = 24 * time.Hour

// PaymentsConfig is what the payments token issuer needs (spec 4.2).
type PaymentsConfig struct {
	// AuthURL is {auth_url}; the token path payments.PathToken is relative
	// to it.
	AuthURL      string
	ClientID     string
	ClientSecret Secret
	// Audience is urn:<service_name>-<test|prod>:<tenant_id>.
	Audience string
	// HTTP sends the request; nil means a client with a 30 s timeout.
	HTTP *http.Client
	// ConfigKey is the profile section of the credentials
	// ("profiles.uat.payments"), named by the guidance of a refusal.
	ConfigKey string
	CachedOptions
}

// NewPayments returns the payments token source: JSON client credentials
// with audience, cached as Cached says.
func NewPayments(cfg PaymentsConfig) *Cached {
	hc := httpClient(cfg.HTTP)
	fetch := func(ctx context.Context) (Token, error) {
		var tr payments.TokenResponse
		err := postJSON(ctx, hc, apierr.Auth, cfg.ConfigKey, cfg.AuthURL, payments.PathToken, payments.TokenRequest{
			GrantType: payments.GrantClientCredential, ClientID: cfg.ClientID,
			ClientSecret: cfg.ClientSecret.Reveal(), Audience: cfg.Audience,
		}, &tr)
		if err != nil {
			return Token{}, err
		}
		return issued(apierr.Auth, payments.PathToken, tr.AccessToken, tr.ExpiresIn)
	}
	return NewCached(fetch, cfg.CachedOptions)
}

// WalletConfig is what the wallet token exchange needs (spec 5.6).
type WalletConfig struct {
	// BaseURL is the wallet interface's base URL; the token path
	// wallet.PathToken is relative to it.
	BaseURL      string
	ClientID     string
	ClientSecret Secret
	HTTP         *http.Client
	// ConfigKey is the profile section of the credential
	// ("profiles.uat.wallet"), named by the guidance of a refusal.
	ConfigKey string
	CachedOptions
}

// NewWallet returns the wallet token source. Its 400 ERR000.020 (wrong
// clientId or clientSecret) is a configuration error, class Operator, and
// is not retried.
func NewWallet(cfg WalletConfig) *Cached {
	hc := httpClient(cfg.HTTP)
	fetch := func(ctx context.Context) (Token, error) {
		var tr wallet.TokenResponse
		err := postJSON(ctx, hc, apierr.Wallet, cfg.ConfigKey, cfg.BaseURL, wallet.PathToken, wallet.TokenRequest{
			ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret.Reveal(),
		}, &tr)
		if err != nil {
			return Token{}, err
		}
		return issued(apierr.Wallet, wallet.PathToken, tr.AccessToken, tr.ExpiresIn)
	}
	return NewCached(fetch, cfg.CachedOptions)
}

func httpClient(hc *http.Client) *http.Client {
	if hc != nil {
		return hc
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// issued checks a token response. The token is never validated by its
// length (spec 5.4), only for being present.
func issued(iface apierr.Interface, path, tok string, expiresIn int) (Token, error) {
	if strings.TrimSpace(tok) == "" {
		return Token{}, apierr.Malformed(iface, http.MethodPost, path, http.StatusOK, fmt.Errorf("no access token in the answer"))
	}
	life := fallbackLifetime
	switch {
	case expiresIn > int(maxLifetime/time.Second):
		life = maxLifetime
	case expiresIn > 0:
		life = time.Duration(expiresIn) * time.Second
	}
	return Token{Value: NewSecret(tok), ExpiresIn: life}, nil
}

// postJSON posts body to base+path and decodes a 200 answer into out. A
// failure answer becomes an *apierr.Error; any 4xx of a token issuer means
// the profile's credentials or audience are wrong, so it is reclassed
// Operator: a new attempt with the same configuration cannot succeed.
func postJSON(ctx context.Context, hc *http.Client, iface apierr.Interface, key, base, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(base, "/")+path, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%s token request: %w", iface, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s POST %s: %w", iface, path, ctx.Err())
		}
		u := *req.URL
		u.RawQuery = ""
		return keyed(apierr.Network(iface, http.MethodPost, path, u.String(), err, false, 0), key)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenBody+1))
	if err != nil {
		return fmt.Errorf("%s POST %s: read answer: %w", iface, path, err)
	}
	if resp.StatusCode/100 != 2 {
		e := apierr.Parse(iface, http.MethodPost, path, resp.StatusCode, raw)
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			// Whatever the code, a refused token request means the
			// profile's credentials (or audience) are wrong: a new try
			// with the same ones fails the same way.
			e.Class = apierr.ClassCredentials
		}
		return keyed(e, key)
	}
	if len(raw) > maxTokenBody {
		return keyed(apierr.Malformed(iface, http.MethodPost, path, resp.StatusCode, fmt.Errorf("answer larger than %d bytes", maxTokenBody)), key)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return keyed(apierr.Malformed(iface, http.MethodPost, path, resp.StatusCode, err), key)
	}
	return nil
}

// keyed stamps e with the profile section whose settings it concerns.
func keyed(e *apierr.Error, key string) *apierr.Error {
	e.ConfigKey = key
	return e
}
