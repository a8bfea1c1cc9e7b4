// The engine's Web Worker: a second instance of the page's WebAssembly
// module (the page compiles kueueplay.wasm once and posts the compiled
// WebAssembly.Module here, first thing), which decodes and simulates for
// the page so that the page's own thread only renders (wasm/worker.go
// documents the messages). Messages that come before the module has
// started wait in a queue.
"use strict";
importScripts("wasm_exec.js");
const queue = [];
let deliver = null;
self.onmessage = (e) => {
  const m = e.data;
  if (m && m.type === "module") {
    start(m.module).catch((err) => postMessage({ type: "fatal", error: String((err && err.message) || err) }));
    return;
  }
  if (deliver) deliver(m);
  else queue.push(m);
};
async function start(module) {
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  // Go's main runs until it first blocks, having set kueueplayWorker.
  go.run(instance).then(() => postMessage({ type: "fatal", error: "the engine's worker stopped" }));
  deliver = (m) => self.kueueplayWorker(m);
  for (const m of queue.splice(0)) deliver(m);
}
