package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"treasury/config/route"
)

// Command is one custom command (commands:, as k9s plugins): on the views
// it names, its key runs Program with Args, each {field} replaced by that
// field of the record under the cursor, without a shell.
//
//	commands:
//	  - name: ticket
//	    key: ctrl+t
//	    views: [payments]                 # default: every view
//	    program: /usr/local/bin/open-ticket
//	    args: ["{paymentId}", "--internal-id", "{internalId}", "--state", "{state}"]
//	    background: true                  # left to run; default: its output in a pane
//	    ssh_roles: [operator]             # over treasury serve: who may run it (default: nobody)
type Command struct {
	Name       string
	Key        string
	Views      []route.Route
	Program    string
	Args       []string
	Background bool
	SSHRoles   []string
	// Entry is the command's key in the file ("profiles.ops.commands[0]")
	// and Lines the line of each of its keys ("" for the entry itself,
	// "args[1]" for an argument): what the views' check (a placeholder a
	// view's records have no field for) names.
	Entry string
	Lines map[string]int
}

// Error is what is wrong with the command's field (an "args[1]"), at its
// line in file.
func (c Command) Error(file, field, msg string) *Error {
	line, ok := c.Lines[field]
	if !ok {
		line = c.Lines[""]
	}
	return &Error{File: file, Key: joinKey(c.Entry, field), Line: line, Msg: fmt.Sprintf("command %q: %s", c.Name, msg)}
}

type rawCommand struct {
	Name       string   `yaml:"name,omitempty"`
	Key        string   `yaml:"key,omitempty"`
	Views      []string `yaml:"views,omitempty"`
	Program    string   `yaml:"program,omitempty"`
	Args       []string `yaml:"args,omitempty"`
	Background bool     `yaml:"background,omitempty"`
	SSHRoles   []string `yaml:"ssh_roles,omitempty"`
}

var placeholder = regexp.MustCompile(`\{([^{}]*)\}`)
var fieldName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.]*$`)

// commands resolves the profile's custom commands.
func (r *resolver) commands(base string, raw []*rawCommand, km Keymap) []Command {
	var out []Command
	names, keys := map[string]string{}, map[string]string{}
	for i, rc := range raw {
		key := fmt.Sprintf("%s[%d]", base, i)
		if rc == nil {
			r.d.at(key, "an empty command: give its name, key and program")
			continue
		}
		c := Command{Name: strings.TrimSpace(rc.Name), Key: strings.TrimSpace(rc.Key),
			Program: strings.TrimSpace(rc.Program), Args: rc.Args, Background: rc.Background, SSHRoles: rc.SSHRoles,
			Entry: key, Lines: map[string]int{"": r.d.lines[key]}}
		for j := range c.Args {
			if l, ok := r.d.lines[fmt.Sprintf("%s.args[%d]", key, j)]; ok {
				c.Lines[fmt.Sprintf("args[%d]", j)] = l
			}
		}
		ok := true
		for f, v := range map[string]string{"name": c.Name, "key": c.Key, "program": c.Program} {
			if v == "" {
				r.requiredIn(key, f, "")
				ok = false
			}
		}
		if !ok {
			continue
		}
		if other := names[c.Name]; other != "" {
			r.d.at(joinKey(key, "name"), "%q names %s too: each command needs its own", c.Name, other)
			continue
		}
		names[c.Name] = key
		for _, v := range rc.Views {
			if rv, known := route.Named(v); known {
				c.Views = append(c.Views, rv)
				continue
			}
			r.d.at(joinKey(key, "views"), "no view %q: one of %s", v, strings.Join(route.Names(), ", "))
			ok = false
		}
		if len(rc.Views) == 0 {
			c.Views = route.All()
		}
		if !ok {
			continue
		}
		if v := slices.IndexFunc(c.Views, func(v route.Route) bool { return slices.Contains(km.Taken(v), c.Key) }); v >= 0 {
			r.d.at(joinKey(key, "key"), "%q is the dashboard's own key on the %s view (keys: can move it): choose another (ctrl+ or an unused letter)",
				c.Key, c.Views[v])
			continue
		}
		for _, v := range c.Views {
			if other := keys[string(v)+" "+c.Key]; other != "" {
				r.d.at(joinKey(key, "key"), "%q runs %s on the %s view too", c.Key, other, v)
				ok = false
			}
			keys[string(v)+" "+c.Key] = c.Name
		}
		for j, a := range c.Args {
			for _, m := range placeholder.FindAllStringSubmatch(a, -1) {
				if !fieldName.MatchString(m[1]) {
					r.d.at(fmt.Sprintf("%s.args[%d]", key, j), "{%s} is no field name (letters, digits, _ and .)", m[1])
					ok = false
				}
			}
		}
		for _, role := range c.SSHRoles {
			if role != "operator" && role != "viewer" {
				r.d.at(joinKey(key, "ssh_roles"), "no role %q: operator or viewer", role)
				ok = false
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}
