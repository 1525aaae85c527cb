// Package sdnotify speaks systemd's service notification protocol
// (sd_notify(3)): a service started with Type=notify tells the manager,
// in datagrams on the unix socket NOTIFY_SOCKET names, that it is ready
// (READY=1), reloading (RELOADING=1), stopping (STOPPING=1), alive
// (WATCHDOG=1, as often as WATCHDOG_USEC asks) and what it is doing
// (STATUS=...). Outside systemd (no NOTIFY_SOCKET) every call does
// nothing. It is the protocol's few lines, rather than a dependency.
package sdnotify

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Notifier sends to the service manager's socket; a nil Notifier (not
// under systemd) sends nothing.
type Notifier struct {
	addr string
}

// FromEnv is the notifier of the socket NOTIFY_SOCKET names (a path, or
// "@name" for an abstract socket); nil when it names none.
func FromEnv(getenv func(string) string) *Notifier {
	addr := getenv("NOTIFY_SOCKET")
	if addr == "" {
		return nil
	}
	return &Notifier{addr: addr}
}

// States, one a line of a notification.
const (
	Ready     = "READY=1"
	Reloading = "RELOADING=1"
	Stopping  = "STOPPING=1"
	Watchdog  = "WATCHDOG=1"
)

// Status is the STATUS= line: what systemctl status shows.
func Status(s string) string {
	return "STATUS=" + strings.ReplaceAll(s, "\n", " ")
}

// MonotonicNow is the MONOTONIC_USEC= line that goes with RELOADING=1
// (CLOCK_MONOTONIC in microseconds: systemd 253's Type=notify-reload
// needs it; older managers ignore it).
func MonotonicNow() string {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return ""
	}
	return "MONOTONIC_USEC=" + strconv.FormatInt(ts.Nano()/1000, 10)
}

// Notify sends the states, one a line, in one datagram; false when there
// is no manager to tell.
func (n *Notifier) Notify(states ...string) (bool, error) {
	if n == nil {
		return false, nil
	}
	var lines []string
	for _, s := range states {
		if s != "" {
			lines = append(lines, s)
		}
	}
	if len(lines) == 0 {
		return true, nil
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: n.addr, Net: "unixgram"})
	if err != nil {
		return false, fmt.Errorf("sd_notify %s: %w", n.addr, err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(strings.Join(lines, "\n") + "\n")); err != nil {
		return false, fmt.Errorf("sd_notify %s: %w", n.addr, err)
	}
	return true, nil
}

// ErrNoWatchdog is WatchdogEvery's answer when the manager asks for no
// watchdog (WATCHDOG_USEC unset, or set for another process).
var ErrNoWatchdog = errors.New("sdnotify: no watchdog asked of this process")

// WatchdogEvery is how often to send WATCHDOG=1: half the interval
// WATCHDOG_USEC gives, as sd_watchdog_enabled(3) advises, when it is
// meant for this process (WATCHDOG_PID unset or pid).
func WatchdogEvery(getenv func(string) string, pid int) (time.Duration, error) {
	v := getenv("WATCHDOG_USEC")
	if v == "" {
		return 0, ErrNoWatchdog
	}
	if p := getenv("WATCHDOG_PID"); p != "" && p != strconv.Itoa(pid) {
		return 0, ErrNoWatchdog
	}
	us, err := strconv.ParseUint(v, 10, 63)
	if err != nil || us == 0 {
		return 0, fmt.Errorf("sdnotify: WATCHDOG_USEC=%q is not a positive number of microseconds", v)
	}
	return time.Duration(us) * time.Microsecond / 2, nil
}
