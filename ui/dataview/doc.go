// Package dataview is the data view: the newest data of an import job, a
// data link, an upload or a workbook's sheet as a table, a page at a time.
// It opens as a dialog over the pane that asked (v in the tree or in Jobs),
// reads in the background (esc cancels the read and closes), keeps only the
// page on screen in memory whatever the data's size, pages with pgup/pgdn,
// scrolls wide sheets sideways and switches among a workbook's sheets.
package dataview
