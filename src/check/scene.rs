//! The scene-file reader and writer on arbitrary bytes.
//!
//! [`decode`] is compared with a straightforward reference decoder written from the format
//! table alone: the same error (variant and fields) or the same boxes, bit for bit. When
//! it succeeds every box is valid and [`encode`] gives back exactly the input bytes.
//! [`decode`] borrows aligned bytes and copies the others: both paths run on every input
//! (the bytes at an 8-aligned and at an odd address) and must agree.
//!
//! Random bytes rarely start with the magic, so each input is also read a second way: a
//! valid header (record count from the body's length, or off by one when the first
//! byte's bit 0 is set) followed by the bytes after the first, as records. Finally the
//! body's floats, as boxes, go through [`encode`]: it refuses the first invalid box as
//! the reference says, or writes bytes that decode to the same boxes.

use super::bytes::same_bits;
use crate::Aabb;
use crate::scene::{HEADER_LEN, MAGIC, RECORD_LEN, SceneError, VERSION, decode, encode};

/// The reference decoder: the format table, read field by field.
fn reference(bytes: &[u8]) -> Result<Vec<Aabb>, SceneError> {
    if bytes.len() < 16 {
        return Err(SceneError::TruncatedHeader { len: bytes.len() });
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let mut found = [0u8; 8];
    found.copy_from_slice(&bytes[..8]);
    if found != *b"AABB2D\0\0" {
        return Err(SceneError::BadMagic { found });
    }
    if word(8) != 1 {
        return Err(SceneError::UnsupportedVersion { version: word(8) });
    }
    let count = word(12);
    let expected = 16 + 16 * u64::from(count);
    if bytes.len() as u64 != expected {
        return Err(SceneError::SizeMismatch {
            count,
            expected,
            found: bytes.len(),
        });
    }
    let mut boxes = Vec::new();
    for record in 0..count as usize {
        let at = 16 + 16 * record;
        let v = [0, 4, 8, 12].map(|k| f32::from_bits(word(at + k)));
        if v.iter().any(|x| !x.is_finite()) {
            return Err(SceneError::NonFinite { record });
        }
        for axis in 0..2 {
            if v[axis] > v[axis + 2] {
                return Err(SceneError::Inverted {
                    record,
                    axis: axis as u8,
                });
            }
        }
        boxes.push(Aabb::from_coords(v[0], v[1], v[2], v[3]));
    }
    Ok(boxes)
}

/// A hook that may change [`decode`]'s answer before it is checked: the identity in
/// [`decode_never_panics`]; tests plant bugs with it to show that the check catches them.
pub type Tamper<'t> = &'t dyn Fn(&mut Result<Vec<Aabb>, SceneError>);

/// [`decode`] and [`encode`] on the input built from `data` (see the
/// [module docs](self)).
///
/// # Panics
/// When a property is violated.
pub fn decode_never_panics(data: &[u8]) {
    if let Err(e) = decode_never_panics_with(data, &|_| {}) {
        panic!("scene check failed: {e}");
    }
}

/// [`decode_never_panics`] with a [`Tamper`] hook, returning the first violated property.
///
/// # Errors
/// A description of the first violated property.
pub fn decode_never_panics_with(data: &[u8], tamper: Tamper<'_>) -> Result<(), String> {
    check_bytes(data, tamper)?;
    if let Some((&first, body)) = data.split_first() {
        let records = body.len() / RECORD_LEN;
        let count = if first & 1 == 1 {
            // Off by one: one record too many or too few.
            if first & 2 == 2 {
                records + 1
            } else {
                records.wrapping_sub(1)
            }
        } else {
            records
        };
        let mut framed = Vec::with_capacity(HEADER_LEN + body.len());
        framed.extend_from_slice(&MAGIC);
        framed.extend_from_slice(&VERSION.to_le_bytes());
        framed.extend_from_slice(&(count as u32).to_le_bytes());
        framed.extend_from_slice(&body[..records * RECORD_LEN]);
        check_bytes(&framed, tamper)?;
        check_encode(body)?;
    }
    Ok(())
}

/// `bytes` through [`decode`] at two alignments, against the reference.
fn check_bytes(bytes: &[u8], tamper: Tamper<'_>) -> Result<(), String> {
    let want = reference(bytes);
    // An 8-aligned copy and an odd-aligned copy (u64 storage is 8-aligned), so that
    // decode takes both its borrowing and its copying path.
    let n = bytes.len();
    let (mut even, mut odd) = (vec![0u64; n / 8 + 1], vec![0u64; n / 8 + 1]);
    let even: &mut [u8] = bytemuck::cast_slice_mut(&mut even);
    even[..n].copy_from_slice(bytes);
    let odd: &mut [u8] = bytemuck::cast_slice_mut(&mut odd);
    odd[1..=n].copy_from_slice(bytes);
    let copies: [&[u8]; 2] = [&even[..n], &odd[1..=n]];
    for (k, copy) in copies.into_iter().enumerate() {
        let mut got = decode(copy).map(|b| b.into_owned());
        tamper(&mut got);
        let ctx = |e: String| {
            format!(
                "{e} (alignment case {k}, {} bytes: {bytes:02x?})",
                bytes.len()
            )
        };
        match (&want, &got) {
            (Err(w), Err(g)) if w == g => {}
            (Ok(w), Ok(g))
                if w.len() == g.len() && w.iter().zip(g).all(|(a, b)| same_bits(a, b)) =>
            {
                if let Some(i) = g.iter().position(|b| b.validate().is_err()) {
                    return Err(ctx(format!("decoded box {i} is invalid")));
                }
                match encode(g) {
                    Ok(e) if e == bytes => {}
                    other => return Err(ctx(format!("re-encoding gave {other:?}"))),
                }
            }
            _ => return Err(ctx(format!("decode gave {got:?}, the reference {want:?}"))),
        }
    }
    Ok(())
}

/// The floats of `body` as boxes through [`encode`]: refused like the reference refuses
/// them, or encoded into bytes that decode to the same boxes.
fn check_encode(body: &[u8]) -> Result<(), String> {
    let boxes: Vec<Aabb> = body
        .chunks_exact(RECORD_LEN)
        .map(|r| {
            let f = |k: usize| f32::from_le_bytes([r[k], r[k + 1], r[k + 2], r[k + 3]]);
            Aabb::from_coords(f(0), f(4), f(8), f(12))
        })
        .collect();
    let mut file = Vec::from(MAGIC);
    file.extend_from_slice(&VERSION.to_le_bytes());
    file.extend_from_slice(&(boxes.len() as u32).to_le_bytes());
    file.extend_from_slice(&body[..boxes.len() * RECORD_LEN]);
    match (encode(&boxes), reference(&file)) {
        (Ok(e), Ok(_)) if e == file => Ok(()),
        (Err(g), Err(w)) if g == w => Ok(()),
        (got, want) => Err(format!(
            "encode of {boxes:?} gave {got:?}, the reference {want:?}"
        )),
    }
}
