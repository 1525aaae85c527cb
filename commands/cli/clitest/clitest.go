// Package clitest runs commands in tests as main does: in an environment
// of their own (a temporary home, config and state directory, stderr in a
// buffer, every payments exchange of an embedded sandbox checked against
// the vendor's document), with main's exit status.
package clitest

import (
	"bytes"
	"context"
	"io"
	"net"
	"path/filepath"
	"testing"

	"treasury/commands/cli"
	"treasury/process"
	"treasury/sandbox/sandboxtest"
)

// Env is an environment for a command under test writing to stdout; its
// stderr is the returned buffer.
func Env(t testing.TB, stdout io.Writer) (*process.Env, *bytes.Buffer) {
	dir := t.TempDir()
	vars := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": filepath.Join(dir, "state")}
	var stderr bytes.Buffer
	return &process.Env{Stdout: stdout, Stderr: &stderr, Getenv: func(k string) string { return vars[k] },
		SandboxObserve: sandboxtest.Contract(t)}, &stderr
}

// Run runs command with args (its flags and the global ones) and returns
// the exit status main would.
func Run(ctx context.Context, command cli.Command, e *process.Env, args ...string) int {
	return cli.Exit(command(ctx, e, cli.DefaultGlobals(), args), e.Stderr)
}

// FreeAddr is a loopback address nothing listens on (for now).
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
