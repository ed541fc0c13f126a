package config

// DefaultExtractThreshold is fetch.extract_threshold's default (SPEC §16):
// with a prompt, a page whose Markdown passes this many bytes is answered
// by the profile's fetch_model instead of being returned.
const DefaultExtractThreshold = 50_000

// ExtractThresholdRange bounds fetch.extract_threshold: below a few KiB a
// page is cheaper to read than to ask about; above the fetch engine's
// largest document the key would never apply.
var ExtractThresholdRange = Range[int]{Key: "extract_threshold", Min: 1_000, Max: 100_000_000, Zero: "the default 50000"}

// Fetch is the [fetch] section: web fetch settings shared by every
// profile.
type Fetch struct {
	// ExtractThreshold is the Markdown size, in bytes, past which a
	// tavo_web_fetch prompt is answered by the fetch model; 0 means
	// DefaultExtractThreshold.
	ExtractThreshold int `toml:"extract_threshold,omitempty"`
}

// IsZero reports whether the section sets nothing.
func (f Fetch) IsZero() bool { return f.ExtractThreshold == 0 }

// Threshold is ExtractThreshold with its default applied.
func (f Fetch) Threshold() int {
	if f.ExtractThreshold == 0 {
		return DefaultExtractThreshold
	}
	return f.ExtractThreshold
}

func (f Fetch) validate() error {
	if f.ExtractThreshold != 0 {
		return ExtractThresholdRange.CheckKey(f.ExtractThreshold)
	}
	return nil
}
