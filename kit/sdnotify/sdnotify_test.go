package sdnotify

import (
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// listen is a fake service manager's notification socket.
func listen(t *testing.T, name string) *net.UnixConn {
	t.Helper()
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func read(t *testing.T, c *net.UnixConn) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	b := make([]byte, 4096)
	n, err := c.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[:n])
}

func TestNotifyPathAndAbstractSockets(t *testing.T) {
	for _, name := range []string{filepath.Join(t.TempDir(), "notify"), "@treasury-sdnotify-test-" + strings.ReplaceAll(t.Name(), "/", "-")} {
		c := listen(t, name)
		n := FromEnv(func(k string) string {
			if k == "NOTIFY_SOCKET" {
				return name
			}
			return ""
		})
		if ok, err := n.Notify(Ready, Status("serving on :2222")); !ok || err != nil {
			t.Fatalf("%s: %v %v", name, ok, err)
		}
		if got := read(t, c); got != "READY=1\nSTATUS=serving on :2222\n" {
			t.Errorf("%s: got %q", name, got)
		}
	}
	var none *Notifier = FromEnv(func(string) string { return "" })
	if ok, err := none.Notify(Ready); ok || err != nil || none != nil {
		t.Errorf("without NOTIFY_SOCKET: %v %v", ok, err)
	}
	if m := MonotonicNow(); !strings.HasPrefix(m, "MONOTONIC_USEC=") {
		t.Errorf("MonotonicNow = %q", m)
	}
}

func TestWatchdogEvery(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	if d, err := WatchdogEvery(env("WATCHDOG_USEC", "2000000"), 42); err != nil || d != time.Second {
		t.Errorf("2 s asked: every %v, %v; want 1 s", d, err)
	}
	if d, err := WatchdogEvery(env("WATCHDOG_USEC", "2000000", "WATCHDOG_PID", "42"), 42); err != nil || d != time.Second {
		t.Errorf("for this pid: %v %v", d, err)
	}
	if _, err := WatchdogEvery(env("WATCHDOG_USEC", "2000000", "WATCHDOG_PID", "7"), 42); !errors.Is(err, ErrNoWatchdog) {
		t.Errorf("for another pid: %v", err)
	}
	if _, err := WatchdogEvery(env(), 42); !errors.Is(err, ErrNoWatchdog) {
		t.Errorf("none asked: %v", err)
	}
	if _, err := WatchdogEvery(env("WATCHDOG_USEC", "soon"), 42); err == nil || errors.Is(err, ErrNoWatchdog) {
		t.Errorf("a bad value: %v", err)
	}
}
