package portowner

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func lookup(port int) (Process, bool) { return lookupIn("/proc", port) }

// lookupIn searches the proc file system mounted at proc.
func lookupIn(proc string, port int) (Process, bool) {
	inodes := map[string]bool{}
	for _, f := range []string{"net/tcp", "net/tcp6"} {
		listeningInodes(filepath.Join(proc, f), port, inodes)
	}
	if len(inodes) == 0 {
		return Process{}, false
	}
	procs, err := os.ReadDir(proc)
	if err != nil {
		return Process{}, false
	}
	for _, d := range procs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid <= 0 {
			continue
		}
		if holds(filepath.Join(proc, d.Name(), "fd"), inodes) {
			comm, _ := os.ReadFile(filepath.Join(proc, d.Name(), "comm"))
			var args []string
			if b, err := os.ReadFile(filepath.Join(proc, d.Name(), "cmdline")); err == nil {
				args = strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
			}
			exe, _ := os.Readlink(filepath.Join(proc, d.Name(), "exe"))
			return Process{PID: pid, Command: strings.TrimSpace(string(comm)), Args: args, Exe: exe,
				Files: openFiles(filepath.Join(proc, d.Name(), "fd"))}, true
		}
	}
	return Process{}, false
}

// tcpListen is the state of a listening socket in /proc/net/tcp.
const tcpListen = "0A"

// listeningInodes adds to inodes the inode of each listening socket of
// port in the /proc/net/tcp-format file path. Lines it cannot read are
// skipped.
func listeningInodes(path string, port int, inodes map[string]bool) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != tcpListen {
			continue
		}
		i := strings.LastIndexByte(fields[1], ':')
		if i < 0 {
			continue
		}
		p, err := strconv.ParseUint(fields[1][i+1:], 16, 16)
		if err != nil || int(p) != port || fields[9] == "0" {
			continue
		}
		inodes[fields[9]] = true
	}
}

// openFiles are the paths of the files the descriptors of the fd
// directory dir point to (not sockets, pipes or anonymous inodes).
func openFiles(dir string) []string {
	fds, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && strings.HasPrefix(target, "/") {
			out = append(out, target)
		}
	}
	return out
}

// holds reports whether a file descriptor in the fd directory dir is one
// of the sockets. A directory it may not read holds nothing.
func holds(dir string, inodes map[string]bool) bool {
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(dir, fd.Name()))
		if err != nil {
			continue
		}
		if inode, ok := strings.CutPrefix(target, "socket:["); ok && inodes[strings.TrimSuffix(inode, "]")] {
			return true
		}
	}
	return false
}
