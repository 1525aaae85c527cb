package walletsim

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"treasury/wire/wallet"
)

// fields gives, by snake_case name, the string value of a record's field
// that lists filter and order on. Values must sort as the field does
// (times are written at fixed width).
type fields[T any] map[string]func(T) string

// listSpec says how one list pages, filters and orders.
type listSpec[T any] struct {
	id     func(T) string
	fields fields[T]
	enums  map[string][]string // allowed filter values, by field
	order  string              // default orderBy
	top    bool                // top-level pageSize/pageToken, max 100
}

// stamp writes a time so that strings sort as times do.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

var (
	snakeRe  = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	clauseRe = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(=|!=)\s*"((?:[^"\\]|\\.)*)"\s*$`)
	andRe    = regexp.MustCompile(`\s+(?i:AND)\s+`)
)

type clause struct {
	field, value string
	negate       bool
}

// parseFilter reads `field = "value"` clauses joined by AND. A clause with
// another operator, or none, is a parser error (second result false).
func parseFilter(s string) ([]clause, string) {
	if strings.TrimSpace(s) == "" {
		return nil, ""
	}
	var out []clause
	for _, part := range andRe.Split(s, -1) {
		m := clauseRe.FindStringSubmatch(part)
		if m == nil {
			return nil, fmt.Sprintf("filter: syntax error in %q: expected field = \"value\" or field != \"value\"", strings.TrimSpace(part))
		}
		v, err := strconv.Unquote(`"` + m[3] + `"`)
		if err != nil {
			return nil, fmt.Sprintf("filter: bad string %q", m[3])
		}
		out = append(out, clause{field: m[1], value: v, negate: m[2] == "!="})
	}
	return out, ""
}

// paginate filters, orders and cuts items per the request's query, in the
// wallet style. On a bad query it answers and returns false.
func paginate[T any](c *call, items []T, sp listSpec[T]) ([]T, wallet.ListFilter, bool) {
	q := c.r.URL.Query()
	sizeName, tokenName, max := wallet.QueryPageSize, wallet.QueryPageToken, wallet.MaxPageSize
	if sp.top {
		sizeName, tokenName, max = wallet.QueryTopPageSize, wallet.QueryTopPageToken, wallet.MaxTopPageSize
	}
	size := min(wallet.DefaultPageSize, max)
	if v := q.Get(sizeName); v != "" {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			c.parser(fmt.Sprintf("invalid value for int32 field %s: %q", sizeName, v))
			return nil, wallet.ListFilter{}, false
		}
		if n < 0 || n > int64(max) {
			c.invalid()
			return nil, wallet.ListFilter{}, false
		}
		if n > 0 {
			size = int(n)
		}
	}
	orderBy := q.Get(wallet.QueryOrderBy)
	if sp.top || orderBy == "" {
		orderBy = sp.order
	}
	key, desc, good := parseOrder(orderBy)
	if !good || sp.fields[key] == nil {
		c.invalid()
		return nil, wallet.ListFilter{}, false
	}
	filterText := q.Get(wallet.QueryFilter)
	clauses, perr := parseFilter(filterText)
	if perr != "" {
		c.parser(perr)
		return nil, wallet.ListFilter{}, false
	}
	for _, cl := range clauses {
		if sp.fields[cl.field] == nil {
			c.invalid()
			return nil, wallet.ListFilter{}, false
		}
		if allowed, ok := sp.enums[cl.field]; ok && !slices.Contains(allowed, cl.value) {
			c.invalid()
			return nil, wallet.ListFilter{}, false
		}
	}
	kept := make([]T, 0, len(items))
	for _, it := range items {
		match := true
		for _, cl := range clauses {
			if (sp.fields[cl.field](it) == cl.value) == cl.negate {
				match = false
				break
			}
		}
		if match {
			kept = append(kept, it)
		}
	}
	sortKey := sp.fields[key]
	less := func(a, b T) bool {
		ka, kb := sortKey(a), sortKey(b)
		if ka != kb {
			return (ka < kb) != desc
		}
		return (sp.id(a) < sp.id(b)) != desc
	}
	sort.SliceStable(kept, func(i, j int) bool { return less(kept[i], kept[j]) })

	fp := c.s.fingerprint(c.r.URL.Path, filterText, orderBy, size)
	startAt := 0
	if tok := q.Get(tokenName); tok != "" {
		ck, cid, ok := c.s.readPageToken(tok, fp)
		if !ok {
			c.bad(reasonInvalidToken, "invalid token")
			return nil, wallet.ListFilter{}, false
		}
		startAt = sort.Search(len(kept), func(i int) bool {
			k, id := sortKey(kept[i]), sp.id(kept[i])
			if k != ck {
				return (k > ck) != desc
			}
			return id != cid && (id > cid) != desc
		})
	}
	end := min(startAt+size, len(kept))
	page := kept[startAt:end]
	f := wallet.ListFilter{Total: len(kept)}
	if end < len(kept) && len(page) > 0 {
		last := page[len(page)-1]
		f.NextPageToken = c.s.pageToken(fp, sortKey(last), sp.id(last))
	}
	return page, f, true
}

// parseOrder reads "field", "field asc" or "field desc"; the field must be
// snake_case.
func parseOrder(s string) (field string, desc, ok bool) {
	parts := strings.Fields(s)
	if len(parts) == 0 || len(parts) > 2 || !snakeRe.MatchString(parts[0]) {
		return "", false, false
	}
	if len(parts) == 2 {
		switch strings.ToLower(parts[1]) {
		case "desc":
			desc = true
		case "asc":
		default:
			return "", false, false
		}
	}
	return parts[0], desc, true
}

// fingerprint binds a page token to the list and query it came from (path,
// filter, order and page size): with another query it is ERR000.015.
func (s *Sim) fingerprint(path, filter, order string, size int) []byte {
	h := sha256.Sum256([]byte(path + "\x00" + filter + "\x00" + order + "\x00" + strconv.Itoa(size)))
	return h[:8]
}

// pageToken is opaque: the fingerprint and the cursor (last sort key and
// id), with an HMAC so that a client cannot forge or edit one.
func (s *Sim) pageToken(fp []byte, key, id string) string {
	payload := append(append([]byte{}, fp...), []byte(key+"\x00"+id)...)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(seal(s.pageKey, payload)[:16])
}

func (s *Sim) readPageToken(tok string, fp []byte) (key, id string, ok bool) {
	p, sg, found := strings.Cut(tok, ".")
	if !found {
		return "", "", false
	}
	enc := base64.RawURLEncoding
	payload, err1 := enc.DecodeString(p)
	sig, err2 := enc.DecodeString(sg)
	if err1 != nil || err2 != nil || len(payload) < len(fp) {
		return "", "", false
	}
	if !hmac.Equal(sig, seal(s.pageKey, payload)[:16]) || !bytes.Equal(payload[:len(fp)], fp) {
		return "", "", false
	}
	key, id, found = strings.Cut(string(payload[len(fp):]), "\x00")
	return key, id, found
}
