package walletsim

import (
	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

// Records leave the simulator through these copies, which decorate free
// text with a hostile fragment (keyed by the record's id) when the hostile
// fault is on, and never share slices with the world.

func (c *call) deco(s, id string) string {
	if s == "" {
		return s
	}
	return simkit.Decorate(s, c.s.env.Faults.Hostile(), simkit.Key(id))
}

func (c *call) vaultOut(v wallet.Vault) wallet.Vault {
	v.Name, v.Description = c.deco(v.Name, v.ID), c.deco(v.Description, v.ID+"d")
	return v
}

func (c *call) walletOut(w wallet.Wallet) wallet.Wallet {
	w.Name = c.deco(w.Name, w.ID)
	return w
}

func (c *call) txOut(t wallet.Transaction) wallet.Transaction {
	probs := make([]wallet.Problem, len(t.Problems))
	for i, p := range t.Problems {
		p.Message = c.deco(p.Message, t.ID+"p")
		probs[i] = p
	}
	reasons := make([]string, len(t.Reasons))
	for i, r := range t.Reasons {
		reasons[i] = c.deco(r, t.ID+"r")
	}
	t.Problems, t.Reasons = probs, reasons
	t.FreezeInfo.History = c.historyOut(t.ID, t.FreezeInfo.History)
	return t
}

func (c *call) historyOut(id string, h []wallet.FreezeEvent) []wallet.FreezeEvent {
	out := make([]wallet.FreezeEvent, len(h))
	for i, e := range h {
		e.Reason = c.deco(e.Reason, id+e.MutationID)
		out[i] = e
	}
	return out
}

func (c *call) ruleOut(r wallet.PolicyRule) wallet.PolicyRule {
	r.Name, r.Description = c.deco(r.Name, r.ID), c.deco(r.Description, r.ID+"d")
	return r
}

func (c *call) limitOut(l wallet.Limit) wallet.Limit {
	l.Matchers = append([]wallet.Matcher{}, l.Matchers...)
	return l
}

func (c *call) counterpartyOut(p wallet.Counterparty) wallet.Counterparty {
	p.Name, p.Description = c.deco(p.Name, p.ID), c.deco(p.Description, p.ID+"d")
	return p
}

func (c *call) addressOut(a wallet.Address) wallet.Address {
	a.Label = c.deco(a.Label, a.ID)
	a.Blockchains = append([]string{}, a.Blockchains...)
	return a
}

func (c *call) webhookOut(h wallet.Webhook) wallet.Webhook {
	h.Name = c.deco(h.Name, h.ID)
	return h
}

func (c *call) sweepOut(s wallet.SweepConfig) wallet.SweepConfig {
	s.Name = c.deco(s.Name, s.ID)
	s.Assets = append([]string{}, s.Assets...)
	if s.LastSwept != nil {
		t := *s.LastSwept
		s.LastSwept = &t
	}
	return s
}

// mapOut applies out to every element.
func mapOut[T any](xs []T, out func(T) T) []T {
	res := make([]T, len(xs))
	for i, x := range xs {
		res[i] = out(x)
	}
	return res
}
