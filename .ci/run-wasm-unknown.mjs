// Runs the wasm32-unknown-unknown build of the determinism tool (a module without
// imports: no WASI, no clock, no threads) and writes its report to a file:
//   node .ci/run-wasm-unknown.mjs hantei_determinism.wasm LEVEL OUT
// LEVEL indexes SimdLevel::available() there (0: scalar, 1: portable). A panic in the
// module is a trap here, and a non-zero exit.
import { readFile, writeFile } from "node:fs/promises";
import { argv, exit } from "node:process";

const [program, level, out] = argv.slice(2);
if (!program || !level || !out) {
  console.error("usage: node run-wasm-unknown.mjs MODULE.wasm LEVEL OUT");
  exit(2);
}
const { instance } = await WebAssembly.instantiate(await readFile(program), {});
const packed = instance.exports.hantei_report(Number(level));
const ptr = Number(packed >> 32n);
const len = Number(packed & 0xffffffffn);
if (len === 0) {
  console.error(`${program}: no report for level ${level}`);
  exit(1);
}
await writeFile(out, new Uint8Array(instance.exports.memory.buffer, ptr, len));
