#![no_main]
//! Static grid vs brute force: every chunk and thread count, failed builds, rebuilds.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::statics::static_vs_brute(data));
