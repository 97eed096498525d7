#![no_main]
//! Tile-map cast (bullet) invariants.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::tilemap::cast(data));
