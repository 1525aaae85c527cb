// Command sshload drives sessions of `treasury serve` over SSH as users
// would, and times what they see: it opens -n sessions at once (each a
// PTY of -size, its output drawn on a terminal emulator), waits until
// every screen shows -ready, types the same keys in all of them at the
// same instant (-send, repeatable, -gap apart), and reports, per session
// and as min/median/max, how long each screen took to show -first and
// then -until (regular expressions over the screen's text). The sessions
// then stay open -hold (the server's live heap is read meanwhile, with
// `serve --stats-every`) and close.
//
//	go run ./tools/sshload -addr 127.0.0.1:2247 -key KEY -n 20 \
//	  -send ':' -send 'payments all 90d\r' -first 'last 90d' -until 'scope \[all \d{6}' -hold 60s
//
// In -send, \r is Enter and \e escape. It is a measuring program, not part
// of the binary.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"treasury/ui/uitest"
)

type sends []string

func (s *sends) String() string     { return strings.Join(*s, ",") }
func (s *sends) Set(v string) error { *s = append(*s, v); return nil }

// session is one SSH client with its screen.
type session struct {
	c     *gossh.Client
	sess  *gossh.Session
	stdin io.WriteCloser
	scr   *uitest.Scr
	fed   chan struct{}
}

func (s *session) Write(p []byte) (int, error) {
	s.scr.Write(p)
	select {
	case s.fed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// waitFor waits until the screen matches re, at most limit; it answers
// how long it waited and whether it matched.
func (s *session) waitFor(re *regexp.Regexp, since time.Time, limit time.Duration) (time.Duration, bool) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if re.MatchString(s.scr.String()) {
			return time.Since(since), true
		}
		select {
		case <-s.fed:
		case <-tick.C:
		case <-deadline.C:
			return time.Since(since), false
		}
	}
}

func dial(addr, user string, signer gossh.Signer, w, h int) (*session, error) {
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second}) // a loopback measurement
	if err != nil {
		return nil, err
	}
	sess, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, err
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		c.Close()
		return nil, err
	}
	s := &session{c: c, sess: sess, scr: uitest.NewScreen(w, h), fed: make(chan struct{}, 1)}
	sess.Stdout, sess.Stderr = s, io.Discard
	if s.stdin, err = sess.StdinPipe(); err != nil {
		c.Close()
		return nil, err
	}
	if err := sess.Shell(); err != nil {
		c.Close()
		return nil, err
	}
	return s, nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:2247", "serve's `host:port`")
	keyFile := flag.String("key", "", "private key `file` of a key serve accepts")
	n := flag.Int("n", 20, "sessions")
	size := flag.String("size", "120x40", "each PTY's `COLSxROWS`")
	ready := flag.String("ready", `Overview`, "`regexp` every screen shows before the keys are sent")
	first := flag.String("first", "", "`regexp`: time until each screen shows it")
	until := flag.String("until", "", "`regexp`: time until each screen shows it")
	limit := flag.Duration("limit", 2*time.Minute, "longest wait for -ready, -first and -until")
	hold := flag.Duration("hold", 0, "keep the sessions open this long after -until")
	gap := flag.Duration("gap", 300*time.Millisecond, "wait between two -send")
	dump := flag.Bool("dump", false, "print the first session's screen at the end")
	var keys sends
	flag.Var(&keys, "send", "keys to type in every session (repeatable; \\r is Enter, \\e escape)")
	flag.Parse()
	var w, h int
	if _, err := fmt.Sscanf(*size, "%dx%d", &w, &h); err != nil {
		fail("-size: %v", err)
	}
	pem, err := os.ReadFile(*keyFile)
	if err != nil {
		fail("-key: %v", err)
	}
	signer, err := gossh.ParsePrivateKey(pem)
	if err != nil {
		fail("-key: %v", err)
	}
	readyRe := regexp.MustCompile(*ready)
	ss := make([]*session, *n)
	var wg sync.WaitGroup
	errs := make([]error, *n)
	for i := range ss {
		// One connection at a time: serve refuses connections that wait
		// to authenticate past its -max-startups, as sshd does.
		s, err := dial(*addr, fmt.Sprintf("load%02d", i+1), signer, w, h)
		if err != nil {
			errs[i] = err
			continue
		}
		ss[i] = s
		wg.Go(func() {
			if _, ok := s.waitFor(readyRe, time.Now(), *limit); !ok {
				errs[i] = fmt.Errorf("never ready; the screen:\n%s", s.scr.String())
			}
		})
	}
	wg.Wait()
	defer func() {
		for _, s := range ss {
			if s != nil {
				s.c.Close()
			}
		}
	}()
	for i, err := range errs {
		if err != nil {
			fail("session %d: %v", i+1, err)
		}
	}
	fmt.Printf("%d sessions ready at %s\n", *n, *size)
	t0 := time.Now()
	for i, k := range keys {
		if i > 0 {
			time.Sleep(*gap)
		}
		b := []byte(strings.NewReplacer(`\r`, "\r", `\e`, "\x1b").Replace(k))
		for _, s := range ss {
			if _, err := s.stdin.Write(b); err != nil {
				fail("send: %v", err)
			}
		}
	}
	sent := time.Since(t0)
	measure := func(name, expr string) {
		if expr == "" {
			return
		}
		re := regexp.MustCompile(expr)
		took := make([]time.Duration, len(ss))
		var missed atomic.Int32
		for i, s := range ss {
			wg.Go(func() {
				d, ok := s.waitFor(re, t0, *limit)
				took[i] = d
				if !ok {
					missed.Add(1)
				}
			})
		}
		wg.Wait()
		slices.Sort(took)
		fmt.Printf("%-6s %q: min %v  median %v  max %v (from the first key; the keys took %v)", name, expr,
			took[0].Round(time.Millisecond), took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond), sent.Round(time.Millisecond))
		if m := missed.Load(); m > 0 {
			fmt.Printf("  %d never within %v", m, *limit)
		}
		fmt.Println()
	}
	measure("first", *first)
	measure("until", *until)
	if *hold > 0 {
		time.Sleep(*hold)
	}
	if *dump {
		fmt.Println(ss[0].scr.String())
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "sshload: "+format+"\n", args...)
	os.Exit(1)
}
