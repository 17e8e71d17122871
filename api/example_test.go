package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// startDemo runs the embedded platform for an example, answering as the
// real platform does where it takes no path (servertest.TakingNoPaths), so
// the examples show what works there; stop ends it.
func startDemo() (url string, stop func()) {
	dir, err := os.MkdirTemp("", "api-example")
	if err != nil {
		panic(err)
	}
	srv, err := server.New(servertest.TestConfig(server.Config{DataDir: dir, DemoData: true}))
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(servertest.TakingNoPaths(srv.Handler()))
	return ts.URL, func() { ts.Close(); srv.Close(); os.RemoveAll(dir) }
}

func Example() {
	url, stop := startDemo()
	defer stop()
	ctx := context.Background()
	client := api.New(url, "viewer", "viewer")

	// The folder endpoints take a file id or a UUID: a path is walked to.
	data, err := client.FolderByPath(ctx, "/Data")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, child := range data.Embedded.Folders {
		fmt.Println(child.Name)
	}

	// A folder the viewer may not see answers like a missing one.
	_, err = client.FolderByPath(ctx, "/Analytics/Finance")
	fmt.Println("hidden:", api.IsNotFound(err))

	// Writes need write permission.
	_, err = client.ChangeOthersPermission(ctx, api.FileID(data.ID()), model.Flags{Readable: true, Writable: true})
	fmt.Println("forbidden:", api.IsForbidden(err))
	// Output:
	// Connections
	// ImportJobs
	// DataLinks
	// hidden: true
	// forbidden: true
}

// Backup streams into any io.Writer; the ProgressFunc is where a console
// turns bytes into messages. (Not run: the backup engineer's tests run
// backups against the server.)
func ExampleClient_Backup() {
	client := api.New("http://127.0.0.1:8080", "admin", os.Getenv("DAP_PASSWORD"))
	out, err := os.Create("data.zip")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer out.Close()
	n, err := client.Backup(context.Background(), api.Path("/Data"), api.BackupIncludeOwner|api.BackupIncludeGroupPermissions, out,
		func(done, total int64) { fmt.Printf("\r%d of %d bytes", done, total) })
	fmt.Println(n, err)
}

// Restore reads from any io.Reader; give the size when known, so progress has a total.
func ExampleClient_Restore() {
	client := api.New("http://127.0.0.1:8080", "admin", os.Getenv("DAP_PASSWORD"))
	archive, err := os.Open("data.zip")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer archive.Close()
	info, err := archive.Stat()
	if err != nil {
		fmt.Println(err)
		return
	}
	result, err := client.Restore(context.Background(), api.Path("/Data Copy"), archive, info.Size(),
		api.RestoreOverwrite|api.RestoreIncludeOwner|api.RestoreSubstituteMissingUser, nil)
	var apiErr *api.Error
	switch {
	case api.IsConflict(err) && errors.As(err, &apiErr):
		fmt.Println("exists already:", apiErr.Paths)
	case err != nil:
		fmt.Println(err)
	default:
		fmt.Println(len(result.Restored), "restored,", len(result.Skipped), "skipped")
	}
}

func ExamplePath() {
	fmt.Println(api.Path("/Data/My Folder").PathSegment())
	// Output: %2FData%2FMy%20Folder
}
