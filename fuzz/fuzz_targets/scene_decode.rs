#![no_main]
//! The scene-file reader on arbitrary bytes: an error or a valid scene.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::scene::decode_never_panics(data));
