// Package folders is the console's folder tree pane: folders opened in
// place and read when first opened, their files with job states, folder and
// group permissions edited beside the tree, folders made, renamed and
// deleted, and backups and restores of folders or marked files to local ZIP
// files. It is the pane :cd and common.GotoPathMsg go to.
package folders
