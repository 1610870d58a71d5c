package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"shopbot/catalog/clip"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// Page is a shop page: Markdown the merchant writes (returns, shipping,
// payment, warranty, contact, about...), addressed by its slug.
type Page struct {
	bun.BaseModel `bun:"table:pages"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Slug      string    `bun:"slug,notnull"`
	Title     string    `bun:"title,notnull"`
	Body      string    `bun:"body,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`
	// Demo is the demo column (a row the demo shop created, demo_state.go)
	// where a query reads every column; bun never writes it: MarkDemo does.
	Demo bool `bun:"demo,scanonly"`
}

// Page limits: a slug is a URL path segment and a file name; a body is a
// page a shopper would read, not a manual (64 KiB is some 10,000 words).
const (
	MaxPageSlug  = 64
	MaxPageTitle = 200
	MaxPageBody  = 64 << 10
)

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// PageInput is what the admin panel or an import writes for one page.
type PageInput struct {
	Slug  string
	Title string
	Body  string
}

// Validate checks an input and normalizes it in place (slug and title
// trimmed, line endings of the body made "\n").
func (in *PageInput) Validate() error {
	in.Slug = strings.TrimSpace(in.Slug)
	in.Title = strings.TrimSpace(in.Title)
	in.Body = strings.ReplaceAll(in.Body, "\r\n", "\n")
	switch {
	case in.Slug == "":
		return fmt.Errorf("%w: missing slug", ErrInvalid)
	case len(in.Slug) > MaxPageSlug || !slugRE.MatchString(in.Slug):
		return fmt.Errorf("%w: slug %q must be 1–%d characters of a-z, 0-9 and single inner hyphens", ErrInvalid, clip.Shorten(in.Slug, 80), MaxPageSlug)
	case in.Slug == "new":
		return fmt.Errorf("%w: slug \"new\" is reserved (the panel's new-page form)", ErrInvalid)
	case !utf8.ValidString(in.Title) || !utf8.ValidString(in.Body):
		return fmt.Errorf("%w: page %s: text is not valid UTF-8", ErrInvalid, in.Slug)
	case in.Title == "":
		return fmt.Errorf("%w: page %s: missing title", ErrInvalid, in.Slug)
	case utf8.RuneCountInString(in.Title) > MaxPageTitle || strings.ContainsAny(in.Title, "\n\r\x00"):
		return fmt.Errorf("%w: page %s: the title must be one line of at most %d characters", ErrInvalid, in.Slug, MaxPageTitle)
	case len(in.Body) > MaxPageBody:
		return fmt.Errorf("%w: page %s: the body is %d bytes, more than the %d allowed", ErrInvalid, in.Slug, len(in.Body), MaxPageBody)
	case strings.ContainsRune(in.Body, 0):
		return fmt.Errorf("%w: page %s: the body contains a NUL byte", ErrInvalid, in.Slug)
	}
	return nil
}

// ListPages returns every page, by slug.
func ListPages(ctx context.Context, db bun.IDB) ([]Page, error) {
	var ps []Page
	if err := db.NewSelect().Model(&ps).Order("slug").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list pages: %w", err)
	}
	return ps, nil
}

// GetPage loads the page with this slug.
func GetPage(ctx context.Context, db bun.IDB, slug string) (*Page, error) {
	p := new(Page)
	err := db.NewSelect().Model(p).Where("slug = ?", slug).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("catalog: page %q: %w", clip.Shorten(slug, 80), ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: page %q: %w", clip.Shorten(slug, 80), err)
	}
	return p, nil
}

// UpsertPage creates the page with in's slug or replaces its title and
// body, and replaces its passages, in one transaction; created reports
// whether the page is new. Invalid input changes nothing.
func UpsertPage(ctx context.Context, db bun.IDB, in PageInput) (created bool, err error) {
	if err := in.Validate(); err != nil {
		return false, fmt.Errorf("catalog: save page: %w", err)
	}
	now := time.Now().UTC()
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Model((*Page)(nil)).Where("slug = ?", in.Slug).Count(ctx)
		if err != nil {
			return err
		}
		created = n == 0
		row := Page{Slug: in.Slug, Title: in.Title, Body: in.Body, CreatedAt: now, UpdatedAt: now}
		_, err = tx.NewInsert().Model(&row).
			On("CONFLICT (slug) DO UPDATE").
			Set("title = EXCLUDED.title, body = EXCLUDED.body, updated_at = EXCLUDED.updated_at").
			Returning("NULL").Exec(ctx)
		if err != nil {
			return err
		}
		return replacePassages(ctx, tx, PassagePage, in.Slug, "", in.Title, ChunkPage(in.Body), now)
	})
	if err != nil {
		return false, fmt.Errorf("catalog: save page %s: %w", in.Slug, err)
	}
	return created, nil
}

// DeletePage deletes the page with this slug and its passages.
func DeletePage(ctx context.Context, db bun.IDB, slug string) error {
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*Page)(nil)).Where("slug = ?", slug).Exec(ctx)
		if err := expectOneRow(res, err, "page %q", clip.Shorten(slug, 80)); err != nil {
			return err
		}
		return replacePassages(ctx, tx, PassagePage, slug, "", "", nil, time.Now().UTC())
	})
	if err != nil {
		return fmt.Errorf("catalog: delete page: %w", err)
	}
	return nil
}
