package paymentsview

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/ui"
	"treasury/views/viewtest"
)

// search sets the view's search and drives what follows, the platform's
// search once it is due included.
func search(v *View, f string) {
	drive(v, ui.SetFilterOf(v, f))
}

func drive(v *View, cmd tea.Cmd) {
	for _, m := range viewtest.Drive(v, cmd) {
		if due, ok := m.(platformDue); ok {
			drive(v, v.Update(due))
		}
	}
	v.ctx.Store.Sync()
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
}

// TestSearchAsksThePlatformBeyondTheWindow: a payment some forty days
// old, which the 24h window does not hold, is found from the Payments
// tab by a prefix of its internalId and by its beneficiary's nickname
// (with the day it was initiated): the platform's filter is asked (over
// real HTTP, each request checked against the vendor's document), the
// line above the table says what it found beyond the window, and o lists
// those payments apart, marked as the platform's, enter opening one.
func TestSearchAsksThePlatformBeyondTheWindow(t *testing.T) {
	e := plainWorld(t)
	g := octoberPayment(t, e)
	p, err := e.P.Payments.Get(context.Background(), g.NetworkPaymentID)
	if err != nil {
		t.Fatal(err)
	}
	if age := e.P.Now().Sub(p.InitiatedAt); age < 30*24*time.Hour {
		t.Fatalf("the payment is %s old: not beyond the 30d window", age)
	}
	nick := p.Destination.BeneficiaryIdentityNickName
	for _, c := range []struct{ name, search string }{
		{"internalId prefix", "internalid:" + g.EndToEndID[:len(g.EndToEndID)-1]},
		{"beneficiary nickname", `beneficiary:"` + nick + `" date:` + p.InitiatedAt.UTC().Format("2006-01-02")},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := New(e.Ctx, e.P)
			send(v, ui.StoreChanged{})
			search(v, c.search)
			body := v.Render(120, 40)
			if !strings.Contains(body, "from the platform: ") || !strings.Contains(body, "beyond the 24h window") ||
				!strings.Contains(body, "o opens them") {
				t.Fatalf("no line of the platform's answer:\n%s", body)
			}
			send(v, viewtest.Key("o"))
			page := v.Render(120, 40)
			if v.Depth() != 2 || !strings.Contains(strings.Join(v.Crumbs(), " "), "from the platform") ||
				!strings.Contains(page, g.EndToEndID) {
				t.Fatalf("o does not list the platform's payments (depth %d, crumbs %q):\n%s", v.Depth(), v.Crumbs(), page)
			}
			if strings.HasPrefix(c.search, "beneficiary:") {
				for _, l := range strings.Split(page, "\n") {
					if strings.Contains(l, "INV-") && !strings.Contains(l, nick) {
						t.Errorf("a payment of another beneficiary than %q: %s", nick, l)
					}
				}
			}
			for range platformMax { // the payment's row, among the platform's
				if id, _, _ := ui.SelectedOf(v); id == g.NetworkPaymentID {
					break
				}
				send(v, viewtest.Key("down"))
			}
			if id, _, _ := ui.SelectedOf(v); id != g.NetworkPaymentID {
				t.Fatalf("the platform's list lacks %s:\n%s", g.NetworkPaymentID, page)
			}
			send(v, viewtest.Key("enter"))
			if !strings.Contains(v.Render(120, 40), "Payment "+g.NetworkPaymentID) {
				t.Fatalf("enter does not open the payment:\n%s", v.Render(120, 40))
			}
		})
	}
}

// TestPlatformFilterOf: which searches are asked of the platform, and
// with which filter fields.
func TestPlatformFilterOf(t *testing.T) {
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	f, ok := platformFilter(`beneficiary:"Carlos Santos" currency:eur label:payroll state:failed`, now, 24*time.Hour)
	if !ok || f.BeneficiaryIdentityNickname != "Carlos Santos" || strings.Join(f.DestinationCurrencies, ",") != "EUR" ||
		strings.Join(f.PaymentLabels, ",") != "payroll" || len(f.PaymentStates) != 1 || f.PaymentStates[0] != "FAILED" ||
		f.AfterTimestamp != nil || !f.BeforeTimestamp.Equal(now.Add(-24*time.Hour)) || f.FilterRangeType != "PAYMENT_CREATION" {
		t.Errorf("fields: %+v %v", f, ok)
	}
	f, ok = platformFilter("since:40d internalid:INV-00", now, 7*24*time.Hour)
	if !ok || !f.AfterTimestamp.Equal(now.Add(-40*24*time.Hour)) || !f.BeforeTimestamp.Equal(now.Add(-7*24*time.Hour)) || f.InternalID != "INV-00" {
		t.Errorf("since: %+v %v", f, ok)
	}
	for _, s := range []string{"carlos", "!state:FAILED", "beneficiary:~carl", "state:SOMETHING", "colour:red", "since:2h", "date:2026-11-16",
		"currency:euro!"} {
		if _, ok := platformFilter(s, now, 24*time.Hour); ok {
			t.Errorf("%q is asked of the platform", s)
		}
	}
}

// TestPlatformListShowsErrorCodes: the failures the platform's filter
// finds beyond the window (its records carry no reason) are read by id,
// and their rows show their error codes.
func TestPlatformListShowsErrorCodes(t *testing.T) {
	e := plainWorld(t)
	v := New(e.Ctx, e.P)
	send(v, ui.StoreChanged{})
	search(v, "state:FAILED since:40d")
	if body := v.Render(120, 40); !strings.Contains(body, "o opens them") {
		t.Fatalf("the platform found no failure:\n%s", body)
	}
	drive(v, v.Update(viewtest.Key("o")))
	for range 2 {
		send(v, ui.StoreChanged{})
	}
	page := v.Render(160, 40)
	rows, coded := 0, 0
	for _, l := range strings.Split(page, "\n") {
		if !strings.Contains(l, "FAILED") {
			continue
		}
		rows++
		if strings.Contains(l, "SYS_") || strings.Contains(l, "USR_") {
			coded++
		}
	}
	if rows == 0 || coded != rows {
		t.Errorf("%d of %d FAILED rows show a code:\n%s", coded, rows, page)
	}
}
