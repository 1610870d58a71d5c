package admin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// productForm is /admin/products/new and /admin/products/{id}.
type productForm struct {
	ID         int64 // 0 for a new product
	Active     bool
	SKU        string
	Title      string
	Brand      string
	Category   string
	Price      string
	CompareAt  string // the regular price when on sale, "" when not
	Currency   string
	Stock      string // as shown; posted: a count, or +N / -N (parseStock)
	Images     string // one URL per line
	Attributes string // one "key: value" per line
	Desc       string
	Error      string
	// Loaded is the hidden snapshot of a stored product's form
	// (product_snapshot.go); after a refused stale save, Changes lists
	// what changed since the page was opened and Unsaved the edits that
	// were not saved.
	Loaded           string
	Changes, Unsaved []string
	// Variants is the variant table of a product that may have some (not
	// of a variant); HasVariants: its stock and price are rolled up.
	Variants    variantsForm
	HasVariants bool
	// Parent is the product a variant belongs to, Label its option values.
	Parent *catalog.Product
	Label  string
}

// formOf is the form of a stored product: vs are its variants, parent
// the product it is a variant of (nil if none).
func formOf(p *catalog.Product, vs []catalog.Product, parent *catalog.Product) productForm {
	f := productForm{
		ID: p.ID, Active: p.Active, SKU: p.SKU, Title: p.Title, Brand: p.Brand, Currency: p.Currency,
		Price: plainAmount(p.Price, p.Currency), Stock: strconv.Itoa(p.Stock),
		Images: strings.Join(p.ImageURLs, "\n"), Desc: p.Description, Parent: parent,
		HasVariants: len(vs) > 0,
	}
	if p.CompareAt > p.Price {
		f.CompareAt = plainAmount(p.CompareAt, p.Currency)
	}
	if parent != nil {
		f.Label = catalog.OptionLabel(p.Options, parent.OptionNames)
	} else {
		f.Variants = variantsOf(p, vs)
	}
	if p.Category != nil {
		f.Category = p.Category.Path
	}
	var lines []string
	for k, v := range p.Attributes {
		lines = append(lines, k+": "+v)
	}
	sort.Strings(lines)
	f.Attributes = strings.Join(lines, "\n")
	f.Loaded = snapshotOf(p, vs, f)
	return f
}

func (s *Server) newProduct(w http.ResponseWriter, r *http.Request) {
	st, _ := s.settings.Get(r.Context())
	f := productForm{Currency: st.Currency, Stock: "0", Active: true}
	f.Variants = variantsForm{Names: padNames(nil), Rows: []variantRow{emptyRow()}}
	s.render(w, r, http.StatusOK, "product", "New product", "products", f)
}

func (s *Server) editProduct(w http.ResponseWriter, r *http.Request) {
	p, err := productByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	f, err := s.storedForm(r.Context(), p)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "product", p.Title, "products", f)
}

// storedForm is the form of the stored product p, with its variants or
// its parent.
func (s *Server) storedForm(ctx context.Context, p *catalog.Product) (productForm, error) {
	var vs []catalog.Product
	var parent *catalog.Product
	var err error
	if p.IsVariant() {
		parent, err = catalog.GetProductByID(ctx, s.db, *p.ParentID)
	} else {
		vs, err = storedVariants(ctx, s.db, p)
	}
	if err != nil {
		return productForm{}, err
	}
	return formOf(p, vs, parent), nil
}

func productByID(ctx context.Context, db bun.IDB, raw string) (*catalog.Product, error) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return nil, notFound("Product")
	}
	p, err := catalog.GetProductByID(ctx, db, id)
	if err != nil {
		return nil, notFound("Product")
	}
	return p, nil
}

// parseAttributes reads "key: value" lines (or a JSON object).
func parseAttributes(text string) (map[string]string, error) {
	out := map[string]string{}
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "{") {
		if err := json.Unmarshal([]byte(text), &out); err != nil {
			return nil, fmt.Errorf("attributes: not a JSON object of strings")
		}
		return out, nil
	}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" || len(k) > 64 || len(v) > 500 {
			return nil, fmt.Errorf("attributes line %d: write key: value, such as color: navy", i+1)
		}
		out[strings.ToLower(k)] = v
	}
	return out, nil
}

func parseImageURLs(text string) ([]string, error) {
	var out []string
	for _, line := range strings.Fields(text) {
		u, err := url.Parse(line)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http" && !strings.HasPrefix(line, "/media/")) || (u.Scheme != "" && u.Host == "") {
			return nil, fmt.Errorf("image %q must be an http(s) URL", line)
		}
		out = append(out, line)
	}
	if len(out) > 10 {
		return nil, errors.New("at most 10 images")
	}
	return out, nil
}

func (s *Server) archiveProduct(w http.ResponseWriter, r *http.Request) { s.setActive(w, r, false) }
func (s *Server) restoreProduct(w http.ResponseWriter, r *http.Request) { s.setActive(w, r, true) }

func (s *Server) setActive(w http.ResponseWriter, r *http.Request, active bool) {
	p, err := productByID(r.Context(), s.db, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if err := catalog.SetProductActive(r.Context(), s.db, p.SKU, active); err != nil {
		s.renderError(w, r, err)
		return
	}
	s.tree.reset()
	msg := "Archived " + p.SKU + ": shoppers no longer find it."
	if active {
		msg = "Restored " + p.SKU + "."
	}
	redirect(w, r, fmt.Sprintf("/admin/products/%d", p.ID), msg)
}

// mediaFile is an uploaded product image, served publicly at /media/NAME
// so every channel (Telegram, Slack, the web) can show it.
const maxImage = 5 << 20

var imageTypes = map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "image/gif": ".gif", "image/webp": ".webp"}

// saveUpload stores the form's image file, if any, and returns its URL.
func (s *Server) saveUpload(r *http.Request) (string, error) {
	file, hdr, err := r.FormFile("image")
	if errors.Is(err, http.ErrMissingFile) || errors.Is(err, http.ErrNotMultipart) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("image upload: %v", err)
	}
	defer file.Close()
	if hdr.Size > maxImage {
		return "", fmt.Errorf("image %s is over 5 MB", hdr.Filename)
	}
	data, err := io.ReadAll(io.LimitReader(file, maxImage+1))
	if err != nil {
		return "", fmt.Errorf("image upload: %v", err)
	}
	ctype := http.DetectContentType(data)
	ext, ok := imageTypes[ctype]
	if !ok {
		return "", fmt.Errorf("image %s is not a JPEG, PNG, GIF or WebP picture", hdr.Filename)
	}
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	m := &catalog.MediaFile{Name: hex.EncodeToString(b) + ext, ContentType: ctype, Data: data, CreatedAt: time.Now().UTC()}
	if err := catalog.SaveMedia(r.Context(), s.db, m); err != nil {
		return "", fmt.Errorf("admin: store image: %w", err)
	}
	return s.publicBase(r) + "/media/" + m.Name, nil
}

// publicBase is the server's public URL (PUBLIC_URL), else the scheme
// and host the request came to, so uploaded images get absolute URLs that
// Telegram and Slack can fetch.
func (s *Server) publicBase(r *http.Request) string {
	if s.cfg.PublicURL != "" {
		return s.cfg.PublicURL
	}
	scheme := "http"
	if s.cfg.TrustedProxies.Secure(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// media serves an uploaded image, or a demo listing's tile
// (demo.ImageURL).
func (s *Server) media(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	m, err := catalog.GetMedia(r.Context(), s.db, name)
	if err != nil {
		b, ok := s.tiles.PNG(name)
		if !ok {
			http.NotFound(w, r)
			return
		}
		m = &catalog.MediaFile{Name: name, ContentType: "image/png", Data: b}
	}
	w.Header().Set("Content-Type", m.ContentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Write(m.Data)
}
