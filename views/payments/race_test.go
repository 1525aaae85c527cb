//go:build race

package paymentsview

// manyRows is the larger table of TestCursorAllocsIndependentOfRows. Under
// the race detector building a row costs some ten times more: 20,000 rows
// (each allocation per row or per thousand rows still shows, 19 more
// beyond the test's allowance of 8) instead of the 100,000 of the plain
// run, which cost 45 s of CPU there.
const manyRows = 20_000
