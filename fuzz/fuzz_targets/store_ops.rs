#![no_main]
//! BoxStore operation sequences vs a model.
libfuzzer_sys::fuzz_target!(|data: &[u8]| hantei::check::store::store_vs_model(data));
