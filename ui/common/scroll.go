package common

// ScrollOffset returns the first row to show of a list of total rows in a
// window of height rows, moved as little as it takes to keep the cursor in
// view; a window of no height keeps offset.
func ScrollOffset(cursor, offset, height, total int) int {
	if height <= 0 {
		return offset
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+height {
		offset = cursor - height + 1
	}
	return max(0, min(offset, total-height))
}
