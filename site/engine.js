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
// engineMemoryPages is the worker's linear memory before Go starts:
// 512 MiB in 64 KiB pages.
const engineMemoryPages = 8192;
async function start(module) {
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  // Go grows its linear memory only as far as each new span needs
  // (runtime.sbrk), and V8 answers every growth with work of its own (a
  // first BenchmarkCycle run under Node: 910 growths, 18% of its time in
  // V8's collections). Go reads the memory's size when it starts
  // (runtime.osinit) and uses all of it before it grows it, so the worker
  // grows it once, before Go starts. Untouched pages take no physical
  // memory; where the growth is refused, Go grows it as it goes.
  try {
    instance.exports.mem.grow(engineMemoryPages - instance.exports.mem.buffer.byteLength / 65536);
  } catch {
    // Go grows it as it goes.
  }
  // Go's main runs until it first blocks, having set kueueplayWorker.
  go.run(instance).then(() => postMessage({ type: "fatal", error: "the engine's worker stopped" }));
  deliver = (m) => self.kueueplayWorker(m);
  for (const m of queue.splice(0)) deliver(m);
}
