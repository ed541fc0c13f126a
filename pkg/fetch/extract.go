package fetch

import "strings"

// Extract chooses what part of an HTML page becomes Markdown.
type Extract string

// Extract modes; the zero value means ExtractAuto.
const (
	// ExtractAuto keeps the main content when there is an article, else
	// the page less what it marks as boilerplate; it extracts as
	// ExtractMain does, without the warning.
	ExtractAuto Extract = "auto"
	// ExtractMain keeps the main content: boilerplate pruned, then
	// readability; when none is found the pruned page is returned with a
	// main_content_not_found warning.
	ExtractMain Extract = "main"
	// ExtractFull keeps the whole page, less scripts, styles, navigation
	// and hidden elements.
	ExtractFull Extract = "full"
)

// ParseExtract parses an --extract value; "" is ExtractAuto.
func ParseExtract(s string) (Extract, error) {
	switch Extract(strings.ToLower(strings.TrimSpace(s))) {
	case "", ExtractAuto:
		return ExtractAuto, nil
	case ExtractMain:
		return ExtractMain, nil
	case ExtractFull:
		return ExtractFull, nil
	}
	return "", errorf(CodeInvalidArguments, "extract mode %q is not one of auto, main, full", s)
}
