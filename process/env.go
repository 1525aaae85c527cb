package process

import (
	"io"

	"treasury/kit/logfile"
	"treasury/sandbox"
)

// Env is what a command may touch of the process: its input and output
// and its environment variables. Tests give their own.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// SandboxObserve is told every payments exchange of an embedded
	// sandbox (tests check each against the vendor's document); nil in
	// the program.
	SandboxObserve func(sandbox.Exchange)
	// Logs rotate the request and session logs: the command's globals,
	// set when it loads its configuration (zero: never rotated).
	Logs logfile.Options
	// Command names the command this process runs ("dashboard",
	// "serve"), as its audit lines name it.
	Command string
}
