package catalog_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestPages(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		body := "Intro line.\n\n## Refunds\n\nMoney back in 14 days.\n\n## Exchanges\n\nSwap a size for free."
		created, err := catalog.UpsertPage(ctx, db, catalog.PageInput{Slug: "returns", Title: " Returns ", Body: body})
		if err != nil || !created {
			t.Fatalf("create: created %v, err %v", created, err)
		}
		p, err := catalog.GetPage(ctx, db, "returns")
		if err != nil || p.Title != "Returns" || p.Body != body {
			t.Fatalf("get: %+v, %v", p, err)
		}
		ps, err := catalog.PassagesOf(ctx, db, catalog.PassagePage, "returns")
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"|Intro line.", "Refunds|Money back in 14 days.", "Exchanges|Swap a size for free."}
		if got := passageStrings(ps); strings.Join(got, ";") != strings.Join(want, ";") {
			t.Fatalf("passages = %q, want %q", got, want)
		}
		if ps[0].Title != "Returns" {
			t.Errorf("passage title %q", ps[0].Title)
		}

		created, err = catalog.UpsertPage(ctx, db, catalog.PageInput{Slug: "returns", Title: "Returns & refunds", Body: "Only this."})
		if err != nil || created {
			t.Fatalf("update: created %v, err %v", created, err)
		}
		ps, _ = catalog.PassagesOf(ctx, db, catalog.PassagePage, "returns")
		if got := passageStrings(ps); len(got) != 1 || got[0] != "|Only this." || ps[0].Title != "Returns & refunds" {
			t.Fatalf("after update: %q", got)
		}
		if _, err := catalog.UpsertPage(ctx, db, catalog.PageInput{Slug: "about", Title: "About", Body: "We sell things."}); err != nil {
			t.Fatal(err)
		}
		all, err := catalog.ListPages(ctx, db)
		if err != nil || len(all) != 2 || all[0].Slug != "about" {
			t.Fatalf("list: %+v, %v", all, err)
		}
		keys, err := catalog.PassageSources(ctx, db)
		if err != nil || len(keys) != 2 {
			t.Fatalf("sources: %v, %v", keys, err)
		}

		if err := catalog.DeletePage(ctx, db, "returns"); err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.GetPage(ctx, db, "returns"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("get deleted: %v", err)
		}
		if n, _ := catalog.CountPassages(ctx, db); n != 1 {
			t.Errorf("%d passages left, want 1 (about)", n)
		}
		if err := catalog.DeletePage(ctx, db, "returns"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("delete twice: %v", err)
		}
		// The deleted page's passages left a tombstone for the search
		// backends; the live one is in the passage feed.
		src := catalog.NewSearchSource(db)
		ts, err := src.Tombstones(ctx, time.Unix(0, 0), 100)
		if err != nil || len(ts) != 1 || ts[0].Kind != catalog.TombstonePassages || ts[0].Key != "page:returns" {
			t.Errorf("tombstones: %+v, %v", ts, err)
		}
		cs, err := src.PassageChanges(ctx, time.Unix(0, 0), 100)
		if err != nil || len(cs) != 1 || cs[0].Ref != "about" {
			t.Errorf("passage changes: %+v, %v", cs, err)
		}
	})
}

func TestPageInputInvalid(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if _, err := catalog.UpsertPage(ctx, db, catalog.PageInput{Slug: "ok", Title: "Fine", Body: "Kept."}); err != nil {
			t.Fatal(err)
		}
		for _, in := range []catalog.PageInput{
			{Slug: "", Title: "T"},
			{Slug: "Bad Slug", Title: "T"},
			{Slug: "-lead", Title: "T"},
			{Slug: "a--b", Title: "T"},
			{Slug: "ok/../x", Title: "T"},
			{Slug: "new", Title: "T"},
			{Slug: strings.Repeat("a", catalog.MaxPageSlug+1), Title: "T"},
			{Slug: "ok", Title: ""},
			{Slug: "ok", Title: "two\nlines"},
			{Slug: "ok", Title: strings.Repeat("т", catalog.MaxPageTitle+1)},
			{Slug: "ok", Title: "T", Body: strings.Repeat("x", catalog.MaxPageBody+1)},
			{Slug: "ok", Title: "T", Body: "bad \xff byte"},
			{Slug: "ok", Title: "T", Body: "nul \x00"},
		} {
			if _, err := catalog.UpsertPage(ctx, db, in); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%.40q: err %v, want ErrInvalid", in.Slug+"|"+in.Title, err)
			}
		}
		p, err := catalog.GetPage(ctx, db, "ok")
		if err != nil || p.Title != "Fine" || p.Body != "Kept." {
			t.Errorf("a refused write changed the page: %+v, %v", p, err)
		}
	})
}

func TestChunkPage(t *testing.T) {
	long := strings.Repeat("Parcels travel by courier. ", 80) // ~2,100 runes
	md := "# Shipping\n\nWe ship worldwide.\n\n### Countries ###\n\n- Canada\n- Germany\n\n```\n# not a heading\n```\n\n## Costs\n\n" + long
	cs := catalog.ChunkPage(md)
	if cs[0].Heading != "Shipping" || cs[0].Text != "We ship worldwide." {
		t.Errorf("chunk 0 = %+v", cs[0])
	}
	if cs[1].Heading != "Countries" || !strings.Contains(cs[1].Text, "- Canada\n- Germany") || !strings.Contains(cs[1].Text, "# not a heading") {
		t.Errorf("chunk 1 = %+v", cs[1])
	}
	var costs int
	for _, c := range cs[2:] {
		if c.Heading != "Costs" {
			t.Errorf("chunk under Costs has heading %q", c.Heading)
		}
		if n := utf8.RuneCountInString(c.Text); n > 900 {
			t.Errorf("chunk of %d runes", n)
		}
		if !strings.HasSuffix(c.Text, ".") {
			t.Errorf("long paragraph not cut at a sentence end: …%q", c.Text[len(c.Text)-20:])
		}
		costs += len(c.Text)
	}
	if costs < len(long)-10 || len(cs) < 5 {
		t.Errorf("%d chunks, %d bytes under Costs of %d", len(cs), costs, len(long))
	}
	if got := catalog.ChunkPage(" \n\n  \n"); len(got) != 0 {
		t.Errorf("blank body: %+v", got)
	}
}

func passageStrings(ps []catalog.Passage) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Heading + "|" + p.Body
	}
	return out
}
