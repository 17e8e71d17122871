package api

import (
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

// BackupFlags is a set of the query flags backup takes; combine with |.
type BackupFlags uint16

// The flags of backup, spec section 4.2.
const (
	BackupIgnoreMissingDependencies BackupFlags = 1 << iota
	BackupSkipFilesWithMissingDependencies
	BackupIncludeDataPermissions
	BackupIncludeGroupPermissions
	BackupIncludeSharing
	BackupIncludeOwner
)

// backupFlagNames follows the bit order of the constants above.
var backupFlagNames = []string{
	model.FlagIgnoreMissingDependencies, model.FlagSkipFilesWithMissingDependencies,
	model.FlagIncludeDataPermissions, model.FlagIncludeGroupPermissions,
	model.FlagIncludeSharing, model.FlagIncludeOwner,
}

// RestoreFlags is a set of the query flags restore takes; combine with |.
type RestoreFlags uint16

// The flags of restore, spec section 4.3.
const (
	RestoreOverwrite RestoreFlags = 1 << iota
	RestoreSkipFilesWithMissingDependencies
	RestoreIncludeDataPermissions
	RestoreIncludeGroupPermissions
	RestoreIgnoreUnknownGroups
	RestoreIncludeSharing
	RestoreIncludeOwner
	RestoreSubstituteMissingUser
)

// restoreFlagNames follows the bit order of the constants above.
var restoreFlagNames = []string{
	model.FlagOverwrite, model.FlagSkipFilesWithMissingDependencies,
	model.FlagIncludeDataPermissions, model.FlagIncludeGroupPermissions,
	model.FlagIgnoreUnknownGroups, model.FlagIncludeSharing,
	model.FlagIncludeOwner, model.FlagSubstituteMissingUser,
}

// Has reports whether every flag of g is in f.
func (f BackupFlags) Has(g BackupFlags) bool { return f&g == g }

// Names returns the wire names of the flags in f, in the spec's order.
func (f BackupFlags) Names() []string { return flagNames(uint16(f), backupFlagNames) }

// Query returns the flags as a raw query without values: "includeGroupPermissions&includeOwner".
func (f BackupFlags) Query() string { return strings.Join(f.Names(), "&") }

// String returns the flags' names joined by "|", or "none".
func (f BackupFlags) String() string { return flagString(f.Names()) }

// Has reports whether every flag of g is in f.
func (f RestoreFlags) Has(g RestoreFlags) bool { return f&g == g }

// Names returns the wire names of the flags in f, in the spec's order.
func (f RestoreFlags) Names() []string { return flagNames(uint16(f), restoreFlagNames) }

// Query returns the flags as a raw query without values: "overwrite&includeOwner".
func (f RestoreFlags) Query() string { return strings.Join(f.Names(), "&") }

// String returns the flags' names joined by "|", or "none".
func (f RestoreFlags) String() string { return flagString(f.Names()) }

// AllBackupFlags lists every backup flag, one per element, in the spec's order.
func AllBackupFlags() []BackupFlags {
	all := make([]BackupFlags, len(backupFlagNames))
	for i := range all {
		all[i] = 1 << i
	}
	return all
}

// AllRestoreFlags lists every restore flag, one per element, in the spec's order.
func AllRestoreFlags() []RestoreFlags {
	all := make([]RestoreFlags, len(restoreFlagNames))
	for i := range all {
		all[i] = 1 << i
	}
	return all
}

func flagNames(set uint16, names []string) []string {
	var out []string
	for i, name := range names {
		if set&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

func flagString(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "|")
}
