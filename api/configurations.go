package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/dapconsole/dapconsole/model"
)

// configurationPath is the endpoint of a kind's configuration family, with
// "/<configuration id>" when configID is not 0.
func configurationPath(kind model.Kind, configID int64) (string, error) {
	path, ok := kindListPaths[kind]
	if !ok {
		return "", fmt.Errorf("no endpoint for the kind %q", kind)
	}
	if configID != 0 {
		path += "/" + strconv.FormatInt(configID, 10)
	}
	return path, nil
}

// CreateConfiguration creates a configuration of a kind (a connection, an
// import job, a workbook, …) where cfg.File.Path says and returns its
// configuration id. Links name the files it reads by path or UUID.
func (c *Client) CreateConfiguration(ctx context.Context, kind model.Kind, cfg model.Configuration) (int64, error) {
	path, err := configurationPath(kind, 0)
	if err != nil {
		return 0, fmt.Errorf("create %s %s: %w", kind, cfg.File.Path, err)
	}
	var created model.ConnectionCreated
	err = c.read(ctx, http.MethodPost, path, "", cfg, &created)
	return created.ConfigurationID, err
}

// UpdateConfiguration replaces a configuration's representation; it stays
// where it is.
func (c *Client) UpdateConfiguration(ctx context.Context, kind model.Kind, configID int64, cfg model.Configuration) error {
	path, err := configurationPath(kind, configID)
	if err != nil {
		return fmt.Errorf("update %s %d: %w", kind, configID, err)
	}
	_, err = c.call(ctx, http.MethodPut, path, "", cfg, nil, false)
	return err
}

// DeleteConfiguration deletes a configuration; the server refuses while
// something reads from it, naming the dependents in the error's Paths.
func (c *Client) DeleteConfiguration(ctx context.Context, kind model.Kind, configID int64) error {
	path, err := configurationPath(kind, configID)
	if err != nil {
		return fmt.Errorf("delete %s %d: %w", kind, configID, err)
	}
	_, err = c.call(ctx, http.MethodDelete, path, "", nil, nil, false)
	return err
}
