package backup

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/store"
	_ "modernc.org/sqlite" // the "sqlite" driver the index opens
)

// IndexPattern names the temporary databases in which a restore of
// many entries keeps them, in the directory of the spooled upload
// (os.CreateTemp and filepath.Glob patterns alike).
const IndexPattern = "restore-*.idx"

// What a restore holds of its entries in memory: up to spillPast of them,
// all, with their identities (some 300 bytes an entry, 5 MiB at most);
// past it, pages of entryPageLen entries, at most restorePagesHeld of
// them, the others, the archive's directory and the identities waiting in
// a temporary SQLite database beside the spooled upload. So a restore's
// memory does not grow with its entry count past spillPast. The disk
// costs: at 10,000 entries the restore took a fifth longer through it
// (BenchmarkRestore), so archives that size stay in memory.
// Hooks.EntriesOnDisk runs every restore through the disk.
const (
	spillPast        = 16384
	entryPageLen     = 512
	restorePagesHeld = 16
)

// entryTable holds a restore's entries by their index in the archive's
// sorted entries. A pointer at or change returns may point into a page
// evicted by the next call: it is read as it was, but a change made
// through it after would be lost. So code changes an entry through change
// at once, before it asks for another.
type entryTable struct {
	n       int
	pageLen int
	linking int       // entries with links
	db      *sql.DB   // of one connection, conn
	conn    *sql.Conn // the index's one connection, in one transaction
	stmts   map[string]*sql.Stmt
	file    string       // the database's file; "" for an in-memory one
	pages   []*entryPage // by page number; nil when on disk
	held    []int        // the pages in memory, by number
	limit   int          // most pages held
	buf     []byte       // a page's encoding
	err     error        // the first failure to read or write a page
	// The entries as the archive lists them, while it is read (on disk
	// only), and their identities (for Link), on disk or in memory
	// (few): SQLite costs as much as the checks for a few thousand.
	directory, idents rowInserts
	few               fewIdentities
}

// fewIdentities are the identities of the entries of a table in memory,
// sorted by UUID and by path (then by entry) once all are added.
type fewIdentities struct {
	all            []identity
	byUUID, byOrig []int32 // indices into all
}

// identity is what addIdentity records of an entry.
type identity struct {
	i          int
	uuid, orig string
}

// entryPage is one page of entries; dirty when it differs from its copy
// on disk (or has none).
type entryPage struct {
	entries []restoreEntry
	dirty   bool
}

// newEntryTable makes an empty table of a restore's entries: in memory
// (no database), or on disk in dir; small pages on disk make every few
// entries a page read or written (Hooks.EntriesOnDisk).
func newEntryTable(dir string, onDisk, small bool) (*entryTable, error) {
	t := &entryTable{pageLen: entryPageLen, limit: math.MaxInt,
		directory: rowInserts{insert: "INSERT INTO directory(path, kind, locator) VALUES ", width: 3},
		idents:    rowInserts{insert: "INSERT INTO ident(i, uuid, orig) VALUES ", width: 3}}
	if !onDisk {
		return t, nil
	}
	t.limit = restorePagesHeld
	if small {
		t.pageLen, t.limit = 2, 3
	}
	f, err := os.CreateTemp(dir, IndexPattern)
	if err != nil {
		return nil, fmt.Errorf("restore index: %w", err)
	}
	t.file = f.Name()
	f.Close()
	t.stmts = map[string]*sql.Stmt{}
	if t.db, err = sql.Open("sqlite", "file:"+t.file); err == nil {
		t.db.SetMaxOpenConns(1)
		t.conn, err = t.db.Conn(context.Background())
	}
	if err != nil {
		t.close()
		return nil, fmt.Errorf("restore index: %w", err)
	}
	// Scratch that a crash may lose: the restore starts again from the
	// upload. One transaction for all that is written, never committed:
	// the database is removed when the restore ends.
	for _, q := range []string{"PRAGMA journal_mode = OFF", "PRAGMA synchronous = OFF", "PRAGMA cache_size = -1024",
		"BEGIN",
		"CREATE TABLE directory(path TEXT NOT NULL, kind TEXT NOT NULL, locator INTEGER NOT NULL)",
		"CREATE TABLE page(n INTEGER PRIMARY KEY, entries BLOB NOT NULL)",
		"CREATE TABLE ident(i INTEGER PRIMARY KEY, uuid TEXT, orig TEXT)"} {
		if err == nil {
			err = t.exec(q)
		}
	}
	if err != nil {
		t.close()
		return nil, fmt.Errorf("restore index: %w", err)
	}
	return t, nil
}

func (t *entryTable) onDisk() bool { return t.file != "" }

// addToDirectory keeps an entry as the archive lists it, for sortedDirectory.
func (t *entryTable) addToDirectory(e archive.Entry) {
	t.insert(&t.directory, e.Path, string(e.Kind), e.Locator())
}

// sortedDirectory calls fn with the entries addToDirectory kept, sorted by path.
func (t *entryTable) sortedDirectory(fn func(e archive.Entry) error) error {
	t.flush(&t.directory)
	t.fail(t.exec("CREATE INDEX IF NOT EXISTS directory_path ON directory(path, kind, locator)"))
	if t.err != nil {
		return t.err
	}
	return t.query(`SELECT path, kind, locator FROM directory ORDER BY path`, nil, func(rows *sql.Rows) error {
		var path, kind string
		var locator int64
		if err := rows.Scan(&path, &kind, &locator); err != nil {
			return err
		}
		return fn(archive.LocatedEntry(path, model.Kind(kind), locator))
	})
}

// findInDirectory returns the entry at path, once sortedDirectory ran.
func (t *entryTable) findInDirectory(path string) (archive.Entry, bool, error) {
	var e archive.Entry
	found := false
	err := t.query(`SELECT kind, locator FROM directory WHERE path = ? LIMIT 1`, []any{path}, func(rows *sql.Rows) error {
		var kind string
		var locator int64
		err := rows.Scan(&kind, &locator)
		e, found = archive.LocatedEntry(path, model.Kind(kind), locator), err == nil
		return err
	})
	return e, found, err
}

// reset empties the table, for append to fill it again.
func (t *entryTable) reset() {
	if t.onDisk() {
		t.fail(t.exec("DELETE FROM page"))
	}
	t.n, t.pages, t.held = 0, nil, nil
}

// append adds e as entry t.n.
func (t *entryTable) append(e archive.Entry) {
	if t.n%t.pageLen == 0 {
		t.pages = append(t.pages, nil)
		t.use(len(t.pages)-1, &entryPage{entries: make([]restoreEntry, 0, t.pageLen), dirty: true})
	}
	p := t.page(len(t.pages) - 1)
	p.entries = append(p.entries, restoreEntry{Entry: e})
	p.dirty = true
	t.n++
}

// close removes the database.
func (t *entryTable) close() error {
	var errs []error
	for _, stmt := range t.stmts {
		errs = append(errs, stmt.Close())
	}
	if t.conn != nil {
		errs = append(errs, t.conn.Close())
	}
	if t.db != nil {
		errs = append(errs, t.db.Close())
	}
	if t.file != "" {
		errs = append(errs, os.Remove(t.file))
	}
	t.db, t.conn, t.stmts, t.file, t.pages = nil, nil, nil, "", nil
	return errors.Join(errs...)
}

// at returns entry i, to read.
func (t *entryTable) at(i int) *restoreEntry {
	return &t.page(i / t.pageLen).entries[i%t.pageLen]
}

// change returns entry i, to change.
func (t *entryTable) change(i int) *restoreEntry {
	p := t.page(i / t.pageLen)
	p.dirty = true
	return &p.entries[i%t.pageLen]
}

// page returns page n, read from disk if it is not in memory. A page that
// does not read comes back empty of findings (its entries' zero values)
// and t.err tells why: the restore checks t.err before it writes.
func (t *entryTable) page(n int) *entryPage {
	if p := t.pages[n]; p != nil {
		return p
	}
	// Of the last page, as many entries as were appended when it was written.
	p := &entryPage{entries: make([]restoreEntry, min(t.pageLen, t.n-n*t.pageLen))}
	t.fail(t.query(`SELECT entries FROM page WHERE n = ?`, []any{n}, func(rows *sql.Rows) error {
		var page []byte
		if err := rows.Scan(&page); err != nil {
			return err
		}
		return decodePage(string(page), p.entries)
	}))
	return t.use(n, p)
}

// use puts page n in memory; past the limit, a page held is evicted,
// chosen at random: the restore reads its entries in passes from first
// to last, for which evicting the least recently used page would evict
// each page just before it is read again.
func (t *entryTable) use(n int, p *entryPage) *entryPage {
	t.pages[n] = p
	if len(t.held) < t.limit {
		t.held = append(t.held, n)
		return p
	}
	k := rand.IntN(len(t.held))
	t.evict(t.held[k])
	t.held[k] = n
	return p
}

// evict writes page n to disk when it changed, and drops it from memory.
func (t *entryTable) evict(n int) {
	p := t.pages[n]
	t.pages[n] = nil
	if !p.dirty {
		return
	}
	t.buf = encodePage(t.buf[:0], p.entries)
	t.fail(t.exec(`INSERT OR REPLACE INTO page(n, entries) VALUES (?, ?)`, n, t.buf))
}

// stmt returns the statement of query, prepared once on the index's
// connection: the inserts of one length and the page reads repeat.
func (t *entryTable) stmt(query string) (*sql.Stmt, error) {
	if stmt, ok := t.stmts[query]; ok {
		return stmt, nil
	}
	stmt, err := t.conn.PrepareContext(context.Background(), query)
	if err == nil {
		t.stmts[query] = stmt
	}
	return stmt, err
}

// exec runs a statement on the index's connection.
func (t *entryTable) exec(query string, args ...any) error {
	stmt, err := t.stmt(query)
	if err == nil {
		_, err = stmt.Exec(args...)
	}
	return err
}

// query calls each with every row of a query on the index's connection,
// stopping at its first error.
func (t *entryTable) query(query string, args []any, each func(rows *sql.Rows) error) error {
	stmt, err := t.stmt(query)
	if err != nil {
		return err
	}
	rows, err := stmt.Query(args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (t *entryTable) fail(err error) {
	if err != nil && t.err == nil {
		t.err = fmt.Errorf("restore index: %w", err)
	}
}

// addIdentity records entry i's UUID (lower-cased, "" for none) and the
// path its representation had where it was backed up when that path ends
// with the entry's own ("" otherwise), for Link to find entries by them.
func (t *entryTable) addIdentity(i int, uuid, orig string) {
	if t.onDisk() {
		t.insert(&t.idents, i, uuid, orig)
	} else {
		t.few.all = append(t.few.all, identity{i, uuid, orig})
	}
}

// indexIdentities indexes what addIdentity recorded, once every entry has been.
// The paths are looked up only by links: without any, they are not indexed.
func (t *entryTable) indexIdentities() {
	if !t.onDisk() {
		t.few.byUUID = t.few.sorted(identity.uuidKey)
		if t.linking > 0 {
			t.few.byOrig = t.few.sorted(identity.origKey)
		}
		return
	}
	t.flush(&t.idents)
	t.fail(t.exec("CREATE INDEX ident_uuid ON ident(uuid, i)"))
	if t.linking > 0 {
		t.fail(t.exec("CREATE INDEX ident_orig ON ident(orig, i)"))
	}
}

// rowInserts gather rows for one table of the index and insert them
// batchRows at a time: a statement for each cost about as much as the
// restore's checks.
type rowInserts struct {
	insert string // "INSERT INTO t(columns) VALUES "
	width  int    // columns
	rows   []any  // width values a row: int, int64 or string ("" is NULL)
}

// insertRows is how many rows one INSERT of the index writes.
const insertRows = 64

// insert adds a row to b, and inserts b's rows when it holds insertRows.
func (t *entryTable) insert(b *rowInserts, values ...any) {
	if b.rows = append(b.rows, values...); len(b.rows) == insertRows*b.width {
		t.flush(b)
	}
}

// flush inserts b's rows.
func (t *entryTable) flush(b *rowInserts) {
	rows := len(b.rows) / b.width
	if rows == 0 || t.err != nil {
		b.rows = b.rows[:0]
		return
	}
	params := "(?" + strings.Repeat(",?", b.width-1) + ")"
	for k, v := range b.rows {
		if v == "" {
			b.rows[k] = nil // NULL
		}
	}
	t.fail(t.exec(b.insert+params+strings.Repeat(","+params, rows-1), b.rows...))
	b.rows = b.rows[:0]
}

// lastWith returns the last entry (in archive order) whose identity has
// value in column (uuid or orig), or -1.
func (t *entryTable) lastWith(column, value string) int {
	if !t.onDisk() {
		if column == "uuid" {
			return t.few.last(t.few.byUUID, identity.uuidKey, value)
		}
		return t.few.last(t.few.byOrig, identity.origKey, value)
	}
	found := sql.NullInt64{Int64: -1}
	t.fail(t.query(`SELECT max(i) FROM ident WHERE `+column+` = ?`, []any{value}, func(rows *sql.Rows) error {
		return rows.Scan(&found)
	}))
	if !found.Valid {
		return -1
	}
	return int(found.Int64)
}

// eachSharingUUID calls fn, in order, with every entry whose UUID other entries have too.
func (t *entryTable) eachSharingUUID(fn func(i int)) {
	if !t.onDisk() {
		t.few.eachSharingUUID(fn)
		return
	}
	t.fail(t.query(`SELECT i FROM ident WHERE uuid IN
		(SELECT uuid FROM ident WHERE uuid IS NOT NULL GROUP BY uuid HAVING count(*) > 1) ORDER BY i`, nil, func(rows *sql.Rows) error {
		var i int
		err := rows.Scan(&i)
		if err == nil {
			fn(i)
		}
		return err
	}))
}

func (id identity) uuidKey() string { return id.uuid }

func (id identity) origKey() string { return id.orig }

// sorted returns the indices of the identities with a key, sorted by it, then by entry.
func (f *fewIdentities) sorted(key func(identity) string) []int32 {
	var order []int32
	for k, id := range f.all {
		if key(id) != "" {
			order = append(order, int32(k))
		}
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(strings.Compare(key(f.all[a]), key(f.all[b])), cmp.Compare(f.all[a].i, f.all[b].i))
	})
	return order
}

// last returns the last entry with key value in order (sorted by it), or -1.
func (f *fewIdentities) last(order []int32, key func(identity) string, value string) int {
	at, _ := slices.BinarySearchFunc(order, value, func(k int32, value string) int {
		if c := strings.Compare(key(f.all[k]), value); c != 0 {
			return c
		}
		return -1 // past every entry with the value
	})
	if at == 0 || key(f.all[order[at-1]]) != value {
		return -1
	}
	return f.all[order[at-1]].i
}

// eachSharingUUID calls fn, in order, with every entry whose UUID other entries have too.
func (f *fewIdentities) eachSharingUUID(fn func(i int)) {
	var sharing []int
	for k := 1; k < len(f.byUUID); k++ {
		prev, this := f.all[f.byUUID[k-1]], f.all[f.byUUID[k]]
		if prev.uuid == this.uuid {
			if len(sharing) == 0 || sharing[len(sharing)-1] != prev.i {
				sharing = append(sharing, prev.i)
			}
			sharing = append(sharing, this.i)
		}
	}
	slices.Sort(sharing)
	for _, i := range sharing {
		fn(i)
	}
}

// The encoding of a page: its entries one after the other, each field in
// turn, integers as varints and strings after their length.

func encodePage(b []byte, entries []restoreEntry) []byte {
	for k := range entries {
		e := &entries[k]
		b = appendString(b, e.Path)
		b = appendString(b, string(e.Kind))
		b = binary.AppendVarint(b, e.Locator())
		switch {
		case e.origUUID.none():
			b = append(b, 0)
		case e.origUUID.usual():
			b = append(b, 1)
			b = append(b, e.origUUID.bytes[:]...)
		default:
			b = append(b, 2)
			b = appendString(b, *e.origUUID.other)
		}
		b = binary.AppendUvarint(b, uint64(len(e.sources)))
		for _, s := range e.sources {
			b = appendString(b, s.ref.Path)
			b = appendString(b, s.ref.UUID)
			b = binary.AppendVarint(b, int64(s.internal))
			b = appendFile(b, s.external)
		}
		if e.existing == nil {
			b = append(b, 0)
		} else {
			b = append(b, 1)
			b = binary.AppendVarint(b, e.existing.id)
			b = binary.AppendVarint(b, e.existing.parentID)
			b = binary.AppendVarint(b, e.existing.ownerID)
			b = appendString(b, e.existing.uuid)
		}
		b = appendString(b, e.skipped)
		b = append(b, bits(e.rights.Read, e.rights.Write, e.rights.Execute, e.rights.Own, e.uuidShared, e.uuidTaken, e.linkedTo))
		b = binary.AppendVarint(b, e.createdID)
		b = appendString(b, e.createdUUID)
		b = binary.AppendVarint(b, e.formAt)
		b = binary.AppendVarint(b, int64(e.formLen))
	}
	return b
}

// decodePage reads a page from its encoding, taken as one string: the
// entries' strings are parts of it, not an allocation each.
func decodePage(page string, entries []restoreEntry) error {
	d := pageDecoder{s: page}
	for k := range entries {
		e := &entries[k]
		path, kind := d.string(), model.Kind(d.string())
		e.Entry = archive.LocatedEntry(path, kind, d.varint())
		switch d.byte() {
		case 1:
			copy(e.origUUID.bytes[:], d.take(16))
		case 2:
			other := d.string()
			e.origUUID.other = &other
		}
		if n := d.uvarint(); n > 0 && d.err == nil {
			e.sources = make([]sourceLink, min(n, uint64(len(d.s))))
			for s := range e.sources {
				link := &e.sources[s]
				link.ref.Path, link.ref.UUID = d.string(), d.string()
				link.internal = int(d.varint())
				link.external = d.file()
			}
		}
		if d.byte() == 1 {
			e.existing = &existingFile{id: d.varint(), parentID: d.varint(), ownerID: d.varint(), uuid: d.string()}
		}
		e.skipped = d.string()
		flags := d.byte()
		e.rights = store.Rights{Read: flags&1 != 0, Write: flags&2 != 0, Execute: flags&4 != 0, Own: flags&8 != 0}
		e.uuidShared, e.uuidTaken, e.linkedTo = flags&16 != 0, flags&32 != 0, flags&64 != 0
		e.createdID = d.varint()
		e.createdUUID = d.string()
		e.formAt, e.formLen = d.varint(), int(d.varint())
	}
	if d.err == nil && len(d.s) > 0 {
		d.err = errors.New("bytes after the last entry")
	}
	if d.err != nil {
		return fmt.Errorf("page does not read: %w", d.err)
	}
	return nil
}

func appendFile(b []byte, f store.File) []byte {
	for _, v := range []int64{f.ID, f.ParentID, f.ConfigID, f.OwnerID} {
		b = binary.AppendVarint(b, v)
	}
	for _, s := range []string{f.Path, f.Name, string(f.Kind), f.UUID, f.Owner, f.Description} {
		b = appendString(b, s)
	}
	return append(b, bits(f.Others.Executable, f.Others.Readable, f.Others.Writable))
}

func (d *pageDecoder) file() store.File {
	f := store.File{ID: d.varint(), ParentID: d.varint(), ConfigID: d.varint(), OwnerID: d.varint()}
	f.Path, f.Name, f.Kind, f.UUID, f.Owner, f.Description = d.string(), d.string(), model.Kind(d.string()), d.string(), d.string(), d.string()
	flags := d.byte()
	f.Others = model.Flags{Executable: flags&1 != 0, Readable: flags&2 != 0, Writable: flags&4 != 0}
	return f
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// bits packs flags into a byte, the first the lowest bit.
func bits(flags ...bool) byte {
	var b byte
	for k, f := range flags {
		if f {
			b |= 1 << k
		}
	}
	return b
}

// pageDecoder reads a page's encoding; past its first error it reads
// zeros and empty strings.
type pageDecoder struct {
	s   string
	err error
}

func (d *pageDecoder) take(n int) string {
	if d.err != nil || n < 0 || n > len(d.s) {
		if d.err == nil {
			d.err = errors.New("cut short")
		}
		return ""
	}
	v := d.s[:n]
	d.s = d.s[n:]
	return v
}

func (d *pageDecoder) byte() byte {
	if v := d.take(1); v != "" {
		return v[0]
	}
	return 0
}

func (d *pageDecoder) uvarint() uint64 {
	v, n := binary.Uvarint([]byte(d.s[:min(len(d.s), binary.MaxVarintLen64)]))
	if n <= 0 {
		d.take(-1)
		return 0
	}
	d.s = d.s[n:]
	return v
}

// varint reads what binary.AppendVarint wrote: zig-zag over a uvarint.
func (d *pageDecoder) varint() int64 {
	u := d.uvarint()
	if u&1 != 0 {
		return ^int64(u >> 1)
	}
	return int64(u >> 1)
}

func (d *pageDecoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		return d.take(-1)
	}
	return d.take(int(n))
}
