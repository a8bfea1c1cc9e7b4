package api

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// DirStore keeps short links as files in a directory (kueueplay serve
// -shares DIR): one file per key, written to a temporary name and renamed,
// so a reader never sees half a value.
type DirStore struct {
	Dir string
}

// Get implements Store.
func (s DirStore) Get(_ context.Context, key string) ([]byte, bool, error) {
	if !validID(key) {
		return nil, false, nil
	}
	data, err := os.ReadFile(filepath.Join(s.Dir, key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// Put implements Store.
func (s DirStore) Put(_ context.Context, key string, value []byte) error {
	if !validID(key) {
		return errors.New("invalid key")
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(s.Dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(value)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), filepath.Join(s.Dir, key))
}

// MemStore keeps short links in memory (tests, and servers that need no
// persistence). Its zero value is ready to use.
type MemStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

// Get implements Store.
func (s *MemStore) Get(_ context.Context, key string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok, nil
}

// Put implements Store.
func (s *MemStore) Put(_ context.Context, key string, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[key] = append([]byte(nil), value...)
	return nil
}
