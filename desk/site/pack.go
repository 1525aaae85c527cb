package site

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"

	"github.com/nats-io/nats.go"
)

// A poll's answer can be larger than a NATS message may be (the first
// read of a window, a long list): it is compressed, and sent in pieces
// that the receiver joins. The pieces of one message come in order,
// from one connection, on one subject; a piece missing (a publisher that
// died between pieces) loses the message, which the receiver's store
// finds by its sequence.

const (
	// packOver is the size past which a message is compressed.
	packOver = 4 << 10
	hdrGzip  = "Treasury-Gzip"
	hdrPiece = "Treasury-Piece" // "i/n", from 1
)

// sendPacked publishes b on subject, compressed when large and in
// pieces when still too large; it reports the bytes sent.
func (s *Site) sendPacked(subject string, b []byte) (int, error) {
	h := nats.Header{}
	if len(b) > packOver {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		_, _ = w.Write(b)
		_ = w.Close()
		b = z.Bytes()
		h.Set(hdrGzip, "1")
	}
	limit := int(s.nc.MaxPayload()) - 1024 // room for the headers
	if limit <= 0 {
		limit = 64 << 10
	}
	n := (len(b) + limit - 1) / limit
	for i := range max(n, 1) {
		piece := b[i*limit : min((i+1)*limit, len(b))]
		m := &nats.Msg{Subject: subject, Data: piece, Header: nats.Header{}}
		for k, v := range h {
			m.Header[k] = v
		}
		if n > 1 {
			m.Header.Set(hdrPiece, strconv.Itoa(i+1)+"/"+strconv.Itoa(n))
		}
		if err := s.nc.PublishMsg(m); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// unpacker joins the pieces of the messages of one subscription.
type unpacker struct {
	pieces map[string][]byte // by subject: the pieces so far
	next   map[string]int    // by subject: the piece expected
}

// add takes a message or a piece; it returns a whole message's bytes,
// uncompressed, when one is complete.
func (u *unpacker) add(msg *nats.Msg) ([]byte, bool) {
	if u.pieces == nil {
		u.pieces, u.next = map[string][]byte{}, map[string]int{}
	}
	data := msg.Data
	if piece := msg.Header.Get(hdrPiece); piece != "" {
		var i, n int
		if _, err := fmt.Sscanf(piece, "%d/%d", &i, &n); err != nil {
			return nil, false
		}
		if i == 1 {
			u.pieces[msg.Subject], u.next[msg.Subject] = nil, 1
		}
		if u.next[msg.Subject] != i {
			delete(u.pieces, msg.Subject) // a piece was lost: so is the message
			delete(u.next, msg.Subject)
			return nil, false
		}
		u.pieces[msg.Subject] = append(u.pieces[msg.Subject], data...)
		u.next[msg.Subject] = i + 1
		if i < n {
			return nil, false
		}
		data = u.pieces[msg.Subject]
		delete(u.pieces, msg.Subject)
		delete(u.next, msg.Subject)
	}
	if msg.Header.Get(hdrGzip) == "" {
		return data, true
	}
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, false
	}
	out, err := io.ReadAll(r)
	return out, err == nil
}
