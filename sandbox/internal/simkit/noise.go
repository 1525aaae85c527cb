package simkit

import "math"

// Noise is smooth value noise in [-1, 1] at position x: equal inputs give
// equal outputs, nearby x give nearby values. It lets a rate "random-walk"
// as a pure function of time, with no stored history.
func Noise(seed uint64, x float64) float64 {
	i := math.Floor(x)
	f := x - i
	a := lattice(seed, int64(i))
	b := lattice(seed, int64(i)+1)
	t := f * f * (3 - 2*f) // smoothstep
	return a + (b-a)*t
}

func lattice(seed uint64, i int64) float64 {
	return Unit(Mix(seed, uint64(i)))*2 - 1
}

// Walk is fractal noise: octaves of Noise at doubling frequency and halving
// amplitude, normalized to about [-1, 1]. x is in units of the slowest
// wave's period.
func Walk(seed uint64, x float64, octaves int) float64 {
	sum, amp, norm, freq := 0.0, 1.0, 0.0, 1.0
	for o := 0; o < octaves; o++ {
		sum += amp * Noise(Mix(seed, uint64(o)), x*freq)
		norm += amp
		amp /= 2
		freq *= 2
	}
	return sum / norm
}
