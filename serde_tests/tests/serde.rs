//! The serde tests, as one test binary: each file here is a module.

mod docs;
mod snapshot;
mod stores;
