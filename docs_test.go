package main

// The documents (README.md and docs/*.md) are kept true by two checks:
// their key tables against the keymap (config.KeyActions), and every
// `treasury` command line they show (a fenced sh block's line, or a code
// span that starts with "treasury ") against the command table and each
// command's own --help, run in process. A flag named alone in a code span
// (`--since`) must be in some command's help.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"treasury/commands/cli"
	"treasury/commands/cli/clitest"
	"treasury/config"
)

// docFiles are the documents the checks read.
func docFiles(t *testing.T) map[string]string {
	t.Helper()
	names, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, "README.md")
	out := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[n] = string(b)
	}
	if len(out) < 10 {
		t.Fatalf("found %d documents (README.md and docs/*.md): run from the repository's root", len(out))
	}
	return out
}

// --- keys -------------------------------------------------------------

// tableRows are the rows of every markdown table in text whose header
// row is header (its cells, trimmed), each as its cells, with its line.
func tableRows(text string, header ...string) (rows [][]string, lines []int) {
	in := false
	for i, line := range strings.Split(text, "\n") {
		cells := tableCells(line)
		switch {
		case cells == nil:
			in = false
		case slices.Equal(cells, header):
			in = true
		case in && strings.Trim(strings.Join(cells, ""), "-: ") == "":
			// the separator row
		case in:
			rows, lines = append(rows, cells), append(lines, i+1)
		}
	}
	return rows, lines
}

// tableCells splits a markdown table row ("| a | b |") into its cells;
// nil for a line that is none. An escaped bar (\|) stays in its cell.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || len(line) < 2 {
		return nil
	}
	line = strings.ReplaceAll(line[1:len(line)-1], `\|`, "\x00")
	var cells []string
	for _, c := range strings.Split(line, "|") {
		cells = append(cells, strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|"))
	}
	return cells
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// spans are the code spans of a cell, in order.
func spans(cell string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// checkKeymapTables checks the keymap's tables (| action | keys | where |
// does |) of the documents against actions: each row names one action with
// exactly its default keys, in order, and every action has one row.
func checkKeymapTables(docs map[string]string, actions []config.KeyAction) []string {
	byName := map[string]config.KeyAction{}
	for _, a := range actions {
		byName[a.Name] = a
	}
	var problems []string
	seen := map[string]string{}
	for _, name := range sortedNames(docs) {
		rows, lines := tableRows(docs[name], "action", "keys", "where", "does")
		for i, row := range rows {
			at := fmt.Sprintf("%s:%d", name, lines[i])
			act := spans(row[0])
			if len(act) != 1 {
				problems = append(problems, fmt.Sprintf("%s: the action cell %q names no one action", at, row[0]))
				continue
			}
			a, ok := byName[act[0]]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: %q is no action of the keymap", at, act[0]))
				continue
			}
			if prev, dup := seen[a.Name]; dup {
				problems = append(problems, fmt.Sprintf("%s: %s is listed again (first at %s)", at, a.Name, prev))
			}
			seen[a.Name] = at
			if keys := spans(row[1]); !slices.Equal(keys, a.Keys) {
				problems = append(problems, fmt.Sprintf("%s: %s is on %q in the keymap, the table says %q", at, a.Name, a.Keys, keys))
			}
		}
	}
	for _, a := range actions {
		if _, ok := seen[a.Name]; !ok {
			problems = append(problems, fmt.Sprintf("the keymap's action %s (%q) is in no key table of the documents", a.Name, a.Keys))
		}
	}
	return problems
}

// checkKeyChoices checks the short key tables (| key | action | does |,
// the README's keys that matter): each key is one of its action's
// default keys.
func checkKeyChoices(docs map[string]string, actions []config.KeyAction) []string {
	byName := map[string]config.KeyAction{}
	for _, a := range actions {
		byName[a.Name] = a
	}
	var problems []string
	for _, name := range sortedNames(docs) {
		rows, lines := tableRows(docs[name], "key", "action", "does")
		for i, row := range rows {
			at := fmt.Sprintf("%s:%d", name, lines[i])
			keys, act := spans(row[0]), spans(row[1])
			if len(keys) != 1 || len(act) != 1 {
				problems = append(problems, fmt.Sprintf("%s: want one key and one action, found %q and %q", at, keys, act))
				continue
			}
			a, ok := byName[act[0]]
			switch {
			case !ok:
				problems = append(problems, fmt.Sprintf("%s: %q is no action of the keymap", at, act[0]))
			case !slices.Contains(a.Keys, keys[0]):
				problems = append(problems, fmt.Sprintf("%s: %q is not a key of %s (%q)", at, keys[0], a.Name, a.Keys))
			}
		}
	}
	return problems
}

func sortedNames(docs map[string]string) []string {
	var out []string
	for n := range docs {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func TestDocsKeyTablesFollowTheKeymap(t *testing.T) {
	docs := docFiles(t)
	actions := config.KeyActions()
	for _, p := range checkKeymapTables(docs, actions) {
		t.Error(p)
	}
	for _, p := range checkKeyChoices(docs, actions) {
		t.Error(p)
	}
	if rows, _ := tableRows(docs["README.md"], "key", "action", "does"); len(rows) < 10 {
		t.Errorf("README.md's table of the keys that matter has %d rows", len(rows))
	}
}

// The key checks catch a key moved, an action renamed, one left out and
// a README key that is not its action's.
func TestDocsKeyChecksCatch(t *testing.T) {
	actions := []config.KeyAction{{Name: "quit", Keys: []string{"q", "ctrl+c"}}, {Name: "help", Keys: []string{"?"}}}
	table := "| action | keys | where | does |\n|---|---|---|---|\n"
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"moved", table + "| `quit` | `x` `ctrl+c` | everywhere | quit |\n| `help` | `?` | everywhere | help |\n", `quit is on ["q" "ctrl+c"]`},
		{"renamed", table + "| `quit` | `q` `ctrl+c` | x | y |\n| `helper` | `?` | x | y |\n", `"helper" is no action`},
		{"left out", table + "| `quit` | `q` `ctrl+c` | x | y |\n", "action help"},
		{"readme", table + "| `quit` | `q` `ctrl+c` | x | y |\n| `help` | `?` | x | y |\n\n| key | action | does |\n|---|---|---|\n| `h` | `help` | help |\n", `"h" is not a key of help`},
	} {
		docs := map[string]string{"doc.md": tc.doc}
		got := strings.Join(append(checkKeymapTables(docs, actions), checkKeyChoices(docs, actions)...), "\n")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: problems %q, want one saying %q", tc.name, got, tc.want)
		}
	}
	good := map[string]string{"doc.md": table + "| `quit` | `q` `ctrl+c` | x | y |\n| `help` | `?` | x | y |\n"}
	if p := checkKeymapTables(good, actions); len(p) != 0 {
		t.Errorf("a true table: %q", p)
	}
}

// --- commands and flags ---------------------------------------------

// docCommand is a treasury command line a document shows: its words
// after "treasury", and where it is.
type docCommand struct {
	at    string
	words []string
}

var (
	fence      = regexp.MustCompile("^\\s*```(\\w*)")
	treasuryAt = regexp.MustCompile(`(?:^\s*|[(;|&]\s*)treasury\s`)
	loneFlag   = regexp.MustCompile(`^--[a-z][a-z0-9-]*`)
)

// commandLines finds the treasury command lines of a document: in fenced
// blocks of shell (sh, bash, console, shell; a line ending in \ goes on
// on the next), every "treasury " on a line; in prose, each code span that
// starts with "treasury ". Flags named alone in a code span (`--since`) are
// returned apart.
func commandLines(name, text string) (cmds []docCommand, flags []docCommand) {
	lines := strings.Split(text, "\n")
	inFence, shell := false, false
	// prose is read a paragraph at a time: a code span may be wrapped over
	// two lines (`treasury\nserve`)
	var para []string
	paraAt := 0
	endPara := func() {
		at := fmt.Sprintf("%s:%d", name, paraAt)
		for _, s := range spans(strings.Join(para, " ")) {
			s = strings.Join(strings.Fields(s), " ")
			switch {
			case strings.HasPrefix(s, "treasury "):
				cmds = append(cmds, docCommand{at, shellWords(strings.TrimPrefix(s, "treasury "))})
			case loneFlag.MatchString(s):
				flags = append(flags, docCommand{at, []string{loneFlag.FindString(s)}})
			}
		}
		para = nil
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := fence.FindStringSubmatch(line); m != nil {
			endPara()
			inFence = !inFence
			shell = inFence && slices.Contains([]string{"sh", "bash", "console", "shell"}, m[1])
			continue
		}
		if !inFence {
			if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "|") {
				endPara()
			}
			if len(para) == 0 {
				paraAt = i + 1
			}
			para = append(para, line)
			continue
		}
		if !shell {
			continue
		}
		at := fmt.Sprintf("%s:%d", name, i+1)
		for strings.HasSuffix(line, `\`) && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, `\`) + " " + lines[i]
		}
		for _, loc := range treasuryAt.FindAllStringIndex(line, -1) {
			cmds = append(cmds, docCommand{at, shellWords(line[loc[1]:])})
		}
	}
	endPara()
	return cmds, flags
}

// shellWords splits a command line into its words as a shell would
// (quotes group), up to where the command ends: a comment, a pipe, a
// redirection, a closing parenthesis, ; or &&.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			flush()
		case r == '#' && !inWord, strings.ContainsRune("|><);&", r):
			flush()
			return words
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	flush()
	return words
}

// helpTexts are each command's --help (stdout and stderr), and the
// global usage under "".
type helpTexts map[string]string

func commandHelp(t *testing.T) helpTexts {
	t.Helper()
	h := helpTexts{}
	ask := func(key string, args ...string) {
		var out bytes.Buffer
		e, stderr := clitest.Env(t, &out)
		run(context.Background(), args, e)
		h[key] = out.String() + stderr.String()
		if strings.TrimSpace(h[key]) == "" {
			t.Fatalf("treasury %s printed nothing", strings.Join(args, " "))
		}
	}
	ask("", "help")
	for _, c := range commands() {
		if c.name != "help" {
			ask(c.name, c.name, "--help")
		}
	}
	return h
}

// globalValueFlags are the global flags that take a value (--profile
// NAME), read from the flag set main registers.
func globalValueFlags() map[string]bool {
	fs := flag.NewFlagSet("treasury", flag.ContinueOnError)
	g := cli.DefaultGlobals()
	g.Register(fs)
	out := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		out[f.Name] = !(ok && b.IsBoolFlag())
	})
	return out
}

// hasFlag says whether help names the flag (-name or --name, as the flag
// package prints it or a usage line writes it).
func hasFlag(help, name string) bool {
	re := regexp.MustCompile(`(?m)(?:^|[\s\[(,|` + "`" + `])--?` + regexp.QuoteMeta(name) + `(?:$|[\s=\],|` + "`" + `)])`)
	return re.MatchString(help)
}

// checkCommands says what the command lines name that the binary does
// not have: an unknown command, a flag not in the command's help, a get
// resource or an audit subcommand not in its help.
func checkCommands(cmds, flags []docCommand, help helpTexts) []string {
	values := globalValueFlags()
	var problems []string
	for _, c := range cmds {
		words := c.words
		i := 0
		for i < len(words) && strings.HasPrefix(words[i], "-") { // the global flags before the command
			name, _, hasValue := strings.Cut(strings.TrimLeft(words[i], "-"), "=")
			if _, ok := values[name]; !ok {
				problems = append(problems, fmt.Sprintf("%s: treasury %s: %q is no global flag", c.at, strings.Join(words, " "), words[i]))
			}
			if values[name] && !hasValue {
				i++
			}
			i++
		}
		cmd, rest := "dashboard", words[i:]
		if i < len(words) && !strings.ContainsAny(words[i], "…[<") {
			cmd, rest = words[i], words[i+1:]
		}
		text, ok := help[cmd]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: treasury %s: no command %q", c.at, strings.Join(words, " "), cmd))
			continue
		}
		for j, w := range rest {
			w = strings.Trim(w, "[]")
			switch {
			case len(w) > 1 && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && len(w) > 2 && w[1] >= '0' && w[1] <= '9':
				// a negative number
			case w == "--help" || w == "-h":
				// every command takes it
			case len(w) > 1 && strings.HasPrefix(w, "-"):
				name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
				if !hasFlag(text, name) {
					problems = append(problems, fmt.Sprintf("%s: treasury %s: %s has no flag %q (its --help)", c.at, strings.Join(words, " "), cmd, w))
				}
			case j == 0 && (cmd == "get" || cmd == "audit") && isWord(w):
				if !regexp.MustCompile(`(?m)^\s+(?:treasury audit )?` + regexp.QuoteMeta(w) + `\b`).MatchString(text) {
					problems = append(problems, fmt.Sprintf("%s: treasury %s: %s has no %q in its --help", c.at, strings.Join(words, " "), cmd, w))
				}
			}
		}
	}
	all := strings.Join(mapValues(help), "\n")
	for _, f := range flags {
		if !hasFlag(all, strings.TrimLeft(f.words[0], "-")) {
			problems = append(problems, fmt.Sprintf("%s: %s is the flag of no command (every --help)", f.at, f.words[0]))
		}
	}
	return problems
}

// isWord is a lowercase name (a resource, a subcommand), not a
// placeholder (RESOURCE, ID, <id>) or an example value.
func isWord(w string) bool {
	return regexp.MustCompile(`^[a-z][a-z-]*$`).MatchString(w)
}

func mapValues(m helpTexts) []string {
	var out []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}) {
		out = append(out, m[k])
	}
	return out
}

func TestDocsCommandsAndFlagsExist(t *testing.T) {
	help := commandHelp(t)
	var cmds, flags []docCommand
	docs := docFiles(t)
	for _, name := range sortedNames(docs) {
		c, f := commandLines(name, docs[name])
		cmds, flags = append(cmds, c...), append(flags, f...)
	}
	if len(cmds) < 40 || len(flags) < 20 {
		t.Fatalf("found %d command lines and %d flags named alone in the documents: the reader misses them", len(cmds), len(flags))
	}
	t.Logf("%d treasury command lines and %d flags named alone, checked against %d --help texts", len(cmds), len(flags), len(help))
	for _, p := range checkCommands(cmds, flags, help) {
		t.Error(p)
	}
}

// The checker reports a renamed flag, an unknown command, a get resource
// that is none, a flag named alone that no command has, and says nothing
// of a true line.
func TestDocsCommandCheckCatches(t *testing.T) {
	help := commandHelp(t)
	for _, tc := range []struct {
		doc, want string
	}{
		{"Run `treasury get payments --stat FAILED` for the failures.\n", `get has no flag "--stat"`},
		{"```sh\ntreasury serve --listen :2222 \\\n  --host-keys /k\n```\n", `serve has no flag "--host-keys"`},
		{"```sh\ntreasury --profiles uat doctor\n```\n", `"--profiles" is no global flag`},
		{"`treasury frobnicate --now`\n", `no command "frobnicate"`},
		{"`treasury get paymnts`\n", `get has no "paymnts"`},
		{"`treasury audit verifyy`\n", `audit has no "verifyy"`},
		{"```sh\nsource <(treasury completion bash --bogus)\n```\n", `completion has no flag "--bogus"`},
		{"Use `--sinse 7d` for a week.\n", `--sinse is the flag of no command`},
		{"A span wrapped in prose, `treasury\nget ledger --sinse 7d`, is read whole.\n", `get has no flag "--sinse"`},
	} {
		cmds, flags := commandLines("doc.md", tc.doc)
		got := strings.Join(checkCommands(cmds, flags, help), "\n")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%q: problems %q, want one saying %q", tc.doc, got, tc.want)
		}
	}
	good := "```sh\ntreasury --profile uat get payments --state FAILED -o csv > f.csv # a comment --nope\n" +
		"source <(treasury completion bash)\njournalctl -u treasury -p warning\n```\n`treasury audit ack --reason \"a -x b\"` and `--since`\n"
	cmds, flags := commandLines("doc.md", good)
	if len(cmds) != 3 || len(flags) != 1 {
		t.Fatalf("found %d lines and %d flags in %q, want 3 and 1", len(cmds), len(flags), good)
	}
	if p := checkCommands(cmds, flags, help); len(p) != 0 {
		t.Errorf("true lines: %q", p)
	}
}

// --- links ----------------------------------------------------------

var (
	mdLink  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile("(?m)^#{1,6} (.+)$")
)

// slug is a heading's anchor as GitHub makes it: lowercase, punctuation
// but hyphens dropped, spaces as hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '…' && r != '–':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkLinks says which relative links of the documents lead nowhere: a
// file that is not there, or an anchor no heading of its page makes.
func checkLinks(docs map[string]string, exists func(string) bool) []string {
	var problems []string
	for _, name := range sortedNames(docs) {
		for _, m := range mdLink.FindAllStringSubmatch(docs[name], -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := name
			if file != "" {
				path = filepath.Clean(filepath.Join(filepath.Dir(name), file))
			}
			if file != "" && !exists(path) {
				problems = append(problems, fmt.Sprintf("%s: %s: no file %s", name, target, path))
				continue
			}
			if anchor == "" {
				continue
			}
			text, ok := docs[path]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: %s: an anchor in a file that is not a document", name, target))
				continue
			}
			var slugs []string
			for _, h := range heading.FindAllStringSubmatch(text, -1) {
				slugs = append(slugs, slug(h[1]))
			}
			if !slices.Contains(slugs, anchor) {
				problems = append(problems, fmt.Sprintf("%s: %s: no heading of %s makes #%s", name, target, path, anchor))
			}
		}
	}
	return problems
}

func TestDocsLinksResolve(t *testing.T) {
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for _, p := range checkLinks(docFiles(t), exists) {
		t.Error(p)
	}
	bad := map[string]string{"docs/a.md": "## Real one\n[x](b.md) [y](#real-one) [z](#unreal) [w](../README.md#nope)\n", "README.md": "# r\n"}
	got := strings.Join(checkLinks(bad, func(p string) bool { _, ok := bad[p]; return ok }), "\n")
	for _, want := range []string{"no file docs/b.md", "makes #unreal", "makes #nope"} {
		if !strings.Contains(got, want) {
			t.Errorf("broken links: problems %q, want one saying %q", got, want)
		}
	}
	if strings.Contains(got, "real-one:") || strings.Contains(got, "#real-one\n") {
		t.Errorf("a true anchor reported: %q", got)
	}
}

// The systemd unit in the repository starts `treasury serve` with flags
// serve has, and keeps the directives its documents promise.
func TestTheSystemdUnitRunsServeWithItsFlags(t *testing.T) {
	b, err := os.ReadFile("contrib/systemd/treasury.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := strings.ReplaceAll(string(b), "\\\n", " ")
	var exec string
	for line := range strings.Lines(unit) {
		if v, ok := strings.CutPrefix(line, "ExecStart="); ok {
			exec = strings.TrimSpace(v)
		}
	}
	cmd, ok := strings.CutPrefix(exec, "/usr/local/bin/treasury ")
	if !ok {
		t.Fatalf("ExecStart=%q: want /usr/local/bin/treasury serve …", exec)
	}
	cmds, flags := commandLines("treasury.service", "```sh\ntreasury "+cmd+"\n```\n")
	if len(cmds) != 1 || !strings.HasPrefix(cmd, "serve ") {
		t.Fatalf("ExecStart=%q: want one treasury serve command", exec)
	}
	for _, p := range checkCommands(cmds, flags, commandHelp(t)) {
		t.Error(p)
	}
	for _, d := range []string{"Type=notify", "WatchdogSec=", "ExecReload=/bin/kill -HUP $MAINPID", "ProtectSystem=strict",
		"ReadWritePaths=/var/lib/treasury", "NoNewPrivileges=yes", "StateDirectory=treasury"} {
		if !strings.Contains(unit, "\n"+d) {
			t.Errorf("the unit lacks %s", d)
		}
	}
}
