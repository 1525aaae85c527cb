package site

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"treasury/kit/words"
)

// SettingsBucket holds the settings a site shares (the alert thresholds
// an operator edits on any bastion): a key-value bucket, the last value of
// each key kept by the site's replicas.
const SettingsBucket = "TREASURY_SETTINGS"

// settingKey is what a key of the bucket may hold: tokens of letters,
// digits, _ and -, joined by dots.
var settingKey = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

// ValidKey reports whether key can name a shared setting.
func ValidKey(key string) bool { return settingKey.MatchString(key) }

type settings struct {
	mu sync.Mutex
	kv jetstream.KeyValue
}

func (s *Site) bucket(ctx context.Context) (jetstream.KeyValue, error) {
	s.set.mu.Lock()
	defer s.set.mu.Unlock()
	if s.set.kv != nil {
		return s.set.kv, nil
	}
	if err := s.connected(); err != nil {
		return nil, err
	}
	kv, err := s.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: SettingsBucket,
		Description: "treasury: the settings a site shares (alert thresholds)", History: 1,
		Storage: jetstream.FileStorage, Replicas: s.opts.Replicas})
	if err != nil {
		return nil, fmt.Errorf("the site's settings (bucket %s, %s): %w", SettingsBucket, words.Count(s.opts.Replicas, "replica"), err)
	}
	s.set.kv = kv
	return kv, nil
}

// PutSetting sets key to value for every node of the site; it returns
// the change's revision (the order in which every node applies it).
func (s *Site) PutSetting(ctx context.Context, key string, value []byte) (uint64, error) {
	if !ValidKey(key) {
		return 0, fmt.Errorf("site: %q cannot name a shared setting", key)
	}
	kv, err := s.bucket(ctx)
	if err != nil {
		return 0, err
	}
	return kv.Put(ctx, key, value)
}

// WatchSettings calls fn with the value of every key under prefix: at
// once with those set, then with each change, by any node, in the order
// the site took them, until stop. It retries while the site cannot be
// reached.
func (s *Site) WatchSettings(prefix string, fn func(key string, value []byte, revision uint64)) (stop func(), err error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			s.watchSettings(ctx, prefix, fn)
			select {
			case <-ctx.Done():
			case <-time.After(watchRetry):
			}
		}
	}()
	return func() { cancel(); <-done }, nil
}

// watchSettings watches until ctx ends or the watch fails.
func (s *Site) watchSettings(ctx context.Context, prefix string, fn func(string, []byte, uint64)) {
	wctx, cancel := context.WithTimeout(ctx, replicaWaitSite)
	kv, err := s.bucket(wctx)
	cancel()
	if err != nil {
		return
	}
	w, err := kv.Watch(ctx, prefix+".>")
	if err != nil {
		return
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e == nil || e.Operation() != jetstream.KeyValuePut {
				continue // the end of the values set, or a deletion
			}
			fn(e.Key(), e.Value(), e.Revision())
		}
	}
}
