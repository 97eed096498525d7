//! Property checks shared by the fuzz targets and the test suite (feature `fuzzing`, and
//! always under `cfg(test)`).
//!
//! Each check takes raw bytes, decodes them into an input biased toward the edge cases
//! (NaN, `±∞`, `-0.0`, denormals, `f32::MAX`, zero-size, touching and identical boxes),
//! runs the code under test against an independent oracle and **panics** when a property
//! fails: for a fuzzer, a panic is a bug. Any byte string is a valid input, so a fuzzer's
//! mutations always reach the code under test.
//!
//! | fuzz target | check | what it holds |
//! |---|---|---|
//! | `broad_pairs` | [`broad::broad_vs_brute`] | sweep = brute force, errors, determinism |
//! | `static_grid` | [`statics::static_vs_brute`] | static grid = brute force, errors leave the grid as it was, every chunk and thread count |
//! | `frame_advance` | [`advance::advance_vs_oracle`] | frame advance = the documented walk on all pairs and tiles: wall hits, contacts, destroyed, the store afterwards (moved, stopped flush, removed), every level and thread count |
//! | `frame_step` | [`frame::frame_vs_oracle`] | frame step = all-pairs swept oracle, events = set differences, every level and thread count |
//! | `narrow_lanes` | [`narrow::lanes_vs_scalar`] | every f32x8 kernel = its scalar twin, bit for bit; the batch API |
//! | `narrow_capsule` | [`capsule::capsule_vs_oracle`] | the capsule sweeps: f32x8 = scalar, bit for bit; the batch API; the `f64` oracle (first contact, nothing tunnels) |
//! | `narrow_turning` | [`turning::turning_vs_oracle`] | the turning sweep: zero turns = `sweep_shapes` bit for bit, bad input misses, the same answer swapped, the `f64` oracle in 4096 sub-steps (first contact, within the tolerance, nothing missed) |
//! | `store_ops` | [`store::store_vs_model`] | op sequences = a map model, dense order, queries |
//! | `scene_decode` | [`scene::decode_never_panics`] | an error or a valid scene that re-encodes to the same bytes |
//! | `tilemap_slide` | [`tilemap::move_and_slide`] | never inside, never through, never farther |
//! | `tilemap_cast` | [`tilemap::cast`] | the same for straight casts |
//!
//! The fuzz targets in `fuzz/fuzz_targets/` are one-liners calling these; `cargo test`
//! runs the same checks on a few thousand seeded byte strings and on the committed
//! corpus (`fuzz/corpus/<target>/`). To fuzz: `cargo +nightly fuzz run <target>` (see
//! the README).

mod bytes;

pub mod advance;
pub mod broad;
pub mod capsule;
pub mod capsule_oracle;
pub mod frame;
pub mod narrow;
pub mod scene;
pub mod statics;
pub mod store;
pub mod tilemap;
pub mod turning;
pub mod turning_oracle;

#[cfg(test)]
mod tests;
