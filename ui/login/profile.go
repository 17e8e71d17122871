package login

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/ui/common"
)

// ProfileCommand is `:profile NAME`: the console switches to another profile
// without restarting, with its password from DAP_PASSWORD or the keyring (the
// login screen asks when neither has it or the server refuses it), and with
// its read-only flag. `:profile` alone lists the profiles.
//
// Reading the profiles file and the keyring happens in the command Run
// returns, never in Run, which is called in Update.
func ProfileCommand(ctx *common.Context, cfg Config, getenv func(string) string) common.Command {
	return common.Command{
		Name: "profile", Args: "[NAME]", Help: "switch to another profile (alone: list them)",
		Run: func(args string) tea.Cmd {
			if args == "" {
				current := ctx.Profile
				return func() tea.Msg { return listProfiles(cfg.ProfilesPath, current) }
			}
			return common.StartTask("switching to profile "+args, common.Quick,
				func(c context.Context) tea.Msg { return switchProfile(c, ctx, cfg, getenv, args) })
		},
	}
}

func listProfiles(path, current string) tea.Msg {
	profiles, err := credentials.LoadProfiles(path)
	if err != nil {
		return common.Failed("listing profiles", err)
	}
	if len(profiles.Profiles) == 0 {
		return common.StatusMsg{Level: common.LevelInfo, Text: "no profiles yet: dapconsole login creates one"}
	}
	names := make([]string, 0, len(profiles.Profiles))
	for _, p := range profiles.Profiles {
		name := p.Name
		if p.Name == current {
			name = "[" + name + "]"
		}
		if p.ReadOnly {
			name += " (read-only)"
		}
		names = append(names, name)
	}
	return common.StatusMsg{Level: common.LevelInfo, Text: "profiles: " + strings.Join(names, ", ") + " — :profile NAME switches"}
}

// switchProfile runs in a task; it reads nothing of ctx, which it only hands
// to a login screen it may build.
func switchProfile(c context.Context, ctx *common.Context, cfg Config, getenv func(string) string, name string) tea.Msg {
	action := "switching to profile " + name
	profiles, err := credentials.LoadProfiles(cfg.ProfilesPath)
	if err != nil {
		return common.Failed(action, err)
	}
	session, err := credentials.Resolve(credentials.Request{Profile: name, ReadOnly: cfg.ForceReadOnly},
		credentials.Env{Profiles: profiles, Getenv: getenv})
	if err != nil {
		return common.Failed(action, err)
	}
	if !session.Complete() {
		reason := "No stored password for profile " + name + "."
		if session.Notice != "" {
			reason = session.Notice
		}
		return common.OpenDialogMsg{Dialog: ForProfile(ctx, cfg, session.Profile, reason)}
	}
	p := session.Profile
	switch err := cfg.Verify(c, p.Server, p.User, session.Password); {
	case api.IsUnauthorized(err):
		reason := fmt.Sprintf("The server refused the password of profile %s (from %s).", name, session.Source)
		return common.OpenDialogMsg{Dialog: ForProfile(ctx, cfg, p, reason)}
	case err != nil:
		// Not Failed: the header's health is the current server's, and
		// this failure is another server's.
		return common.StatusMsg{Level: common.LevelError, Text: common.Explain(action, err)}
	}
	// One message: a task's result is delivered as it is, so a batch here would not run.
	return common.LoggedInMsg{
		Client: api.New(p.Server, p.User, session.Password),
		Server: p.Server, User: p.User, Profile: p.Name, ReadOnly: p.ReadOnly,
	}
}
