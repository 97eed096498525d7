//! Typed errors, shared by every entry point of the crate.
//!
//! hantei never panics on bad input. A NaN coordinate, an inverted box, a stale handle,
//! two slices whose lengths disagree and a malformed scene file each come back as one of
//! the values below. Whatever the call was updating is left exactly as it was.

use crate::handle::BoxHandle;
use core::fmt;

/// The most boxes one store or one broad-phase call can hold (`2^31 - 1`).
pub const MAX_BOXES: usize = i32::MAX as usize;

/// The most tiles on one side of a tile map, which [`Error::MapTooLarge`] names (the
/// value of `TileMap::MAX_SIDE`).
pub(crate) const MAP_MAX_SIDE: u32 = 1 << 24;
/// The most tiles in a tile map, which [`Error::MapTooLarge`] names (the value of
/// `TileMap::MAX_CELLS`).
pub(crate) const MAP_MAX_CELLS: usize = 1 << 30;

/// The scene format's version, which [`SceneError`]'s messages name (the value of
/// [`crate::scene::VERSION`]).
pub(crate) const SCENE_VERSION: u32 = 1;
/// The scene format's header length in bytes, which [`SceneError`]'s messages name
/// (the value of [`crate::scene::HEADER_LEN`]).
pub(crate) const SCENE_HEADER_LEN: usize = 16;

/// What is wrong with one box, as [`Aabb::validate`](crate::Aabb::validate) finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoxDefect {
    /// A coordinate is NaN.
    NaN,
    /// A coordinate is `+∞` or `-∞`.
    Infinite,
    /// `min > max` on the named axis.
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
    /// A box is not valid.
    InvalidBox {
        /// The box's position in the caller's input, or 0 for a single box.
        index: usize,
        /// What is wrong with it.
        defect: BoxDefect,
    },
    /// A motion, the displacement over one frame, has a NaN or infinite component.
    InvalidMotion {
        /// The motion's position in the caller's input, or 0 for a single one.
        index: usize,
    },
    /// A shape other than a box is not valid: a circle, an oriented box, a ray or a tile
    /// map.
    InvalidShape {
        /// The shape's position in the caller's input, or 0 for a single one.
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
    /// A candidate pair indexes past the end of the columns it refers to. The narrow
    /// phase's batch calls return this.
    PairOutOfRange {
        /// The position of the first bad pair in the input.
        pair: usize,
        /// Which index of the pair is bad: `"a"` or `"b"`.
        side: &'static str,
        /// The index.
        index: u32,
        /// The number of shapes (columns or records) that this side indexes.
        len: usize,
    },
    /// A shape, or the place its motion takes it to, lies beyond the range that a
    /// computation supports.
    ///
    /// For a store, a frame, a static level and the casts, the limit is
    /// [`MAX_COORDINATE`](crate::MAX_COORDINATE). For a tile map's own calls, the limit
    /// is `f32::MAX`, because beyond it no end position exists.
    OutOfRange {
        /// The box's handle, when the box is in a store.
        handle: Option<BoxHandle>,
        /// The box's position in the caller's input. For a box in a store this is its
        /// dense index.
        index: usize,
        /// The largest coordinate magnitude allowed.
        limit: f32,
    },
    /// A handle whose box was removed.
    ///
    /// Handles do not record which store they came from. So a handle from another store
    /// is not detected when its slot and generation happen to be alive here.
    StaleHandle,
    /// More boxes than the store or the broad phase can index, which is
    /// [`MAX_BOXES`].
    TooManyBoxes {
        /// How many were asked for.
        requested: usize,
    },
    /// A setting is out of its range.
    InvalidConfig {
        /// Which setting and why.
        reason: &'static str,
    },
    /// A list of body pairs given to restore a frame's events is not valid.
    ///
    /// [`FrameEvents::from_events`](crate::frame::FrameEvents::from_events) returns this
    /// when the list is not strictly sorted, when a pair's bodies are out of order
    /// (`a < b` fails), or when a pair is marked `removed`.
    InvalidEvents {
        /// The position of the first bad pair.
        index: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A scene file is malformed.
    Scene(SceneError),
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
                MAP_MAX_SIDE, MAP_MAX_CELLS
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
            Error::OutOfRange {
                handle: Some(h),
                limit,
                ..
            } => write!(
                f,
                "box {h} reaches beyond ±{limit:e}, the supported range, where it is or where \
                 its motion takes it"
            ),
            Error::OutOfRange {
                handle: None,
                index,
                limit,
            } => write!(
                f,
                "box {index} of the input reaches beyond ±{limit:e}, the supported range, \
                 where it is or where its motion takes it"
            ),
            Error::StaleHandle => f.write_str("stale handle: its box was removed"),
            Error::TooManyBoxes { requested } => {
                write!(f, "too many boxes: {requested} (at most {})", MAX_BOXES)
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

impl From<SceneError> for Error {
    fn from(e: SceneError) -> Self {
        Error::Scene(e)
    }
}

/// Why a scene file was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SceneError {
    /// Fewer than 16 bytes: no complete header.
    TruncatedHeader {
        /// The file's length.
        len: usize,
    },
    /// The first 8 bytes are not `AABB2D\0\0`.
    BadMagic {
        /// The bytes found.
        found: [u8; 8],
    },
    /// A version other than 1.
    UnsupportedVersion {
        /// The version found.
        version: u32,
    },
    /// The file length is not `16 + 16·N`.
    SizeMismatch {
        /// The count `N` in the header.
        count: u32,
        /// `16 + 16·N`.
        expected: u64,
        /// The file's length.
        found: usize,
    },
    /// Record `record` has a NaN or infinite coordinate.
    NonFinite {
        /// The record index (0-based).
        record: usize,
    },
    /// Record `record` has `min > max` on `axis` (0 = x, 1 = y).
    Inverted {
        /// The record index (0-based).
        record: usize,
        /// 0 for x, 1 for y.
        axis: u8,
    },
    /// More boxes than the format's `u32` count can hold.
    TooManyBoxes {
        /// How many there were.
        count: usize,
    },
    /// Reading or writing the file failed.
    Io {
        /// The kind of failure.
        kind: std::io::ErrorKind,
        /// The operating system's message.
        message: String,
    },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::TruncatedHeader { len } => {
                write!(
                    f,
                    "truncated header: {len} bytes, need at least {SCENE_HEADER_LEN}"
                )
            }
            SceneError::BadMagic { found } => {
                write!(f, "bad magic {found:02x?}, expected \"AABB2D\\0\\0\"")
            }
            SceneError::UnsupportedVersion { version } => {
                write!(f, "unsupported version {version}, expected {SCENE_VERSION}")
            }
            SceneError::SizeMismatch {
                count,
                expected,
                found,
            } => write!(
                f,
                "size mismatch: header says {count} boxes ({expected} bytes), file has {found} bytes"
            ),
            SceneError::NonFinite { record } => {
                write!(f, "record {record}: a coordinate is NaN or infinite")
            }
            SceneError::Inverted { record, axis } => {
                let a = if *axis == 0 { 'x' } else { 'y' };
                write!(f, "record {record}: min_{a} > max_{a}")
            }
            SceneError::TooManyBoxes { count } => {
                write!(f, "{count} boxes do not fit the format's u32 count")
            }
            SceneError::Io { kind, message } => write!(f, "i/o error ({kind:?}): {message}"),
        }
    }
}

impl std::error::Error for SceneError {}

impl From<std::io::Error> for SceneError {
    fn from(e: std::io::Error) -> Self {
        SceneError::Io {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

/// `Err(TooManyBoxes)` when `count` is more than [`MAX_BOXES`]. This
/// is the one limit that every entry point applies, at every SIMD level, before it reads
/// anything.
pub(crate) fn check_count(count: usize) -> Result<(), Error> {
    if count > MAX_BOXES {
        Err(Error::TooManyBoxes { requested: count })
    } else {
        Ok(())
    }
}

/// `Err(LengthMismatch)` unless `found == expected`.
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
