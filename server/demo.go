package server

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/jobs"
	"github.com/dapconsole/dapconsole/server/store"
	"golang.org/x/crypto/bcrypt"
)

// demoBcryptCost is the hash cost of the demo accounts: their passwords are
// public ("admin"/"admin"), so the minimum cost only saves every test that
// starts a demo server the time of a slow hash.
const demoBcryptCost = bcrypt.MinCost

// Demo accounts: name, password (the same), administrator, group.
var demoUsers = []struct {
	name  string
	admin bool
	group string
}{
	{"admin", true, ""},
	{"analyst", false, "analysts"},
	{"viewer", false, "viewers"},
}

// DemoPassword is the password of a demo user (--demo-data), so a console
// served over SSH with --demo can log its people in as the demo users their
// keys name; ok is false for a name that is not one of them.
func DemoPassword(user string) (password string, ok bool) {
	for _, u := range demoUsers {
		if u.name == user {
			return u.name, true
		}
	}
	return "", false
}

var (
	fullAccess = model.Flags{Readable: true, Writable: true, Executable: true}
	readRun    = model.Flags{Readable: true, Executable: true}
	readOnly   = model.Flags{Readable: true}
	noAccess   = model.Flags{}
)

// demoFolder is a folder of the demo tree with its owner and permissions.
type demoFolder struct {
	path   string
	owner  string
	others model.Flags
	groups map[string]model.Flags
}

// demoFolders are created in order, parents first. The viewer cannot see
// /Exports, /Analytics/Finance and the analyst's home folder.
var demoFolders = []demoFolder{
	{"/.system", "admin", readOnly, nil},
	{"/Users", "admin", readOnly, nil},
	{"/Data", "admin", readOnly, map[string]model.Flags{"analysts": readRun, "viewers": readOnly}},
	{"/Data/Connections", "admin", readOnly, map[string]model.Flags{"analysts": fullAccess}},
	{"/Data/ImportJobs", "admin", readOnly, map[string]model.Flags{"analysts": fullAccess}},
	{"/Data/DataLinks", "admin", readOnly, map[string]model.Flags{"analysts": fullAccess}},
	{"/Analytics", "admin", readOnly, map[string]model.Flags{"analysts": fullAccess}},
	{"/Analytics/Finance", "analyst", noAccess, map[string]model.Flags{"analysts": fullAccess}},
	{"/Visualization", "admin", readOnly, map[string]model.Flags{"analysts": fullAccess}},
	{"/Exports", "admin", noAccess, map[string]model.Flags{"analysts": fullAccess}},
	{"/Users/analyst", "analyst", noAccess, nil},
	{"/Users/viewer", "viewer", noAccess, nil},
}

// Class names and type ids of the demo's connections, as the real platform names them.
const (
	classDatabase    = "datameer.dap.common.entity.DataBaseConnection"
	classDataStore   = "datameer.dap.common.entity.DataStore"
	typeJDBC         = "das.JdbcDataStoreType"
	typeFileSystem   = "das.FileSystemDataStoreType"
	typeFileUpload   = "das.FileUploadDataStoreType"
	typeS3           = "das.S3DataStoreType"
	typeSFTP         = "das.SftpDataStoreType"
	classDataSource  = "datameer.dap.common.entity.DataSourceConfigurationImpl" // import jobs, data links and file uploads alike
	classWorkbook    = "datameer.dap.common.entity.WorkbookConfigurationImpl"
	classExportJob   = "datameer.dap.common.entity.FileDataSinkImpl"
	classInfographic = "datameer.dap.common.entity.InfographicConfigurationImpl"
)

// demoFile is a file of the demo tree; sources name files created before it.
type demoFile struct {
	path        string
	owner       string
	description string
	className   string
	typeID      string
	dbType      string
	properties  map[string]string
	sources     []string
}

// demoFiles returns the demo's connections and jobs. File-system and SQLite
// connections point into filesDir; the job engine fills it with sample data.
func demoFiles(filesDir string) []demoFile {
	fileURL := "file://" + filepath.ToSlash(filesDir) + "/"
	const localFiles = "/Data/Connections/Local Files.dst"
	return []demoFile{
		{"/.system/FileUploadDataStore.dst", "admin", "hidden datastore to upload files: FileUploadDataStore", classDataStore, typeFileUpload, "",
			map[string]string{model.PropConnectionURL: fileURL + "uploads/", model.PropDataStoreTemplate: "false", model.PropDataStoreUsage: "IMPORT"}, nil},
		{localFiles, "admin", "Sample files in the data directory", classDataStore, typeFileSystem, "",
			map[string]string{model.PropConnectionURL: fileURL, model.PropDataStoreTemplate: "false", model.PropDataStoreUsage: "IMPORT_EXPORT"}, nil},
		{"/Data/Connections/Warehouse.dst", "admin", "SQLite warehouse with the products table", classDatabase, typeJDBC, "SQLite",
			map[string]string{model.PropConnectionURL: "jdbc:sqlite:" + filepath.Join(filesDir, "warehouse.db"), model.PropUserName: "reader",
				model.PropPassword: "warehouse-reader", model.PropDataStoreTemplate: "false", model.PropDataStoreUsage: "IMPORT"}, nil},
		{"/Data/Connections/MYSQL_QA1.dst", "admin", "MySQL Connection", classDatabase, typeJDBC, "MySQL",
			map[string]string{model.PropConnectionURL: "jdbc:mysql://qa1.example.com:3306/world", model.PropUserName: "extuser",
				model.PropPassword: "qa1-secret", model.PropDataStoreTemplate: "false", model.PropDataStoreUsage: "IMPORT_EXPORT"}, nil},
		{"/Data/Connections/Sales Archive S3.dst", "analyst", "Archived sales exports", classDataStore, typeS3, "",
			map[string]string{model.PropConnectionURL: "s3://dap-demo-sales/archive/", "access_key": "AKIADEMO0000EXAMPLE",
				"secret_key": "demo/secret/key", model.PropDataStoreTemplate: "false", model.PropDataStoreUsage: "EXPORT"}, nil},
		{"/Data/Connections/Partner SFTP.dst", "analyst", "Partner drop box", classDataStore, typeSFTP, "",
			map[string]string{model.PropConnectionURL: "sftp://partner.example.com/inbound", model.PropUserName: "dap",
				"sshKey":                    "-----BEGIN OPENSSH PRIVATE KEY-----demo-----END OPENSSH PRIVATE KEY-----",
				model.PropDataStoreTemplate: "true", model.PropDataStoreUsage: "IMPORT"}, nil},
		{"/Analytics/Finance/Finance PostgreSQL.dst", "analyst", "Ledger database (finance only)", classDatabase, typeJDBC, "PostgreSQL",
			map[string]string{model.PropConnectionURL: "jdbc:postgresql://ledger.example.com:5432/ledger", model.PropUserName: "finance",
				model.PropPassword: "ledger-secret", model.PropDataStoreTemplate: "false", model.PropDataStoreUsage: "IMPORT"}, nil},

		{"/Data/ImportJobs/Orders.imp", "analyst", "Orders from the sample CSV", classDataSource, "das.CsvImportJobType", "",
			map[string]string{"path": "orders.csv", "format": "csv"}, []string{localFiles}},
		{"/Data/ImportJobs/Customers.imp", "analyst", "Customers from the sample JSON lines", classDataSource, "das.JsonImportJobType", "",
			map[string]string{"path": "customers.jsonl", "format": "jsonl"}, []string{localFiles}},
		{"/Data/ImportJobs/Products.imp", "analyst", "Products from the warehouse", classDataSource, "das.JdbcImportJobType", "",
			map[string]string{"table": "products"}, []string{"/Data/Connections/Warehouse.dst"}},
		{"/Data/ImportJobs/Events.imp", "analyst", "Click stream (large)", classDataSource, "das.CsvImportJobType", "",
			map[string]string{"path": "events.csv", "format": "csv", "pace.rowsPerSecond": "900"}, []string{localFiles}},
		{"/Data/DataLinks/Orders With Errors.lnk", "analyst", "Orders with malformed rows, linked", classDataSource, "das.CsvDataLinkType", "",
			map[string]string{"path": "orders_with_errors.csv", "format": "csv"}, []string{localFiles}},

		{"/Analytics/Sales.wbk", "analyst", "Orders joined with customers", classWorkbook, "das.WorkbookType", "",
			map[string]string{"sql": "SELECT o.order_id, o.region, o.amount, c.name AS customer FROM input1 o JOIN input2 c ON c.customer_id = o.customer_id",
				"dataDriven": "true"}, []string{"/Data/ImportJobs/Orders.imp", "/Data/ImportJobs/Customers.imp"}},
		{"/Analytics/Sales by Region.wbk", "analyst", "Revenue per region", classWorkbook, "das.WorkbookType", "",
			map[string]string{"sql": "SELECT region, count(*) AS orders, sum(amount) AS revenue FROM input1 WHERE amount >= ${minAmount} GROUP BY region ORDER BY region",
				"dataDriven": "true", "variable.minAmount": "0"}, []string{"/Analytics/Sales.wbk"}},
		{"/Analytics/Finance/Revenue by Product.wbk", "analyst", "Finance only", classWorkbook, "das.WorkbookType", "",
			map[string]string{"sql": "SELECT count(*) AS products FROM input2", "dataDriven": "false"},
			[]string{"/Analytics/Sales.wbk", "/Data/ImportJobs/Products.imp"}},
		{"/Exports/Sales by Region.exp", "analyst", "Region revenue as CSV", classExportJob, "das.CsvExportJobType", "",
			map[string]string{"path": "exports/sales_by_region.csv"}, []string{"/Analytics/Sales by Region.wbk", localFiles}},
		// A data-driven chain of its own, which a sequential trigger of its
		// import runs end to end (the chains through Sales.wbk reach the
		// finance workbook, which is not data-driven, and are refused).
		{"/Data/ImportJobs/Customer List.imp", "analyst", "Customers again, for the per-region chain", classDataSource, "das.JsonImportJobType", "",
			map[string]string{"path": "customers.jsonl", "format": "jsonl"}, []string{localFiles}},
		{"/Analytics/Customers per Region.wbk", "analyst", "Customers counted per region", classWorkbook, "das.WorkbookType", "",
			map[string]string{"sql": "SELECT region, count(*) AS customers FROM input1 GROUP BY region ORDER BY region",
				"dataDriven": "true"}, []string{"/Data/ImportJobs/Customer List.imp"}},
		{"/Exports/Customers per Region.exp", "analyst", "Customers per region as CSV", classExportJob, "das.CsvExportJobType", "",
			map[string]string{"path": "exports/customers_per_region.csv"}, []string{"/Analytics/Customers per Region.wbk", localFiles}},
		{"/Visualization/Sales Dashboard.gra", "analyst", "Revenue per region, charted", classInfographic, "das.InfographicType", "",
			nil, []string{"/Analytics/Sales by Region.wbk"}},
		// A file the analyst uploaded into his home folder, through the
		// platform's hidden upload connection; the job engine does not run
		// uploads, it shows the kind in the tree. Last, so that the ids of
		// the files before it stay as they were.
		{"/Users/analyst/Regions.upl", "analyst", "Sales regions, uploaded by hand", classDataSource, "", "",
			map[string]string{"fileType": "CSV", "file": "regions.csv"}, []string{"/.system/FileUploadDataStore.dst"}},
	}
}

// seedDemo fills an empty store with the demo users, groups and tree, in one transaction.
func (s *Server) seedDemo(ctx context.Context) error {
	if err := jobs.WriteSampleData(FilesDir(s.cfg.DataDir)); err != nil {
		return err
	}
	return s.store.InTx(ctx, func(tx *store.Tx) error {
		users := map[string]int64{}
		groups := map[string]int64{}
		for _, u := range demoUsers {
			hash, err := store.HashPassword(u.name, demoBcryptCost)
			if err != nil {
				return err
			}
			created, err := tx.CreateUser(ctx, u.name, hash, u.admin)
			if err != nil {
				return fmt.Errorf("demo: %w", err)
			}
			users[u.name] = created.ID
			if u.group == "" {
				continue
			}
			g, err := tx.CreateGroup(ctx, u.group)
			if err != nil {
				return fmt.Errorf("demo: %w", err)
			}
			groups[u.group] = g.ID
			if err := tx.AddMember(ctx, created.ID, g.ID); err != nil {
				return fmt.Errorf("demo: %w", err)
			}
		}
		for _, f := range demoFolders {
			perms := &store.Permissions{Others: f.others, Groups: map[int64]model.Flags{}}
			for name, flags := range f.groups {
				perms.Groups[groups[name]] = flags
			}
			if _, err := tx.CreateFile(ctx, store.NewFile{Path: f.path, OwnerID: users[f.owner], Permissions: perms}); err != nil {
				return fmt.Errorf("demo: %w", err)
			}
		}
		for _, f := range demoFiles(FilesDir(s.cfg.DataDir)) {
			cfg := &model.Configuration{Version: defaultConnectionVersion, ClassName: f.className, TypeID: f.typeID,
				File: model.FileInfo{Description: f.description}, Properties: map[string][]string{}}
			if f.dbType != "" {
				cfg.DBType = &model.DBType{Name: f.dbType}
			}
			for k, v := range f.properties {
				cfg.Properties[k] = []string{v}
			}
			for _, src := range f.sources {
				cfg.Sources = append(cfg.Sources, model.SourceRef{Path: src})
			}
			if _, err := tx.CreateFile(ctx, store.NewFile{Path: f.path, OwnerID: users[f.owner], Config: cfg}); err != nil {
				return fmt.Errorf("demo: %w", err)
			}
		}
		return nil
	})
}
