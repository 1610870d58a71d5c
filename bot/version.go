package main

import "runtime/debug"

// version is stamped by the build: go build -ldflags "-X main.version=v1.2.3"
// (the Makefile uses git describe, the Dockerfile its VERSION build arg).
var version string

// buildVersion is the stamped version; else the module version the Go
// toolchain recorded (go install …@v1.2.3); else the commit the binary was
// built from (vcs.revision, "-dirty" with uncommitted changes); else "dev".
func buildVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	return revisionOf(bi.Settings)
}

// revisionOf is the short commit in the build settings, or "dev".
func revisionOf(settings []debug.BuildSetting) string {
	var rev, dirty string
	for _, s := range settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "-dirty"
		}
	}
	if rev == "" {
		return "dev"
	}
	return rev[:min(len(rev), 12)] + dirty
}
