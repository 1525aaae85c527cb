package columns

import (
	"strconv"
	"treasury/wire/money"

	"treasury/wire/custody"
	"treasury/wire/wallet"
)

// Transactions are a wallet transaction's short columns. In a table of
// many wallets the seventh names the transaction's wallet (by
// at.WalletNames, else its id's end); in one wallet's, its destination.
func Transactions(manyWallets bool) Set[wallet.Transaction] {
	type tx = wallet.Transaction
	who := Column[tx]{Title: "Destination", Width: 9, Flex: 2, Text: func(t tx, _ At) string { return Dash(t.DestinationAddress) }}
	if manyWallets {
		who.Title = "Wallet"
		who.Text = func(t tx, at At) string {
			if n := at.WalletNames[t.WalletID]; n != "" {
				return n
			}
			return Dash(Short(t.WalletID, 9))
		}
	}
	return Set[tx]{
		{Title: "Created UTC", Width: 14,
			Text: func(t tx, _ At) string { return TimeAs(t.CreatedAt, "01-02 15:04:05") },
			Sort: func(t tx) Sort { return Time(t.CreatedAt) }},
		{Title: "Status", Width: 9, Flex: 1, Text: func(t tx, _ At) string { return t.Status }},
		{Title: "Action", Width: 8, Text: func(t tx, _ At) string { return t.Action }},
		{Title: "Asset", Width: 5, Text: func(t tx, _ At) string { return t.Asset }},
		// An amount is never cut: the column grows to its widest, at the
		// asset's stated precision.
		{Title: "Qty", Width: 12, Max: 28, Align: Point,
			Text: func(t tx, _ At) string { return money.Format(t.Qty, t.Asset) },
			Sort: func(t tx) Sort { return Decimal(t.Qty) }},
		{Title: "Frozen", Width: 6, Text: func(t tx, _ At) string { return Frozen(t) }},
		who,
		{Title: "Tx id", Width: 9, Flex: 1, Text: func(t tx, _ At) string { return t.ID }},
	}
}

// Frozen is a transaction's freeze state for a cell.
func Frozen(t wallet.Transaction) string {
	if t.FreezeInfo.IsFrozen {
		return "FROZEN"
	}
	return "—"
}

// Endpoints are a custody endpoint's short columns.
func Endpoints() Set[custody.Endpoint] {
	type ep = custody.Endpoint
	return Set[ep]{
		{Title: "Alias", Width: 16, Flex: 3, Text: func(e ep, _ At) string { return e.Alias }},
		{Title: "Address", Width: 14, Flex: 4, Text: func(e ep, _ At) string { return e.Address }},
		{Title: "Ledger", Width: 16, Text: func(e ep, _ At) string { return e.LedgerID }},
		{Title: "Lock", Width: 8, Text: func(e ep, _ At) string { return Dash(e.Lock) }},
		{Title: "Listing", Width: 11, Text: func(e ep, _ At) string { return Dash(e.Listing()) }},
		{Title: "ABI", Width: 3, Text: func(e ep, _ At) string {
			if e.HasABI() {
				return "yes"
			}
			return "—"
		}},
		{Title: "Trust", Width: 5, Align: Right,
			Text: func(e ep, _ At) string { return strconv.Itoa(int(e.TrustScore)) },
			Sort: func(e ep) Sort { return Int(int64(e.TrustScore)) }},
	}
}

// Wallets are a wallet's short columns; the wallets view puts the counts
// of its transactions between the settings and the address.
func Wallets() Set[wallet.Wallet] {
	type w = wallet.Wallet
	return Set[w]{
		{Title: "Wallet", Width: 18, Flex: 2, Text: func(x w, _ At) string { return x.Name }},
		{Title: "Chain", Width: 8, Text: func(x w, _ At) string { return x.Blockchain }},
		{Title: "Status", Width: 12, Text: func(x w, _ At) string { return x.Status }},
		{Title: "ERSF", Width: 4, Text: func(x w, _ At) string { return Settings(x.Settings) }},
		{Title: "Address", Width: 12, Flex: 1, Text: func(x w, _ At) string { return x.Address }},
		{Title: "Wallet id", Width: 9, Flex: 1, Text: func(x w, _ At) string { return x.ID }},
	}
}

// Settings is a short form of a wallet's settings for a cell: E R S F
// for those that are on (enabled, raw signing, sweeping, default
// freeze), · for those that are off.
func Settings(s wallet.Settings) string {
	b := make([]byte, 0, 12)
	for i, on := range []bool{s.Enabled, s.RawSigningEnabled, s.SweepingEnabled, s.DefaultFreezeEnabled} {
		if on {
			b = append(b, "ERSF"[i])
		} else {
			b = append(b, "·"...)
		}
	}
	return string(b)
}
