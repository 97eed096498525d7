#![no_main]
//! Broad phase vs brute force: every band order, SIMD level and thread count.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::broad::broad_vs_brute(data));
