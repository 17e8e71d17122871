package model

// VolumeEntry is one execution in a volume report
// (`/rest/job-configuration/volume-report/<configuration id>`): ID is the
// execution id, ImportedVolume the bytes it imported (0 for runs that import
// nothing: workbooks, exports), Type `NORMAL` for every run the platform
// counts against its license.
type VolumeEntry struct {
	ID             int64    `json:"id"`
	JobStatus      JobState `json:"jobStatus"`
	ImportedVolume int64    `json:"importedVolume"`
	Type           string   `json:"type"`
}

// VolumeTypeNormal is the Type of a counted run.
const VolumeTypeNormal = "NORMAL"
