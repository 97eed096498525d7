//! Scene files and seeded scene generators.
//!
//! A scene file uses the `AABB2D` format, version 1. The file `docs/scene-format.md` in
//! the repository and the package describes it in full. In short:
//!
//! ```text
//! offset  size   field
//!      0     8   magic  b"AABB2D\0\0"
//!      8     4   version (u32 LE) = 1
//!     12     4   count N (u32 LE)
//!     16  16·N   N records of 4 × f32 LE: min_x, min_y, max_x, max_y
//! ```
//!
//! The file is exactly `16 + 16·N` bytes long. Every coordinate is finite, and
//! `min <= max` on both axes. [`decode`] rejects anything else. Its [`SceneError`] names
//! the problem. For a bad record, it also names the record.

pub mod generate;

// The error type lives with the crate's other errors (`error` is a leaf that every
// module may use, `Error::Scene` holds it); its public path is this one.
pub use crate::error::SceneError;

use crate::math::Aabb;
use std::borrow::Cow;
use std::path::Path;

/// The 8 magic bytes that open a scene file.
pub const MAGIC: [u8; 8] = *b"AABB2D\0\0";
/// The only version this crate reads and writes.
pub const VERSION: u32 = crate::error::SCENE_VERSION;
/// The size of the header in bytes.
pub const HEADER_LEN: usize = crate::error::SCENE_HEADER_LEN;
/// The size of one record in bytes.
pub const RECORD_LEN: usize = 16;

/// Decodes a scene.
///
/// On a little-endian target, the result borrows the records when the bytes are
/// suitably aligned. Otherwise it copies them.
///
/// ```
/// use hantei::{Aabb, scene};
/// let boxes = vec![Aabb::from_coords(0.0, 0.0, 1.0, 1.0), Aabb::from_coords(1.0, 1.0, 2.0, 2.0)];
/// let bytes = scene::encode(&boxes)?;
/// assert_eq!(scene::decode(&bytes)?.as_ref(), &boxes[..]);
/// assert!(scene::decode(&bytes[..20]).is_err()); // size mismatch
/// # Ok::<(), hantei::scene::SceneError>(())
/// ```
///
/// # Errors
/// Returns the [`SceneError`] that names what is malformed. When several records are
/// bad, the error names the first one.
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, [Aabb]>, SceneError> {
    let n = check_header(bytes)?;
    let body = &bytes[HEADER_LEN..];
    let boxes: Cow<'_, [Aabb]> = match bytemuck::try_cast_slice::<u8, Aabb>(body) {
        Ok(b) if cfg!(target_endian = "little") => Cow::Borrowed(b),
        _ => Cow::Owned(
            body.chunks_exact(RECORD_LEN)
                .map(|r| {
                    let f = |k: usize| f32::from_le_bytes(r[4 * k..4 * k + 4].try_into().unwrap());
                    Aabb::from_coords(f(0), f(1), f(2), f(3))
                })
                .collect(),
        ),
    };
    debug_assert_eq!(boxes.len(), n);
    for (i, b) in boxes.iter().enumerate() {
        if let Err(d) = b.validate() {
            return Err(match d {
                crate::error::BoxDefect::Inverted { axis } => {
                    SceneError::Inverted { record: i, axis }
                }
                _ => SceneError::NonFinite { record: i },
            });
        }
    }
    Ok(boxes)
}

/// Checks magic, version and size; returns the count.
fn check_header(bytes: &[u8]) -> Result<usize, SceneError> {
    if bytes.len() < HEADER_LEN {
        return Err(SceneError::TruncatedHeader { len: bytes.len() });
    }
    let magic: [u8; 8] = bytes[..8].try_into().unwrap();
    if magic != MAGIC {
        return Err(SceneError::BadMagic { found: magic });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if version != VERSION {
        return Err(SceneError::UnsupportedVersion { version });
    }
    let count = u32::from_le_bytes(bytes[12..16].try_into().unwrap());
    let expected = HEADER_LEN as u64 + RECORD_LEN as u64 * u64::from(count);
    if bytes.len() as u64 != expected {
        return Err(SceneError::SizeMismatch {
            count,
            expected,
            found: bytes.len(),
        });
    }
    Ok(count as usize)
}

/// Encodes boxes as a scene file.
///
/// The encoder never writes a file that [`decode`] rejects.
///
/// # Errors
/// - [`SceneError::NonFinite`] when a box has a coordinate that is not finite.
/// - [`SceneError::Inverted`] when a box has `min > max` on an axis.
/// - [`SceneError::TooManyBoxes`] when the count does not fit the format's `u32`.
///
/// The first two name the first invalid box.
pub fn encode(boxes: &[Aabb]) -> Result<Vec<u8>, SceneError> {
    let count =
        u32::try_from(boxes.len()).map_err(|_| SceneError::TooManyBoxes { count: boxes.len() })?;
    let mut out = Vec::with_capacity(HEADER_LEN + RECORD_LEN * boxes.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    for (i, b) in boxes.iter().enumerate() {
        match b.validate() {
            Ok(()) => {}
            Err(crate::error::BoxDefect::Inverted { axis }) => {
                return Err(SceneError::Inverted { record: i, axis });
            }
            Err(_) => return Err(SceneError::NonFinite { record: i }),
        }
        for v in [b.min.x, b.min.y, b.max.x, b.max.y] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    Ok(out)
}

/// Reads and decodes a scene file.
///
/// # Errors
/// - [`SceneError::Io`] when the file cannot be read.
/// - The errors of [`decode`].
pub fn load(path: impl AsRef<Path>) -> Result<Vec<Aabb>, SceneError> {
    let bytes = std::fs::read(path)?;
    Ok(decode(&bytes)?.into_owned())
}

/// Encodes and writes a scene file.
///
/// # Errors
/// - The errors of [`encode`].
/// - [`SceneError::Io`] when the file cannot be written.
pub fn save(path: impl AsRef<Path>, boxes: &[Aabb]) -> Result<(), SceneError> {
    std::fs::write(path, encode(boxes)?)?;
    Ok(())
}

#[cfg(test)]
mod tests;
