// Package portowner names the process that holds a local TCP port, so
// that "address already in use" can say by whom: "127.0.0.1:8443 is in
// use by treasury (pid 4242)". It is best effort: on Linux it reads
// /proc/net/tcp and /proc/net/tcp6 for the listening socket's inode and
// then /proc/<pid>/fd for the process holding it, which needs no root for
// the user's own processes (another user's are found only with the right
// to read their fd directory). Elsewhere, or when nothing is found, it
// reports nothing.
package portowner

import (
	"fmt"
	"net"
	"strconv"
)

// Process is a process holding a port.
type Process struct {
	PID     int
	Command string // its name (/proc/<pid>/comm), "" when unreadable
	// Args is its command line (/proc/<pid>/cmdline), the program's name
	// first; nil when unreadable.
	Args []string
	// Exe is the path of its executable (/proc/<pid>/exe) and Files the
	// files it holds open (its descriptors that are files, not sockets or
	// pipes): what tells a process apart whatever its program is named;
	// empty when unreadable.
	Exe   string
	Files []string
}

// String is "treasury (pid 4242)", or "pid 4242" without a name.
func (p Process) String() string {
	if p.Command == "" {
		return fmt.Sprintf("pid %d", p.PID)
	}
	return fmt.Sprintf("%s (pid %d)", p.Command, p.PID)
}

// Lookup finds the process listening on TCP port, on any local address,
// IPv4 or IPv6.
func Lookup(port int) (Process, bool) {
	if port <= 0 || port > 65535 {
		return Process{}, false
	}
	return lookup(port)
}

// Name names the process listening on TCP port ("treasury (pid 4242)"),
// or returns "" when it cannot tell.
func Name(port int) string {
	if p, ok := Lookup(port); ok {
		return p.String()
	}
	return ""
}

// LookupAddr is Lookup for the port of a listen address such as ":8443".
func LookupAddr(addr string) (Process, bool) {
	_, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return Process{}, false
	}
	port, err := strconv.Atoi(ps)
	if err != nil {
		return Process{}, false
	}
	return Lookup(port)
}

// NameAddr is Name for the port of a listen address such as ":8443" or
// "127.0.0.1:8443"; "" when addr has no port or it cannot tell.
func NameAddr(addr string) string {
	_, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	port, err := strconv.Atoi(ps)
	if err != nil {
		return ""
	}
	return Name(port)
}
