package config

// ShowsImages reports whether runs with profile p show images to the
// model (the key vision; default false): images that tavo_read reads and
// MCP tools return then go into the next request (SPEC §11).
func (p Profile) ShowsImages() bool { return p.Vision != nil && *p.Vision }

// QuestionModel is the model that answers ?question= about an image
// (the key vision_model, on the profile's own provider); "" leaves such
// questions vision_not_configured.
func (p Profile) QuestionModel() string { return p.VisionModel }
