//! The integration tests, as one test binary: each file of `tests/` is a module here
//! (`frame_alloc.rs` alone has a binary of its own, for its counting allocator). One
//! binary builds the crate's generic kernels once for all the tests and links once,
//! which is most of the time a fresh `cargo test` spends.
//!
//! Run one file's tests with its name as the filter: `cargo test --test suite
//! frame_turning::`.

mod example_cli;
mod frame_oracle;
mod narrow_common;

#[path = "../src/check/capsule_oracle.rs"]
mod capsule_oracle;
#[path = "../src/check/turning_oracle.rs"]
mod turning_oracle;

mod bad_input;
mod bullet_hell_example;
mod contact_points;
mod coordinate_limit;
mod frame_advance;
mod frame_capsules;
mod frame_shapes;
mod frame_turning;
mod fuzz_regressions;
mod game_loop_example;
mod layers;
mod narrow_batch;
mod narrow_overlap;
mod narrow_records;
mod narrow_sat;
mod narrow_sweep;
mod narrow_sweep_capsule;
mod narrow_sweep_circle;
mod narrow_sweep_circle_box;
mod narrow_sweep_obb2;
mod narrow_sweep_turning;
mod pairs_example;
mod platformer_example;
mod query_shapes;
mod reliability_review;
mod responses;
mod store_shapes;
mod tilemap;
