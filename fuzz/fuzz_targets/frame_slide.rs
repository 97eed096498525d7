#![no_main]
//! Response::Slide in Frame::advance vs the standalone TileMap::move_and_slide: the same
//! boxes, bit for bit, and the same tiles, at every SIMD level and thread count.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::advance::slide_vs_move_and_slide(data));
