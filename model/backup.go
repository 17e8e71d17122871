package model

// Query flags of backup (GET) and restore (PUT); they are sent without values.
const (
	FlagIgnoreMissingDependencies        = "ignoreMissingDependencies"
	FlagSkipFilesWithMissingDependencies = "skipFilesWithMissingDependencies"
	FlagIncludeDataPermissions           = "includeDataPermissions"
	FlagIncludeGroupPermissions          = "includeGroupPermissions"
	FlagIncludeSharing                   = "includeSharing"
	FlagIncludeOwner                     = "includeOwner"
	FlagOverwrite                        = "overwrite"
	FlagIgnoreUnknownGroups              = "ignoreUnknownGroups"
	FlagSubstituteMissingUser            = "substituteMissingUser"
)

// BackupFlags are the flags backup takes, in the spec's order.
var BackupFlags = []string{
	FlagIgnoreMissingDependencies, FlagSkipFilesWithMissingDependencies,
	FlagIncludeDataPermissions, FlagIncludeGroupPermissions, FlagIncludeSharing, FlagIncludeOwner,
}

// RestoreFlags are the flags restore takes, in the spec's order.
var RestoreFlags = []string{
	FlagOverwrite, FlagSkipFilesWithMissingDependencies, FlagIncludeDataPermissions,
	FlagIncludeGroupPermissions, FlagIgnoreUnknownGroups, FlagIncludeSharing,
	FlagIncludeOwner, FlagSubstituteMissingUser,
}

// BackupSelection is the body of a backup of chosen files; each element is
// a file path (string), a file id (number) or a UUID (string).
type BackupSelection struct {
	IDs []any `json:"ids"`
}

// SkippedFile is a file a restore left out, with why.
type SkippedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// RestoreResult is the answer of a successful restore (its shape is not
// shown by the spec): the paths restored, the files skipped, and the
// overwritten files whose hidden properties stayed as they were because the
// caller is not an administrator.
type RestoreResult struct {
	Status     string        `json:"status"`
	Restored   []string      `json:"restored"`
	Skipped    []SkippedFile `json:"skipped"`
	KeptHidden []SkippedFile `json:"keptHiddenProperties,omitempty"`
}
