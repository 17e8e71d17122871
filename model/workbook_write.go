package model

// V2Permission is a v2 file's `permission`: others' flags are an object
// named permissionForOthers, the groups' flags a map by group name.
type V2Permission struct {
	Groups              map[string]Flags `json:"groups"`
	Owner               string           `json:"owner"`
	PermissionForOthers Flags            `json:"permissionForOthers"`
	PubliclyShared      bool             `json:"publiclyShared"`
}

// V2JobConfiguration is the part of a v2 workbook's `jobConfiguration` the
// embedded platform keeps: hadoopProperties as a map (a v1 configuration's
// is a string of key=value lines) and how the workbook is triggered.
type V2JobConfiguration struct {
	HadoopProperties map[string]string `json:"hadoopProperties"`
	Triggering       *V2Triggering     `json:"triggering,omitempty"`
}

// V2Triggering is how a v2 workbook runs; TriggeringDataDriven is the one
// type the platform's documents show.
type V2Triggering struct {
	Type string `json:"_type"`
}

// TriggeringDataDriven runs a workbook when its inputs have new data.
const TriggeringDataDriven = "DataDrivenTriggering"

// WorkbookV2Created is the answer of a v2 workbook create, as release 11
// sends it: FilePath is the workbook's path without its extension.
type WorkbookV2Created struct {
	Status          string `json:"status"`
	ConfigurationID int64  `json:"configuration-id"`
	FileID          int64  `json:"file-id"`
	FileUUID        string `json:"file-uuid"`
	FilePath        string `json:"file-path"`
}

// WorkbookRollback is the body of a v2 workbook rollback: the workbook by
// file id or by UUID. The platform documents no body; this is the
// embedded platform's.
type WorkbookRollback struct {
	FileID int64  `json:"fileId,omitempty"`
	UUID   string `json:"uuid,omitempty"`
}
