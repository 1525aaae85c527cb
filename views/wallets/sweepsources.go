package wallets

import (
	"context"
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"treasury/kit/parallel"
	"treasury/kit/words"
	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// sources are the wallets a sweep draws from, with the balances of its
// assets, as read when its confirmation opened. The spec does not say
// which wallets a sweep draws from: the dashboard takes the provisioned
// wallets on the sweep's chain other than its destination (as the
// sandbox sweeps them), and shows what they hold of its assets, which is
// at most what the run moves.
type sources struct {
	at      time.Time
	chain   string
	wallets []source
	// none counts the wallets on the chain that hold none of the assets.
	none int
	// err says why the wallets or a balance could not be read.
	err string
}

// source is one wallet and what it holds of the sweep's assets.
type source struct {
	name, id string
	held     []string // "5742.677478 USDC"
	err      error
}

// sweepSources reads the balances of the wallets s draws from (ws are the
// wallets as the store holds them), one call per wallet, at most
// walletclient.Concurrency at once.
func sweepSources(ctx context.Context, c *walletclient.Client, s wallet.SweepConfig, ws []wallet.Wallet, now time.Time) sources {
	out := sources{at: now, chain: s.Blockchain}
	var from []wallet.Wallet
	for _, w := range ws {
		if w.Blockchain == s.Blockchain && w.ID != s.DestinationWallet && w.Status == wallet.WalletProvisioned {
			from = append(from, w)
		}
	}
	switch {
	case ws == nil:
		out.err = "the wallets are not read yet: the sources cannot be listed"
		return out
	case c == nil:
		out.err = "no wallet read credential: the sources' balances cannot be read"
		return out
	}
	res := make([]source, len(from))
	parallel.Each(len(from), walletclient.Concurrency, func(i int) {
		w := from[i]
		bals, err := c.Balances(ctx, w.VaultID, w.ID)
		res[i] = source{name: w.Name, id: w.ID, err: err}
		for _, b := range bals {
			if slices.Contains(s.Assets, b.Asset.Symbol) && b.AvailableBalance.IsPositive() {
				res[i].held = append(res[i].held, viewkit.Amount(b.AvailableBalance, b.Asset.Symbol))
			}
		}
	})
	for _, r := range res {
		if r.err == nil && len(r.held) == 0 {
			out.none++
			continue
		}
		out.wallets = append(out.wallets, r)
	}
	return out
}

// lines are the dialog's lines for the sources.
func (s sources) lines() []string {
	if s.err != "" {
		return []string{"Sources      " + s.err}
	}
	head := "Sources      " + words.Count(len(s.wallets), "wallet") + " on " + s.chain + ", available as read " + s.at.UTC().Format("15:04:05") + " UTC"
	if len(s.wallets) == 0 {
		head = "Sources      no wallet on " + s.chain + " holds the assets (read " + s.at.UTC().Format("15:04:05") + " UTC): the run would move nothing"
	}
	out := []string{head}
	width := 0
	for _, w := range s.wallets {
		width = max(width, lipgloss.Width(w.name))
	}
	for _, w := range s.wallets {
		what := strings.Join(w.held, ", ")
		if w.err != nil {
			what = "balances not read: " + strings.TrimPrefix(ui.ErrorText(w.err), "✖ ")
		}
		pad := strings.Repeat(" ", width-lipgloss.Width(w.name))
		out = append(out, "  "+w.name+pad+"  "+viewkit.Short(w.id, 9)+"  "+what)
	}
	if s.none > 0 && len(s.wallets) > 0 {
		verb := " hold"
		if s.none == 1 {
			verb = " holds"
		}
		out = append(out, "  ("+words.Count(s.none, "other wallet")+" on "+s.chain+verb+" none of them)")
	}
	return append(out, "  (a run moves at most what they hold)")
}
