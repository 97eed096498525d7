#![no_main]
//! The turning sweep: zero turns = sweep_shapes, swapped = straight, the f64 oracle.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::turning::turning_vs_oracle(data));
