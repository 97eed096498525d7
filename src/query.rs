//! Scene queries on the store (filled in below).
