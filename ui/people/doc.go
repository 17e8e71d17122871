// Package people is the People pane: the platform's users (with their
// groups, roles, e-mail and whether they are enabled), its groups with their
// members, and its roles. An administrator creates users (the password typed
// masked, sent once and kept nowhere), disables and enables them, changes
// their e-mail, groups and roles, resets passwords and deletes them (after
// a confirmation that says what they own), and creates, renames and deletes
// groups and roles. Anyone else sees their own account and a sentence saying
// user management is the administrators'.
package people
