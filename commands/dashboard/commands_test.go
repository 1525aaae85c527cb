package dashboard

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/config/route"
	"treasury/desk/audit"
)

// TestCommandsOverSSHNeedTheirRole: a local session runs every custom
// command; over treasury serve, only those the profile allows for the
// key's role, the others refused with why.
func TestCommandsOverSSHNeedTheirRole(t *testing.T) {
	cs := []config.Command{{Name: "ticket", Key: "ctrl+t", Views: []route.Route{route.Payments}, Program: "/bin/true", SSHRoles: []string{"operator"}},
		{Name: "runbook", Key: "ctrl+r", Views: []route.Route{route.Payments}, Program: "/bin/true"}}
	for _, c := range sessionCommands(cs, audit.Who{Via: "local", User: "ann"}) {
		if c.Refused != "" {
			t.Errorf("local: %s refused: %s", c.Name, c.Refused)
		}
	}
	op := sessionCommands(cs, audit.Who{Via: "ssh", User: "ben", Role: "operator"})
	if op[0].Refused != "" || !strings.Contains(op[1].Refused, "allows it for nobody") {
		t.Errorf("an operator over SSH: %+v", op)
	}
	viewer := sessionCommands(cs, audit.Who{Via: "ssh", User: "cy", Role: "viewer"})
	if !strings.Contains(viewer[0].Refused, `allows it for operator (ssh_roles), not for role "viewer"`) {
		t.Errorf("a viewer over SSH: %+v", viewer)
	}
}
