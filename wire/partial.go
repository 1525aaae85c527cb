package wire

import (
	"fmt"
	"strings"
)

// Partial is the error of a read that spans several sources (the
// transactions of every wallet, the ledger of every currency) when some of
// them failed: the records returned beside it come from the others, and
// are true as far as they go. A reader shows them, and says which sources
// failed and why.
type Partial struct {
	// What names the read ("transactions").
	What string
	// Of is how many sources the read spanned.
	Of int
	// Failed are the sources that failed.
	Failed []Failure
}

// Failure is one source of a Partial read that failed.
type Failure struct {
	// Name is the source as a person knows it ("wallet Treasury hot").
	Name string
	Err  error
}

func (p *Partial) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d could not be read", p.What, len(p.Failed), p.Of)
	for i, f := range p.Failed {
		if i == 3 {
			fmt.Fprintf(&b, "; and %d more", len(p.Failed)-i)
			break
		}
		fmt.Fprintf(&b, "; %s: %v", f.Name, f.Err)
	}
	return b.String()
}

// Unwrap returns the failures' errors.
func (p *Partial) Unwrap() []error {
	out := make([]error, len(p.Failed))
	for i, f := range p.Failed {
		out[i] = f.Err
	}
	return out
}

// Names lists the sources that failed.
func (p *Partial) Names() []string {
	out := make([]string, len(p.Failed))
	for i, f := range p.Failed {
		out[i] = f.Name
	}
	return out
}
