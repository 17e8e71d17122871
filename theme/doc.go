// Package theme holds every lipgloss style of the console, with palettes
// readable on light and dark terminals and NO_COLOR / ASCII fallbacks.
package theme
