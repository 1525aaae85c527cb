package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc is an agent's running process, driven by lines.
type proc struct {
	spec agentSpec
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  chan string // its lines; closed when it ends
	busy sync.Mutex  // one command at a time
}

// self is the program that runs the agents: this binary (its main, or a
// test binary's TestMain, starts an agent when agentEnv is set).
var self = os.Args[0]

// start starts an agent and waits for it to be up.
func start(spec agentSpec) (*proc, error) {
	raw, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), agentEnv+"="+string(raw))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{spec: spec, cmd: cmd, in: in, out: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.out <- sc.Text()
		}
		close(p.out)
		_ = cmd.Wait()
	}()
	if line, err := p.next(90 * time.Second); err != nil || line != "up" {
		p.kill()
		return nil, fmt.Errorf("agent %s did not start: %q %v", spec.User, line, err)
	}
	return p, nil
}

// next is the agent's next line.
func (p *proc) next(wait time.Duration) (string, error) {
	select {
	case line, ok := <-p.out:
		if !ok {
			return "", fmt.Errorf("agent %s ended", p.spec.User)
		}
		return line, nil
	case <-time.After(wait):
		return "", fmt.Errorf("agent %s said nothing in %s", p.spec.User, wait)
	}
}

// ask sends one command and returns its answer (its process may be
// killed meanwhile: an error then).
func (p *proc) ask(line string, wait time.Duration) (string, error) {
	p.busy.Lock()
	defer p.busy.Unlock()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		return "", err
	}
	return p.next(wait)
}

func (p *proc) signal(s syscall.Signal) { _ = p.cmd.Process.Signal(s) }

// kill ends the agent at once (SIGKILL), as a crash would.
func (p *proc) kill() {
	p.signal(syscall.SIGCONT)
	p.signal(syscall.SIGKILL)
	for range p.out {
	}
}

// quit ends the agent as an operator would.
func (p *proc) quit() {
	p.signal(syscall.SIGCONT)
	p.busy.Lock()
	_, _ = io.WriteString(p.in, "quit\n")
	p.busy.Unlock()
	done := make(chan struct{})
	go func() {
		for range p.out {
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		p.kill()
	}
}

// field is word i of an agent's answer.
func field(line string, i int) string {
	f := strings.Fields(line)
	if i < len(f) {
		return f[i]
	}
	return ""
}
