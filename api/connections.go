package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/dapconsole/dapconsole/model"
)

const connectionsPath = "/rest/connections"

func connectionPath(configID int64) string {
	return connectionsPath + "/" + strconv.FormatInt(configID, 10)
}

// Connections lists every connection, hidden system connections included.
func (c *Client) Connections(ctx context.Context) ([]model.ConnectionEntry, error) {
	var list []model.ConnectionEntry
	err := c.read(ctx, http.MethodGet, connectionsPath, "", nil, &list)
	return list, err
}

// Connection reads a connection by its configuration id. Secrets in its
// properties come encoded, never in plain text.
func (c *Client) Connection(ctx context.Context, configID int64) (model.Connection, error) {
	var conn model.Connection
	err := c.read(ctx, http.MethodGet, connectionPath(configID), "", nil, &conn)
	return conn, err
}

// CreateConnection creates a connection where conn.File.Path says and
// returns its configuration id.
func (c *Client) CreateConnection(ctx context.Context, conn model.Connection) (int64, error) {
	return c.CreateConfiguration(ctx, model.KindConnection, conn)
}

// UpdateConnection replaces a connection's representation.
func (c *Client) UpdateConnection(ctx context.Context, configID int64, conn model.Connection) error {
	return c.UpdateConfiguration(ctx, model.KindConnection, configID, conn)
}

// DeleteConnection deletes a connection; the server refuses while something
// depends on it, naming the dependents in the error's Paths.
func (c *Client) DeleteConnection(ctx context.Context, configID int64) error {
	return c.DeleteConfiguration(ctx, model.KindConnection, configID)
}

// DependencyQuery narrows a dependencies read. The zero value asks for both
// directions and every level.
type DependencyQuery struct {
	Direction string // model.DirectionUpstream, model.DirectionDownstream, or "" for both
	Level     int    // 1 for direct dependencies only; 0 for every level
}

func (q DependencyQuery) encode() string {
	v := url.Values{}
	if q.Direction != "" {
		v.Set("direction", q.Direction)
	}
	if q.Level > 0 {
		v.Set("level", strconv.Itoa(q.Level))
	}
	return v.Encode()
}

// ConnectionDependencies reads what depends on a connection (downstream) and
// what it depends on (upstream).
func (c *Client) ConnectionDependencies(ctx context.Context, configID int64, q DependencyQuery) ([]model.Dependency, error) {
	return c.Dependencies(ctx, model.KindConnection, configID, q)
}

// dependencyPrefixes are the dependency endpoints per kind of configuration:
// the spec's connection one, and those the real platform offers besides
// (where data links and file uploads are import jobs).
var dependencyPrefixes = map[model.Kind]string{
	model.KindConnection:  "/api/connections/",
	model.KindImportJob:   "/api/import-job/",
	model.KindDataLink:    "/api/import-job/",
	model.KindFileUpload:  "/api/import-job/",
	model.KindWorkbook:    "/api/workbook/",
	model.KindExportJob:   "/api/export-job/",
	model.KindInfographic: "/api/infographics/",
}

// Dependencies reads the dependencies of any configuration whose kind has a
// dependency endpoint (connection, import job, data link, file upload,
// workbook, export job, infographic), so a caller can walk the graph level by level: an
// entry's File.Type is its model.Kind on the embedded server.
func (c *Client) Dependencies(ctx context.Context, kind model.Kind, configID int64, q DependencyQuery) ([]model.Dependency, error) {
	prefix, ok := dependencyPrefixes[kind]
	if !ok {
		return nil, fmt.Errorf("dependencies of %d: no dependency endpoint for kind %q", configID, kind)
	}
	var deps model.Dependencies
	err := c.read(ctx, http.MethodGet, prefix+strconv.FormatInt(configID, 10)+"/dependencies", q.encode(), nil, &deps)
	return deps.Dependencies, err
}
