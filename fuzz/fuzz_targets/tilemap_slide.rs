#![no_main]
//! Tile-map move-and-slide invariants.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::tilemap::move_and_slide(data));
