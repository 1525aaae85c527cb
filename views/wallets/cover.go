package wallets

import (
	"errors"
	"strconv"
	"time"

	"treasury/desk/live"
	"treasury/views/viewkit"
	"treasury/wire"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// cover is what a topic's last read covers: nothing before it answered,
// or after it failed with no data; after a partial read (the wallets of
// each vault, the transactions of each wallet), everything but the
// sources it names as failed. A figure derived from the topic for a
// record it does not cover is unknown, never zero.
type cover struct {
	loaded bool
	err    error // why nothing is covered: the read's error, or viewkit.ErrNoAnswer
	failed map[string]error
}

func coverOf(snap live.Snapshot) cover {
	if !snap.Loaded() {
		err := snap.Err
		if err == nil {
			err = viewkit.ErrNoAnswer
		}
		return cover{err: err}
	}
	c := cover{loaded: true}
	var part *wire.Partial
	if errors.As(snap.Partial, &part) {
		c.failed = make(map[string]error, len(part.Failed))
		for _, f := range part.Failed {
			c.failed[f.Name] = f.Err
		}
	}
	return c
}

// missing returns why the record whose sources are named by names (a
// wallet and its vault) is not covered; nil when it is.
func (c cover) missing(names ...string) error {
	if !c.loaded {
		return c.err
	}
	for _, n := range names {
		if err, ok := c.failed[n]; ok {
			return err
		}
	}
	return nil
}

// figure is a count for a table cell: the number when its record is
// covered, "…" while the topic loads, "?" when its read failed.
func figure(n int, err error) string {
	switch {
	case err == nil:
		return strconv.Itoa(n)
	case errors.Is(err, viewkit.ErrNoAnswer):
		return "…"
	}
	return "?"
}

// failedState turns snap, the snapshot of a page whose records all come
// from one source that failed inside a partial read (a vault's wallets, a
// wallet's transactions), into the failed state: no data, that source's
// error.
func failedState(snap live.Snapshot, err error) live.Snapshot {
	snap.FetchedAt, snap.Err, snap.Partial = time.Time{}, err, nil
	return snap
}

// vaultSources and walletSources are the names under which a partial
// read reports the failure of a vault's or a wallet's part.
func vaultSources(x wallet.Vault) []string { return []string{walletclient.VaultSource(x)} }

func walletSources(w wallet.Wallet, vault wallet.Vault, vaultKnown bool) []string {
	out := []string{walletclient.WalletSource(w)}
	if vaultKnown {
		out = append(out, walletclient.VaultSource(vault))
	}
	return out
}
