package read

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/tavo-cli/tavo/pkg/providers"
	"github.com/tavo-cli/tavo/pkg/resources"
)

// Vision is the ?question= answerer over a provider: one request to model
// with the question and the image, nothing else, so the image never enters
// the main conversation.
func Vision(p providers.Provider, model string) resources.VisionFunc {
	return func(ctx context.Context, question, mediaType string, image []byte) (string, error) {
		req := &providers.Request{Model: model, Messages: []providers.Message{{Role: providers.RoleUser, Parts: []providers.Part{
			{Type: providers.PartText, Text: question},
			{Type: providers.PartImage, Image: &providers.Image{MIMEType: mediaType, Data: image}},
		}}}}
		resp, err := p.Complete(ctx, req, nopSink{})
		if err != nil {
			return "", err
		}
		answer := strings.TrimSpace(resp.Message.Text())
		if answer == "" {
			return "", errors.New("the vision model answered with no text")
		}
		return answer, nil
	}
}

type nopSink struct{}

func (nopSink) TextDelta(string)                 {}
func (nopSink) ReasoningDelta(string)            {}
func (nopSink) Retry(int, time.Duration, string) {}
