// The Worker's entry module. It replaces github.com/syumai/workers' own
// worker.mjs, which starts a new Go instance (runtime, heap, main) for
// every request: that costs 5 to 10 ms of CPU per request, the whole
// budget of Cloudflare's Free plan. This one starts Go once per isolate
// and sends every request to that instance (cmd/worker keeps main
// running). The Go side reads the bindings (env) through the context
// object the patched wasm_exec.js exposes, which is updated before each
// request; bindings are the same for every request of a Worker.
import "./wasm_exec.js";
import mod from "./app.wasm";

const context = { env: undefined, ctx: undefined, binding: {} };
let ready;

function start() {
  const go = new Go();
  let markReady;
  const readyNow = new Promise((resolve) => {
    markReady = resolve;
  });
  const instance = new WebAssembly.Instance(mod, {
    ...go.importObject,
    workers: { ready: () => markReady() },
  });
  const exited = go.run(instance, context).then(() => {
    // Go stopped (a crash): the next request starts a new instance.
    ready = undefined;
    throw new Error("the Go program exited");
  });
  return Promise.race([readyNow, exited]);
}

export default {
  async fetch(request, env, ctx) {
    context.env = env;
    context.ctx = ctx;
    ready ??= start();
    try {
      await ready;
    } catch (err) {
      ready = undefined;
      throw err;
    }
    return context.binding.handleRequest(request);
  },
};
