#![no_main]
//! Frame pipeline vs the all-pairs swept oracle, events, every SIMD level and thread count.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::frame::frame_vs_oracle(data));
