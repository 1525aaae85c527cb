package payworld

import (
	"sort"

	"github.com/shopspring/decimal"

	"treasury/wire/payments"
)

// Ledger operations, compact.
const (
	opCredit uint8 = iota
	opReserve
	opDebit
	opRelease
)

func opName(op uint8) string {
	switch op {
	case opReserve:
		return payments.OpReserve
	case opDebit:
		return payments.OpDebit
	case opRelease:
		return payments.OpRelease
	default:
		return payments.OpCredit
	}
}

// bankSeq marks a ledger entry that no payment caused (a funding credit).
const bankSeq = ^uint32(0)

// entry is one ledger transaction of a prefunded account, compact. Only a
// prefunded payment moves it (the vendor's document: a just-in-time one
// is owed by the customer, a credit one invoiced); how each of its state
// changes does:
//   - INITIATED: RESERVE (available down, reserved up);
//   - COMPLETED: DEBIT (reserved down, available unchanged);
//   - FAILED, DECLINED: RELEASE (reserved back to available);
//   - RETURNED: CREDIT from PAYMENTS, referencing the payment;
//   - funding: CREDIT from BANK (an opening deposit, and a top-up whenever a
//     reservation would overdraw the account).
type entry struct {
	at     int64 // unix ms
	after  int64 // available balance after, minor units
	amount int64 // minor units, positive
	seq    uint32
	op     uint8
}

func (e entry) before() int64 {
	switch e.op {
	case opReserve:
		return e.after + e.amount
	case opDebit:
		return e.after
	default:
		return e.after - e.amount
	}
}

// account is the prefunded account of one source currency.
type account struct {
	entries  []entry
	reserved int64
}

func (a *account) available() int64 {
	if len(a.entries) == 0 {
		return 0
	}
	return a.entries[len(a.entries)-1].after
}

// Funding: opening deposits and top-ups in major units per currency.
const (
	openingMajor = 1_500_000
	topUpMajor   = 500_000
)

func (a *account) add(e entry) {
	switch e.op {
	case opReserve:
		e.after = a.available() - e.amount
		a.reserved += e.amount
	case opDebit:
		e.after = a.available()
		a.reserved -= e.amount
	case opRelease:
		e.after = a.available() + e.amount
		a.reserved -= e.amount
	default:
		e.after = a.available() + e.amount
	}
	a.entries = append(a.entries, e)
}

// ledgerApply books the ledger effect of p entering st at unix ms at: none
// for a payment not prefunded.
func (w *World) ledgerApply(seq uint32, p *pay, st payments.State, at int64) {
	if !p.prefunded() {
		return
	}
	a := &w.accounts[w.currencyIndex(w.corridorOf(p).src)]
	switch st {
	case payments.Initiated:
		if a.available() < p.amount {
			top := (p.amount/100/topUpMajor + 1) * topUpMajor * 100
			a.add(entry{at: at, amount: top, seq: bankSeq, op: opCredit})
		}
		a.add(entry{at: at, amount: p.amount, seq: seq, op: opReserve})
	case payments.Completed:
		a.add(entry{at: at, amount: p.amount, seq: seq, op: opDebit})
	case payments.Failed, payments.Declined:
		a.add(entry{at: at, amount: p.amount, seq: seq, op: opRelease})
	case payments.Returned:
		a.add(entry{at: at, amount: p.amount, seq: seq, op: opCredit})
	}
}

// ledgerRecord is the wire form of a ledger entry of currency cur.
func (w *World) ledgerRecord(e entry, cur string) ledgerRecord {
	t := ledgerRecord{
		Tenant: w.org, Amount: D(minor(e.amount)), Currency: cur, Operation: opName(e.op), TxnSource: payments.SrcPayment,
		Status: payments.TxnSuccess, CreatedDttm: ms(e.at), UpdatedDttm: ms(e.at),
		AvailableBalanceBefore: D(minor(e.before())), AvailableBalanceAfter: D(minor(e.after)),
	}
	if e.seq == bankSeq {
		t.TxnSource = payments.SrcBank
	}
	if ref := w.reference(e); ref != "" {
		t.TxnReference = &ref
	}
	return t
}

// reference is an entry's txnReference: the payment id on RESERVE and
// DEBIT, as the document says, and null on every other operation; the spec
// face, which says nothing of it, also names the payment of a RELEASE and
// of a return's CREDIT.
func (w *World) reference(e entry) string {
	switch {
	case e.seq == bankSeq:
		return ""
	case e.op == opReserve || e.op == opDebit || w.spec:
		return w.paymentID(e.seq)
	}
	return ""
}

// window returns the entries of a with from <= at < to.
func (a *account) window(from, to int64) []entry {
	lo := sort.Search(len(a.entries), func(i int) bool { return a.entries[i].at >= from })
	hi := sort.Search(len(a.entries), func(i int) bool { return a.entries[i].at >= to })
	if hi < lo {
		hi = lo
	}
	return a.entries[lo:hi]
}

// paymentEntries returns the ledger entries of payment seq up to unix ms t,
// found by the times of its state changes.
func (w *World) paymentEntries(seq uint32, p *pay, t int64) []entry {
	if p.flags&fForeign != 0 || !p.prefunded() {
		return nil
	}
	a := &w.accounts[w.currencyIndex(w.corridorOf(p).src)]
	s, n := p.steps()
	var out []entry
	for i := 0; i < n && s[i].at <= t && s[i].at <= w.processed; i++ {
		for _, e := range a.window(s[i].at, s[i].at+1) {
			if e.seq == seq {
				out = append(out, e)
			}
		}
	}
	return out
}

// balances is the wire form of the accounts now.
func (w *World) balances(currency string) []balanceRecord {
	var out []balanceRecord
	for i, c := range w.sources {
		if currency != "" && currency != c {
			continue
		}
		a := &w.accounts[i]
		out = append(out, balanceRecord{FundingType: "FUNDED", Currency: c,
			AvailableBalance: D(minor(a.available())), ReservedBalance: D(minor(a.reserved))})
	}
	return out
}

// prefunded reports whether p draws the prefunded account: neither just
// in time nor on credit.
func (p *pay) prefunded() bool { return p.flags&(fJIT|fCredit) == 0 }

func minor(v int64) decimal.Decimal { return decimal.New(v, -2) }
