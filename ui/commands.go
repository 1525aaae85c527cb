package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/kit/jsonfields"
	"treasury/ui/sanitize"
)

// CustomCommand is a profile's command (commands:, as k9s plugins) as
// this session may run it: on its views, its key runs Program with Args,
// each {field} replaced by that field of the record under the cursor,
// without a shell.
type CustomCommand struct {
	Name, Key, Program string
	Args               []string
	Views              []route.Route
	// Background leaves the program to run on its own; otherwise its
	// output shows in a pane when it ends.
	Background bool
	// Refused says why this session may not run it (over treasury serve,
	// a role the profile does not allow); "" when it may.
	Refused string
}

// commandOutputMax bounds the output a pane shows; commandTimeout the
// run of one that is not left in the background.
const (
	commandOutputMax = 64 << 10
	commandTimeout   = 30 * time.Second
)

// customCommand is the command bound to msg on the active view, if any.
func (a *App) customCommand(msg tea.KeyPressMsg) (CustomCommand, bool) {
	name := a.Active().Name()
	for _, c := range a.ctx.Commands {
		if c.Key == msg.String() && slices.Contains(c.Views, name) {
			return c, true
		}
	}
	return CustomCommand{}, false
}

// commandBindings are the active view's custom commands, for the footer
// and the help (a refused one says so).
func (a *App) commandBindings() []key.Binding {
	var out []key.Binding
	name := a.Active().Name()
	for _, c := range a.ctx.Commands {
		if !slices.Contains(c.Views, name) {
			continue
		}
		help := sanitize.Line(c.Name)
		if c.Refused != "" {
			help += " (refused here)"
		}
		out = append(out, key.NewBinding(key.WithKeys(c.Key), key.WithHelp(c.Key, help)))
	}
	return out
}

// runCustom runs c on the record under the cursor, as its key says: the
// arguments made of the record's fields, the run logged, its output in a
// pane (or left to run, in the background).
func (a *App) runCustom(c CustomCommand) tea.Cmd {
	if c.Refused != "" {
		a.setFlash(Flash{Text: sanitize.Line(c.Name) + ": refused: " + c.Refused, Warn: true})
		return nil
	}
	id, rec, ok := SelectedOf(a.Active())
	if !ok {
		a.setFlash(Flash{Text: sanitize.Line(c.Name) + ": no record under the cursor"})
		return nil
	}
	log := a.ctx.CommandLog
	if log == nil {
		log = func(string, ...any) {}
	}
	who := a.ctx.Operator
	args, err := CommandArgs(c.Args, id, rec)
	if err != nil {
		log("custom command not run", "command", c.Name, "program", c.Program, "who", who, "err", err)
		a.setFlash(Flash{Text: sanitize.Line(c.Name) + ": nothing run", Err: err})
		return nil
	}
	if c.Background {
		cmd := exec.Command(c.Program, args...)
		if err := cmd.Start(); err != nil {
			log("custom command not started", "command", c.Name, "program", c.Program, "args", args, "who", who, "err", err)
			a.setFlash(Flash{Text: sanitize.Line(c.Name) + ": not started", Err: err})
			return nil
		}
		log("custom command started", "command", c.Name, "program", c.Program, "args", args, "who", who, "pid", cmd.Process.Pid)
		go func() { _ = cmd.Wait() }() // reaped when it ends
		a.setFlash(Flash{Text: sanitize.Line(c.Name) + ": started (pid " + strconv.Itoa(cmd.Process.Pid) + ")"})
		return nil
	}
	a.setFlash(Flash{Text: sanitize.Line(c.Name) + ": running…"})
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
		defer cancel()
		var out capped
		cmd := exec.CommandContext(ctx, c.Program, args...)
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			log("custom command ran", "command", c.Name, "program", c.Program, "args", args, "who", who, "exit", exit.ExitCode(),
				"took", time.Since(start).Round(time.Millisecond), "err", err)
		case err != nil && cmd.ProcessState == nil:
			// It never started: no exit status to record.
			log("custom command not run", "command", c.Name, "program", c.Program, "args", args, "who", who, "err", err)
		default:
			log("custom command ran", "command", c.Name, "program", c.Program, "args", args, "who", who, "exit", 0,
				"took", time.Since(start).Round(time.Millisecond), "err", err)
		}
		return commandDone{c: c, out: out.String(), err: err}
	}
}

// commandDone is a custom command's end, with its output.
type commandDone struct {
	c   CustomCommand
	out string
	err error
}

// shown opens the pane of a command's output.
func (a *App) commandShown(d commandDone) {
	head := sanitize.Line(d.c.Name) + ": done"
	if d.err != nil {
		head = sanitize.Line(d.c.Name) + ": " + sanitize.Line(d.err.Error())
	}
	a.push(a.pager(newOutputPager(a.ctx, head+"; "+a.keys.Back.Help().Key+" closes:", d.out, a.width, a.height-a.chrome())))
	a.setFlash(Flash{Text: head})
}

// capped keeps the first commandOutputMax bytes written to it.
type capped struct {
	b   bytes.Buffer
	cut bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := commandOutputMax - c.b.Len(); room < len(p) {
		c.cut = true
		c.b.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.b.Write(p)
}

func (c *capped) String() string {
	if c.cut {
		return c.b.String() + "\n… (cut at " + strconv.Itoa(commandOutputMax) + " bytes)"
	}
	return c.b.String()
}

var argField = regexp.MustCompile(`\{([^{}]*)\}`)

// Unknown is a placeholder of a command's argument that no record of a
// view has a field for.
type Unknown struct {
	Arg   int    // the argument's index
	Field string // the placeholder's name
	// Near are the fields of the view's records whose name shares the
	// placeholder's start or end ("status" for {state}), to say what was
	// meant; Fields counts the fields there are.
	Near   []string
	Fields int
}

// UnknownFields are the placeholders of args that no record of types (a
// view's, its RecordTypes) has a field for, as CommandArgs reads a record:
// {id}, a field by its JSON path or its own name, {state} for a field
// named state or ending in State. A list is no field (nothing flattens
// it). None when types is empty: a view of no records is not checked.
func UnknownFields(args []string, types []reflect.Type) []Unknown {
	if len(types) == 0 {
		return nil
	}
	have := map[string]bool{"id": true}
	for _, t := range types {
		for _, l := range jsonfields.Leaves(t) {
			if k := l.Type.Kind(); k == reflect.Slice || k == reflect.Array || k == reflect.Map {
				continue
			}
			have[l.Path], have[l.Name()] = true, true
			if l.Name() == "state" || strings.HasSuffix(l.Name(), "State") {
				have["state"] = true
			}
		}
	}
	var out []Unknown
	for i, a := range args {
		for _, m := range argField.FindAllStringSubmatch(a, -1) {
			if have[m[1]] {
				continue
			}
			u := Unknown{Arg: i, Field: m[1], Fields: len(have)}
			lower := strings.ToLower(m[1])
			for _, f := range slices.Sorted(maps.Keys(have)) {
				lf := strings.ToLower(f)
				if !strings.Contains(f, ".") && len(lower) >= 3 && len(lf) >= 3 && (lf[:3] == lower[:3] || strings.HasSuffix(lf, lower[len(lower)-3:])) {
					u.Near = append(u.Near, f)
				}
			}
			out = append(out, u)
		}
	}
	return out
}

// CommandArgs makes a command's arguments of the record under the cursor:
// {id} is its id, {name} any field of the record by its name (the first
// found, at any depth: {internalId}) or its path ({originator.internalId}),
// {state} its state (the first field named state or ending in State). A
// field the record lacks is an error: nothing runs with an empty one.
func CommandArgs(args []string, id string, rec any) ([]string, error) {
	fields := map[string]string{"id": id}
	if b, err := json.Marshal(rec); err == nil {
		var v any
		if json.Unmarshal(b, &v) == nil {
			flatten(fields, "", v)
		}
	}
	out := make([]string, len(args))
	var missing, nul []string
	for i, a := range args {
		out[i] = argField.ReplaceAllStringFunc(a, func(m string) string {
			name := m[1 : len(m)-1]
			v, ok := fields[name]
			if !ok {
				missing = append(missing, m)
			}
			if strings.IndexByte(v, 0) >= 0 {
				nul = append(nul, m)
			}
			return v
		})
	}
	switch {
	case len(missing) > 0:
		return nil, fmt.Errorf("the record has no %s", strings.Join(missing, ", "))
	case len(nul) > 0:
		return nil, fmt.Errorf("the record's %s holds a NUL byte, which no program argument can carry", strings.Join(nul, ", "))
	}
	return out, nil
}

// flatten puts every scalar of v into fields, by its path and, the first
// time it is seen, by its own name; the first state too.
func flatten(fields map[string]string, path string, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(fields, p, x[k])
		}
	case []any:
	case nil:
	default:
		s := fmt.Sprint(x)
		if f, ok := x.(float64); ok {
			s = strconv.FormatFloat(f, 'f', -1, 64)
		}
		fields[path] = s
		leaf := path[strings.LastIndexByte(path, '.')+1:]
		if _, ok := fields[leaf]; !ok {
			fields[leaf] = s
		}
		if _, ok := fields["state"]; !ok && (leaf == "state" || strings.HasSuffix(leaf, "State")) {
			fields["state"] = s
		}
	}
}
