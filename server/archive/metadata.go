package archive

import "github.com/dapconsole/dapconsole/model"

// MetadataName is the one entry of an archive that is not a folder or a
// platform file: the owners and permissions a backup was asked to include,
// keyed by entry path. Its body is JSON; it has no ".json" name because the
// spec refuses such entries (4.3 rule 1), and no platform extension so it
// cannot be taken for a file. It is written last and only when a flag asks.
const MetadataName = ".dap-permissions"

// MetadataVersion is the version of the metadata format this package writes.
const MetadataVersion = 1

// The sections a metadata entry may hold, named in Metadata.Included: a
// section that is not named was not asked for at backup, so restore falls
// back to defaults even when its flag is given.
const (
	SectionOwner            = "owner"            // includeOwner
	SectionSharing          = "sharing"          // includeSharing: others' flags
	SectionGroupPermissions = "groupPermissions" // includeGroupPermissions
	SectionDataPermissions  = "dataPermissions"  // includeDataPermissions, workbooks only
)

// Metadata is the body of the MetadataName entry.
type Metadata struct {
	Version  int                 `json:"version"`
	Included []string            `json:"included"`
	Files    map[string]FileMeta `json:"files"`
}

// Includes reports whether the backup recorded a section.
func (m *Metadata) Includes(section string) bool {
	if m == nil {
		return false
	}
	for _, s := range m.Included {
		if s == section {
			return true
		}
	}
	return false
}

// FileMeta is what the metadata records of one folder or file; fields of
// sections not included stay empty.
type FileMeta struct {
	Owner  string                  `json:"owner,omitempty"`
	Others *model.Flags            `json:"others,omitempty"`
	Groups []model.GroupPermission `json:"groups,omitempty"`
	Data   *DataPermissions        `json:"dataPermissions,omitempty"`
}

// DataPermissions are who may read a workbook's computed data: the groups
// with read access and whether others may read it.
type DataPermissions struct {
	OthersReadable bool     `json:"othersReadable"`
	ReadableGroups []string `json:"readableGroups,omitempty"`
}
