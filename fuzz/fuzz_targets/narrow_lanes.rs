#![no_main]
//! Every f32x8 narrow-phase kernel vs its scalar reference, lane by lane; the batch API.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::narrow::lanes_vs_scalar(data));
