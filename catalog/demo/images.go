package demo

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Every demo listing has one image, a tile drawn here (its category's
// colour, its name, its brand), so photo cards show in the demo. The
// listing stores ImageURL(sku), a path the server's /media route answers
// with Tiles.PNG; tiles are drawn on the first request and kept, so
// start-up does no drawing.

const (
	imagePrefix = "demo-"
	imageSuffix = ".png"
	tileSize    = 400
	tileMargin  = 28
	tileScale   = 2 // basicfont's 7×13 glyphs drawn at twice the size
)

// ImageURL is the image path of the demo listing sku (its variants
// inherit it).
func ImageURL(sku string) string { return "/media/" + imagePrefix + sku + imageSuffix }

// Tiles draws the demo listings' images.
type Tiles struct {
	once     sync.Once
	listings map[string]tile // by image name; filled on first use
	mu       sync.Mutex
	drawn    map[string][]byte // at most one per listing
}

type tile struct {
	title, brand, category string
}

// NewTiles returns an empty tile cache.
func NewTiles() *Tiles { return &Tiles{drawn: map[string][]byte{}} }

// PNG returns the tile named name (the last element of ImageURL), and
// false for a name that is no demo listing's.
func (t *Tiles) PNG(name string) ([]byte, bool) {
	if !strings.HasPrefix(name, imagePrefix) || !strings.HasSuffix(name, imageSuffix) {
		return nil, false
	}
	t.once.Do(t.load)
	info, ok := t.listings[name]
	if !ok {
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if b, ok := t.drawn[name]; ok {
		return b, true
	}
	b := drawTile(info)
	t.drawn[name] = b
	return b, true
}

func (t *Tiles) load() {
	t.listings = map[string]tile{}
	ps, err := Products()
	if err != nil {
		return // the embedded catalog parses (its tests say so); no tiles otherwise
	}
	for _, p := range ps {
		in := p.Input
		cat := ""
		if len(in.CategoryPath) > 0 {
			cat = in.CategoryPath[0]
		}
		t.listings[imagePrefix+in.SKU+imageSuffix] = tile{title: in.Title, brand: in.Brand, category: cat}
	}
}

// categoryColors are the tiles' backgrounds, by top-level category.
var categoryColors = map[string]color.RGBA{
	"Apparel":     {0x2f, 0x5d, 0x8a, 0xff},
	"Beauty":      {0xb5, 0x4f, 0x7a, 0xff},
	"Books":       {0x7a, 0x4e, 0x2d, 0xff},
	"Electronics": {0x2b, 0x3a, 0x4a, 0xff},
	"Grocery":     {0x4f, 0x7d, 0x32, 0xff},
	"Home":        {0x8a, 0x6a, 0x3b, 0xff},
	"Kitchen":     {0xc0, 0x5a, 0x2b, 0xff},
	"Office":      {0x4a, 0x55, 0x68, 0xff},
	"Pets":        {0x9a, 0x6b, 0x1f, 0xff},
	"Shoes":       {0x6b, 0x3f, 0x8c, 0xff},
	"Sports":      {0x1f, 0x7a, 0x6b, 0xff},
	"Toys":        {0xd0, 0x8b, 0x1a, 0xff},
}

// drawTile draws one tile: the category at the top, the name in the
// middle, the brand on a darker band at the bottom, in white.
func drawTile(info tile) []byte {
	bg, ok := categoryColors[info.category]
	if !ok {
		bg = color.RGBA{0x55, 0x5f, 0x6d, 0xff}
	}
	img := image.NewRGBA(image.Rect(0, 0, tileSize, tileSize))
	draw.Draw(img, img.Bounds(), &image.Uniform{bg}, image.Point{}, draw.Src)
	band := color.RGBA{bg.R / 2, bg.G / 2, bg.B / 2, 0xff}
	draw.Draw(img, image.Rect(0, tileSize-72, tileSize, tileSize), &image.Uniform{band}, image.Point{}, draw.Src)

	perLine := (tileSize - 2*tileMargin) / (7 * tileScale)
	lineH := 16 * tileScale
	drawText(img, strings.ToUpper(printable(info.category)), tileMargin, tileMargin, color.NRGBA{0xff, 0xff, 0xff, 0xc0})
	lines := wrap(displayName(info), perLine, 6)
	y := (tileSize-72-len(lines)*lineH)/2 + 8
	for _, l := range lines {
		drawText(img, l, tileMargin, y, color.White)
		y += lineH
	}
	drawText(img, clipText(printable(info.brand), perLine), tileMargin, tileSize-72+20, color.White)

	var buf bytes.Buffer
	_ = png.Encode(&buf, img) // writing to memory does not fail
	return buf.Bytes()
}

// displayName is what a tile can spell of the listing's name: basicfont
// has Latin letters only, so a Russian title shows its first run of Latin
// words (the brand and model, usually: "Nexbook 14"), else the brand.
func displayName(info tile) string {
	if printable(info.title) == info.title {
		return info.title
	}
	var run []string
	for _, w := range append(strings.Fields(info.title), "") {
		if w != "" && printable(w) == w {
			run = append(run, w)
			continue
		}
		if name := strings.Trim(strings.Join(run, " "), ",.;:- "); len(name) >= 4 && strings.ContainsFunc(name, unicode.IsLetter) {
			return name
		}
		run = run[:0]
	}
	return printable(info.brand)
}

// printable keeps the characters basicfont draws.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && unicode.IsPrint(r) {
			return r
		}
		return -1
	}, s)
}

// wrap breaks s into at most maxLines lines of at most n characters, the last
// ending in "..." when s does not fit.
func wrap(s string, n, maxLines int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		w = clipText(w, n)
		switch {
		case cur == "":
			cur = w
		case len(cur)+1+len(w) <= n:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		if last := lines[maxLines-1]; len(last)+4 <= n {
			lines[maxLines-1] = last + " ..."
		} else {
			lines[maxLines-1] = last[:n-3] + "..."
		}
	}
	return lines
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// drawText draws s with its top-left corner at (x, y), tileScale times
// basicfont's size.
func drawText(dst *image.RGBA, s string, x, y int, c color.Color) {
	face := basicfont.Face7x13
	w := font.MeasureString(face, s).Ceil()
	if w == 0 {
		return
	}
	mask := image.NewAlpha(image.Rect(0, 0, w, face.Height))
	d := font.Drawer{Dst: mask, Src: image.Opaque, Face: face, Dot: fixed.P(0, face.Ascent)}
	d.DrawString(s)
	cr, cg, cb, ca := c.RGBA() // premultiplied, 16 bits
	over := func(d uint8, v uint32) uint8 { return uint8((uint32(d)*(0xffff-ca)/0xffff + v>>8) & 0xff) }
	for my := 0; my < face.Height; my++ {
		for mx := 0; mx < w; mx++ {
			if mask.AlphaAt(mx, my).A == 0 {
				continue
			}
			for py := y + my*tileScale; py < y+(my+1)*tileScale; py++ {
				for px := x + mx*tileScale; px < x+(mx+1)*tileScale; px++ {
					d := dst.RGBAAt(px, py)
					dst.SetRGBA(px, py, color.RGBA{over(d.R, cr), over(d.G, cg), over(d.B, cb), 0xff})
				}
			}
		}
	}
}
