package dashboard

import (
	"strings"
	"testing"

	"treasury/config"
)

// TestCheckCommands: a custom command's {field} that no record of a view
// it runs on has (the README's {state} on wallet transactions, whose
// field is status) stops the start, naming the file, the argument's line,
// the view and the fields near it; the same command limited to the views
// whose records have the field, and {id} and a field by its path, pass.
func TestCheckCommands(t *testing.T) {
	parse := func(cmd string) *config.Config {
		t.Helper()
		data := "profiles:\n  ops:\n    environment: sandbox\n    commands:\n" + cmd
		cfg, _, err := config.Parse("/etc/treasury.yaml", []byte(data), "", func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	bad := parse(`      - name: ticket
        key: ctrl+t
        views: [payments, wallets]
        program: /bin/echo
        args:
          - "{paymentId}"
          - "{state}"
`)
	err := CheckCommands(bad)
	if err == nil {
		t.Fatal("a placeholder the wallets' records have no field for passed")
	}
	for _, want := range []string{"/etc/treasury.yaml:11", "profiles.ops.commands[0].args[1]", `command "ticket"`, "{state} is no field of the wallets view's records", "status"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "payments view") || !strings.Contains(err.Error(), "{paymentId} is no field of the wallets view") {
		t.Errorf("each placeholder is checked on each view:\n%v", err)
	}
	good := parse(`      - name: ticket
        key: ctrl+t
        views: [payments]
        program: /bin/echo
        args: ["{id}", "{state}", "{originator.internalId}", "--", "{internalId}"]
`)
	if err := CheckCommands(good); err != nil {
		t.Errorf("a command whose fields the payments have: %v", err)
	}
}
