package config

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// writtenMarker opens every profile WriteSandboxProfile writes; it refuses
// to overwrite a file without it (such as a hand-written config.yaml).
const writtenMarker = "# Written by `treasury sandbox --write-profile`"

// SandboxEndpoints are the base URLs of a running sandbox's interfaces.
type SandboxEndpoints struct {
	Liquidity, Auth, Payments, Reporting, Wallet, Custody string
}

// SandboxCredentials are the credentials a running sandbox accepts.
type SandboxCredentials struct {
	PaymentsClientID, PaymentsClientSecret, PaymentsAudience string
	// Wallet is the read (monitoring) credential; Controls and Transactions
	// are optional action credentials.
	WalletClientID, WalletClientSecret             string
	WalletControlsID, WalletControlsSecret         string
	WalletTransactionsID, WalletTransactionsSecret string
	LiquidityToken                                 string
	CustodyToken, CustodyDomainID, CustodyUserID   string
}

// SandboxProfileOptions are the rest of what a sandbox profile needs.
type SandboxProfileOptions struct {
	// Name is the profile's name; empty means "local-sandbox".
	Name string
	// WebhookPublicKeyPEM verifies the sandbox's notifications.
	WebhookPublicKeyPEM []byte
	// OperatorKey signs custody intents (sandbox.OperatorKey(seed)).
	OperatorKey crypto.Signer
	// WebhookListen is where the receiver listens; empty means 127.0.0.1:8788.
	WebhookListen string
}

// WrittenProfile says what WriteSandboxProfile wrote.
type WrittenProfile struct {
	Path       string // the profile file
	Profile    string // the profile's name
	SecretsDir string // 0700 directory of 0600 secret files
	// CertPEM is the receiver's self-signed certificate, for the sandbox to
	// trust when it delivers webhooks.
	CertPEM []byte
	// WebhookURL is the callback the sandbox should deliver to.
	WebhookURL string
}

// WriteSandboxProfile writes a profile for a running sandbox at path, with
// its secrets, a self-signed TLS certificate and key for the webhook
// receiver, the sandbox's webhook public key and the custody operator key in
// files in a directory beside it (path without extension + ".secrets").
func WriteSandboxProfile(path string, ep SandboxEndpoints, creds SandboxCredentials, o SandboxProfileOptions) (*WrittenProfile, error) {
	if o.Name == "" {
		o.Name = "local-sandbox"
	}
	if o.WebhookListen == "" {
		o.WebhookListen = "127.0.0.1:8788"
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if old, err := os.ReadFile(abs); err == nil && !bytes.HasPrefix(old, []byte(writtenMarker)) {
		return nil, fmt.Errorf("%s exists and was not written by treasury sandbox; not overwriting it", abs)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	dir := strings.TrimSuffix(abs, filepath.Ext(abs)) + ".secrets"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, err
	}
	host, _, err := net.SplitHostPort(o.WebhookListen)
	if err != nil {
		return nil, fmt.Errorf("webhook listen address %q: %w", o.WebhookListen, err)
	}
	certPEM, keyPEM, err := selfSignedCert(host)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		"payments_client_secret": []byte(creds.PaymentsClientSecret),
		"wallet_client_secret":   []byte(creds.WalletClientSecret),
		"liquidity_token":        []byte(creds.LiquidityToken),
		"custody_token":          []byte(creds.CustodyToken),
		"webhook_tls_cert.pem":   certPEM,
		"webhook_tls_key.pem":    keyPEM,
		"webhook_public_key.pem": o.WebhookPublicKeyPEM,
	}
	if creds.WalletControlsID != "" {
		files["wallet_controls_secret"] = []byte(creds.WalletControlsSecret)
	}
	if creds.WalletTransactionsID != "" {
		files["wallet_transactions_secret"] = []byte(creds.WalletTransactionsSecret)
	}
	if o.OperatorKey != nil {
		der, err := x509.MarshalPKCS8PrivateKey(o.OperatorKey)
		if err != nil {
			return nil, fmt.Errorf("operator key: %w", err)
		}
		files["custody_signing_key.pem"] = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	}
	for name, b := range files {
		if err := writePrivate(filepath.Join(dir, name), b); err != nil {
			return nil, err
		}
	}
	f := func(name string) string { return filepath.Join(dir, name) }
	p := &rawProfile{
		Environment: EnvTest,
		Liquidity:   &rawLiquidity{BaseURL: ep.Liquidity, TokenFile: f("liquidity_token")},
		Payments: &rawPayments{BaseURL: ep.Payments, AuthURL: ep.Auth, Audience: creds.PaymentsAudience,
			ClientID: creds.PaymentsClientID, ClientSecretFile: f("payments_client_secret")},
		Reporting: &rawReporting{BaseURL: ep.Reporting},
		Wallet:    &rawWallet{BaseURL: ep.Wallet, ClientID: creds.WalletClientID, ClientSecretFile: f("wallet_client_secret")},
		Custody: &rawCustody{BaseURL: ep.Custody, DomainID: creds.CustodyDomainID, TokenFile: f("custody_token"),
			UserID: creds.CustodyUserID},
		Webhooks: &rawWebhooks{Listen: o.WebhookListen, Path: DefaultWebhookPath, TLSCertFile: f("webhook_tls_cert.pem"),
			TLSKeyFile: f("webhook_tls_key.pem"), PublicKeyFile: f("webhook_public_key.pem"), Tolerance: DefaultWebhookTolerance.String()},
	}
	if creds.WalletControlsID != "" {
		p.Wallet.Controls = &rawClient{ClientID: creds.WalletControlsID, ClientSecretFile: f("wallet_controls_secret")}
	}
	if creds.WalletTransactionsID != "" {
		p.Wallet.Transactions = &rawClient{ClientID: creds.WalletTransactionsID, ClientSecretFile: f("wallet_transactions_secret")}
	}
	if o.OperatorKey != nil {
		p.Custody.SigningKeyFile = f("custody_signing_key.pem")
	}
	body, err := yaml.Marshal(rawFile{Profile: o.Name, Profiles: map[string]*rawProfile{o.Name: p}})
	if err != nil {
		return nil, err
	}
	out := append([]byte(writtenMarker+" for the sandbox at "+ep.Payments+"; secrets in "+dir+"\n"), body...)
	if err := writePrivate(abs, out); err != nil {
		return nil, err
	}
	return &WrittenProfile{Path: abs, Profile: o.Name, SecretsDir: dir, CertPEM: certPEM,
		WebhookURL: "https://" + o.WebhookListen + DefaultWebhookPath}, nil
}

// writePrivate writes b to name with mode 0600, also when name existed.
func writePrivate(name string, b []byte) error {
	if err := os.WriteFile(name, b, 0o600); err != nil {
		return err
	}
	return os.Chmod(name, 0o600)
}

// selfSignedCert makes an ECDSA P-256 certificate for host (plus localhost
// and the loopback addresses), valid for a year, and its PKCS #8 key.
func selfSignedCert(host string) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "treasury webhook receiver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if ip := net.ParseIP(host); ip != nil {
		if !ip.IsLoopback() && !ip.IsUnspecified() {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		}
	} else if host != "" && host != "localhost" {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), nil
}
