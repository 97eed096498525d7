//! Narrow phase (in progress).
