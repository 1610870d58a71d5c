package toolkit

import (
	"shopbot/catalog"
)

// Builders that keep the tool schemas short and uniformly strict.

// Object is a strict object schema: no properties beyond these.
func Object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// Str is a string of at most maxLen bytes.
func Str(desc string, maxLen int) map[string]any {
	return map[string]any{"type": "string", "description": desc, "maxLength": maxLen}
}

// MaxSKUBytes is the longest SKU the tools accept.
const MaxSKUBytes = 64

// SKU is a product SKU argument.
func SKU() map[string]any {
	return map[string]any{"type": "string", "minLength": 1, "maxLength": MaxSKUBytes}
}

// Num is a number of at least minimum.
func Num(desc string, minimum float64) map[string]any {
	return map[string]any{"type": "number", "description": desc, "minimum": minimum}
}

// Integer is an integer within minimum..maximum.
func Integer(desc string, minimum, maximum int) map[string]any {
	return map[string]any{"type": "integer", "description": desc, "minimum": minimum, "maximum": maximum}
}

// Enum is a string that is one of values.
func Enum(desc string, values ...string) map[string]any {
	return map[string]any{"type": "string", "description": desc, "enum": values}
}

// Options is a product's option choice: name → value.
// The example goes on one tool only (add_to_cart): the model reads every
// tool's schema on every call.
func Options(desc string) map[string]any {
	s := map[string]any{
		"type": "object", "maxProperties": catalog.MaxOptions,
		"additionalProperties": map[string]any{"type": "string", "minLength": 1, "maxLength": 40},
	}
	if desc != "" {
		s["description"] = desc
	}
	return s
}
