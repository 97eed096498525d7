//! Typed errors shared by every entry point of the crate.
//!
//! hantei never panics on bad input: a NaN coordinate, an inverted box, a stale handle, a
//! pair of slices whose lengths disagree or a malformed scene file each come back as one of
//! the values below, and whatever was being updated is left exactly as it was.

use core::fmt;

/// What is wrong with one box (see [`crate::Aabb::validate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoxDefect {
    /// A coordinate is NaN.
    NaN,
    /// A coordinate is `+∞` or `-∞`.
    Infinite,
    /// `min > max` on the named axis (0 = x, 1 = y).
    Inverted {
        /// The axis: 0 for x, 1 for y.
        axis: u8,
    },
}

impl fmt::Display for BoxDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoxDefect::NaN => f.write_str("a coordinate is NaN"),
            BoxDefect::Infinite => f.write_str("a coordinate is infinite"),
            BoxDefect::Inverted { axis } => {
                let a = if *axis == 0 { 'x' } else { 'y' };
                write!(f, "min_{a} > max_{a}")
            }
        }
    }
}

/// What is wrong with an ASCII tile map (see [`crate::TileMap::from_ascii`]), and where.
///
/// Lines and columns count from 1, as text editors do. A line number counts every line
/// of the text, blank ones included. A column counts characters from the start of the
/// line, its indentation included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AsciiDefect {
    /// The text has no rows: it is empty, or every line is blank.
    NoRows,
    /// A blank line lies between two rows.
    BlankLine {
        /// The blank line.
        line: usize,
    },
    /// A character is not a tile. Tiles are `.`, `#` and the digits `0` to `9`.
    UnknownTile {
        /// The line the character is on.
        line: usize,
        /// Its column.
        column: usize,
        /// The character.
        found: char,
    },
    /// A row has another number of tiles than the first row.
    Ragged {
        /// The row's line.
        line: usize,
        /// How many tiles it has.
        tiles: usize,
        /// The first row's line.
        first_line: usize,
        /// How many tiles the first row has.
        first_tiles: usize,
    },
}

impl fmt::Display for AsciiDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AsciiDefect::NoRows => f.write_str("no rows (the text is empty or blank)"),
            AsciiDefect::BlankLine { line } => write!(f, "line {line} is blank, between rows"),
            AsciiDefect::UnknownTile {
                line,
                column,
                found,
            } => write!(
                f,
                "line {line}, column {column}: unknown tile {found:?} (use '.', '#' or a digit)"
            ),
            AsciiDefect::Ragged {
                line,
                tiles,
                first_line,
                first_tiles,
            } => write!(
                f,
                "line {line} has {tiles} tiles, the first row (line {first_line}) has \
                 {first_tiles}; rows must be the same length"
            ),
        }
    }
}

/// Everything that can go wrong in hantei.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A box (at `index` in the input, where there was one) is not a valid box.
    InvalidBox {
        /// Position of the box in the caller's input (0 for a single box).
        index: usize,
        /// What is wrong with it.
        defect: BoxDefect,
    },
    /// A displacement (per-frame motion) has a NaN or infinite component.
    InvalidMotion {
        /// Position of the motion in the caller's input (0 for a single one).
        index: usize,
    },
    /// A shape other than a box (circle, oriented box, ray, tile map) is not valid.
    InvalidShape {
        /// Position of the shape in the caller's input (0 for a single one).
        index: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An ASCII tile map cannot be read (see [`crate::TileMap::from_ascii`]).
    InvalidAscii(AsciiDefect),
    /// A tile map has a side longer than [`crate::TileMap::MAX_SIDE`] tiles, or more than
    /// [`crate::TileMap::MAX_CELLS`] tiles in all.
    MapTooLarge {
        /// Its width in tiles.
        width: u64,
        /// Its height in tiles.
        height: u64,
    },
    /// Two inputs that must have the same length do not.
    LengthMismatch {
        /// Which input is off.
        what: &'static str,
        /// The length it had to have.
        expected: usize,
        /// The length it had.
        found: usize,
    },
    /// A candidate pair indexes past the end of the columns it refers to (the narrow
    /// phase's batch calls).
    PairOutOfRange {
        /// Position of the pair in the input (the first bad one, in pair order).
        pair: usize,
        /// Which index of the pair: `"a"` or `"b"`.
        side: &'static str,
        /// The index.
        index: u32,
        /// The number of shapes (columns or records) that this side indexes.
        len: usize,
    },
    /// A box, grown by its motion, reaches beyond the range a computation supports
    /// (the frame pipeline: [`crate::frame::MAX_COORDINATE`], where relative motions
    /// could overflow `f32`; the tile map: `f32::MAX`, where no end position exists).
    OutOfRange {
        /// The box's position in the input (its dense index in a store).
        index: usize,
        /// The largest magnitude allowed.
        limit: f32,
    },
    /// A handle whose box was removed. (A handle from another store is not detected
    /// when its slot and generation happen to be alive here: handles carry no store
    /// identity.)
    StaleHandle,
    /// More boxes than the store or broad phase can index ([`crate::MAX_BOXES`]).
    TooManyBoxes {
        /// How many were asked for.
        requested: usize,
    },
    /// A setting is out of its range.
    InvalidConfig {
        /// Which setting and why.
        reason: &'static str,
    },
    /// A list of contacting body pairs given to restore a frame's events
    /// ([`crate::frame::FrameEvents::from_events`]) is not strictly sorted, or names a
    /// pair whose bodies are not in order (`a < b`).
    InvalidEvents {
        /// Position of the first bad pair.
        index: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A scene file is malformed.
    Scene(crate::scene::SceneError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidBox { index, defect } => write!(f, "box {index} is invalid: {defect}"),
            Error::InvalidMotion { index } => {
                write!(
                    f,
                    "motion {index} is invalid: a component is NaN or infinite"
                )
            }
            Error::InvalidShape { index, reason } => {
                write!(f, "shape {index} is invalid: {reason}")
            }
            Error::InvalidAscii(defect) => write!(f, "ascii tile map, {defect}"),
            Error::MapTooLarge { width, height } => write!(
                f,
                "tile map of {width} x {height} tiles is too large (at most {} a side and {} \
                 in all)",
                crate::TileMap::MAX_SIDE,
                crate::TileMap::MAX_CELLS
            ),
            Error::LengthMismatch {
                what,
                expected,
                found,
            } => write!(f, "{what}: expected length {expected}, found {found}"),
            Error::PairOutOfRange {
                pair,
                side,
                index,
                len,
            } => write!(
                f,
                "pair {pair}: {side} = {index} is out of range of its shapes (length {len})"
            ),
            Error::OutOfRange { index, limit } => write!(
                f,
                "box {index} with its motion reaches beyond ±{limit:e}, the supported range"
            ),
            Error::StaleHandle => f.write_str("stale handle: its box was removed"),
            Error::TooManyBoxes { requested } => {
                write!(
                    f,
                    "too many boxes: {requested} (at most {})",
                    crate::MAX_BOXES
                )
            }
            Error::InvalidConfig { reason } => write!(f, "invalid configuration: {reason}"),
            Error::InvalidEvents { index, reason } => {
                write!(f, "event pair {index} is invalid: {reason}")
            }
            Error::Scene(e) => write!(f, "scene file: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Scene(e) => Some(e),
            _ => None,
        }
    }
}

impl From<crate::scene::SceneError> for Error {
    fn from(e: crate::scene::SceneError) -> Self {
        Error::Scene(e)
    }
}

/// Returns `Err(LengthMismatch)` unless `found == expected`.
/// [`Error::TooManyBoxes`] when `count` is more than [`crate::MAX_BOXES`]: the one limit
/// every entry point applies, at every SIMD level, before it reads anything.
pub(crate) fn check_count(count: usize) -> Result<(), Error> {
    if count > crate::MAX_BOXES {
        Err(Error::TooManyBoxes { requested: count })
    } else {
        Ok(())
    }
}

pub(crate) fn check_len(what: &'static str, expected: usize, found: usize) -> Result<(), Error> {
    if expected == found {
        Ok(())
    } else {
        Err(Error::LengthMismatch {
            what,
            expected,
            found,
        })
    }
}
