package sandbox_test

import (
	"net/http"
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/custody"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
	"treasury/wire/wallet"
)

// TestVariantExtrasEverywhere checks that every list and record answer of
// every interface carries the extra fields in the variant, on the envelope
// and on each record, and that the default face carries none.
func TestVariantExtrasEverywhere(t *testing.T) {
	def, vr := faces(t)
	for _, face := range []struct {
		srv     *sandbox.Server
		variant bool
	}{{def, false}, {vr, true}} {
		srv := face.srv
		ep, c := srv.Endpoints(), srv.Credentials()
		ptok := sandboxtest.PaymentsToken(t, srv)
		wtok := sandboxtest.WalletToken(t, srv, "controls")
		var ids payments.IdentitiesPage
		sandboxtest.Get(t, ep.Payments+payments.PathIdentities+"?limit=100", ptok, &ids)
		ben := ids.Data[len(ids.Data)-1].IdentityID
		var sweeps wallet.SweepsPage
		sandboxtest.Get(t, ep.Wallet+wallet.PathSweeps, wtok, &sweeps)
		var vaults wallet.VaultsPage
		sandboxtest.Get(t, ep.Wallet+wallet.PathVaults, wtok, &vaults)
		cases := []struct{ url, tok, array string }{
			{ep.Liquidity + liquidity.PathTrades, c.LiquidityToken, "trades"},
			{ep.Payments + payments.PathIdentities, ptok, "data"},
			{ep.Payments + payments.PathIdentities + "/" + ben + payments.SuffixInstruments, ptok, "data"},
			{ep.Payments + payments.PathBalances, ptok, "balances"},
			{ep.Reporting + "/v2/reports", ptok, "reports"},
			{ep.Wallet + wallet.PathVaults, wtok, "vaults"},
			{ep.Wallet + wallet.PathVaults + "/" + vaults.Vaults[0].ID + "/wallets", wtok, "wallets"},
			{ep.Wallet + wallet.PathVaults + "/" + vaults.Vaults[0].ID, wtok, ""},
			{ep.Wallet + wallet.PathPolicyRules, wtok, "policyRules"},
			{ep.Wallet + wallet.PathPolicyRules + "/limits", wtok, "limits"},
			{ep.Wallet + wallet.PathCounterparties, wtok, "counterparties"},
			{ep.Wallet + wallet.PathWebhooks, wtok, "webhooks"},
			{ep.Wallet + wallet.PathSweeps, wtok, "sweepConfigurations"},
			{ep.Wallet + wallet.PathSweeps + "/" + sweeps.SweepConfigurations[0].ID, wtok, ""},
			{ep.Custody + custody.PathDomains + c.CustodyDomainID + "/endpoints", c.CustodyToken, "items"},
		}
		for _, cs := range cases {
			m := rawObject(t, http.MethodGet, cs.url, cs.tok, nil, 200)
			expectExtras(t, cs.url, m, cs.array, face.variant)
		}
		// A payment record and a quote answer of their own.
		var page payments.FilterResponse
		sandboxtest.PostJSON(t, ep.Payments+payments.PathFilterV3, ptok, payments.FilterRequest{}, &page)
		m := rawObject(t, http.MethodGet, ep.Payments+"/v3/payments/"+page.Data[0].PaymentID, ptok, nil, 200)
		expectExtras(t, "payment", m, "", face.variant)
		m = rawObject(t, http.MethodGet, ep.Payments+"/v3/payments/"+page.Data[0].PaymentID+"/states", ptok, nil, 200)
		expectExtras(t, "states", m, "stateTransitions", face.variant)
		m = rawObject(t, http.MethodPost, ep.Wallet+wallet.PathToken, "", []byte(`{"clientId":"monitoring","clientSecret":"monitoring-secret"}`), 200)
		expectExtras(t, "wallet token", m, "", face.variant)
		body := `{"grant_type":"client_credentials","client_id":"` + c.PaymentsClientID + `","client_secret":"` + c.PaymentsClientSecret + `","audience":"` + c.PaymentsAudience + `"}`
		m = rawObject(t, http.MethodPost, ep.Auth+payments.PathToken, "", []byte(body), 200)
		expectExtras(t, "payments token", m, "", face.variant)
	}
}
