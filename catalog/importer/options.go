package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"shopbot/catalog/clip"
)

// OptionValues is a variant's option values as written in the file: a
// JSON object of text (numbers and booleans become text), read in key
// order, because the first variant of a parent orders the parent's option
// names ("size" then "colour").
type OptionValues struct {
	Names  []string // in the order of the file
	Values map[string]string
}

// UnmarshalJSON reads {"size":"42","colour":"Navy"} keeping the key order.
func (o *OptionValues) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New(`options must be a JSON object like {"size":"42","colour":"Navy"}`)
	}
	out := OptionValues{Values: map[string]string{}}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("options: %v", err)
		}
		name := strings.TrimSpace(t.(string)) // object keys are always strings
		if _, dup := out.Values[name]; dup {
			return fmt.Errorf("option %q is given twice", clip.Shorten(name, 40))
		}
		var val any
		if err := dec.Decode(&val); err != nil {
			return fmt.Errorf("options: %v", err)
		}
		switch x := val.(type) {
		case string:
			out.Values[name] = strings.TrimSpace(x)
		case json.Number:
			out.Values[name] = x.String()
		case bool:
			out.Values[name] = fmt.Sprint(x)
		case nil:
			out.Values[name] = "" // refused as an empty value by validation
		default:
			return fmt.Errorf("option %q must be text, not a nested object or list", clip.Shorten(name, 40))
		}
		out.Names = append(out.Names, name)
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("options: %v", err)
	}
	*o = out
	return nil
}

// NameList is a parent's option_names: a JSON array of text.
type NameList []string

// UnmarshalJSON reads ["size","colour"].
func (l *NameList) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return errors.New(`option_names must be a JSON array of text like ["size","colour"]`)
	}
	*l = names
	return nil
}

// decodeCell decodes a JSON cell of a CSV row into v, naming the column
// when it is not JSON at all.
func decodeCell(col, cell string, v json.Unmarshaler) error {
	b := []byte(cleanField(cell, false))
	if !json.Valid(b) {
		return fmt.Errorf("%s: not valid JSON", col)
	}
	return v.UnmarshalJSON(b)
}
