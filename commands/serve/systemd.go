package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"treasury/kit/sdnotify"
	"treasury/sshserve"
)

// readyPoll is how often, until it is ready, serve looks whether the
// store has data of every interface.
const readyPoll = 250 * time.Millisecond

// announce tells systemd (Type=notify) that the server is ready once it
// listens and the store has data of every interface its profile names,
// saying meanwhile in STATUS= what it waits for; it returns then, or when
// ctx ends. Without a manager (no NOTIFY_SOCKET) it does nothing.
func announce(ctx context.Context, n *sdnotify.Notifier, m *monitor, listen string, log *slog.Logger) {
	if n == nil {
		return
	}
	t := time.NewTicker(readyPoll)
	defer t.Stop()
	said := ""
	for {
		var status string
		switch un := m.pulse.unreadNow(); {
		case !m.listening.Load():
			status = "starting: the SSH server is not listening yet"
		case len(un) > 0:
			names := make([]string, len(un))
			for i, u := range un {
				names[i] = string(u)
			}
			status = "listening on " + listen + "; waiting for the first data from " + strings.Join(names, ", ")
		default:
			if _, err := n.Notify(sdnotify.Ready, sdnotify.Status("serving on "+listen)); err != nil {
				log.Warn("systemd: READY=1 not sent", "error", err.Error())
			}
			m.announced.Store(true)
			log.Info("ready: listening, with data of every interface", "listen", listen)
			return
		}
		if status != said {
			said = status
			_, _ = n.Notify(sdnotify.Status(status))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// watchdog sends WATCHDOG=1 at the pace WATCHDOG_USEC asks while the
// process's store answers (its pulse has not waited on it longer than
// that pace): a server whose store is stuck stops sending, and systemd
// restarts it (WatchdogSec=). It returns when ctx ends, at once when no
// watchdog is asked.
func watchdog(ctx context.Context, n *sdnotify.Notifier, getenv func(string) string, p *pulse, log *slog.Logger) error {
	every, err := sdnotify.WatchdogEvery(getenv, os.Getpid())
	if n == nil || errors.Is(err, sdnotify.ErrNoWatchdog) {
		return nil
	}
	if err != nil {
		return err
	}
	log.Info("systemd watchdog", "every_s", seconds(every))
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if !p.stuck(every) {
				_, _ = n.Notify(sdnotify.Watchdog)
			} else if ctx.Err() == nil {
				log.Error("systemd watchdog: the store does not answer; no WATCHDOG=1 sent")
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

// reload reads the access files again (SIGHUP): systemd hears RELOADING=1
// then READY=1, and the log says what was read or what is unusable.
// Sessions already open keep running.
func reload(n *sdnotify.Notifier, srv *sshserve.Server, m *monitor, listen string) {
	_, _ = n.Notify(sdnotify.Reloading, sdnotify.MonotonicNow(), sdnotify.Status("reloading the access files"))
	status := "serving on " + listen
	if r, err := srv.Reload(); err != nil {
		status += fmt.Sprintf("; the reload found faults (%s read): see the log", r)
	}
	if !m.announced.Load() {
		return // not ready yet: announce says READY=1 when it is
	}
	_, _ = n.Notify(sdnotify.Ready, sdnotify.Status(status))
}

// seconds is a duration for the log (a number, under a key ending _s).
func seconds(d time.Duration) float64 { return d.Round(time.Millisecond).Seconds() }
