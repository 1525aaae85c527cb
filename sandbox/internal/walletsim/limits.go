package walletsim

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

func limitSpec() listSpec[wallet.Limit] {
	return listSpec[wallet.Limit]{id: func(l wallet.Limit) string { return l.ID }, order: "created_at",
		fields: fields[wallet.Limit]{"id": func(l wallet.Limit) string { return l.ID },
			"asset": func(l wallet.Limit) string { return l.Asset }, "status": func(l wallet.Limit) string { return l.Status },
			"limit_type": func(l wallet.Limit) string { return l.LimitType }, "wallet_id": func(l wallet.Limit) string { return l.WalletID },
			"created_at": func(l wallet.Limit) string { return stamp(l.CreatedAt) }},
		enums: map[string][]string{"status": {wallet.LimitActive, wallet.LimitPendingApproval},
			"limit_type": {limitVolume, limitCount}}}
}

func (c *call) pageLimits(match func(wallet.Limit) bool) {
	var ls []wallet.Limit
	for _, l := range c.w.limits {
		if w := c.w.wallet(l.rec.WalletID); w != nil && c.cred.sees(w.VaultID) && match(l.rec) {
			ls = append(ls, c.limitOut(l.rec))
		}
	}
	if page, f, ok := paginate(c, ls, limitSpec()); ok {
		c.ok(wallet.LimitsPage{Limits: page, Filter: f})
	}
}

func listAllLimits(c *call) { c.pageLimits(func(wallet.Limit) bool { return true }) }

func listWalletLimits(c *call) {
	if w := c.lookupWallet(); w != nil {
		c.pageLimits(func(l wallet.Limit) bool { return l.WalletID == w.ID })
	}
}

var durationRe = regexp.MustCompile(`^([0-9]+)(\.[0-9]{1,9})?s$`)

// year is the bound a limit's duration must stay under.
const year = 365 * 24 * time.Hour

// approvalDelay is how long a new limit stays PENDING_APPROVAL.
const approvalDelay = 10 * time.Minute

// createLimit adds a wallet limit, pending approval. The same limit type,
// asset and matchers already on the wallet give 409 ERR006.023 whatever the
// quantity or duration.
func createLimit(c *call) {
	w := c.lookupWallet()
	if w == nil {
		return
	}
	var req wallet.CreateLimitRequest
	if !c.decode(&req) {
		return
	}
	qty, err := decimal.NewFromString(req.LimitQty)
	if (req.LimitType != limitVolume && req.LimitType != limitCount) || req.Asset == "" || err != nil || !qty.IsPositive() {
		c.invalid()
		return
	}
	m := durationRe.FindStringSubmatch(req.Duration)
	if m == nil {
		c.invalid()
		return
	}
	secs, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || secs <= 0 || time.Duration(secs)*time.Second >= year {
		c.invalid()
		return
	}
	if len(req.Matchers) == 0 {
		c.invalid()
		return
	}
	for _, mt := range req.Matchers {
		switch {
		case mt.Type == wallet.MatchAllCounterparties && mt.Value == "":
		case mt.Type == wallet.MatchCounterpartyID && !simkit.IsUUID(mt.Value):
			c.bad(reasonBadMatcher, "invalid matcher value")
			return
		case mt.Type == wallet.MatchCounterpartyID:
		default: // deprecated COUNTERPARTY, a value on ALL_COUNTERPARTIES, unknown types
			c.invalid()
			return
		}
	}
	if !c.s.chains.knownAsset(req.Asset) {
		c.bad(reasonInvalidAssetID, "invalid asset ID")
		return
	}
	sig := matcherKey(req.Matchers)
	for _, l := range c.w.limits {
		if l.rec.WalletID == w.ID && l.rec.LimitType == req.LimitType && l.rec.Asset == req.Asset && matcherKey(l.rec.Matchers) == sig {
			c.exists(reasonLimitExists, "limit policy already exists")
			return
		}
	}
	c.w.counter++
	r := simkit.Rand(c.s.env.Seed, simkit.Key("walletsim-limit"), c.w.counter)
	ms := make([]wallet.Matcher, len(req.Matchers))
	for i, mt := range req.Matchers {
		ms[i] = wallet.Matcher{Type: mt.Type, Value: strings.ToLower(mt.Value)}
	}
	l := &limit{rec: wallet.Limit{ID: simkit.UUID(r), LimitType: req.LimitType, Asset: req.Asset, LimitQty: qty,
		Duration: strconv.FormatInt(secs, 10) + "s", Matchers: ms, Status: wallet.LimitPendingApproval,
		CreatedAt: c.now, WalletID: w.ID}, activeAt: c.now.Add(approvalDelay)}
	c.w.limits = append(c.w.limits, l)
	c.ok(c.limitOut(l.rec))
}

// matcherKey is the order-free identity of a matcher set.
func matcherKey(ms []wallet.Matcher) string {
	keys := make([]string, len(ms))
	for i, m := range ms {
		keys[i] = m.Type + "=" + strings.ToLower(m.Value)
	}
	slices.Sort(keys)
	return strings.Join(keys, ",")
}

// deleteLimit removes an active limit; one pending approval or missing
// gives ERR006.016.
func deleteLimit(c *call) {
	w := c.lookupWallet()
	if w == nil {
		return
	}
	ids, ok := c.ids("limitId")
	if !ok {
		return
	}
	i := slices.IndexFunc(c.w.limits, func(l *limit) bool { return l.rec.ID == ids[0] && l.rec.WalletID == w.ID })
	if i < 0 || c.w.limits[i].rec.Status == wallet.LimitPendingApproval {
		c.precondition(reasonLimitNotDeletable, "limit is pending approval or does not exist")
		return
	}
	c.w.limits = slices.Delete(c.w.limits, i, i+1)
	c.ok(struct{}{})
}

func listRules(c *call) {
	spec := listSpec[wallet.PolicyRule]{id: func(r wallet.PolicyRule) string { return r.ID }, order: "created_at",
		fields: fields[wallet.PolicyRule]{"id": func(r wallet.PolicyRule) string { return r.ID },
			"name": func(r wallet.PolicyRule) string { return r.Name }, "status": func(r wallet.PolicyRule) string { return r.Status },
			"action":     func(r wallet.PolicyRule) string { return r.Action },
			"created_at": func(r wallet.PolicyRule) string { return stamp(r.CreatedAt) }},
		enums: map[string][]string{"status": {"ACTIVE", "PENDING_APPROVAL"}}}
	if page, f, ok := paginate(c, mapOut(c.w.rules, c.ruleOut), spec); ok {
		c.ok(wallet.PolicyRulesPage{PolicyRules: page, Filter: f})
	}
}
