package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"treasury/commands/cli"
	"treasury/commands/cli/clitest"
	"treasury/commands/completion"
	"treasury/process"
)

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{nil, 1, ""}, // the dashboard needs a terminal: see TestDashboardNeedsTerminal
		{[]string{"--read-only"}, 1, ""},
		{[]string{"dashboard", "--profile", "sandbox"}, 1, ""},
		{[]string{"help"}, 0, "commands:"},
		{[]string{"version"}, 0, "treasury "},
		{[]string{"nope"}, 2, ""},
		{[]string{"--bogus"}, 2, ""},
		{[]string{"version", "extra"}, 2, ""},
		{[]string{"--profile", "uat"}, 1, ""}, // no file holds a profile uat
		{[]string{"sandbox", "--error-rate", "2"}, 2, ""},
	} {
		var out bytes.Buffer
		e, stderr := clitest.Env(t, &out)
		if code := run(context.Background(), tc.args, e); code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("run %v = %d, stdout %q, stderr %q; want %d and %q", tc.args, code, out.String(), stderr.String(), tc.code, tc.out)
		}
	}
}

func TestDashboardNeedsTerminal(t *testing.T) {
	var out bytes.Buffer
	e, stderr := clitest.Env(t, &out)
	if code := run(context.Background(), nil, e); code != 1 || !strings.Contains(stderr.String(), "needs a terminal") {
		t.Fatalf("code %d, stderr %q", code, stderr.String())
	}
}

// mainExecEnv marks the test binary started again as treasury itself
// (the completion script calls the binary it completes).
const mainExecEnv = "TREASURY_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainExecEnv) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], &process.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}))
	}
	os.Exit(m.Run())
}

// What a TAB completes, from the binary's own table and flag sets: the
// commands, get's resources, audit's subcommands, a command's flags with
// the global ones, profile names after --profile (of the file --config
// names), output formats, files where a flag takes a file (nothing).
func TestCompletionWords(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("profiles:\n  uat: {}\n  production: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(string) string { return "" }
	for _, c := range []struct {
		line string // the words after treasury, the last at the cursor
		want []string
		not  []string
	}{
		{"", []string{"dashboard", "get", "serve", "audit", "doctor", "version", "completion"}, nil},
		{"ser", []string{"serve"}, []string{"get"}},
		{"get pay", []string{"payment-balances", "payments", "payment"}, []string{"quotes"}},
		{"--read-only get w", []string{"wallets", "wallet", "wallet-balances", "webhooks"}, nil},
		{"serve --tr", []string{"--trusted-user-ca-keys"}, nil},
		{"serve --", []string{"--metrics-listen", "--roles", "--revoked-keys", "--authorized-keys", "--profile", "--config"}, []string{"--timeout"}},
		{"doctor --", []string{"--timeout", "--profile"}, []string{"--metrics-listen"}},
		{"audit ", []string{"verify", "ack"}, nil},
		{"audit verify --", []string{"--file", "--cluster"}, []string{"--reason"}},
		{"--config " + cfg + " --profile ", []string{"production", "uat"}, []string{"sandbox"}},
		{"--config " + cfg + " get quotes --profile u", []string{"uat"}, nil},
		{"--config " + cfg + " --profile=p", []string{"--profile=production"}, nil},
		{"--config " + cfg + " --profile = p", []string{"production"}, nil},
		{"get payments -o ", []string{"table", "json", "csv", "summary"}, nil},
		{"completion ", []string{"bash", "zsh", "fish"}, nil},
		{"serve --authorized-keys ", nil, []string{"get", "--listen"}},
		{"nope ", nil, []string{"get"}},
	} {
		words := strings.Split(c.line, " ")
		got := completion.Words(completionTable(), words, env)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q completes %q, lacking %q", c.line, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("%q completes %q, with %q", c.line, got, w)
			}
		}
		if c.want == nil && len(got) != 0 {
			t.Errorf("%q completes %q, want nothing (files)", c.line, got)
		}
	}
	// Every command but help describes its flags without running (a
	// command that did not would run here).
	for _, c := range completionTable() {
		args := []string(nil)
		if len(c.Subcommands) > 0 {
			args = c.Subcommands[:1]
		}
		if fs := cli.FlagsOf(c.Run, args); (fs == nil) != (c.Name == "help") {
			t.Errorf("%s: flags %v", c.Name, fs)
		}
	}
}

// The bash script, sourced in a real bash, completes through the binary
// (here the test binary started again as treasury).
func TestBashCompletionScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed")
	}
	bin := t.TempDir()
	if err := os.Symlink(os.Args[0], filepath.Join(bin, "treasury")); err != nil {
		t.Fatal(err)
	}
	var script bytes.Buffer
	e, _ := clitest.Env(t, &script)
	if code := run(context.Background(), []string{"completion", "bash"}, e); code != 0 {
		t.Fatalf("completion bash: %d", code)
	}
	file := filepath.Join(bin, "treasury.bash")
	if err := os.WriteFile(file, script.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	complete := func(words ...string) []string {
		t.Helper()
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		prog := fmt.Sprintf(`source %s; complete -p treasury >/dev/null || exit 3; COMP_WORDS=(%s); COMP_CWORD=%d; _treasury; printf '%%s\n' "${COMPREPLY[@]}"`,
			file, strings.Join(quoted, " "), len(words)-1)
		cmd := exec.Command(bash, "--norc", "-c", prog)
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), mainExecEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return strings.Fields(string(out))
	}
	if got := complete("treasury", "ge"); !slices.Equal(got, []string{"get"}) {
		t.Errorf("treasury ge<TAB>: %q", got)
	}
	if got := complete("treasury", "get", "tok"); !slices.Equal(got, []string{"token"}) {
		t.Errorf("treasury get tok<TAB>: %q", got)
	}
	if got := complete("treasury", "serve", "--metr"); !slices.Equal(got, []string{"--metrics-listen"}) {
		t.Errorf("treasury serve --metr<TAB>: %q", got)
	}
}

// The zsh and fish scripts are whole (their shells, where installed,
// read them without a syntax error).
func TestCompletionScripts(t *testing.T) {
	for _, sh := range completion.Shells() {
		text, ok := completion.Script(sh)
		if !ok || !strings.Contains(text, "completion words --") {
			t.Errorf("%s: no script", sh)
			continue
		}
		path, err := exec.LookPath(sh)
		if err != nil {
			continue // not on this machine: bash, always here, runs above
		}
		file := filepath.Join(t.TempDir(), "script")
		os.WriteFile(file, []byte(text), 0o600)
		if out, err := exec.Command(path, "-n", file).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", sh, err, out)
		}
	}
	var out bytes.Buffer
	e, stderr := clitest.Env(t, &out)
	if code := run(context.Background(), []string{"completion", "tcsh"}, e); code != 2 || !strings.Contains(stderr.String(), `unknown shell "tcsh"`) {
		t.Errorf("an unknown shell: %d %q", code, stderr.String())
	}
}
