// Command treasury is a terminal dashboard for a cross-border payments
// treasury. Run without configuration, it starts an embedded sandbox of the
// platform's five interfaces and shows it live.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "treasury: not wired yet")
	os.Exit(2)
}
