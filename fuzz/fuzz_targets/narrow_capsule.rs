#![no_main]
//! The capsule sweeps: f32x8 vs scalar bit for bit, the batches, the f64 oracle.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::capsule::capsule_vs_oracle(data));
