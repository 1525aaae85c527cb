package serve

import (
	"context"
	"fmt"

	"treasury/desk/alerthook"
	"treasury/desk/live"
	"treasury/process"
)

// startAlertHook posts the profile's alerts to its outgoing webhook
// (alerts.webhook), when it has one, until ctx ends: only `treasury serve`
// does, the process that runs while nobody looks. Its posts go to the
// request log.
func startAlertHook(ctx context.Context, rt *process.Runtime) error {
	w := rt.Config.Alerts.Webhook
	if w == nil {
		return nil
	}
	min := live.High
	if w.MinSeverity == "medium" {
		min = live.Medium
	}
	h, err := alerthook.New(alerthook.Options{URL: w.URL.Reveal(), MinSeverity: min, PerMinute: w.PerMinute,
		Profile: rt.Config.Profile, Environment: rt.Config.Environment, Log: rt.RequestLog, UserAgent: process.UserAgent()})
	if err != nil {
		return fmt.Errorf("%s: %w", rt.Config.Key("alerts.webhook"), err)
	}
	go h.Run(ctx, rt.Platform.Store)
	return nil
}
