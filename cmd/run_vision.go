package cmd

import (
	"github.com/tavo-cli/tavo/pkg/config"
	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/resources"
	"github.com/tavo-cli/tavo/pkg/tools/read"
)

// useVision applies a profile's image keys to a run (SPEC §11): with
// vision = true the images tools produce go into the next requests; with
// vision_model, ?question= on an image asks that model on the same
// provider.
func useVision(s *runSetup, provider providers.Provider, p config.Profile) {
	if c := s.opts.Catalog.Resources(); c != nil && p.QuestionModel() != "" {
		c.SetVision(read.Vision(provider, p.QuestionModel()))
	}
	if p.ShowsImages() {
		s.opts.Attachments = resources.NewAttachments()
	}
}
