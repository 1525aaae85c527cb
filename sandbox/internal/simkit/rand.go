package simkit

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/google/uuid"
)

// Mix hashes a seed and any number of keys into one well-mixed value
// (splitmix64 steps). Equal inputs give equal outputs on every machine.
func Mix(seed uint64, keys ...uint64) uint64 {
	h := splitmix(seed ^ 0x9e3779b97f4a7c15)
	for _, k := range keys {
		h = splitmix(h ^ k)
	}
	return h
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Key turns a string into a key for Mix.
func Key(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// Unit maps a hash to [0, 1).
func Unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// Rand returns a generator whose sequence depends only on seed and keys.
// It is not safe for concurrent use.
func Rand(seed uint64, keys ...uint64) *rand.Rand {
	h := Mix(seed, keys...)
	return rand.New(rand.NewPCG(h, splitmix(h)))
}

// UUID returns a version 4 UUID made only from r, so it is the same for the
// same seed and keys.
func UUID(r *rand.Rand) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], r.Uint64())
	binary.BigEndian.PutUint64(b[8:], r.Uint64())
	return formatUUID(b)
}

// UUIDOf returns the UUID of a hash chain: UUIDOf(seed, keys...) is stable.
func UUIDOf(seed uint64, keys ...uint64) string {
	var b [16]byte
	h := Mix(seed, keys...)
	binary.BigEndian.PutUint64(b[:8], h)
	binary.BigEndian.PutUint64(b[8:], splitmix(h))
	return formatUUID(b)
}

func formatUUID(b [16]byte) string {
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return uuid.UUID(b).String() // fmt's %x was a tenth of a report's generation
}

// Hex returns n random hex digits from r.
func Hex(r *rand.Rand, n int) string {
	const digits = "0123456789abcdef"
	out := make([]byte, n)
	for i := range out {
		out[i] = digits[r.IntN(16)]
	}
	return string(out)
}

// Pick returns a random element of xs.
func Pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// LogNormal returns exp(mu + sigma*N(0,1)): a positive, right-skewed amount.
func LogNormal(r *rand.Rand, mu, sigma float64) float64 {
	return math.Exp(mu + sigma*r.NormFloat64())
}
