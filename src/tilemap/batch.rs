//! Many bodies at once, in parallel with rayon; results in input order, the same for
//! every thread count.

use super::map::TileMap;
use super::slide::{SlideOptions, SlideResult, TileHit, check_input};
use crate::Aabb;
use crate::error::{Error, check_len};
use glam::Vec2;
use rayon::prelude::*;

/// Bodies per rayon task: small enough to balance, large enough to amortise.
const CHUNK: usize = 2048;

/// What happens to a bullet that touches a solid tile in [`TileMap::move_bullets`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BulletResponse {
    /// The bullet stops flush against the tile: its box is updated to the contact box
    /// (an arrow sticking in a wall, a grenade resting on it). Pushed on the next frame,
    /// it is reported again with `toi == 0`.
    #[default]
    Stop,
    /// The bullet is destroyed: its box is left as it was, for the caller to remove it
    /// by the reported index; the contact box is in the report (for the impact effect).
    Destroy,
}

/// A bullet that touched a solid tile in [`TileMap::move_bullets`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BulletHit {
    /// The bullet's index in the input.
    pub index: u32,
    /// The bullet's box at the contact.
    pub aabb: Aabb,
    /// The tile, its edge and where the bullet stopped.
    pub hit: TileHit,
    /// The fraction of the motion travelled before the contact.
    pub toi: f32,
}

impl TileMap {
    /// [`TileMap::move_and_slide_with`] for every `bodies[i]` with `motions[i]`, in
    /// parallel; `out` is overwritten with one result per body, in input order.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] when the lengths differ; [`Error::InvalidBox`] or
    /// [`Error::InvalidMotion`] naming the lowest bad index. On error `out` is left as it
    /// was.
    pub fn move_and_slide_all(
        &self,
        bodies: &[Aabb],
        motions: &[Vec2],
        options: &SlideOptions,
        out: &mut Vec<SlideResult>,
    ) -> Result<(), Error> {
        check_all(bodies, motions)?;
        bodies
            .par_iter()
            .zip(motions.par_iter())
            .with_min_len(CHUNK / 4)
            .map(|(&b, &m)| self.slide_unchecked(b, m, options))
            .collect_into_vec(out);
        Ok(())
    }

    /// Moves every bullet in a straight line ([`TileMap::cast`]) along its motion, in
    /// parallel, handling contacts by `response`.
    ///
    /// `hits` is cleared, then lists every bullet that touched a solid tile this call, in
    /// ascending index order. A bullet in open space costs one lookup when its swept box
    /// is no larger than a tile (a precomputed "this cell and its neighbours are empty"
    /// flag at the box's centre), else a test of the cells it covers.
    ///
    /// A bullet in open space moves to `bullet.translated(motion)` (an `f32` sum rounded
    /// to nearest) when the one-lookup test decides it, and to [`TileMap::cast`]'s answer
    /// otherwise (which rounds toward the start, never past the motion): the two differ
    /// by at most one ulp per face. Contacts are always [`TileMap::cast`]'s, exactly.
    ///
    /// ```
    /// use hantei::{Aabb, tilemap::{BulletResponse, TileMap}};
    /// use glam::Vec2;
    /// let map = TileMap::from_ascii("...#", Vec2::splat(10.0), Vec2::ZERO)?;
    /// let mut bullets = [Aabb::from_coords(0.0, 4.0, 2.0, 6.0); 2];
    /// let motions = [Vec2::new(5.0, 0.0), Vec2::new(50.0, 0.0)];
    /// let mut hits = Vec::new();
    /// map.move_bullets(&mut bullets, &motions, BulletResponse::Stop, &mut hits)?;
    /// assert_eq!(bullets[0].max.x, 7.0); // free flight
    /// assert_eq!(bullets[1].max.x, 30.0); // flush against the wall
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!(hits[0].index, 1);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`], [`Error::InvalidBox`], [`Error::InvalidMotion`] (the
    /// lowest bad index) and [`Error::TooManyBoxes`] (more than [`crate::MAX_BOXES`]);
    /// on error nothing is changed.
    pub fn move_bullets(
        &self,
        bullets: &mut [Aabb],
        motions: &[Vec2],
        response: BulletResponse,
        hits: &mut Vec<BulletHit>,
    ) -> Result<(), Error> {
        if bullets.len() > crate::MAX_BOXES {
            return Err(Error::TooManyBoxes {
                requested: bullets.len(),
            });
        }
        check_all(bullets, motions)?;
        hits.clear();
        let tile = self.tile_size();
        let step = |c: usize, bs: &mut [Aabb], ms: &[Vec2], local: &mut Vec<BulletHit>| {
            for (i, (b, &m)) in bs.iter_mut().zip(ms).enumerate() {
                // Open space in one lookup: a swept box no larger than a tile, centred
                // in a cell whose neighbourhood is empty.
                let sw = b.swept(m);
                if sw.max.x - sw.min.x <= tile.x
                    && sw.max.y - sw.min.y <= tile.y
                    && self.clear_around([
                        (f64::from(sw.min.x) + f64::from(sw.max.x)) * 0.5,
                        (f64::from(sw.min.y) + f64::from(sw.max.y)) * 0.5,
                    ])
                {
                    *b = b.translated(m);
                    continue;
                }
                let r = self.cast_unchecked(*b, m, true);
                match r.hit {
                    None => *b = r.aabb,
                    Some(hit) => {
                        local.push(BulletHit {
                            index: (c * CHUNK + i) as u32,
                            aabb: r.aabb,
                            hit,
                            toi: r.toi,
                        });
                        if response == BulletResponse::Stop {
                            *b = r.aabb;
                        }
                    }
                }
            }
        };
        if rayon::current_num_threads() == 1 || bullets.len() <= CHUNK {
            // One thread: straight into `hits`, no allocation beyond its growth.
            for (c, (bs, ms)) in bullets
                .chunks_mut(CHUNK)
                .zip(motions.chunks(CHUNK))
                .enumerate()
            {
                step(c, bs, ms, hits);
            }
            return Ok(());
        }
        let parts: Vec<Vec<BulletHit>> = bullets
            .par_chunks_mut(CHUNK)
            .zip(motions.par_chunks(CHUNK))
            .enumerate()
            .map(|(c, (bs, ms))| {
                let mut local = Vec::new();
                step(c, bs, ms, &mut local);
                local
            })
            .collect();
        for p in parts {
            hits.extend(p);
        }
        Ok(())
    }
}

/// Checks lengths, then every body and motion; the error names the lowest bad index.
fn check_all(bodies: &[Aabb], motions: &[Vec2]) -> Result<(), Error> {
    check_len("motions", bodies.len(), motions.len())?;
    // One tight pass: ordered, finite boxes (an infinite or NaN coordinate makes an
    // extent non-finite) and finite motions; anything else takes the exact check.
    let suspect = bodies.iter().zip(motions).position(|(b, m)| {
        let (w, h) = (b.max.x - b.min.x, b.max.y - b.min.y);
        !(b.min.x <= b.max.x
            && b.min.y <= b.max.y
            && w <= f32::MAX
            && h <= f32::MAX
            && m.x.abs() <= f32::MAX
            && m.y.abs() <= f32::MAX)
    });
    match suspect {
        Some(start) => {
            for i in start..bodies.len() {
                check_input(bodies[i], motions[i], i)?;
            }
            Ok(())
        }
        None => Ok(()),
    }
}
