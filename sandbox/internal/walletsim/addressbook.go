package walletsim

import (
	"slices"
	"strings"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

func counterpartySpec() listSpec[wallet.Counterparty] {
	return listSpec[wallet.Counterparty]{id: func(p wallet.Counterparty) string { return p.ID }, order: "created_at",
		fields: fields[wallet.Counterparty]{"id": func(p wallet.Counterparty) string { return p.ID },
			"name":       func(p wallet.Counterparty) string { return p.Name },
			"created_at": func(p wallet.Counterparty) string { return stamp(p.CreatedAt) }}}
}

func addressSpec() listSpec[wallet.Address] {
	return listSpec[wallet.Address]{id: func(a wallet.Address) string { return a.ID }, order: "created_at",
		fields: fields[wallet.Address]{"id": func(a wallet.Address) string { return a.ID },
			"address": func(a wallet.Address) string { return a.Address }, "label": func(a wallet.Address) string { return a.Label },
			"created_at": func(a wallet.Address) string { return stamp(a.CreatedAt) }}}
}

func listCounterparties(c *call) {
	if page, f, ok := paginate(c, mapOut(c.w.counterparties, c.counterpartyOut), counterpartySpec()); ok {
		c.ok(wallet.CounterpartiesPage{Counterparties: page, Filter: f})
	}
}

func createCounterparty(c *call) {
	var req wallet.CounterpartyRequest
	if !c.decode(&req) {
		return
	}
	if strings.TrimSpace(req.Name) == "" {
		c.invalid()
		return
	}
	c.w.counter++
	r := simkit.Rand(c.s.env.Seed, simkit.Key("walletsim-counterparty"), c.w.counter)
	p := wallet.Counterparty{ID: simkit.UUID(r), Name: req.Name, Description: req.Description, CreatedAt: c.now}
	c.w.counterparties = append(c.w.counterparties, p)
	c.ok(c.counterpartyOut(p))
}

// lookupCounterparty answers ERR013.002 when the path's counterparty is
// missing.
func (c *call) lookupCounterparty() *wallet.Counterparty {
	ids, ok := c.ids("counterpartyId")
	if !ok {
		return nil
	}
	p := c.w.counterparty(ids[0])
	if p == nil {
		c.notFound(reasonCounterpartyGone, "counterparty not found")
	}
	return p
}

func getCounterparty(c *call) {
	if p := c.lookupCounterparty(); p != nil {
		c.ok(c.counterpartyOut(*p))
	}
}

func listAddresses(c *call) {
	p := c.lookupCounterparty()
	if p == nil {
		return
	}
	var as []wallet.Address
	for _, a := range c.w.addresses {
		if a.CounterpartyID == p.ID {
			as = append(as, c.addressOut(a))
		}
	}
	if page, f, ok := paginate(c, as, addressSpec()); ok {
		c.ok(wallet.AddressesPage{Addresses: page, Filter: f})
	}
}

// createAddress adds an address usable on the listed chains: an empty
// list is invalid, an unknown chain ERR000.008, an address of no chain's
// format ERR000.012, and one that does not fit every listed chain
// ERR013.015.
func createAddress(c *call) {
	p := c.lookupCounterparty()
	if p == nil {
		return
	}
	var req wallet.AddressRequest
	if !c.decode(&req) {
		return
	}
	if strings.TrimSpace(req.Address) == "" || len(req.Blockchains) == 0 {
		c.invalid()
		return
	}
	for _, b := range req.Blockchains {
		if _, ok := c.s.chains[b]; !ok {
			c.bad(reasonUnsupportedChain, "unsupported blockchain")
			return
		}
	}
	if !c.s.chains.validAnywhere(req.Address) {
		c.bad(reasonInvalidAddress, "invalid address")
		return
	}
	for _, b := range req.Blockchains {
		if !c.s.chains[b].addr.MatchString(req.Address) {
			c.bad(reasonAddressChains, "address not compatible with one or more selected blockchains")
			return
		}
	}
	c.w.counter++
	r := simkit.Rand(c.s.env.Seed, simkit.Key("walletsim-address"), c.w.counter)
	a := wallet.Address{ID: simkit.UUID(r), CounterpartyID: p.ID, Address: req.Address,
		Blockchains: slices.Compact(slices.Sorted(slices.Values(req.Blockchains))), Label: req.Label, CreatedAt: c.now}
	c.w.addresses = append(c.w.addresses, a)
	c.ok(c.addressOut(a))
}

// lookupAddress finds the path's address under the path's counterparty.
// It returns the index in the address book, or -1 after answering.
func (c *call) lookupAddress(forDelete bool) int {
	p := c.lookupCounterparty()
	if p == nil {
		return -1
	}
	ids, ok := c.ids("addressId")
	if !ok {
		return -1
	}
	i := slices.IndexFunc(c.w.addresses, func(a wallet.Address) bool { return a.ID == ids[0] })
	switch {
	case i >= 0 && c.w.addresses[i].CounterpartyID == p.ID:
		return i
	case i >= 0 && forDelete:
		c.precondition(reasonAddressNotOwned, "not allowed")
	default:
		c.notFound(reasonAddressGone, "address not found")
	}
	return -1
}

func getAddress(c *call) {
	if i := c.lookupAddress(false); i >= 0 {
		c.ok(c.addressOut(c.w.addresses[i]))
	}
}

// deleteAddress removes an address; one that belongs to another
// counterparty gives ERR013.021.
func deleteAddress(c *call) {
	if i := c.lookupAddress(true); i >= 0 {
		c.w.addresses = slices.Delete(c.w.addresses, i, i+1)
		c.ok(struct{}{})
	}
}
