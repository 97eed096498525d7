//! The serde tests, as one test binary: each file here is a module. They need the
//! `serde` feature (`cargo test --features serde`).
#![cfg(feature = "serde")]

mod docs;
mod snapshot;
mod stores;
