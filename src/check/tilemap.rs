//! Tile-map motion on arbitrary bytes: the invariant checks of `tilemap::check`, driven
//! by its byte decoder ([`input_from_bytes`]: a small map, a body, a motion; then, after
//! a tag, a large map of up to 2^20 tiles around the small one, or a map read from ASCII
//! art, whose reading [`check_ascii`] checks against the documented rules).
//!
//! [`move_and_slide`] holds [`check_move_and_slide`] (both axis orders, both y
//! directions): valid input never fails and bad input is the typed error; the body never
//! ends inside, nor passes through, a solid tile it did not start in; no face moves
//! farther than asked or against the motion; the size never shrinks; hits are flush and
//! on the right edge; no hit means the whole motion; `grounded` and every side's
//! `contact` match a one-ulp probe. It also requires [`TileMap::move_and_slide_all`] on
//! the one body to give the same result.
//!
//! [`cast`] holds [`check_cast`] (the fast path equals the full DDA; the straight path
//! enters no solid tile; flush hits at the reported time) and requires
//! [`TileMap::move_bullets`] with either response to agree with it as documented: the
//! same contacts, exactly; in open space either `cast`'s box or
//! `body.translated(motion)`, bit for bit.

use super::bytes::same_bits;
pub use crate::tilemap::check::{
    LARGE_CELLS, check_ascii, check_cast, check_move_and_slide, input_from_bytes, large_map,
};
use crate::tilemap::{BulletResponse, SlideOptions, TileMap};

/// [`check_move_and_slide`] and the batch call on the input decoded from `data`.
///
/// # Panics
/// When a property is violated.
pub fn move_and_slide(data: &[u8]) {
    let Some((map, body, motion)) = input_from_bytes(data) else {
        return;
    };
    if let Err(e) = check_move_and_slide(&map, body, motion) {
        panic!(
            "move_and_slide check failed: {e}\nmap: {map:?}\ncells: {:?}",
            map.cells()
        );
    }
    let options = SlideOptions::default();
    let one = map.move_and_slide_with(body, motion, &options);
    let mut all = Vec::new();
    let batch = map.move_and_slide_all(&[body], &[motion], &options, &mut all);
    match (one, batch) {
        (Ok(r), Ok(())) if all == [r] => {}
        (Err(e), Err(b)) if e == b && all.is_empty() => {}
        (one, batch) => panic!(
            "move_and_slide_all disagrees: {batch:?} {all:?}, one at a time {one:?} \
             (body {body:?}, motion {motion:?}, map {map:?}, cells {:?})",
            map.cells()
        ),
    }
}

/// [`check_cast`] and [`TileMap::move_bullets`] on the input decoded from `data`.
///
/// # Panics
/// When a property is violated.
pub fn cast(data: &[u8]) {
    let Some((map, body, motion)) = input_from_bytes(data) else {
        return;
    };
    if let Err(e) = check_cast(&map, body, motion) {
        panic!(
            "cast check failed: {e}\nmap: {map:?}\ncells: {:?}",
            map.cells()
        );
    }
    check_bullets(&map, body, motion);
}

fn check_bullets(map: &TileMap, body: crate::Aabb, motion: glam::Vec2) {
    let one = map.cast(body, motion);
    for response in [BulletResponse::Stop, BulletResponse::Destroy] {
        let mut bullets = [body];
        let mut hits = vec![];
        let got = map.move_bullets(&mut bullets, &[motion], response, &mut hits);
        let ok = match (&one, &got) {
            (Err(e), Err(g)) => e == g && same_bits(&bullets[0], &body),
            (Ok(r), Ok(())) => match r.hit {
                None => hits.is_empty() && open_space_move(&bullets[0], &r.aabb, &body, motion),
                Some(hit) => {
                    let kept = if response == BulletResponse::Stop {
                        r.aabb
                    } else {
                        body
                    };
                    hits.len() == 1
                        && hits[0].index == 0
                        && hits[0].hit == hit
                        && hits[0].aabb == r.aabb
                        && hits[0].toi.to_bits() == r.toi.to_bits()
                        && bullets == [kept]
                }
            },
            _ => false,
        };
        assert!(
            ok,
            "move_bullets ({response:?}) gave {got:?} {hits:?} {bullets:?}, cast gave {one:?} \
             (body {body:?}, motion {motion:?}, map {map:?}, cells {:?})",
            map.cells()
        );
    }
}

/// What [`TileMap::move_bullets`] documents for a bullet in open space: `cast`'s box (the
/// exact sweep), or the plain translation (the one-lookup path), bit for bit.
fn open_space_move(
    got: &crate::Aabb,
    cast: &crate::Aabb,
    body: &crate::Aabb,
    m: glam::Vec2,
) -> bool {
    same_bits(got, cast) || same_bits(got, &body.translated(m))
}
