#![no_main]
//! Frame::advance vs the documented walk on all pairs and tiles (wall hits, contacts,
//! destroyed, the store afterwards), every SIMD level and thread count.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::advance::advance_vs_oracle(data));
