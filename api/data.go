package api

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/dapconsole/dapconsole/model"
)

// dataFamily is the /rest/data/<family> a kind's data is under: imports,
// data links and uploads are the platform's import-job family.
func dataFamily(kind model.Kind) (string, error) {
	switch kind {
	case model.KindImportJob, model.KindDataLink, model.KindFileUpload:
		return "import-job", nil
	case model.KindWorkbook:
		return "workbook", nil
	}
	return "", fmt.Errorf("a %s has no data of its own", kind)
}

// HasData reports whether files of the kind keep data the data reads show.
func HasData(kind model.Kind) bool {
	_, err := dataFamily(kind)
	return err == nil
}

// DataMetadata reads what data a file keeps: records of the newest, and
// every data set with its time and data id.
func (c *Client) DataMetadata(ctx context.Context, kind model.Kind, configID int64) ([]model.DataMetadata, error) {
	family, err := dataFamily(kind)
	if err != nil {
		return nil, err
	}
	var out []model.DataMetadata
	if err := c.read(ctx, http.MethodGet, fmt.Sprintf("/rest/data/%s/%d", family, configID), "", nil, &out); err != nil {
		return nil, unsupported(err)
	}
	return out, nil
}

// SheetDetails reads every sheet of a file (an import has one): name,
// columns, records of the newest data.
func (c *Client) SheetDetails(ctx context.Context, configID int64) ([]model.SheetDetails, error) {
	var out []model.SheetDetails
	if err := c.read(ctx, http.MethodGet, fmt.Sprintf("/rest/sheet-details/%d/", configID), "", nil, &out); err != nil {
		return nil, unsupported(err)
	}
	return out, nil
}

// ReadDataPage reads one page of the newest data of a file's sheet (a
// workbook's; "" for an import's): the column names, then at most length
// rows from row start, each handed to row as it is read (the slice is
// reused: copy what is kept). The answer is read as it streams and closed
// after the page, so memory does not grow with the data. A file without
// data answers an error matching IsNotFound.
func (c *Client) ReadDataPage(ctx context.Context, kind model.Kind, configID int64, sheet string, start, length int,
	row func(record []string) error) (columns []string, err error) {
	family, err := dataFamily(kind)
	if err != nil {
		return nil, err
	}
	path := fmt.Sprintf("/rest/data/%s/%d", family, configID)
	if family == "workbook" {
		path += "/" + url.PathEscape(sheet)
	}
	path += "/download"
	q := url.Values{"start": {strconv.Itoa(start)}, "length": {strconv.Itoa(length)}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // a server that sends more than the page is cut off
	r := request{method: http.MethodGet, path: path, query: q.Encode(), accept: "text/csv", length: -1}
	resp, err := c.send(ctx, r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	rd := csv.NewReader(resp.Body)
	rd.ReuseRecord = true
	rd.FieldsPerRecord = -1
	head, err := rd.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Op: r.op(), Status: resp.StatusCode, Reason: "answer is not CSV", Err: err}
	}
	columns = append([]string(nil), head...)
	for n := 0; n < length; n++ {
		record, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return columns, &Error{Op: r.op(), Status: resp.StatusCode, Reason: "answer is not CSV", Err: err}
		}
		if err := row(record); err != nil {
			return columns, err
		}
	}
	return columns, nil
}
