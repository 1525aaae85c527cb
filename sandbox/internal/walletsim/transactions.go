package walletsim

import (
	"encoding/base64"
	"encoding/hex"
	"math/rand/v2"
	"strings"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

var txStatuses = []string{wallet.TxRequested, wallet.TxPolicyCheckPending, wallet.TxPendingApproval,
	wallet.TxSigning, wallet.TxBroadcasted, wallet.TxConfirmed, wallet.TxRejected, wallet.TxFailed}

func txSpec(order string, top bool) listSpec[wallet.Transaction] {
	return listSpec[wallet.Transaction]{id: func(t wallet.Transaction) string { return t.ID }, order: order, top: top,
		fields: fields[wallet.Transaction]{"id": func(t wallet.Transaction) string { return t.ID },
			"status": func(t wallet.Transaction) string { return t.Status }, "action": func(t wallet.Transaction) string { return t.Action },
			"asset": func(t wallet.Transaction) string { return t.Asset }, "external_id": func(t wallet.Transaction) string { return t.ExternalID },
			"wallet_id":  func(t wallet.Transaction) string { return t.WalletID },
			"created_at": func(t wallet.Transaction) string { return stamp(t.CreatedAt) }},
		enums: map[string][]string{"status": txStatuses,
			"action": {wallet.TxActionTransfer, wallet.TxActionDeposit, wallet.TxActionRaw, wallet.TxActionSweep}}}
}

// listTransactions lists a wallet's transactions, newest first by default.
func listTransactions(c *call) {
	w := c.lookupWallet()
	if w == nil {
		return
	}
	var ts []wallet.Transaction
	for _, t := range c.w.txs {
		if t.rec.WalletID == w.ID {
			ts = append(ts, c.txOut(t.rec))
		}
	}
	if page, f, ok := paginate(c, ts, txSpec("created_at desc", false)); ok {
		c.ok(wallet.TransactionsPage{Transactions: page, Filter: f})
	}
}

// lookupTx finds the transaction of the path in the wallet of the path, or
// answers (ERR009.101 for the wallet, ERR010.004 for the transaction).
func (c *call) lookupTx() (*wallet.Wallet, *tx) {
	w := c.lookupWallet()
	if w == nil {
		return nil, nil
	}
	ids, ok := c.ids("txId")
	if !ok {
		return nil, nil
	}
	t := c.w.tx(ids[0])
	if t == nil || t.rec.WalletID != w.ID {
		c.notFound(reasonTxNotFound, "transaction not found")
		return nil, nil
	}
	return w, t
}

func getTransaction(c *call) {
	if _, t := c.lookupTx(); t != nil {
		c.ok(c.txOut(t.rec))
	}
}

// byExternalID applies the external-id rule: the same id on the same
// wallet returns the existing transaction (done true); on another wallet
// it is ERR010.004.
func (c *call) byExternalID(w *wallet.Wallet, ext string) (done bool) {
	if ext == "" {
		return false
	}
	for _, t := range c.w.txs {
		if t.rec.ExternalID != ext {
			continue
		}
		if t.rec.WalletID != w.ID {
			c.notFound(reasonTxNotFound, "transaction not found")
		} else {
			c.ok(c.txOut(t.rec))
		}
		return true
	}
	return false
}

// createTransfer sends a transfer. It is answered 200 as REQUESTED; a
// policy denial (destination not in the address book, or over an active
// limit) then ends REJECTED with an ERR006.005 problem, and a quantity over
// the available balance ends FAILED on the chain.
func createTransfer(c *call) {
	var req wallet.TransferRequest
	var qty decimal.Decimal
	w := c.provisionedWallet(&req, func() bool {
		var err error
		qty, err = decimal.NewFromString(req.Qty)
		return req.Asset != "" && req.DestinationAddress != "" && err == nil && qty.IsPositive()
	})
	if w == nil {
		return
	}
	ch := c.s.chains[w.Blockchain]
	if _, ok := ch.asset(req.Asset); !ok {
		c.bad(reasonInvalidAsset, "invalid asset")
		return
	}
	if !ch.addr.MatchString(req.DestinationAddress) {
		c.bad(reasonInvalidAddress, "invalid address")
		return
	}
	if lock := c.s.opts.LockedAddress; lock != nil {
		if id, locked := lock(req.DestinationAddress); locked {
			c.precondition(reasonEndpointLocked, "destination address is a locked custody endpoint ("+id+"): it cannot be used until it is unlocked")
			return
		}
	}
	end, rule := endConfirmed, ""
	switch {
	case !c.w.knownAddress(req.DestinationAddress, ch.name):
		end, rule = endRejected, c.w.rules[0].Name
	case c.overLimit(w.ID, req.Asset, qty):
		end, rule = endRejected, "wallet limit"
	case qty.GreaterThan(c.w.balance(w.ID, req.Asset)):
		end = endFailed
	}
	c.submit(w, req.ExternalID, "walletsim-transfer", func(r *rand.Rand) *tx {
		return newTx(r, w, ch, c.now, wallet.TxActionTransfer, req.Asset, qty, req.DestinationAddress, end, rule)
	})
}

// provisionedWallet finds the wallet of the path and decodes the body into
// req. It answers and returns nil when the wallet is not found, the body
// does not decode, valid (when not nil) refuses it (invalid request) or the
// wallet is not provisioned.
func (c *call) provisionedWallet(req any, valid func() bool) *wallet.Wallet {
	w := c.lookupWallet()
	if w == nil || !c.decode(req) {
		return nil
	}
	if valid != nil && !valid() {
		c.invalid()
		return nil
	}
	if w.Status != wallet.WalletProvisioned {
		c.precondition(reasonNotProvisioned, "wallet is not provisioned")
		return nil
	}
	return w
}

// submit answers the wallet's transaction of external id ext when there is
// one; otherwise it records the transaction build makes from this call's
// random source (keyed by key) and answers it.
func (c *call) submit(w *wallet.Wallet, ext, key string, build func(*rand.Rand) *tx) {
	if c.byExternalID(w, ext) {
		return
	}
	c.w.counter++
	t := build(simkit.Rand(c.s.env.Seed, simkit.Key(key), c.w.counter))
	t.rec.ExternalID = ext
	c.w.txs = append(c.w.txs, t)
	c.ok(c.txOut(t.rec))
}

// overLimit reports whether qty of asset exceeds an active volume limit of
// the wallet.
func (c *call) overLimit(walletID, asset string, qty decimal.Decimal) bool {
	for _, l := range c.w.limits {
		if l.rec.WalletID == walletID && l.rec.Asset == asset && l.rec.Status == wallet.LimitActive &&
			l.rec.LimitType == limitVolume && qty.GreaterThan(l.rec.LimitQty) {
			return true
		}
	}
	return false
}

// createRaw submits a raw transaction. An override is allowed only between
// EVM chains (ERR010.009); an EVM payload that is not a typed or RLP
// transaction is ERR010.011; another chain's payload that does not decode
// is ERR010.022.
func createRaw(c *call) {
	var req wallet.RawTransactionRequest
	w := c.provisionedWallet(&req, func() bool { return strings.TrimSpace(req.RawTransaction) != "" })
	if w == nil {
		return
	}
	ch := c.s.chains[w.Blockchain]
	if req.BlockchainOverride != "" {
		over, known := c.s.chains[req.BlockchainOverride]
		if !known {
			c.bad(reasonUnsupportedChain, "unsupported blockchain")
			return
		}
		if !ch.evm || !over.evm {
			c.bad(reasonOverrideNotEVM, "blockchain override only allowed between EVM-compatible chains")
			return
		}
	}
	if req.Signature != "" {
		sig, err := hex.DecodeString(strings.TrimPrefix(req.Signature, "0x"))
		if err != nil || len(sig) != 65 {
			c.bad(reasonInvalidSignature, "invalid signature")
			return
		}
	}
	b, err := hex.DecodeString(strings.TrimPrefix(req.RawTransaction, "0x"))
	if ch.evm {
		if err != nil || !strings.HasPrefix(req.RawTransaction, "0x") || len(b) < 10 || (b[0] > 0x04 && b[0] < 0xc0) {
			c.bad(reasonBadEncodedTx, "invalid encoded transaction")
			return
		}
	} else {
		if err != nil {
			b, err = base64.StdEncoding.DecodeString(req.RawTransaction)
		}
		if err != nil || len(b) < 10 {
			c.bad(reasonUndecodableTx, "ledger orchestrator rejected the transaction")
			return
		}
	}
	c.submit(w, req.ExternalID, "walletsim-raw", func(r *rand.Rand) *tx {
		return newTx(r, w, ch, c.now, wallet.TxActionRaw, ch.assets[0].symbol, decimal.Zero, "", endConfirmed, "")
	})
}

// estimateFee estimates the network fee of a transfer; an origin without
// funds of the chain's native asset gives ERR020.004.
func estimateFee(c *call) {
	var req wallet.TransferRequest
	w := c.provisionedWallet(&req, nil)
	if w == nil {
		return
	}
	ch := c.s.chains[w.Blockchain]
	if req.Asset != "" {
		if _, ok := ch.asset(req.Asset); !ok {
			c.bad(reasonInvalidAsset, "invalid asset")
			return
		}
	}
	native := ch.assets[0]
	if !c.w.balance(w.ID, native.symbol).IsPositive() {
		c.precondition(reasonNoFunds, "connector data request rejected")
		return
	}
	fee := decimal.RequireFromString("0.0000125")
	if ch.evm {
		fee = decimal.RequireFromString("0.00042")
	}
	c.ok(wallet.FeeEstimate{Asset: native.symbol, Fee: fee})
}
