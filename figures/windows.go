package figures

import (
	"strconv"
	"time"
)

// WindowWord is a window as typed and shown: 1h, 24h, 7d, 30d.
func WindowWord(d time.Duration) string {
	if d%(24*time.Hour) == 0 && d > 24*time.Hour {
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	return strconv.Itoa(int(d/time.Hour)) + "h"
}
