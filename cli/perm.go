package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// parseRWX reads permission flags as ls writes them: any of r, w, x, or -.
func parseRWX(s string) (model.Flags, error) {
	var f model.Flags
	for _, c := range s {
		switch c {
		case 'r':
			f.Readable = true
		case 'w':
			f.Writable = true
		case 'x':
			f.Executable = true
		case '-':
		default:
			return f, usage("permission %q: want letters of rwx (or -)", s)
		}
	}
	return f, nil
}

func rwx(f model.Flags) string {
	b := []byte("---")
	if f.Readable {
		b[0] = 'r'
	}
	if f.Writable {
		b[1] = 'w'
	}
	if f.Executable {
		b[2] = 'x'
	}
	return string(b)
}

// folderPermissions is folder perm in json: the platform's two reads.
type folderPermissions struct {
	Permission model.Permission       `json:"permission"`
	Groups     model.GroupPermissions `json:"groups"`
}

func (a *app) folderPerm() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "perm REF",
		Short: "show a folder's permissions, or change its owner, others' and groups' permissions",
		Args:  cobra.ExactArgs(1),
	}
	out := addOutput(cmd, a.sys)
	var owner, others string
	var groups, remove []string
	cmd.Flags().StringVar(&owner, "owner", "", "make user `NAME` the owner")
	cmd.Flags().StringVar(&others, "others", "", "what users outside the owner and the groups may do: `rwx`, e.g. r-x or -")
	cmd.Flags().StringArrayVar(&groups, "group", nil, "grant a group permissions, `NAME=rwx` (repeatable)")
	cmd.Flags().StringArrayVar(&remove, "remove-group", nil, "remove a group's permission, `NAME` (repeatable)")
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		if err := out.check(); err != nil {
			return err
		}
		ref, err := parseRef(args[0])
		if err != nil {
			return err
		}
		changes, err := permChanges(owner, others, groups, remove)
		if err != nil {
			return err
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		if ref, err = client.Addressed(ctx, ref); err != nil {
			return fmt.Errorf("find %s: %w", args[0], err)
		}
		if len(changes) > 0 {
			current, err := client.GroupPermissions(ctx, ref)
			if err != nil {
				return fmt.Errorf("read the groups of %s: %w", args[0], err)
			}
			for _, change := range changes {
				if err := change(ctx, client, ref, args[0], current); err != nil {
					return err
				}
			}
		}
		var p folderPermissions
		if p.Permission, err = client.Permission(ctx, ref); err != nil {
			return fmt.Errorf("read the permission of %s: %w", args[0], err)
		}
		if p.Groups, err = client.GroupPermissions(ctx, ref); err != nil {
			return fmt.Errorf("read the groups of %s: %w", args[0], err)
		}
		t := newTable("WHO", "NAME", "PERMISSION")
		t.add("owner", p.Permission.Owner, "")
		t.add("others", "", rwx(p.Permission.Others))
		for _, g := range p.Groups.Embedded.Groups {
			t.add("group", g.Name, rwx(g.Flags))
		}
		return out.show(p, t)
	})
	return cmd
}

// permChange is one change folder perm makes, given the groups it had.
type permChange func(ctx context.Context, c *api.Client, ref api.Ref, named string, current model.GroupPermissions) error

// permChanges reads the change flags before anything is sent, so a mistake
// in the last one changes nothing.
func permChanges(owner, others string, groups, remove []string) ([]permChange, error) {
	var changes []permChange
	if owner != "" {
		changes = append(changes, func(ctx context.Context, c *api.Client, ref api.Ref, named string, _ model.GroupPermissions) error {
			if _, err := c.ChangeOwner(ctx, ref, owner); err != nil {
				return fmt.Errorf("change the owner of %s: %w", named, err)
			}
			return nil
		})
	}
	if others != "" {
		flags, err := parseRWX(others)
		if err != nil {
			return nil, err
		}
		changes = append(changes, func(ctx context.Context, c *api.Client, ref api.Ref, named string, _ model.GroupPermissions) error {
			if _, err := c.ChangeOthersPermission(ctx, ref, flags); err != nil {
				return fmt.Errorf("change others' permission of %s: %w", named, err)
			}
			return nil
		})
	}
	for _, g := range groups {
		name, perm, ok := strings.Cut(g, "=")
		if !ok || name == "" {
			return nil, usage("--group %q: want NAME=rwx", g)
		}
		flags, err := parseRWX(perm)
		if err != nil {
			return nil, err
		}
		changes = append(changes, func(ctx context.Context, c *api.Client, ref api.Ref, named string, current model.GroupPermissions) error {
			change := c.CreateGroupPermission
			for _, existing := range current.Embedded.Groups {
				if existing.Name == name {
					change = c.ChangeGroupPermission
				}
			}
			if _, err := change(ctx, ref, name, flags); err != nil {
				return fmt.Errorf("grant group %s on %s: %w", name, named, err)
			}
			return nil
		})
	}
	for _, name := range remove {
		changes = append(changes, func(ctx context.Context, c *api.Client, ref api.Ref, named string, _ model.GroupPermissions) error {
			if _, err := c.DeleteGroupPermission(ctx, ref, name); err != nil {
				return fmt.Errorf("remove group %s from %s: %w", name, named, err)
			}
			return nil
		})
	}
	return changes, nil
}
