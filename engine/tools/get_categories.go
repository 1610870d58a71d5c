package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/clip"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// Category buttons carry the category in Action.Arg. Telegram allows 64
// bytes of callback data, so a path that would not fit is sent as the
// category id prefixed with "#" ("#12") instead; ResolveCategoryArg (and so
// get_categories' parent argument) accepts both forms.
const (
	callbackDataMax   = 64
	categoryIDPrefix  = "#"
	categoryParentMax = 200
)

type getCategoriesArgs struct {
	Parent string `json:"parent"`
}

// categoryCount is one category as the model reads it.
type categoryCount struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	Products int    `json:"products"` // active products in the whole subtree
}

func getCategoriesTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "get_categories",
		Description: "Categories with product counts: the top level, or parent's subcategories.",
		Schema: object(map[string]any{
			"parent": str("category path, e.g. 'Shoes'; empty for the top level", categoryParentMax),
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a getCategoriesArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			all, err := d.products().Categories(ctx)
			if err != nil {
				return toolkit.Result{}, err
			}
			counts, err := d.products().CategoryCounts(ctx)
			if err != nil {
				return toolkit.Result{}, err
			}
			var parent *catalog.Category
			if strings.TrimSpace(a.Parent) != "" {
				if parent, err = ResolveCategoryArg(all, a.Parent); err != nil {
					return toolkit.Result{}, err
				}
			}
			return categoriesResult(all, counts, parent), nil
		},
	}
}

func categoriesResult(all []catalog.Category, counts map[int64]int, parent *catalog.Category) toolkit.Result {
	var parentID *int64
	data := map[string]any{}
	if parent != nil {
		parentID = &parent.ID
		data["parent"] = parent.Path
	}
	list := []categoryCount{}
	var buttons []view.Button
	for _, c := range catalog.Children(all, parentID) {
		n := 0
		for _, id := range catalog.Subtree(all, c.ID) {
			n += counts[id]
		}
		list = append(list, categoryCount{Path: c.Path, Name: c.Name, Products: n})
		if n > 0 {
			buttons = append(buttons, view.NewButton(c.Name+" ("+strconv.Itoa(n)+")", categoryAction(c)))
		}
	}
	data["categories"] = list
	if len(list) == 0 {
		data["note"] = "no subcategories; search this category with search_products"
	}
	return toolkit.Result{Data: data, Buttons: buttons}
}

// categoryAction opens a category; see callbackDataMax.
func categoryAction(c catalog.Category) view.Action {
	a := view.Action{Kind: view.ActCategory, Arg: c.Path}
	if len(a.Encode()) > callbackDataMax {
		a.Arg = categoryIDPrefix + strconv.FormatInt(c.ID, 10)
	}
	return a
}

// ResolveCategoryArg finds the category named by a path ("Shoes > Running",
// any case and spacing), a unique last part ("Running" when only one
// category is called that) or an id in button form ("#12"). Anything else
// is a ToolError listing the top-level categories.
func ResolveCategoryArg(all []catalog.Category, arg string) (*catalog.Category, error) {
	if idText, ok := strings.CutPrefix(strings.TrimSpace(arg), categoryIDPrefix); ok {
		if id, err := strconv.ParseInt(idText, 10, 64); err == nil {
			for i := range all {
				if all[i].ID == id {
					return &all[i], nil
				}
			}
		}
	}
	want := strings.ToLower(strings.Join(catalog.SplitCategoryPath(arg), catalog.PathSeparator))
	var suffixed []*catalog.Category
	for i := range all {
		p := strings.ToLower(all[i].Path)
		if p == want {
			return &all[i], nil
		}
		if want != "" && strings.HasSuffix(p, catalog.PathSeparator+want) {
			suffixed = append(suffixed, &all[i])
		}
	}
	if len(suffixed) == 1 {
		return suffixed[0], nil
	}
	if len(suffixed) > 1 {
		paths := make([]string, len(suffixed))
		for i, c := range suffixed {
			paths[i] = c.Path
		}
		return nil, toolkit.Errorf("category %q is ambiguous; use one of: %s", clip.Shorten(arg, 100), strings.Join(paths, "; "))
	}
	var roots []string
	for _, c := range catalog.Children(all, nil) {
		roots = append(roots, c.Name)
	}
	return nil, toolkit.Errorf("unknown category %q; top-level categories are: %s", clip.Shorten(arg, 100), strings.Join(roots, ", "))
}
