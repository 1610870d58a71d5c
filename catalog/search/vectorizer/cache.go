package vectorizer

import (
	"container/list"
	"crypto/sha256"
	"sync"
)

// cacheKey is the sha256 of what determines a vector: the model (with its
// dimensions) and the text.
type cacheKey [sha256.Size]byte

func keyOf(model, text string) cacheKey {
	h := sha256.New()
	h.Write([]byte(model))
	h.Write([]byte{0})
	h.Write([]byte(text))
	var k cacheKey
	h.Sum(k[:0])
	return k
}

// cache is a least-recently-used map from content hash to vector, bounded
// by the bytes its vectors take. It is safe for concurrent use.
type cache struct {
	mu    sync.Mutex
	max   int // bytes
	used  int
	order *list.List // of *cacheEntry, most recent first
	items map[cacheKey]*list.Element
}

type cacheEntry struct {
	key cacheKey
	vec []float32
}

// entryOverhead approximates the bytes an entry costs besides its vector:
// key, list element, map slot.
const entryOverhead = 128

func newCache(maxBytes int) *cache {
	return &cache{max: maxBytes, order: list.New(), items: map[cacheKey]*list.Element{}}
}

func sizeOf(v []float32) int { return 4*len(v) + entryOverhead }

// get returns the cached vector for k; callers must not change it.
func (c *cache) get(k cacheKey) ([]float32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).vec, true
}

// put stores v under k, evicting the least recently used vectors beyond
// the size limit.
func (c *cache) put(k cacheKey, v []float32) {
	if sizeOf(v) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&cacheEntry{key: k, vec: v})
	c.used += sizeOf(v)
	for c.used > c.max {
		last := c.order.Back()
		ent := c.order.Remove(last).(*cacheEntry)
		delete(c.items, ent.key)
		c.used -= sizeOf(ent.vec)
	}
}
