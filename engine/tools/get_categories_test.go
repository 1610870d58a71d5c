package tools

import (
	"context"
	"shopbot/engine/toolkit"
	"strconv"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/view"
)

type categoriesData struct {
	Parent     string          `json:"parent"`
	Categories []categoryCount `json:"categories"`
	Note       string          `json:"note"`
}

func TestGetCategoriesTopLevel(t *testing.T) {
	e := newTestEnv(t)
	var got categoriesData
	res := e.call(t, "get_categories", `{}`)
	modelData(t, res, &got)
	var names []string
	total := 0
	for _, c := range got.Categories {
		names = append(names, c.Name)
		total += c.Products
		if c.Path != c.Name {
			t.Errorf("top-level category %+v", c)
		}
	}
	want := "Apparel,Beauty,Books,Electronics,Grocery,Home,Kitchen,Office,Pets,Shoes,Sports & Outdoors,Toys"
	if strings.Join(names, ",") != want || total != 324 {
		t.Errorf("top level = %v with %d products, want %s with 324", names, total, want)
	}
	if len(res.Buttons) != 12 || res.Buttons[9].Label != "Shoes (27)" || res.Buttons[9].Data != "cat||0|Shoes" {
		t.Errorf("buttons = %+v", res.Buttons)
	}
	if empty := e.call(t, "get_categories", `{"parent":"  "}`); len(empty.Buttons) != 12 {
		t.Errorf("a blank parent is not the top level: %+v", empty.Data)
	}
}

func TestGetCategoriesChildren(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	// An archived product leaves the counts of its whole branch.
	if err := catalog.SetProductActive(ctx, e.db, "SHO-TRL-001", false); err != nil {
		t.Fatal(err)
	}
	var got categoriesData
	res := e.call(t, "get_categories", `{"parent":"shoes"}`)
	modelData(t, res, &got)
	want := []categoryCount{
		{"Shoes > Boots", "Boots", 7}, {"Shoes > Running", "Running", 7},
		{"Shoes > Sandals", "Sandals", 5}, {"Shoes > Sneakers", "Sneakers", 7},
	}
	if got.Parent != "Shoes" || toolkit.JSON(got.Categories) != toolkit.JSON(want) {
		t.Errorf("children of Shoes = %+v", got)
	}
	if buttonData(res.Buttons) != "cat||0|Shoes > Boots cat||0|Shoes > Running cat||0|Shoes > Sandals cat||0|Shoes > Sneakers" {
		t.Errorf("buttons = %s", buttonData(res.Buttons))
	}
	for _, b := range res.Buttons {
		if a, err := view.ParseAction(b.Data); err != nil || a.Kind != view.ActCategory || a.Arg != b.Action.Arg {
			t.Errorf("button %q does not round-trip: %+v, %v", b.Data, a, err)
		}
	}

	// A unique last part finds the category; a leaf has no children.
	res = e.call(t, "get_categories", `{"parent":"Trail"}`)
	got = categoriesData{}
	modelData(t, res, &got)
	if got.Parent != "Shoes > Running > Trail" || len(got.Categories) != 0 || got.Note == "" || len(res.Buttons) != 0 {
		t.Errorf("children of Trail = %+v, %d buttons", got, len(res.Buttons))
	}
}

func TestGetCategoriesLongPathsUseIDs(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	long := []string{"Toys", "Outdoor Play", "Water Toys, Sprinklers and Inflatable Pools for the Garden"}
	in := catalog.ProductInput{SKU: "TOY-WAT-001", Title: "Rainbow Sprinkler", CategoryPath: long, Price: 1999, Currency: "USD", Stock: 3}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.UpsertProducts(ctx, e.db, []catalog.ProductInput{in}); err != nil {
		t.Fatal(err)
	}
	c, err := catalog.EnsureCategoryPath(ctx, e.db, long) // made by the upsert: found, not created
	if err != nil {
		t.Fatal(err)
	}
	res := e.call(t, "get_categories", `{"parent":"Toys > Outdoor Play"}`)
	var found bool
	for _, b := range res.Buttons {
		if len(b.Data) > callbackDataMax {
			t.Errorf("callback data of %d bytes: %q", len(b.Data), b.Data)
		}
		if strings.HasPrefix(b.Label, "Water Toys") {
			found = true
			if want := "#" + strconv.FormatInt(c.ID, 10); b.Action.Arg != want {
				t.Errorf("long category button Arg = %q, want %q", b.Action.Arg, want)
			}
		}
	}
	if !found {
		t.Fatalf("no button for the long category: %+v", res.Buttons)
	}
	// The id form is accepted back as a parent, the way a pressed button
	// would ask for it.
	var got categoriesData
	modelData(t, e.call(t, "get_categories", `{"parent":"#`+strconv.FormatInt(c.ID, 10)+`"}`), &got)
	if got.Parent != c.Path {
		t.Errorf("parent #%d resolved to %q", c.ID, got.Parent)
	}
}

func TestGetCategoriesBadArguments(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct{ args, want string }{
		{`{"parent":"Spaceships"}`, "unknown category \"Spaceships\"; top-level categories are: Apparel, Beauty, Books"},
		{`{"parent":"#999999"}`, "unknown category"},
		{`{"parent":"Running"}`, "ambiguous; use one of: Shoes > Running; Sports & Outdoors > Running"},
		{`{"parent":"` + strings.Repeat("a", 201) + `"}`, "maxLength"},
		{`{"parent":7}`, "want string"},
		{`{"parent":"Shoes","user_id":"42"}`, "additional"},
	} {
		if msg := expectToolError(t, e, "get_categories", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("get_categories(%s): %s, want an error mentioning %q", tc.args, msg, tc.want)
		}
	}
}
