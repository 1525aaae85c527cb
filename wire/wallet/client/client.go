// Package client speaks to the wallet interface (spec area D, 4.5, 5.6,
// 7.2): vaults, wallets, balances, transactions and their freezes, policy
// rules and limits, counterparties and addresses, webhooks and
// subscriptions, sweeps, every page of each list, and the actions freeze,
// unfreeze and sweep trigger. The wire records are those of package
// wallet.
//
// It is a package of its own because package wallet cannot import
// wire/transport: transport imports wire/auth, which imports wallet for
// the token records (as for wire/payments/client).
//
// Credentials (spec 5.6, and the sandbox's walletsim): reads need any
// credential type, except policy rules (CONTROLS with policy:*) and wallet
// limits (CONTROLS with keylimit:*); freeze, unfreeze and sweep trigger
// need TRANSACTIONS. No one credential does both: a TRANSACTIONS
// credential reads everything but Policies and Limits (403 ERR000.002)
// and acts.
package client

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"

	"treasury/kit/parallel"
	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/paging"
	"treasury/wire/transport"
	"treasury/wire/wallet"
)

// Client reads the wallet interface, every page of each list, and performs
// its few actions (freeze, unfreeze, sweep trigger).
//
// Choices of the client where the spec is silent:
//   - lists start at the largest page the spec allows (MaxPageSize for
//     pagination.pageSize, MaxTopPageSize for the top-level pageSize of
//     freeze history and sweep-instance transactions) and halve on a 400
//     that implies the page size (ERR000.020 never names the field), the
//     size that worked remembered per list; pages follow token after token;
//   - every record is decoded on its own: one that cannot be read is
//     skipped and noted (wire.Note), never its page;
//   - reads that span wallets (Wallets of every vault, Transactions without
//     a wallet) read the wallets concurrently, Concurrency at once; one
//     that fails does not blank the others: the rest is returned with a
//     *wire.Partial naming the failures;
//   - per-wallet sub-resources live under a path the spec writes `...`:
//     /v2/wallets/{walletId}/... or /v2/vaults/{vaultId}/wallets/{walletId}/...;
//     the client starts with the first, and on an answer that says the
//     route does not exist (404 without a reason code, 405, 501) tries the
//     other and keeps to the one that works;
//   - the `filter` query parameter (status, asset... of transactions) is
//     not in the spec: a server that refuses it gets the plain list, and
//     the client filters locally from then on;
//   - a transaction path needs its wallet: a caller that holds the record
//     passes it (Ref), and otherwise the client remembers the wallet of
//     every transaction it has read, or finds it by a filter `id = "<id>"`
//     on each wallet's list;
//   - actions carry the caller's mutationId in the body and are marked
//     Idempotent, so a retry after wallet code 13 or 14 resends the same id
//     and the interface applies it once.
type Client struct {
	t        *transport.Client
	pageSize int
	topSize  int
	txs      *txIndex
	shared   *learnt
}

// learnt is what a client learns from the server, shared by the copies
// WithPageSize makes.
type learnt struct {
	sizes    paging.Sizes
	form     atomic.Int32 // pathForm that works for per-wallet paths
	noFilter atomic.Bool  // the server refused the filter parameter
	vaults   sync.Map     // wallet id -> vault id
}

// Concurrency bounds the wallets read at once by a read that spans wallets.
const Concurrency = 4

// New returns a client that sends through t (an apierr.Wallet transport
// whose Auth is auth.NewWallet).
func New(t *transport.Client) *Client {
	return &Client{t: t, pageSize: wallet.MaxPageSize, topSize: wallet.MaxTopPageSize, txs: &txIndex{m: map[string]Ref{}}, shared: &learnt{}}
}

// PageSizes are the page sizes learnt from the server, per list.
func (c *Client) PageSizes() map[string]int { return c.shared.sizes.Known() }

// WithPageSize returns a client that shares c's transport and memory of
// transactions but asks for pages of n records (clamped to each list's
// maximum): small pages exercise paging.
func (c *Client) WithPageSize(n int) *Client {
	cc := *c
	cc.pageSize = paging.Clamp(n, wallet.MaxPageSize, wallet.MaxPageSize)
	cc.topSize = paging.Clamp(n, wallet.MaxTopPageSize, wallet.MaxTopPageSize)
	return &cc
}

// Errors of arguments the client refuses before sending anything.
var (
	ErrNoID         = errors.New("wallet: an id is required")
	ErrNoReason     = errors.New("wallet: a reason is required")
	ErrMutationID   = errors.New("wallet: mutationId must be a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)")
	ErrTxNotVisible = errors.New("wallet: transaction not found in any wallet the credential sees")
)

var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// NewMutationID returns a fresh mutationId for an action. Keep it for the
// retries of the same action; a new action takes a new one.
func NewMutationID() string { return uuid.NewString() }

// ValidMutationID reports whether id has the form the interface accepts.
func ValidMutationID(id string) bool { return uuidRe.MatchString(id) }

// pageStyle says which page parameters a list takes.
type pageStyle bool

const (
	nested   pageStyle = false // pagination.pageSize, pagination.pageToken
	topLevel pageStyle = true  // pageSize, pageToken (max 100)
)

// listAll reads every page of path, whose records travel in the array
// named key beside the filter envelope. The first page adapts the page
// size (list names the size memory); skipped records are noted on ctx.
func listAll[T any](ctx context.Context, c *Client, list, path, key string, q url.Values, style pageStyle) ([]T, error) {
	sizeName, size := wallet.QueryPageSize, c.pageSize
	if style == topLevel {
		sizeName, size = wallet.QueryTopPageSize, c.topSize
	}
	return paging.Collect(paging.ByQueryToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[T], error) {
		if token == "" {
			p, n, err := paging.First(ctx, &c.shared.sizes, list, sizeName, size, func(ctx context.Context, n int) (paging.TokenPage[T], error) {
				return listPage[T](ctx, c, list, path, key, q, style, "", n)
			})
			size = n
			return p, err
		}
		return listPage[T](ctx, c, list, path, key, q, style, token, size)
	}))
}

// listPage reads one page of n records of path after token ("" for the
// first page); Next is the envelope's nextPageToken.
func listPage[T any](ctx context.Context, c *Client, list, path, key string, q url.Values, style pageStyle, token string, n int) (paging.TokenPage[T], error) {
	sizeName, tokenName := wallet.QueryPageSize, wallet.QueryPageToken
	if style == topLevel {
		sizeName, tokenName = wallet.QueryTopPageSize, wallet.QueryTopPageToken
	}
	qq := maps.Clone(q)
	if qq == nil {
		qq = url.Values{}
	}
	qq.Set(sizeName, strconv.Itoa(n))
	if token != "" {
		qq.Set(tokenName, token)
	}
	m, err := transport.Get[map[string]json.RawMessage](ctx, c.t, path, qq)
	if err != nil {
		return paging.TokenPage[T]{}, err
	}
	items, next, err := readPage[T](m, key)
	if err != nil {
		return paging.TokenPage[T]{}, apierr.Malformed(apierr.Wallet, http.MethodGet, path, http.StatusOK, err)
	}
	wire.Note(ctx, "wallet "+list, items.Skipped)
	return paging.TokenPage[T]{Items: items.Items, Next: next}, nil
}

// readPage takes one page of a wallet list apart: the records under key,
// and the next page token of its filter ("" on the last page). An
// unreadable filter is no next page, but a token that is there and is not
// text is an error: reading on would be impossible, and stopping would
// show part of the list as all of it. A numeric token is sent back as its
// text.
func readPage[T any](m map[string]json.RawMessage, key string) (wire.Items[T], string, error) {
	var items wire.Items[T]
	if err := json.Unmarshal(m[key], &items); err != nil {
		return items, "", fmt.Errorf("%s: %w", key, err)
	}
	var f struct {
		NextPageToken json.RawMessage `json:"nextPageToken"`
	}
	if json.Unmarshal(m["filter"], &f) != nil {
		return items, "", nil
	}
	var next string
	var n json.Number
	switch tok := bytes.TrimSpace(f.NextPageToken); {
	case len(tok) == 0 || string(tok) == "null":
	case json.Unmarshal(tok, &next) == nil:
	case json.Unmarshal(tok, &n) == nil:
		next = n.String()
	default:
		return items, "", fmt.Errorf("filter.nextPageToken: %.40s is not a page token", tok)
	}
	return items, next, nil
}

// seg escapes ids as path segments and joins them under base.
func seg(base string, ids ...string) string {
	var b strings.Builder
	b.WriteString(base)
	for _, id := range ids {
		b.WriteByte('/')
		b.WriteString(transport.PathEscape(id))
	}
	return b.String()
}

// fanOut runs fn on every element of xs, at most Concurrency at once, and
// joins the results in the order of xs. An element that fails does not
// fail the others: their results come back with a *wire.Partial naming the
// failures (name names an element); only when every element failed is the
// first failure returned alone. The caller's cancellation stops it all.
func fanOut[X, T any](ctx context.Context, what string, xs []X, name func(X) string, fn func(context.Context, X) ([]T, error)) ([]T, error) {
	res := make([][]T, len(xs))
	errs := make([]error, len(xs))
	parallel.Each(len(xs), Concurrency, func(i int) { res[i], errs[i] = fn(ctx, xs[i]) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []T
	part := &wire.Partial{What: what, Of: len(xs)}
	for i, r := range res {
		if errs[i] != nil {
			part.Failed = append(part.Failed, wire.Failure{Name: name(xs[i]), Err: errs[i]})
			continue
		}
		out = append(out, r...)
	}
	switch {
	case len(part.Failed) == 0:
		return out, nil
	case len(part.Failed) == len(xs):
		return nil, part.Failed[0].Err
	}
	return out, part
}

// gone treats a not-found answer as an empty list: a record listed a
// moment ago (a webhook, a counterparty, a wallet) may since have gone.
func gone[T any](ts []T, err error) ([]T, error) {
	if e, ok := apierr.As(err); ok && e.Class == apierr.ClassNotFound {
		return nil, nil
	}
	return ts, err
}

// Vaults reads every vault the credential sees.
func (c *Client) Vaults(ctx context.Context) ([]wallet.Vault, error) {
	return listAll[wallet.Vault](ctx, c, "vaults", wallet.PathVaults, "vaults", nil, nested)
}

// VaultsPage reads the first page of vaults, of at most size records
// (clamped to 1..MaxPageSize): the smallest read a credential can make,
// for `treasury doctor`. Next is empty when there is no second page.
func (c *Client) VaultsPage(ctx context.Context, size int) (paging.TokenPage[wallet.Vault], error) {
	return listPage[wallet.Vault](ctx, c, "vaults", wallet.PathVaults, "vaults", nil, nested, "", paging.Clamp(size, 1, wallet.MaxPageSize))
}

// Wallets reads the wallets of a vault; vaultID "" reads those of every
// vault, vault after vault. A vault that does not exist has no wallets.
func (c *Client) Wallets(ctx context.Context, vaultID string) ([]wallet.Wallet, error) {
	if vaultID != "" {
		ws, err := listAll[wallet.Wallet](ctx, c, "wallets", seg(wallet.PathVaults, vaultID)+"/wallets", "wallets", nil, nested)
		for _, w := range ws {
			c.rememberVault(w.ID, cmp.Or(w.VaultID, vaultID))
		}
		return ws, err
	}
	vs, err := c.Vaults(ctx)
	if err != nil {
		return nil, err
	}
	return fanOut(ctx, "wallets of each vault", vs, VaultSource,
		func(ctx context.Context, v wallet.Vault) ([]wallet.Wallet, error) { return c.Wallets(ctx, v.ID) })
}

// Wallet reads one wallet.
func (c *Client) Wallet(ctx context.Context, id string) (wallet.Wallet, error) {
	if id == "" {
		return wallet.Wallet{}, ErrNoID
	}
	w, err := transport.Get[wallet.Wallet](ctx, c.t, seg(wallet.PathWallets, id), nil)
	if err == nil {
		c.rememberVault(w.ID, w.VaultID)
	}
	return w, err
}

// Balances reads a wallet's balances (empty when the wallet does not
// exist). vaultID may be "" when unknown.
func (c *Client) Balances(ctx context.Context, vaultID, walletID string) ([]wallet.Balance, error) {
	if walletID == "" {
		return nil, ErrNoID
	}
	return onWallet(ctx, c, Ref{VaultID: vaultID, WalletID: walletID}, []string{"balances"}, func(ctx context.Context, path string) ([]wallet.Balance, error) {
		return listAll[wallet.Balance](ctx, c, "balances", path, "balances", nil, nested)
	})
}

// txIndex remembers the wallet (and vault) of each transaction the client
// has seen.
type txIndex struct {
	mu sync.Mutex
	m  map[string]Ref // lowercased transaction id -> its wallet
}

// maxIndexed bounds the memory; past it the index starts afresh (a miss
// only costs a search).
const maxIndexed = 200_000

func (x *txIndex) put(ts ...wallet.Transaction) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.m)+len(ts) > maxIndexed {
		x.m = map[string]Ref{}
	}
	for _, t := range ts {
		if t.ID != "" && t.WalletID != "" {
			x.m[strings.ToLower(t.ID)] = RefOf(t)
		}
	}
}

func (x *txIndex) get(id string) (Ref, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	r, ok := x.m[strings.ToLower(id)]
	return r, ok
}

func (x *txIndex) drop(id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.m, strings.ToLower(id))
}
