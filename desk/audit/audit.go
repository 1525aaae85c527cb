// Package audit is the operator action log: JSON lines saying who tried
// which action (freeze, unfreeze, lock, unlock, sweep) on which record,
// where and when, and how each attempt ended (done, failed, refused,
// cancelled, or unknown when no answer came).
//
// The log is written ahead: an attempt that sends a request to the
// platform is first an "attempt" line, appended and synced before the
// request leaves, naming the request exactly as it is sent; its end is a
// second line naming the attempt's seq. An attempt line without an
// outcome (Summary.Open) was in flight, or its process was killed: the
// platform may have applied it. An attempt that ends before anything is
// sent (refused, cancelled) is one line.
//
// The log is tamper-evident: each line carries its sequence number, the
// hash of the line before it (Genesis for the first) and its own hash (the
// SHA-256 of the line without its hash field), so a line changed, removed
// or moved breaks the chain where it happened (Verify). It lives in the
// XDG state directory, mode 0600, and is only ever appended to.
//
// It is one record for every process on the state directory: each
// process's Log appends under an exclusive advisory lock on the file, and
// first reads what the others appended, so the chain stays one and a
// decision taken under the lock (AppendDecided: which key an action
// sends) sees every line written before it. Followers (Follow) are told
// every line, this process's and the others', in the file's order. Each
// line names the process that wrote it (Proc), and a process that can
// write holds a lock of its own for its life (procs), so an attempt line
// without an outcome can be told in flight from interrupted (Alive).
//
// Damage is said, never a reason to lose a line: a torn last line (a
// crash mid-write) is moved to a file beside the log and the repair is a
// line of the log; a line broken in the middle is a Break that stays
// reported (Damage) until an operator acknowledges it (Ack, itself a
// line); a log that cannot be written is opened for reading, and every
// append is refused with the reason.
package audit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// FileName is the log's name inside the state directory.
const FileName = "audit.jsonl"

// Genesis is the prev of the first line: no line before it.
const Genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// Outcomes of an attempt.
const (
	OutcomeDone      = "done"      // the platform accepted the action
	OutcomeFailed    = "failed"    // the platform or the network refused it
	OutcomeRefused   = "refused"   // the dashboard refused it (read-only, role, no credential, wrong code, no reason)
	OutcomeCancelled = "cancelled" // the operator closed the confirmation without confirming
	OutcomeUnknown   = "unknown"   // sent, but no answer said whether it was done (a timeout, a lost answer)
	// OutcomeSuperseded ends an attempt whose key is spent without its
	// action holding now: the platform applied it earlier and the record
	// moved on since (an answer that only replayed the first one), or
	// never applied it and a later action moved the record. Applied says
	// which; a new intent on the record takes a new key.
	OutcomeSuperseded = "superseded"
	// OutcomeAttempt marks the line written before an attempt's request
	// is sent: its outcome is a later line whose Attempt is its Seq.
	OutcomeAttempt = "attempt"
)

// Actions the log writes about itself (the operators' actions are named by
// package actions).
const (
	// ActionRepair is the line that records a torn last line moved aside.
	ActionRepair = "repair"
	// ActionAck is an operator's acknowledgement of a Break.
	ActionAck = "ack"
	// ActionDamage records what a running process found done to the file
	// outside treasury (shrunk, replaced): a break of the chain until an
	// acknowledgement follows it, for Verify as for the header.
	ActionDamage = "damage"
)

// Proc names the process that wrote a line: its pid on the line's Host,
// the command, and an id drawn for its run (a pid is reused; the id is
// not), by which Alive tells whether it still runs.
type Proc struct {
	ID  string `json:"id"`
	PID int    `json:"pid"`
	// Cmd is the command: "dashboard", "serve", "audit".
	Cmd string `json:"cmd,omitempty"`
}

// String names the process in one line: "serve pid 4242".
func (p *Proc) String() string {
	if p == nil {
		return "an earlier process"
	}
	cmd := p.Cmd
	if cmd == "" {
		cmd = "treasury"
	}
	return fmt.Sprintf("%s pid %d", cmd, p.PID)
}

// Who is the person acting: the local OS user, or an SSH user and the
// fingerprint of the key they logged in with.
type Who struct {
	// Via is "local" (the process's own terminal) or "ssh".
	Via string `json:"via"`
	// User is the OS user name (local) or the SSH user name the client
	// sent (untrusted: sanitize before showing).
	User string `json:"user"`
	// Key is the SSH key's fingerprint (SHA256:...), which identifies the
	// person whatever user name they sent.
	Key string `json:"key,omitempty"`
	// Name is who the SSH key names, for people: the name= its line in the
	// authorized keys gives, else its comment (ana@laptop): two operators
	// who share a Unix user are told apart (untrusted text from the
	// file: sanitize before showing).
	Name string `json:"name,omitempty"`
	// Role is the SSH key's role (viewer, operator).
	Role string `json:"role,omitempty"`
	// From is the SSH client's address.
	From string `json:"from,omitempty"`
	// Cert is the OpenSSH user certificate the person logged in with
	// (Key is then the fingerprint of its key); zero without one.
	Cert Cert `json:"cert,omitzero"`
}

// Cert names an SSH user certificate as its CA issued it: the key id (the
// CA's name for the person) and the serial (the certificate's number, by
// which a revocation list names it).
type Cert struct {
	KeyID  string `json:"key_id"`
	Serial uint64 `json:"serial"`
}

// Ways of connecting.
const (
	ViaLocal = "local"
	ViaSSH   = "ssh"
)

// String names who in one line: "ana", "ssh:root ana@laptop SHA256:abc...
// (operator)" (the SSH user, the key's name and its fingerprint),
// `ssh:ben SHA256:abc... cert "ben@corp" serial 17 (operator)`.
func (w Who) String() string {
	if w.Via != ViaSSH {
		if w.User == "" {
			return "unknown"
		}
		return w.User
	}
	var b strings.Builder
	b.WriteString("ssh:" + w.User)
	if w.Name != "" {
		b.WriteString(" " + w.Name)
	}
	if w.Key != "" {
		b.WriteString(" " + w.Key)
	}
	if w.Cert != (Cert{}) {
		b.WriteString(" cert " + strconv.Quote(w.Cert.KeyID) + " serial " + strconv.FormatUint(w.Cert.Serial, 10))
	}
	if w.Role != "" {
		b.WriteString(" (" + w.Role + ")")
	}
	return b.String()
}

// Target is the record acted on.
type Target struct {
	// Kind is "transaction", "endpoint" or "sweep" (or "audit" for the
	// log's own lines: a repair, an acknowledgement).
	Kind string `json:"kind"`
	ID   string `json:"id"`
	// Detail names the record further, as the confirmation showed it:
	// wallet, vault, asset and quantity of a transaction; alias, address
	// and ledger of an endpoint; name and destination of a sweep (and the
	// instance a run started).
	Detail map[string]string `json:"detail,omitempty"`
}

// Record is one line of the log. Seq, Prev, Time, Host and Hash are set by
// Append; the rest says what was attempted and how it ended.
type Record struct {
	Seq  uint64 `json:"seq"`
	Prev string `json:"prev"`
	// Time is when the line was written (UTC, the host's clock): right
	// before the request left (an attempt line), or right after the
	// attempt ended.
	Time time.Time `json:"time"`
	// What and how it ended come first in the line, its key with them: a
	// line torn part-way (a crash mid-write, a cut) still says, in what is
	// left of it, whether it was an attempt and under which key
	// (tornFields).
	Action  string `json:"action"`
	Outcome string `json:"outcome"`
	// MutationID (wallet) or IntentID (custody) is the action's
	// idempotency key.
	MutationID string `json:"mutationId,omitempty"`
	IntentID   string `json:"intentId,omitempty"`
	// Attempt, on an outcome line, is the Seq of the attempt line it ends.
	Attempt uint64 `json:"attempt,omitempty"`
	// Replaces, on an attempt line written again whole, is the seq of the
	// attempt line it stands for, which was torn or removed while its key
	// was open: its outcome names this line, which carries its request
	// and key. Proc and Host stay those of the process that sent it; By is
	// the process that wrote it again.
	Replaces uint64 `json:"replaces,omitempty"`
	Who      Who    `json:"who"`
	// Host is the machine of the process that wrote the line, Proc the
	// process (nil on lines written before processes were named).
	Host        string `json:"host,omitempty"`
	Proc        *Proc  `json:"proc,omitempty"`
	By          *Proc  `json:"by,omitempty"`
	Profile     string `json:"profile"`
	Environment string `json:"environment"`
	Target      Target `json:"target"`
	// Request, on an attempt line, is the request about to be sent,
	// method and path exactly as they go on the wire (relative to the
	// interface's base URL): "PUT /v2/vaults/{v}/wallets/{w}/transactions/{t}/freeze";
	// RequestBody its body, byte for byte.
	Request     string          `json:"request,omitempty"`
	RequestBody json.RawMessage `json:"requestBody,omitempty"`
	// Reason is the operator's reason (freeze, unfreeze, lock, unlock),
	// also on a cancelled line when one was typed.
	Reason string `json:"reason,omitempty"`
	// RequestID is the platform's id of the request, when it sent one.
	RequestID string `json:"requestId,omitempty"`
	// ErrorCode is the platform's code (ERR017.006, USR_067); Error says
	// what went wrong, or why the dashboard refused.
	ErrorCode string `json:"errorCode,omitempty"`
	Error     string `json:"error,omitempty"`
	// Evidence, on an outcome line, is the platform's read that says it:
	// the answer tied to this request, a freeze history or an intent that
	// names the key, the record read back. Holds is the record's state as
	// that read found it ("frozen", "not frozen", "intent Executed",
	// "last run 3f2…"). Applied says whether the platform's record holds
	// the key as applied (nil: the read does not say).
	Evidence string `json:"evidence,omitempty"`
	Holds    string `json:"holds,omitempty"`
	Applied  *bool  `json:"applied,omitempty"`
	// Hash is the SHA-256 (hex) of this line without its hash field: the
	// next line's Prev.
	Hash string `json:"hash,omitempty"`

	// Broken, when the line was read from the file (not written by this
	// process), says how it breaks the chain, as Verify would; it is not
	// part of the line.
	Broken string `json:"-"`
}
