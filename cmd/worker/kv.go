//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/syumai/workers/cloudflare"
)

// kvStore keeps short links in a Workers KV namespace. The namespace is
// looked up on every call, from the environment of the request being
// served (worker.mjs sets it before each request).
//
// It calls the KV binding directly rather than through
// github.com/syumai/workers/cloudflare/kv, whose GetString cannot tell a
// missing key (null) from a value: js.Value.String gives "<null>".
type kvStore struct {
	binding string
}

// keyPrefix namespaces the keys, should the KV namespace be shared. (No
// "/": workerd's local KV, a disk directory, never completes a put of a
// key with one.)
const keyPrefix = "share-"

func (s kvStore) namespace() (js.Value, error) {
	b := cloudflare.GetBinding(s.binding)
	if b.Type() != js.TypeObject {
		return js.Value{}, fmt.Errorf("no KV namespace is bound as %s (worker/wrangler.jsonc kv_namespaces)", s.binding)
	}
	return b, nil
}

func (s kvStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	ns, err := s.namespace()
	if err != nil {
		return nil, false, err
	}
	v, err := await(ctx, ns.Call("get", keyPrefix+key, "text"))
	if err != nil {
		return nil, false, err
	}
	if v.Type() != js.TypeString {
		return nil, false, nil // null: no such key
	}
	return []byte(v.String()), true, nil
}

func (s kvStore) Put(ctx context.Context, key string, value []byte) error {
	ns, err := s.namespace()
	if err != nil {
		return err
	}
	_, err = await(ctx, ns.Call("put", keyPrefix+key, string(value)))
	return err
}

// await waits for a JavaScript promise.
func await(ctx context.Context, p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var then, catch js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- result{v: v}
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the promise was rejected"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	defer then.Release()
	defer catch.Release()
	p.Call("then", then, catch)
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		return js.Value{}, ctx.Err()
	}
}
