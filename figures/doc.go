// Package figures is the one place every derived figure is defined, for
// every surface that shows one: the views, `treasury get` (table, JSON,
// CSV, the ticket summary), the dashboard's CSV exports, the ticket and
// the alerts. No surface computes a figure of its own; each reads it here.
//
//   - funding.go: how a payment is funded, as the vendor's document defines
//     it (FundingOf: prefunded, just in time, credit, or another payin by
//     its own name), what a just-in-time payment owes (Owed, PastDue) and
//     how long until its funds are due or how late they are (DueIn);
//   - exposure.go: what the payments in flight commit per currency and
//     funding class (BuildExposure), the payments owed just in time
//     (Owing);
//   - runway.go: how a runway reads (RunwayOf: the pace that drives it,
//     its hours, "> 30 d", its end), on the paces figures/runway computes;
//   - trail.go: a payment's ledger trail (TrailOf: its RESERVE and DEBIT by
//     reference, the RELEASE or return CREDIT that gave its funds back
//     tied by amount and time where the ledger names no payment) and
//     whether its funds came back, how much and when (Trail.Words);
//   - plan.go: the funding plan (PlanOf: the top-up that carries a
//     currency N hours at the pace that drives its runway, the balance
//     after the payments in flight, the owed just in time due before a
//     top-up lands; PlanHours: to the end of the business day);
//   - advice.go, verdict.go: the one retry verdict of a payment (Verdict,
//     RetryOf: the strictest of its errors, with why), its error codes as
//     a list shows them (ErrorCodes) and the error it is grouped under in
//     the reason groups (Reason);
//   - rate.go: the failure rate;
//   - format.go: the one format of amounts and times (Money on screen,
//     MoneyData and Stamp in data) and the reading of an amount as the
//     screen writes it (ParseAmount);
//   - windows.go: a window as typed and shown.
//
// The package knows no UI and no store: the data layer's derivations
// (desk/paystats) register these figures once per change for every
// session, and `treasury get` computes them from its own reads.
package figures
