package model

// DataMetadata is one entry of `/rest/data/import-job/<id>` and
// `/rest/data/workbook/<id>`: the file, the records of its newest data and
// every data set it keeps (sic `datas`, hyphenated `record-count`).
type DataMetadata struct {
	Path        string     `json:"path"`
	RecordCount int64      `json:"record-count"`
	Datas       []DataInfo `json:"datas"`
}

// DataInfo is one stored data set: when it was made (DateTimeLayout), its
// records, and its data id (the id `DELETE /rest/data/<id>` takes).
type DataInfo struct {
	Timestamp   string `json:"timestamp"`
	RecordCount int64  `json:"record-count"`
	ID          int64  `json:"id"`
}

// SheetDetails is `/rest/sheet-details/<id>/<sheet>` as the embedded
// platform answers it (the platform documents no shape): the sheet, the
// file whose data it shows, its newest data's records and column names.
// Without a sheet the answer is an array of these, one per sheet, the
// sheet a workbook computes first.
type SheetDetails struct {
	Name        string        `json:"name"`
	Path        string        `json:"path"`
	RecordCount int64         `json:"record-count"`
	Columns     []SheetColumn `json:"columns"`
}

// SheetColumn is a column of a sheet.
type SheetColumn struct {
	Name string `json:"name"`
}
