package doctor

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"

	"treasury/commands/sandbox/profiletest"
	"treasury/kit/portowner"
	"treasury/sandbox/sandboxtest"
)

// holderEnv marks the test binary started again as a process that holds
// a port under a treasury command line (its argv is the test's).
const holderEnv = "TREASURY_DOCTOR_HOLDER"

func TestMain(m *testing.M) {
	if addr := os.Getenv(holderEnv); addr != "" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			fmt.Println("listen:", err)
			os.Exit(1)
		}
		fmt.Println("up")
		bufio.NewReader(os.Stdin).ReadString('\n') // until the test closes stdin
		ln.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// holdAs holds addr in a child process whose command line is args.
func holdAs(t *testing.T, addr string, args ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Args = args
	cmd.Env = append(os.Environ(), holderEnv+"="+addr)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "up\n" {
		t.Fatalf("the holder said %q", line)
	}
}

// The webhook port held by this profile's own treasury serve (or
// dashboard) is its receiver, as on a live bastion: a warning saying so,
// not a failure; held by a treasury of another profile, or anything else,
// it fails.
func TestDoctorKnowsItsOwnServeHoldsThePort(t *testing.T) {
	srv := sandboxtest.Listen(t, nowOptions())
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"serve of the profile", []string{"treasury", "--config", "/etc/treasury.yaml", "--profile", "local-sandbox", "serve", "--listen", ":2222"},
			"WARN port  %s is held by treasury serve (pid %d) on profile local-sandbox: that process receives the notifications"},
		{"a dashboard naming no profile", []string{"/usr/local/bin/treasury"},
			"WARN port  %s is held by treasury dashboard (pid %d) on profile local-sandbox"},
		{"serve of another profile", []string{"treasury", "--profile=production", "serve"}, "FAIL port  %s is in use by"},
		{"the sandbox", []string{"treasury", "sandbox", "--addr", ":8787"}, "FAIL port  %s is in use by"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := ln.Addr().String()
			ln.Close()
			holdAs(t, addr, c.args...)
			pr, _ := portowner.LookupAddr(addr)
			_, out, _ := doctorRun(t, "--config", profiletest.Write(t, srv, addr, nil))
			want := c.want
			if pr.PID != 0 && (len(want) > 0 && want[0] == 'W') {
				want = fmt.Sprintf(want, addr, pr.PID)
			} else {
				want = fmt.Sprintf(want, addr)
			}
			wantLines(t, out, want)
		})
	}
}
