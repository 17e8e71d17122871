// Package dialog holds the console's reusable modal dialogs, each a
// common.Dialog the root stacks over the panes: Confirm asks yes or no, Form
// asks for a few text fields. What they decide comes back as the message the
// opening pane gave them.
package dialog
