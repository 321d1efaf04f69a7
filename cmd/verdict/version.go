package main

import "runtime/debug"

// version is the module version and the commit the binary was built from,
// as the Go toolchain recorded them; a build without that record (go run,
// -buildvcs=false) says so rather than inventing one.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version, no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	commit, modified := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if commit == "" {
		return v + ", commit unknown (built without version control information)"
	}
	if modified {
		commit += " (modified)"
	}
	return v + ", commit " + commit
}
