package restoreplan

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// Secrets are plain values for the secrets of a copy: by the path the file
// has on the source platform, then by property.
type Secrets map[string]map[string]string

// Seal turns a plain secret into the SECURE:<n>:<s> form the target
// platform opens (encrypt.sh's); nil when the client has no key of the
// target's.
type Seal func(plain string) string

// Reseal writes archive to w for another platform: every secret property
// Secrets gives a value for takes it in place of the value sealed with the
// source's key, and every file with a secret still sealed by the source is
// returned as needs-secret, at its path under folder, with what it needs
// in needed (source path → properties). A value given leaves
// as a new connection's password does: a SECURE: value as it is, else
// sealed with seal when the client has the target's key, else plain inside
// the archive for the target to seal as it stores it.
func Reseal(w io.Writer, archive *zip.Reader, secrets Secrets, seal Seal, folder string) (needs []File, needed map[string][]string, err error) {
	needed = map[string][]string{}
	zw := zip.NewWriter(w)
	bodies := decodeAll(archive.File)
	for i, f := range archive.File {
		d := bodies[i]
		if d.kind != model.KindConnection || d.err != nil {
			if err := zw.Copy(f); err != nil {
				return nil, nil, fmt.Errorf("write the archive: %w", err)
			}
			continue
		}
		given := secrets[d.conf.File.Path]
		var missing []string
		for key, values := range d.conf.Properties {
			switch {
			case !model.IsSecretProperty(key) || len(values) == 0 || values[0] == "":
			case given[key] != "":
				d.conf.Properties[key] = []string{sealed(given[key], seal)}
			default:
				missing = append(missing, key)
			}
		}
		if len(missing) > 0 {
			slices.Sort(missing)
			needed[d.conf.File.Path] = missing
			needs = append(needs, File{Path: path.Join(folder, f.Name), Action: NeedsSecret,
				Reason: fmt.Sprintf("%v sealed by the source platform, which the target cannot open: give the values (--secrets FILE: {%q: {%q: \"…\"}})", missing, d.conf.File.Path, missing[0])})
		}
		body, err := json.Marshal(d.conf)
		if err != nil {
			return nil, nil, err
		}
		out, err := zw.Create(f.Name)
		if err != nil {
			return nil, nil, err
		}
		if _, err := out.Write(body); err != nil {
			return nil, nil, err
		}
	}
	return needs, needed, zw.Close()
}

// sealed is a given secret as it leaves.
func sealed(value string, seal Seal) string {
	if seal == nil || strings.HasPrefix(value, "SECURE:") {
		return value
	}
	return seal(value)
}

// BackupFlagsFor asks the backup for what the restore flags would restore:
// owners, group permissions, sharing, data permissions; and leaves out
// dependencies outside what is copied, which the plan then names.
func BackupFlagsFor(flags api.RestoreFlags) api.BackupFlags {
	b := api.BackupIgnoreMissingDependencies
	for _, pair := range []struct {
		r api.RestoreFlags
		b api.BackupFlags
	}{{api.RestoreIncludeOwner, api.BackupIncludeOwner}, {api.RestoreIncludeGroupPermissions, api.BackupIncludeGroupPermissions},
		{api.RestoreIncludeSharing, api.BackupIncludeSharing}, {api.RestoreIncludeDataPermissions, api.BackupIncludeDataPermissions}} {
		if flags.Has(pair.r) {
			b |= pair.b
		}
	}
	return b
}

// Source is what a copy takes from the source platform: a folder, or
// chosen files and folders of it (the POST backup, release 7.2.6 on).
type Source struct {
	Folder api.Ref
	Files  []api.Ref
}

// ReadSource backs what is copied up into memory (streamed, no local file).
func ReadSource(ctx context.Context, client *api.Client, src Source, flags api.RestoreFlags, progress api.ProgressFunc) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if len(src.Files) > 0 {
		_, err = client.BackupFiles(ctx, src.Folder, src.Files, BackupFlagsFor(flags), &buf, progress)
	} else {
		_, err = client.Backup(ctx, src.Folder, BackupFlagsFor(flags), &buf, progress)
	}
	if err != nil {
		return nil, fmt.Errorf("backup of %s: %w", src.Folder, err)
	}
	return buf.Bytes(), nil
}

// Copy is a backup planned into a folder of another platform: the archive
// the restore would send (secrets given put in) and its plan.
type Copy struct {
	Archive *zip.Reader
	Target  *Target
	Plan    Plan
	// Needed are the secrets the target cannot open and no value was given
	// for: by source path, the properties.
	Needed map[string][]string
	body   []byte
}

// PlanCopy plans restoring backup through target into the folder into.
// Across platforms (otherPlatform) every secret is put in from secrets, or
// named as needs-secret: the target opens none the source sealed.
func PlanCopy(ctx context.Context, backup []byte, target *api.Client, into api.Ref, otherPlatform bool, secrets Secrets, seal Seal, opt Options) (*Copy, error) {
	archive, err := zip.NewReader(bytes.NewReader(backup), int64(len(backup)))
	if err != nil {
		return nil, fmt.Errorf("read the backup: %w", err)
	}
	c := &Copy{Archive: archive, body: backup}
	if c.Target, err = ReadTarget(ctx, target.AsReadOnly(), into); err != nil {
		return nil, err
	}
	var needs []File
	if otherPlatform {
		var resealed bytes.Buffer
		if needs, c.Needed, err = Reseal(&resealed, archive, secrets, seal, c.Target.Folder); err != nil {
			return nil, err
		}
		c.body = resealed.Bytes()
		if c.Archive, err = zip.NewReader(bytes.NewReader(c.body), int64(len(c.body))); err != nil {
			return nil, err
		}
	}
	if c.Plan, err = Compute(c.Archive, c.Target, opt); err != nil {
		return nil, err
	}
	c.Plan.Add(needs...)
	return c, nil
}

// Send restores the planned copy on the target platform; a plan the
// platform would refuse is not sent.
func (c *Copy) Send(ctx context.Context, target *api.Client, into api.Ref, opt Options, progress api.ProgressFunc) (model.RestoreResult, error) {
	if c.Plan.Outcome == OutcomeRefused {
		return model.RestoreResult{}, errors.New("the target platform would refuse this copy: nothing sent")
	}
	var body bytes.Buffer
	if err := Trimmed(&body, c.Archive, c.Plan, c.Target, opt); err != nil {
		return model.RestoreResult{}, err
	}
	return target.Restore(ctx, into, bytes.NewReader(body.Bytes()), int64(body.Len()), opt.Flags, progress)
}
