package embedded

import (
	"math"
	"math/bits"
)

// vecStore holds the products' vectors by document id, quantized: each
// vector is scaled so its largest number is ±127 and kept as int8 (a
// quarter of float32's memory and bandwidth, off the cosine by well under
// 0.01), with the inverse length of that int8 vector and its signs packed
// into bits for the coarse scan (hybrid.go). A document without a vector
// (inactive when indexed, removed, or not embedded yet) has inv 0.
type vecStore struct {
	dim   int // 0 until the first vector
	words int // uint64s per sign code
	q     []int8
	inv   []float32
	signs []uint64
}

// has reports whether document d has a vector.
func (v *vecStore) has(d int32) bool { return int(d) < len(v.inv) && v.inv[d] != 0 }

// grow makes room for n documents.
func (v *vecStore) grow(n int) {
	if v.dim == 0 || n <= len(v.inv) {
		return
	}
	v.q = append(v.q, make([]int8, (n-len(v.inv))*v.dim)...)
	v.signs = append(v.signs, make([]uint64, (n-len(v.inv))*v.words)...)
	v.inv = append(v.inv, make([]float32, n-len(v.inv))...)
}

// set stores document d's vector; a zero vector, or one of the wrong
// length, leaves d without one. It reports whether d has a vector now.
func (v *vecStore) set(d int32, vec []float32, docs int) bool {
	if v.dim == 0 && len(vec) > 0 {
		v.dim, v.words = len(vec), (len(vec)+63)/64
	}
	if len(vec) != v.dim {
		v.clear(d)
		return false
	}
	v.grow(max(docs, int(d)+1))
	q := v.q[int(d)*v.dim : (int(d)+1)*v.dim]
	if quantize(vec, q) == 0 {
		v.inv[d] = 0
		return false
	}
	var sum int64
	for _, x := range q {
		sum += int64(x) * int64(x)
	}
	v.inv[d] = float32(1 / math.Sqrt(float64(sum)))
	signBits(q, v.signs[int(d)*v.words:(int(d)+1)*v.words])
	return true
}

// clear leaves document d without a vector.
func (v *vecStore) clear(d int32) {
	if int(d) < len(v.inv) {
		v.inv[d] = 0
	}
}

// vec is document d's quantized vector.
func (v *vecStore) vec(d int32) []int8 { return v.q[int(d)*v.dim : (int(d)+1)*v.dim] }

// code is document d's sign bits.
func (v *vecStore) code(d int32) []uint64 { return v.signs[int(d)*v.words : (int(d)+1)*v.words] }

// quantize writes vec scaled to ±127 into q and returns the scale back:
// vec ≈ q × the result. A zero vector gives 0.
func quantize(vec []float32, q []int8) float32 {
	var m float32
	for _, x := range vec {
		m = max(m, abs32(x))
	}
	if m == 0 || m != m || math.IsInf(float64(m), 0) {
		clear(q)
		return 0
	}
	s := 127 / m
	for i, x := range vec {
		q[i] = int8(math.Round(float64(x * s)))
	}
	return m / 127
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// signBits sets bit i of out when q[i] > 0.
func signBits(q []int8, out []uint64) {
	clear(out)
	for i, x := range q {
		if x > 0 {
			out[i>>6] |= 1 << (i & 63)
		}
	}
}

// dot is the dot product of two int8 vectors of equal length.
func dot(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// probe is a vector searched for: quantized, with the masks of the coarse
// scan. sim(d) = dot(q, d) × scale × inv[d] is the dot product of the
// vector as given with document d's vector scaled to unit length: the
// cosine for a unit-length query.
type probe struct {
	q      []int8
	scale  float32
	pos    []uint64 // sign bits of q
	nz     []uint64 // coordinates where q is not zero
	strong []uint64 // coordinates where |q| is at least its mean over nz
}

// newProbe quantizes vec, or returns nil for a zero vector or one whose
// length is not dim.
func newProbe(vec []float32, dim int) *probe {
	if len(vec) != dim || dim == 0 {
		return nil
	}
	p := &probe{q: make([]int8, dim)}
	if p.scale = quantize(vec, p.q); p.scale == 0 {
		return nil
	}
	p.fromQuantized()
	return p
}

// docProbe is document d's own vector as a probe (Similar).
func (v *vecStore) docProbe(d int32) *probe {
	if !v.has(d) {
		return nil
	}
	p := &probe{q: v.vec(d), scale: v.inv[d]}
	p.fromQuantized()
	return p
}

func (p *probe) fromQuantized() {
	words := (len(p.q) + 63) / 64
	p.pos, p.nz, p.strong = make([]uint64, words), make([]uint64, words), make([]uint64, words)
	signBits(p.q, p.pos)
	var sum, n int
	for _, x := range p.q {
		if x != 0 {
			sum += int(abs8(x))
			n++
		}
	}
	for i, x := range p.q {
		if x != 0 {
			p.nz[i>>6] |= 1 << (i & 63)
		}
		if n > 0 && int(abs8(x))*n >= sum {
			p.strong[i>>6] |= 1 << (i & 63)
		}
	}
}

func abs8(x int8) int32 {
	if x < 0 {
		return -int32(x)
	}
	return int32(x)
}

// sim is the similarity of document d to p.
func (v *vecStore) sim(p *probe, d int32) float32 {
	return float32(dot(p.q, v.vec(d))) * p.scale * v.inv[d]
}

// distance is the coarse distance of document d from p: the coordinates
// where the query is not zero and the signs differ, counting those where
// the query is strong twice. Lower is closer; it costs a few instructions
// per 64 coordinates.
func (v *vecStore) distance(p *probe, d int32) int {
	n := 0
	for i, c := range v.code(d) {
		x := c ^ p.pos[i]
		n += bits.OnesCount64(x&p.nz[i]) + bits.OnesCount64(x&p.strong[i])
	}
	return n
}

// distances measures the coarse distance of each of docs (all with a
// vector) into dist, by position, counting them in hist. For 256
// coordinates (the Local embedder's) the probe's masks stay in registers:
// a few nanoseconds a document, for a scan of every passage of a kind.
func (v *vecStore) distances(p *probe, docs []int32, dist []uint16, hist []int32) {
	dist = dist[:len(docs)]
	if v.words != 4 {
		for j, d := range docs {
			n := v.distance(p, d)
			dist[j] = uint16(n)
			hist[n]++
		}
		return
	}
	signs := v.signs
	p0, p1, p2, p3 := p.pos[0], p.pos[1], p.pos[2], p.pos[3]
	n0, n1, n2, n3 := p.nz[0], p.nz[1], p.nz[2], p.nz[3]
	s0, s1, s2, s3 := p.strong[0], p.strong[1], p.strong[2], p.strong[3]
	for j, d := range docs {
		c := signs[4*d : 4*d+4 : 4*d+4]
		x0, x1, x2, x3 := c[0]^p0, c[1]^p1, c[2]^p2, c[3]^p3
		n := bits.OnesCount64(x0&n0) + bits.OnesCount64(x1&n1) + bits.OnesCount64(x2&n2) + bits.OnesCount64(x3&n3) +
			bits.OnesCount64(x0&s0) + bits.OnesCount64(x1&s1) + bits.OnesCount64(x2&s2) + bits.OnesCount64(x3&s3)
		dist[j] = uint16(n)
		hist[n]++
	}
}

// copyFrom gives document d the vector document sd has in src (or none),
// for an index compacting its documents.
func (v *vecStore) copyFrom(d int32, src *vecStore, sd int32, docs int) {
	if !src.has(sd) {
		v.clear(d)
		return
	}
	if v.dim == 0 {
		v.dim, v.words = src.dim, src.words
	}
	v.grow(max(docs, int(d)+1))
	copy(v.vec(d), src.vec(sd))
	copy(v.code(d), src.code(sd))
	v.inv[d] = src.inv[sd]
}
