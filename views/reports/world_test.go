package reports_test

import "treasury/views/viewtest"

// shared is the default world (viewtest.Shared) without the liquidity
// windows, which the reports view never shows: reading them (30 minutes of
// quotes, 24 hours of trades, each then backfilled) was most of building
// a world under -race. Built once, shared by the tests that only read it.
var shared = viewtest.NewWorld(viewtest.Options{Skip: viewtest.NoLiquidityHistory()}, nil)
