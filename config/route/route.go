// Package route names the views: one value per view, the name of its
// folder under views/ (views/errors, views/audit...), used by the
// palette, the number keys' jumps, the links from one view to another (a
// ledger row's payment, an alert's record), the tabs, and by the
// profile (config: the views a custom command runs on, the places a key
// is read). It sits under config, on the ground, so the configuration
// names views by these values without importing the UI. A name typed by
// hand does not compile where a route is wanted; a view that is not
// listed here has no route to link to.
package route

import (
	"slices"
	"strings"
)

// Route names a view. Its text is the view's palette command (":ledger").
type Route string

// The views' routes.
const (
	Overview    Route = "overview"
	Quotes      Route = "quotes"
	Balances    Route = "balances"
	Payments    Route = "payments"
	Wallets     Route = "wallets"
	Reports     Route = "reports"
	AddressBook Route = "addressbook"
	Alerts      Route = "alerts"
	Errors      Route = "errors" // the failed calls
	Identities  Route = "identities"
	Ledger      Route = "ledger"
	Audit       Route = "audit"
)

// Saved is the route of a saved search's tab, by its title: "search:"
// and the title's words in lower case, joined by dashes.
func Saved(title string) Route {
	return Route("search:" + strings.Join(strings.Fields(strings.ToLower(title)), "-"))
}

// All are the built-in views' routes, in tab order.
func All() []Route {
	return []Route{Overview, Quotes, Balances, Payments, Wallets, Reports, AddressBook, Alerts, Errors, Identities, Ledger, Audit}
}

// Named is the built-in view named name (its palette name, as a profile
// writes it in a command's views:), and whether there is one.
func Named(name string) (Route, bool) {
	i := slices.Index(All(), Route(name))
	return Route(name), i >= 0
}

// Names are the built-in views' names, in tab order.
func Names() []string {
	out := make([]string, 0, len(All()))
	for _, r := range All() {
		out = append(out, string(r))
	}
	return out
}
