// Package client speaks to the wallet interface (spec area D, 4.5, 5.6,
// 7.2): vaults, wallets, balances, transactions and their freezes, policy
// rules and limits, counterparties and addresses, webhooks and
// subscriptions, sweeps, every page of each list, and the actions freeze,
// unfreeze and sweep trigger. The wire records are those of package
// wallet.
//
// It is a package of its own because package wallet cannot import
// data/transport: transport imports data/auth, which imports wallet for
// the token records (as for data/payments/client).
//
// Credentials (spec 5.6, and the sandbox's walletsim): reads need any
// credential type, except policy rules (CONTROLS with policy:*) and wallet
// limits (CONTROLS with keylimit:*); freeze, unfreeze and sweep trigger
// need TRANSACTIONS. No one credential does both: a TRANSACTIONS
// credential reads everything but Policies and Limits (403 ERR000.002)
// and acts.
package client

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"

	"treasury/data/apierr"
	"treasury/data/paging"
	"treasury/data/transport"
	"treasury/data/wallet"
)

// Client reads the wallet interface, every page of each list, and performs
// its few actions (freeze, unfreeze, sweep trigger).
//
// Choices of the client where the spec is silent:
//   - lists are read with the largest page the interface takes (MaxPageSize
//     for pagination.pageSize, MaxTopPageSize for the top-level pageSize of
//     freeze history and sweep-instance transactions), token after token;
//   - reads that span wallets (Wallets of every vault, Transactions without
//     a wallet) read the wallets concurrently, Concurrency at once;
//   - a transaction path needs its wallet: the client remembers the wallet
//     of every transaction it has read, and otherwise finds it by a
//     filter `id = "<id>"` on each wallet's list;
//   - actions carry the caller's mutationId in the body and are marked
//     Idempotent, so a retry after wallet code 13 or 14 (or an unreadable
//     answer) resends the same id and the interface applies it once.
type Client struct {
	t        *transport.Client
	pageSize int
	topSize  int
	txs      *txIndex
}

// Concurrency bounds the wallets read at once by a read that spans wallets.
const Concurrency = 4

// New returns a client that sends through t (an apierr.Wallet transport
// whose Auth is auth.NewWallet).
func New(t *transport.Client) *Client {
	return &Client{t: t, pageSize: wallet.MaxPageSize, topSize: wallet.MaxTopPageSize, txs: &txIndex{m: map[string]string{}}}
}

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

// listAll reads every page of path. items takes a decoded page apart.
func listAll[T, P any](ctx context.Context, c *Client, path string, q url.Values, style pageStyle, items func(P) ([]T, wallet.ListFilter)) ([]T, error) {
	sizeName, tokenName, size := wallet.QueryPageSize, wallet.QueryPageToken, c.pageSize
	if style == topLevel {
		sizeName, tokenName, size = wallet.QueryTopPageSize, wallet.QueryTopPageToken, c.topSize
	}
	return paging.Collect(paging.ByQueryToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[T], error) {
		qq := url.Values{}
		for k, v := range q {
			qq[k] = v
		}
		qq.Set(sizeName, strconv.Itoa(size))
		if token != "" {
			qq.Set(tokenName, token)
		}
		p, err := transport.Get[P](ctx, c.t, path, qq)
		if err != nil {
			return paging.TokenPage[T]{}, err
		}
		its, f := items(p)
		return paging.TokenPage[T]{Items: its, Next: f.NextPageToken}, nil
	}))
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

// fanOut runs fn on every element of xs, at most Concurrency at once, and joins
// the results in the order of xs. The first error cancels the rest.
func fanOut[X, T any](ctx context.Context, c *Client, xs []X, fn func(context.Context, X) ([]T, error)) ([]T, error) {
	res := make([][]T, len(xs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(Concurrency)
	for i, x := range xs {
		g.Go(func() error {
			r, err := fn(gctx, x)
			res[i] = r
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []T
	for _, r := range res {
		out = append(out, r...)
	}
	return out, nil
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
	return listAll(ctx, c, wallet.PathVaults, nil, nested, func(p wallet.VaultsPage) ([]wallet.Vault, wallet.ListFilter) { return p.Vaults, p.Filter })
}

// Wallets reads the wallets of a vault; vaultID "" reads those of every
// vault, vault after vault. A vault that does not exist has no wallets.
func (c *Client) Wallets(ctx context.Context, vaultID string) ([]wallet.Wallet, error) {
	if vaultID != "" {
		return listAll(ctx, c, seg(wallet.PathVaults, vaultID)+"/wallets", nil, nested, func(p wallet.WalletsPage) ([]wallet.Wallet, wallet.ListFilter) { return p.Wallets, p.Filter })
	}
	vs, err := c.Vaults(ctx)
	if err != nil {
		return nil, err
	}
	return fanOut(ctx, c, vs, func(ctx context.Context, v wallet.Vault) ([]wallet.Wallet, error) { return c.Wallets(ctx, v.ID) })
}

// Wallet reads one wallet.
func (c *Client) Wallet(ctx context.Context, id string) (wallet.Wallet, error) {
	if id == "" {
		return wallet.Wallet{}, ErrNoID
	}
	return transport.Get[wallet.Wallet](ctx, c.t, seg(wallet.PathWallets, id), nil)
}

// Balances reads a wallet's balances (empty when the wallet does not
// exist).
func (c *Client) Balances(ctx context.Context, walletID string) ([]wallet.Balance, error) {
	if walletID == "" {
		return nil, ErrNoID
	}
	return listAll(ctx, c, seg(wallet.PathWallets, walletID)+"/balances", nil, nested, func(p wallet.BalancesPage) ([]wallet.Balance, wallet.ListFilter) { return p.Balances, p.Filter })
}

// txIndex remembers the wallet of each transaction the client has seen.
type txIndex struct {
	mu sync.Mutex
	m  map[string]string // transaction id -> wallet id
}

// maxIndexed bounds the memory; past it the index starts afresh (a miss
// only costs a search).
const maxIndexed = 200_000

func (x *txIndex) put(ts ...wallet.Transaction) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.m)+len(ts) > maxIndexed {
		x.m = map[string]string{}
	}
	for _, t := range ts {
		if t.ID != "" && t.WalletID != "" {
			x.m[strings.ToLower(t.ID)] = t.WalletID
		}
	}
}

func (x *txIndex) get(id string) (string, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	w, ok := x.m[strings.ToLower(id)]
	return w, ok
}

func (x *txIndex) drop(id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.m, strings.ToLower(id))
}
