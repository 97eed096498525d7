// Runs a wasm32-wasip1 program under Node's WASI (Node 20+):
//   node .ci/run-wasi.mjs PROGRAM.wasm DIR [ARGS...]
// DIR (on the host) is preopened as /out inside the program, so ARGS can name files
// there (/out/report.txt). The exit status is the program's. Output files rather than
// stdout: Node's WASI may drop writes to a full pipe.
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import { argv, exit } from "node:process";

const [program, dir, ...args] = argv.slice(2);
if (!program || !dir) {
  console.error("usage: node run-wasi.mjs PROGRAM.wasm DIR [ARGS...]");
  exit(2);
}
const wasi = new WASI({
  version: "preview1",
  args: [program, ...args],
  env: {},
  preopens: { "/out": dir },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
