package portowner

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLookupFindsThisProcess: a port this test listens on is held by
// this process, on IPv4 and IPv6 loopback.
func TestLookupFindsThisProcess(t *testing.T) {
	for _, network := range []string{"tcp4", "tcp6"} {
		addr := "127.0.0.1:0"
		if network == "tcp6" {
			addr = "[::1]:0"
		}
		ln, err := net.Listen(network, addr)
		if err != nil {
			t.Logf("%s: %v (skipped)", network, err)
			continue
		}
		port := ln.Addr().(*net.TCPAddr).Port
		p, ok := Lookup(port)
		comm, _ := os.ReadFile("/proc/self/comm")
		if !ok || p.PID != os.Getpid() || p.Command != strings.TrimSpace(string(comm)) {
			t.Errorf("%s: Lookup(%d) = %+v, %v; want pid %d", network, port, p, ok, os.Getpid())
		}
		if got := NameAddr(ln.Addr().String()); !strings.Contains(got, "(pid ") {
			t.Errorf("%s: NameAddr = %q", network, got)
		}
		ln.Close()
		if p, ok := Lookup(port); ok {
			t.Errorf("%s: a closed port is held by %v", network, p)
		}
	}
}

// TestLookupInFakeProc reads a proc tree made by hand: only a listening
// socket of the port counts, found through the fd links of its process.
func TestLookupInFakeProc(t *testing.T) {
	proc := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(proc, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(name, target string) {
		t.Helper()
		path := filepath.Join(proc, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
	const head = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	// Port 0x20FB = 8443: an established connection (01) on inode 111, a
	// listener on IPv6 (inode 222); port 0x1F90 = 8080 listens on 333.
	write("net/tcp", head+
		"   0: 0100007F:20FB 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 111 1 0 20 4 30 10 -1\n"+
		"   1: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 333 1 0 100 0 0 10 0\n"+
		"garbage\n")
	write("net/tcp6", head+
		"   0: 00000000000000000000000000000000:20FB 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 222 1 0 100 0 0 10 0\n")
	write("100/comm", "curl\n")
	link("100/fd/3", "socket:[111]")
	write("200/comm", "treasury\n")
	link("200/fd/0", "/dev/null")
	link("200/fd/7", "socket:[222]")
	write("300/comm", "nginx\n")
	link("300/fd/5", "socket:[333]")
	write("self/comm", "not a pid\n")

	if p, ok := lookupIn(proc, 8443); !ok || p.PID != 200 || p.String() != "treasury (pid 200)" {
		t.Errorf("8443: %+v %v, want treasury (pid 200)", p, ok)
	}
	if p, ok := lookupIn(proc, 8080); !ok || p.PID != 300 {
		t.Errorf("8080: %+v %v", p, ok)
	}
	if p, ok := lookupIn(proc, 9999); ok {
		t.Errorf("9999: %+v", p)
	}
	if p, ok := lookupIn(filepath.Join(proc, "missing"), 8443); ok {
		t.Errorf("no proc: %+v", p)
	}
	if Name(0) != "" || Name(70000) != "" || NameAddr("nonsense") != "" || NameAddr(":http") != "" {
		t.Error("a bad port named a process")
	}
	if (Process{PID: 7}).String() != "pid 7" {
		t.Error("a process without a name")
	}
}
