package locale

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"text/template"

	"gopkg.in/yaml.v3"

	"shopbot/engine/view"
)

// Fallback is the language every key exists in, used for a language the
// catalogue does not have and for a key a language lacks.
const Fallback = "en"

//go:embed messages/*.yaml
var files embed.FS

// language is one message file, its words and their parsed templates.
type language struct {
	words map[string]string
	tmpl  *template.Template
}

// catalogue holds every language, parsed once; a broken file is a
// programming error the tests catch (they load every file).
var catalogue = mustLoad(files)

func mustLoad(fsys fs.FS) map[string]*language {
	c, err := load(fsys)
	if err != nil {
		panic(err)
	}
	return c
}

// load reads messages/*.yaml: each file is a language named by its code.
func load(fsys fs.FS) (map[string]*language, error) {
	names, err := fs.Glob(fsys, "messages/*.yaml")
	if err != nil {
		return nil, err
	}
	out := map[string]*language{}
	for _, name := range names {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		lang := strings.TrimSuffix(path.Base(name), ".yaml")
		l := &language{words: map[string]string{}}
		if err := yaml.Unmarshal(raw, &l.words); err != nil {
			return nil, fmt.Errorf("locale: %s: %w", name, err)
		}
		l.tmpl = template.New(lang).Funcs(funcs(lang, l.words))
		for key, text := range l.words {
			if _, err := l.tmpl.New(key).Parse(text); err != nil {
				return nil, fmt.Errorf("locale: %s: %s: %w", name, key, err)
			}
		}
		out[lang] = l
	}
	if out[Fallback] == nil {
		return nil, fmt.Errorf("locale: no messages/%s.yaml", Fallback)
	}
	return out, nil
}

// Lang is the catalogue's language for a platform locale or language code
// ("ru", "ru-RU", "pt_BR"): its language part when the catalogue has it,
// else Fallback.
func Lang(tag string) string {
	base := strings.ToLower(tag)
	if i := strings.IndexAny(base, "-_"); i >= 0 {
		base = base[:i]
	}
	if _, ok := catalogue[base]; ok {
		return base
	}
	return Fallback
}

// Languages lists the catalogue's languages, sorted.
func Languages() []string {
	out := make([]string, 0, len(catalogue))
	for lang := range catalogue {
		out = append(out, lang)
	}
	slices.Sort(out)
	return out
}

// Keys lists the keys of lang's file, sorted.
func Keys(lang string) []string {
	l := catalogue[Lang(lang)]
	out := make([]string, 0, len(l.words))
	for k := range l.words {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Word is key's text in lang as written (a label, a plain sentence),
// falling back to English. A key no file has is returned as is, so a
// missing word shows as its key rather than as nothing.
func Word(lang, key string) string {
	if w, ok := catalogue[Lang(lang)].words[key]; ok {
		return w
	}
	if w, ok := catalogue[Fallback].words[key]; ok {
		return w
	}
	return key
}

// WordIn is key's text in lang's own file, without the fallback: false
// when that language has no word for it.
func WordIn(lang, key string) (string, bool) {
	w, ok := catalogue[Lang(lang)].words[key]
	return w, ok
}

// Price words a card's PriceText in lang: a parent's "from $24.00"
// (view.FromPrice) as the language's price.from; other texts as they are.
func Price(lang, priceText string) string {
	return price(catalogue[Lang(lang)].words, priceText)
}

func price(words map[string]string, priceText string) string {
	lowest, ok := view.FromPrice(priceText)
	if !ok {
		return priceText
	}
	if from, ok := words["price.from"]; ok {
		return fmt.Sprintf(from, lowest)
	}
	return priceText
}

// Sprintf formats key's text in lang with args, for the words written
// with fmt verbs (%s, %d).
func Sprintf(lang, key string, args ...any) string {
	return fmt.Sprintf(Word(lang, key), args...)
}

// Text renders key's template in lang with data, falling back to English
// when lang lacks the key.
func Text(lang, key string, data any) (string, error) {
	l := catalogue[Lang(lang)]
	if l.tmpl.Lookup(key) == nil {
		l = catalogue[Fallback]
	}
	var b strings.Builder
	if err := l.tmpl.ExecuteTemplate(&b, key, data); err != nil {
		return "", fmt.Errorf("locale: %s/%s: %w", lang, key, err)
	}
	return b.String(), nil
}

// funcs are what the templates may call: inc (1-based numbering), join,
// plural (two forms, or three for Russian-like counting), status and
// field (the words status.X and field.X of the same file), price (a
// price text with "from" in the language).
func funcs(lang string, words map[string]string) template.FuncMap {
	word := func(prefix, s string) string {
		if w, ok := words[prefix+s]; ok {
			return w
		}
		return s
	}
	return template.FuncMap{
		"inc":    func(i int) int { return i + 1 },
		"join":   strings.Join,
		"plural": Plural,
		"status": func(s string) string { return word("status.", s) },
		"field":  func(s string) string { return word("field.", s) },
		"price":  func(s string) string { return price(words, s) },
	}
}

// Plural picks a form for n: two forms are one and other (English), three
// are the Slavic one, few and many (1 товар, 2 товара, 5 товаров).
func Plural(n int, forms ...string) string {
	if len(forms) == 0 {
		return ""
	}
	if len(forms) < 3 {
		if n == 1 || len(forms) == 1 {
			return forms[0]
		}
		return forms[1]
	}
	n10, n100 := n%10, n%100
	switch {
	case n10 == 1 && n100 != 11:
		return forms[0]
	case n10 >= 2 && n10 <= 4 && (n100 < 10 || n100 >= 20):
		return forms[1]
	}
	return forms[2]
}
