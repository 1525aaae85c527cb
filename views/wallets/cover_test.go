package wallets

import (
	"errors"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/views/viewkit"
	"treasury/wire"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// TestCoverOfAPartialRead: after a read that failed for one wallet, that
// wallet's and its vault's counts are unknown ("?"), the others' known;
// before any answer every count is "…", after a failure "?".
func TestCoverOfAPartialRead(t *testing.T) {
	hot, cold := wallet.Wallet{ID: "w1", Name: "hot", VaultID: "v1"}, wallet.Wallet{ID: "w2", Name: "cold", VaultID: "v2"}
	refused := errors.New("refused")
	snap := live.Snapshot{FetchedAt: time.Now(), Partial: &wire.Partial{What: "transactions of each wallet", Of: 2,
		Failed: []wire.Failure{{Name: walletclient.WalletSource(hot), Err: refused}}}}
	tl := &tallies{by: map[string]*counts{"w2": {txs: 3}}, wc: cover{loaded: true}, tc: coverOf(snap),
		vaults:    map[string]wallet.Vault{"v1": {ID: "v1", Name: "ops"}, "v2": {ID: "v2", Name: "reserve"}},
		walletsOf: map[string][]wallet.Wallet{"v1": {hot}, "v2": {cold}}}
	if c := tl.wallet(hot); figure(c.txs, c.txsErr) != "?" {
		t.Errorf("the failed wallet's count: %q", figure(c.txs, c.txsErr))
	}
	if c := tl.vault(tl.vaults["v1"]); figure(c.txs, c.txsErr) != "?" || figure(c.wallets, c.walletsErr) != "0" {
		t.Errorf("its vault's counts: txs %q wallets %q", figure(c.txs, c.txsErr), figure(c.wallets, c.walletsErr))
	}
	if c := tl.wallet(cold); figure(c.txs, c.txsErr) != "3" {
		t.Errorf("the other wallet's count: %q", figure(c.txs, c.txsErr))
	}
	if got := figure(0, coverOf(live.Snapshot{}).missing("x")); got != "…" {
		t.Errorf("before any answer: %q", got)
	}
	if got := figure(0, coverOf(live.Snapshot{Err: refused}).missing("x")); got != "?" {
		t.Errorf("after a failure: %q", got)
	}
	if err := coverOf(live.Snapshot{}).missing(); !errors.Is(err, viewkit.ErrNoAnswer) {
		t.Errorf("before any answer: %v", err)
	}
}
