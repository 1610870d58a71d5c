package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// Limits of the shop's own synonym groups.
const (
	MaxSynonymTerms      = 20  // terms in one group
	MaxSynonymTermLen    = 60  // characters in one term
	MaxSynonymGroups     = 500 // groups in one shop
	synonymTermSeparator = ", "
)

// SynonymGroup is one of the shop's own groups of interchangeable search
// terms ("couch, sofa"), added in the panel; both search backends expand
// queries with them as with the built-in lexicon.
type SynonymGroup struct {
	bun.BaseModel `bun:"table:search_synonyms,alias:search_synonym"`
	ID            int64     `bun:"id,pk,autoincrement"`
	Terms         string    `bun:"terms,notnull"` // normalized, ", "-separated
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

// List is the group's terms.
func (g SynonymGroup) List() []string { return strings.Split(g.Terms, synonymTermSeparator) }

// ParseSynonymGroup reads a group as the merchant types it, terms
// separated by commas (or new lines), and normalizes it: lower-cased,
// spaces collapsed, duplicates dropped, sorted. A group needs two terms
// with a letter or digit, each at most MaxSynonymTermLen characters.
func ParseSynonymGroup(text string) ([]string, error) {
	var terms []string
	for _, t := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == '\n' || r == ';' }) {
		t = strings.Join(strings.Fields(strings.ToLower(t)), " ")
		if t == "" {
			continue
		}
		if utf8.RuneCountInString(t) > MaxSynonymTermLen {
			return nil, fmt.Errorf("%w: a term is at most %d characters (%q is longer)", ErrInvalid, MaxSynonymTermLen, clipTerm(t))
		}
		if strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
			return nil, fmt.Errorf("%w: %q has no letters or digits", ErrInvalid, t)
		}
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	switch {
	case len(terms) < 2:
		return nil, fmt.Errorf("%w: a synonym group needs at least two different terms, separated by commas", ErrInvalid)
	case len(terms) > MaxSynonymTerms:
		return nil, fmt.Errorf("%w: a synonym group has at most %d terms", ErrInvalid, MaxSynonymTerms)
	}
	slices.Sort(terms)
	return terms, nil
}

func clipTerm(t string) string {
	if r := []rune(t); len(r) > 20 {
		return string(r[:20]) + "…"
	}
	return t
}

// AddSynonymGroup stores the group the merchant typed (ParseSynonymGroup);
// the same group added twice, or by two replicas at once, is stored once
// and returned. Past MaxSynonymGroups it is ErrInvalid.
func AddSynonymGroup(ctx context.Context, db bun.IDB, text string) (SynonymGroup, error) {
	terms, err := ParseSynonymGroup(text)
	if err != nil {
		return SynonymGroup{}, err
	}
	g := SynonymGroup{Terms: strings.Join(terms, synonymTermSeparator), CreatedAt: time.Now().UTC()}
	n, err := db.NewSelect().Model((*SynonymGroup)(nil)).Count(ctx)
	if err != nil {
		return SynonymGroup{}, fmt.Errorf("catalog: count synonym groups: %w", err)
	}
	if n >= MaxSynonymGroups {
		return SynonymGroup{}, fmt.Errorf("%w: the shop has %d synonym groups, the most it can have; remove one first", ErrInvalid, n)
	}
	if _, err := db.NewInsert().Model(&g).On("CONFLICT (terms) DO NOTHING").Exec(ctx); err != nil {
		return SynonymGroup{}, fmt.Errorf("catalog: add synonym group: %w", err)
	}
	var stored SynonymGroup
	if err := db.NewSelect().Model(&stored).Where("terms = ?", g.Terms).Scan(ctx); err != nil {
		return SynonymGroup{}, fmt.Errorf("catalog: read synonym group: %w", err)
	}
	return stored, nil
}

// DeleteSynonymGroup removes group id; ErrNotFound if there is none.
func DeleteSynonymGroup(ctx context.Context, db bun.IDB, id int64) error {
	res, err := db.NewDelete().Model((*SynonymGroup)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: delete synonym group %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("catalog: synonym group %d: %w", id, ErrNotFound)
	}
	return nil
}

// ListSynonymGroups returns the shop's groups, oldest first.
func ListSynonymGroups(ctx context.Context, db bun.IDB) ([]SynonymGroup, error) {
	var gs []SynonymGroup
	if err := db.NewSelect().Model(&gs).Order("id").Limit(MaxSynonymGroups + 100).Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list synonym groups: %w", err)
	}
	return gs, nil
}

// SynonymsVersion changes whenever a group is added or removed (the
// number of groups and the newest id): search indexes poll it and reload
// the groups when it moves, so every replica sees the panel's change.
func SynonymsVersion(ctx context.Context, db bun.IDB) (string, error) {
	var row struct {
		N   int           `bun:"n"`
		Max sql.NullInt64 `bun:"m"`
	}
	err := db.NewSelect().Model((*SynonymGroup)(nil)).ColumnExpr("count(*) AS n, max(id) AS m").Scan(ctx, &row)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("catalog: synonyms version: %w", err)
	}
	return fmt.Sprintf("%d/%d", row.N, row.Max.Int64), nil
}
