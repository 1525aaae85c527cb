//go:build !race

package paymentsview

// manyRows is the larger table of TestCursorAllocsIndependentOfRows: the
// 100,000 rows of the benchmarks (20,000 under the race detector).
const manyRows = 100_000
