package doctor

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"treasury/commands/cli"
	"treasury/config"
	"treasury/kit/buildinfo"
	"treasury/kit/words"
	"treasury/process"
	"treasury/ui"
	"treasury/ui/sanitize"
)

// doctorHelp says what `treasury doctor` checks and what its exit status
// means.
const doctorHelp = `
Checks the profile against the services it names, one line per check:
for each interface (liquidity, payments, reporting, wallet, custody) the
base URL, that its host resolves, that a TCP connection opens and in how
long, the TLS version and certificate expiry for https, and that the
credentials work (a token is issued and a page of one record is read);
then the webhook receiver's port (free, or held and by which process),
the clock against the servers' Date headers, and the state directory: its
free space, that it can be written (every action is refused while the
audit log cannot be), and the audit log's chain with the attempts that
have no outcome; with a site (cluster:), its record, each of its nodes
and its poller. A failure says what to do.
Secrets are never printed: credentials are named by their client ids.
Without a configuration it checks the embedded sandbox.

exit status:
  0  every check passed (warnings allowed)
  1  a check failed, or the profile could not be loaded
  2  usage
`

// Command runs `treasury doctor`: the diagnosis (Run) of the profile the
// globals name, written as it goes.
func Command(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	timeout := fs.Duration("timeout", DefaultTimeout, "bound each check (a lookup, a connection, a handshake, a request) to this `duration`")
	fs.Usage = func() {
		var b strings.Builder
		b.WriteString("usage: treasury doctor [--timeout D] [global flags]\n\nflags:\n")
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(e.Stderr)
		b.WriteString(doctorHelp)
		io.WriteString(e.Stderr, b.String())
	}
	if err := cli.ParseFlags(fs, e, &g, args); err != nil {
		return err
	}
	if *timeout <= 0 {
		fmt.Fprintf(e.Stderr, "treasury doctor: --timeout must be positive, got %s\n", *timeout)
		return cli.ErrUsage
	}
	// What the binary is comes first, whatever follows: a ticket with
	// the doctor's output says which build it was.
	fmt.Fprintln(e.Stdout, buildinfo.Read().Line("treasury"))
	cfg, err := g.LoadConfig(e)
	if err != nil {
		return err
	}
	embedded := ""
	if cfg.Embedded != nil {
		sb, scfg, err := process.StartEmbedded(cfg, e.SandboxObserve)
		if err != nil {
			return err
		}
		defer sb.Close()
		cfg, embedded = scfg, sb.URL
	}
	w := newDoctorWriter(e)
	w.header(cfg, embedded, *timeout)
	sections := Run(ctx, cfg, Options{Timeout: *timeout, Proxy: http.ProxyFromEnvironment,
		UserAgent: process.UserAgent(), Embedded: embedded != "", StateDir: config.StateDir(e.Getenv)}, w.section)
	failed := w.summary(sections)
	if err := w.flush(); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("doctor: %s failed", words.Count(failed, "check"))
	}
	return nil
}

// doctorWriter writes the report: ✓ ✗ ! · in colour on a terminal, the
// words ok, FAIL, WARN and -- elsewhere and with NO_COLOR (a log, a
// ticket, a screen reader), so that it reads the same without colour.
type doctorWriter struct {
	out   io.Writer
	b     strings.Builder
	err   error
	fancy bool
	theme ui.Theme
	// width wraps long lines under their start on a terminal; 0 (a file,
	// a pipe) writes each check on one line, for grep.
	width int
}

func newDoctorWriter(e *process.Env) *doctorWriter {
	colors := colorprofile.NoTTY // a file, a pipe: plain text
	if cli.IsTerminal(e.Stdout) {
		colors = ui.ColorProfile(e.Getenv)
	}
	theme := ui.NewTheme(colors, ui.DarkBackground(e.Getenv("COLORFGBG")), nil)
	w := &doctorWriter{out: e.Stdout, fancy: fancyMarks(cli.IsTerminal(e.Stdout), e.Getenv), theme: theme}
	if f, ok := e.Stdout.(*os.File); ok && cli.IsTerminal(f) {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols >= 40 {
			w.width = cols
		}
	}
	return w
}

// line writes prefix (of width indent) and text, wrapped to the terminal
// with every further line indented under the text's start.
func (w *doctorWriter) line(prefix string, indent int, text string) {
	w.b.WriteString(prefix)
	if w.width == 0 || indent+ansi.StringWidth(text) <= w.width {
		w.b.WriteString(text + "\n")
		return
	}
	pad := strings.Repeat(" ", indent)
	for i, l := range wrapWords(text, w.width-indent) {
		if i > 0 {
			w.b.WriteString(pad)
		}
		w.b.WriteString(l + "\n")
	}
}

// wrapWords breaks text into lines of at most width cells at its spaces
// only, so that an id, a URL or a fingerprint is never cut (one longer
// than width has a line of its own).
func wrapWords(text string, width int) []string {
	var lines []string
	cur, curW := "", 0
	for _, word := range strings.Fields(text) {
		ww := ansi.StringWidth(word)
		if cur != "" && curW+1+ww > width {
			lines, cur, curW = append(lines, cur), "", 0
		}
		if cur != "" {
			cur, curW = cur+" ", curW+1
		}
		cur, curW = cur+word, curW+ww
	}
	return append(lines, cur)
}

// fancyMarks says whether to mark checks with symbols: on a terminal,
// unless NO_COLOR is set or TERM says the terminal is dumb.
func fancyMarks(terminal bool, getenv func(string) string) bool {
	term := getenv("TERM")
	return terminal && getenv("NO_COLOR") == "" && term != "" && term != "dumb"
}

// mark is the status of a check or a section, four columns wide.
func (w *doctorWriter) mark(s Status) string {
	if !w.fancy {
		return map[Status]string{OK: "ok  ", Warn: "WARN", Fail: "FAIL", Skip: "--  "}[s]
	}
	t := w.theme
	return map[Status]string{OK: t.OK.Render("✓"), Warn: t.Warn.Render("!"),
		Fail: t.Bad.Render("✗"), Skip: t.Muted.Render("·")}[s]
}

// markWidth is the width mark takes, for the lines under a check.
func (w *doctorWriter) markWidth() int {
	if w.fancy {
		return 1
	}
	return 4
}

func (w *doctorWriter) header(cfg *config.Config, embedded string, timeout time.Duration) {
	where := cfg.File
	switch {
	case embedded != "":
		where = "the embedded sandbox at " + embedded + ", started for this check"
	case where == "":
		where = "built-in"
	}
	w.line("", 0, fmt.Sprintf("treasury doctor: profile %s (environment %s), %s", sanitize.Line(cfg.Profile), sanitize.Line(cfg.Environment), sanitize.Line(where)))
	w.line("", 0, fmt.Sprintf("each check bounded by %s", timeout))
	w.flush()
}

// section writes one section as soon as it is done, so that a slow one
// does not hide those before it.
func (w *doctorWriter) section(s Section) {
	name := fmt.Sprintf("%-10s", s.Name)
	if w.fancy {
		name = w.theme.Bold.Render(name)
	}
	w.b.WriteString("\n")
	head := w.mark(s.Status()) + " " + name + " "
	w.line(head, w.markWidth()+12, sanitize.Line(s.Target))
	indent := 2 + w.markWidth() + 1 + 5 + 1
	for _, c := range s.Checks {
		w.line(fmt.Sprintf("  %s %-5s ", w.mark(c.Status), c.Name), indent, sanitize.Line(c.Detail))
		if c.Guidance != "" && c.Status != OK {
			what := "what to do: "
			if w.fancy {
				what = w.theme.Muted.Render(what)
			}
			w.line(strings.Repeat(" ", indent)+what, indent+len("what to do: "), sanitize.Line(c.Guidance))
		}
	}
	w.flush()
}

// summary writes the count of checks by outcome and names the failed
// ones; it returns how many failed.
func (w *doctorWriter) summary(sections []Section) int {
	n := map[Status]int{}
	var failed, warned []string
	for _, s := range sections {
		for _, c := range s.Checks {
			n[c.Status]++
			switch c.Status {
			case Fail:
				failed = append(failed, s.Name+" "+c.Name)
			case Warn:
				warned = append(warned, s.Name+" "+c.Name)
			}
		}
	}
	line := fmt.Sprintf("all %d checks that apply passed", n[OK]+n[Warn])
	if len(failed) > 0 {
		line = fmt.Sprintf("%d of %d checks failed: %s", len(failed), n[OK]+n[Warn]+n[Fail], strings.Join(failed, ", "))
	}
	if len(warned) > 0 {
		line += fmt.Sprintf("; %s: %s", words.Count(len(warned), "warning"), strings.Join(warned, ", "))
	}
	if n[Skip] > 0 {
		line += fmt.Sprintf(" (%d not applicable or not tried)", n[Skip])
	}
	w.b.WriteString("\n")
	w.line(w.mark(worst(n))+" ", w.markWidth()+1, line)
	return len(failed)
}

func worst(n map[Status]int) Status {
	for _, s := range []Status{Fail, Warn, OK} {
		if n[s] > 0 {
			return s
		}
	}
	return Skip
}

// flush writes what is buffered; the first write error is kept.
func (w *doctorWriter) flush() error {
	if w.err == nil && w.b.Len() > 0 {
		_, w.err = io.WriteString(w.out, w.b.String())
	}
	w.b.Reset()
	return w.err
}
