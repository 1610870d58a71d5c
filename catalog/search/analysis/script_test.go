package analysis

import "testing"

func TestScriptOf(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Script
	}{
		{"rain jacket", ScriptLatin},
		{"Ноутбук Nexbook 14, 14 дюймов, 16 ГБ ОЗУ, SSD 512 ГБ", ScriptCyrillic},
		{"Джинсы мужские прямого кроя Bluecoast Classic", ScriptCyrillic},
		{"Crème brûlée", ScriptLatin},
		{"42", ScriptNone},
		{"", ScriptNone},
		{"ab вг", ScriptNone},
	} {
		if got := ScriptOf(tc.in); got != tc.want {
			t.Errorf("ScriptOf(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
	if !ScriptLatin.Mismatch(ScriptCyrillic) || ScriptLatin.Mismatch(ScriptLatin) || ScriptNone.Mismatch(ScriptCyrillic) || ScriptLatin.Mismatch(ScriptNone) {
		t.Error("Mismatch")
	}
}
