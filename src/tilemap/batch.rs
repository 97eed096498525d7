//! Many bodies at once, in parallel with rayon; results in input order, the same for
//! every thread count.

use super::map::TileMap;
use super::slide::{SlideOptions, SlideResult, TileHit, check_input, leaves_f32};
use crate::error::{Error, check_len};
use crate::lanes::{F32W, LANES, SimdLevel, SimdTask, dispatch};
use crate::math::Aabb;
use glam::Vec2;
use rayon::prelude::*;

/// Bodies per rayon task: small enough to balance, large enough to amortise.
const CHUNK: usize = 2048;

/// Bodies per rayon task of the input check (one quick pass: larger tasks).
const CHECK_CHUNK: usize = 1 << 15;

/// What happens to a bullet that touches a solid tile in [`TileMap::move_bullets`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// [`Error::LengthMismatch`] when the lengths differ; [`Error::InvalidBox`],
    /// [`Error::InvalidMotion`] or [`Error::OutOfRange`] (a face moved beyond
    /// `±f32::MAX`) naming the lowest bad index. On error `out` is left as it
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
    /// ascending index order. A bullet in open space costs no lookup when its swept box
    /// lies inside the map's open interior (one large rectangle of empty tiles kept with
    /// the map, a quarter of a tile in from its edges: an arena's whole inside; four
    /// comparisons, eight bullets at a time), one lookup when its swept box is no larger
    /// than a tile (a precomputed "this cell and its neighbours are empty" flag at the
    /// box's centre), else a test of the cells it covers.
    ///
    /// A bullet in open space moves to `bullet.translated(motion)` when one of the first
    /// two tests decides it: each face is the plain `f32` sum, rounded to nearest (so it
    /// may land half an ulp past the motion, and a motion far below a face's ulp moves
    /// that face not at all while it moves the other: the size is not kept exactly).
    /// When they are not conclusive (near walls, or a swept box larger than a tile
    /// outside the interior) the bullet gets [`TileMap::cast`]'s exact answer, which
    /// never passes the motion and keeps the size. Contacts are always
    /// [`TileMap::cast`]'s, exactly; no bullet passes through a solid tile either way.
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
    /// [`Error::LengthMismatch`], [`Error::InvalidBox`], [`Error::InvalidMotion`],
    /// [`Error::OutOfRange`] (a face moved beyond `±f32::MAX`; the lowest bad index) and
    /// [`Error::TooManyBoxes`] (more than [`crate::MAX_BOXES`]); on error nothing is
    /// changed.
    pub fn move_bullets(
        &self,
        bullets: &mut [Aabb],
        motions: &[Vec2],
        response: BulletResponse,
        hits: &mut Vec<BulletHit>,
    ) -> Result<(), Error> {
        crate::error::check_count(bullets.len())?;
        check_all(bullets, motions)?;
        hits.clear();
        let tile = self.tile_size();
        let level = SimdLevel::best();
        let step = |c: usize, bs: &mut [Aabb], ms: &[Vec2], local: &mut Vec<BulletHit>| {
            // Bullets in open space move in lanes of eight; the rest (a list on the
            // stack: a chunk is at most CHUNK bullets) take the scalar path below.
            let mut rest = [0u16; CHUNK];
            let n_rest = match self.fast_index {
                Some(fast) if level != SimdLevel::Scalar => {
                    let task = OpenLanes {
                        map: self,
                        fast,
                        bs: &mut *bs,
                        ms,
                        rest: &mut rest,
                    };
                    dispatch(level, task)
                }
                _ => {
                    for (i, r) in rest.iter_mut().enumerate().take(bs.len()) {
                        *r = i as u16;
                    }
                    bs.len()
                }
            };
            for &i in &rest[..n_rest] {
                let i = usize::from(i);
                let (b, m) = (&mut bs[i], ms[i]);
                // Open space: a swept box inside the open interior, or one no larger
                // than a tile centred in a cell whose neighbourhood is empty (one
                // lookup): the lanes' tests, so that the answer does not depend on the
                // index. (Plain comparisons: the inputs are validated, and this loop is
                // the bullet-hell hot path.)
                let (mx, my) = (m.x, m.y);
                let x0 = b.min.x + if mx < 0.0 { mx } else { 0.0 };
                let y0 = b.min.y + if my < 0.0 { my } else { 0.0 };
                let x1 = b.max.x + if mx > 0.0 { mx } else { 0.0 };
                let y1 = b.max.y + if my > 0.0 { my } else { 0.0 };
                let small = x1 - x0 <= tile.x && y1 - y0 <= tile.y;
                let inside = self.interior.contains([x0, y0, x1, y1]);
                if inside || (small && self.small_box_clear(x0, y0, x1, y1)) {
                    *b = Aabb::from_coords(b.min.x + mx, b.min.y + my, b.max.x + mx, b.max.y + my);
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

/// The open-space tests of [`TileMap::move_bullets`] (the interior, then one lookup) on
/// eight bullets at a time: the same operations as the scalar test, in lanes. Bullets
/// that pass move; the others are listed in `rest` (in order) for the scalar path.
/// Returns their number.
struct OpenLanes<'a> {
    map: &'a TileMap,
    fast: [f32; 6],
    bs: &'a mut [Aabb],
    ms: &'a [Vec2],
    rest: &'a mut [u16; CHUNK],
}

/// One group's lanes, as the per-bullet loop reads them.
#[derive(Clone, Copy, Default)]
struct OpenGroup {
    bits: u32,
    /// Lanes inside the map's open interior: clear without a lookup.
    inside: u32,
    cx: [i32; LANES],
    cy: [i32; LANES],
    mx: [f32; LANES],
    my: [f32; LANES],
}

impl SimdTask for OpenLanes<'_> {
    type Output = usize;
    /// Software-pipelined: a group's lanes are stored one step before its bullets are
    /// moved, so that the per-bullet reads find them in cache instead of waiting on
    /// forwards from the vector stores just made (the broad phase's scatter, the same
    /// shape of loop, went 18% faster so).
    #[inline(always)]
    fn run<W: F32W>(self) -> usize {
        let width = self.map.width() as usize;
        let mut n_rest = 0;
        let full = self.bs.len() / LANES * LANES;
        let mut bufs = [OpenGroup::default(); 2];
        let rest = &mut *self.rest;
        // Moves the open bullets of group `g` (from its buffer) and lists the others. (A
        // function, not a closure: see ARCHITECTURE's SIMD policy.)
        #[inline(always)]
        fn finish(
            map: &TileMap,
            width: usize,
            (g, bs, o): (usize, &mut [Aabb], &OpenGroup),
            rest: &mut [u16; CHUNK],
            n_rest: &mut usize,
        ) {
            for (k, b) in bs.iter_mut().enumerate() {
                let clear = o.inside & (1 << k) != 0
                    || (o.bits & (1 << k) != 0
                        && map.is_clear(o.cy[k] as u32 as usize * width + o.cx[k] as u32 as usize));
                if clear {
                    *b = Aabb::from_coords(
                        b.min.x + o.mx[k],
                        b.min.y + o.my[k],
                        b.max.x + o.mx[k],
                        b.max.y + o.my[k],
                    );
                } else {
                    rest[*n_rest] = (g * LANES + k) as u16;
                    *n_rest += 1;
                }
            }
        }
        let (bs_all, ms_all) = (&mut self.bs[..full], &self.ms[..full]);
        for g in 0..full / LANES {
            let r = g * LANES..(g + 1) * LANES;
            let [x0, y0, x1, y1] = W::load_transposed4(bytemuck::cast_slice(&bs_all[r.clone()]));
            let [mx, my] = W::load_transposed2(bytemuck::cast_slice(&ms_all[r]));
            let o = &mut bufs[g & 1];
            (o.bits, o.cx, o.cy, o.inside) =
                self.map
                    .open_lanes::<W>(self.fast, [x0, y0, x1, y1], [mx, my]);
            mx.store(&mut o.mx);
            my.store(&mut o.my);
            if g > 0 {
                let p = g - 1;
                let group = (p, &mut bs_all[p * LANES..g * LANES], &bufs[p & 1]);
                finish(self.map, width, group, rest, &mut n_rest);
            }
        }
        if let Some(p) = (full / LANES).checked_sub(1) {
            let group = (p, &mut bs_all[p * LANES..full], &bufs[p & 1]);
            finish(self.map, width, group, rest, &mut n_rest);
        }
        for i in full..self.bs.len() {
            rest[n_rest] = i as u16;
            n_rest += 1;
        }
        n_rest
    }
}

/// Checks lengths, then every body and motion; the error names the lowest bad index.
fn check_all(bodies: &[Aabb], motions: &[Vec2]) -> Result<(), Error> {
    check_len("motions", bodies.len(), motions.len())?;
    // One tight, branch-free pass (vectorised): ordered, finite boxes (an infinite or
    // NaN coordinate makes an extent non-finite) and finite motions; anything else takes
    // the exact check from the first suspect on.
    let plain = |b: &Aabb, m: &Vec2| {
        let (w, h) = (b.max.x - b.min.x, b.max.y - b.min.y);
        (b.min.x <= b.max.x)
            & (b.min.y <= b.max.y)
            & (w <= f32::MAX)
            & (h <= f32::MAX)
            & (m.x.abs() <= f32::MAX)
            & (m.y.abs() <= f32::MAX)
            & !leaves_f32(*b, *m)
    };
    let all =
        |bs: &[Aabb], ms: &[Vec2]| bs.iter().zip(ms).fold(true, |ok, (b, m)| ok & plain(b, m));
    let all_plain = if bodies.len() > CHECK_CHUNK && rayon::current_num_threads() > 1 {
        // In parallel: at a million bullets this pass was a fifth of a two-thread frame.
        bodies
            .par_chunks(CHECK_CHUNK)
            .zip(motions.par_chunks(CHECK_CHUNK))
            .all(|(bs, ms)| all(bs, ms))
    } else {
        all(bodies, motions)
    };
    let suspect = if all_plain {
        None
    } else {
        bodies.iter().zip(motions).position(|(b, m)| !plain(b, m))
    };
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
