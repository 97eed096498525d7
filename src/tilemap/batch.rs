//! Many bodies at once, in parallel with rayon.
//!
//! Results come back in input order. They are the same for every thread count.

use super::map::TileMap;
use super::slide::{SlideOptions, SlideResult, TileHit, check_input, leaves_f32};
use crate::error::{Error, check_len};
use crate::lanes::{F32W, LANES, SimdLevel, SimdTask, dispatch};
use crate::math::Aabb;
use crate::pool;
use glam::Vec2;

/// Bodies per rayon task: small enough to balance, large enough to amortise.
const CHUNK: usize = 2048;

/// Bodies per rayon task of the input check. The check is one quick pass, so its tasks
/// are larger.
const CHECK_CHUNK: usize = 1 << 15;

/// What happens to a bullet that touches a solid tile in [`TileMap::move_bullets`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BulletResponse {
    /// The bullet stops flush against the tile.
    ///
    /// Its box is updated to the contact box. Use this for an arrow that sticks in a wall
    /// or a grenade that rests on the floor. If the bullet is pushed into the tile again
    /// on the next frame, it is reported again with `toi == 0`.
    #[default]
    Stop,
    /// The bullet is destroyed.
    ///
    /// Its box is left as it was. You remove the bullet yourself, using the reported
    /// index. The report holds the contact box, so you can place an impact effect there.
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
    /// The tile, its edge, and where the bullet stopped.
    pub hit: TileHit,
    /// The fraction of the motion travelled before the contact.
    pub toi: f32,
}

impl TileMap {
    /// Runs [`TileMap::move_and_slide_with`] for every `bodies[i]` with `motions[i]`, in
    /// parallel.
    ///
    /// `out` is overwritten with one result per body, in input order.
    ///
    /// # Errors
    /// On error, `out` is left as it was.
    /// - [`Error::LengthMismatch`] when the lengths differ.
    /// - [`Error::InvalidBox`] when a body is NaN, infinite or inverted.
    /// - [`Error::InvalidMotion`] when a motion is NaN or infinite.
    /// - [`Error::OutOfRange`] when a motion would carry a face beyond `±f32::MAX`.
    ///
    /// The last three name the lowest bad index.
    pub fn move_and_slide_all(
        &self,
        bodies: &[Aabb],
        motions: &[Vec2],
        options: &SlideOptions,
        out: &mut Vec<SlideResult>,
    ) -> Result<(), Error> {
        check_all(bodies, motions)?;
        // Blocks of bodies on the pool, each into a list of its own, then in order.
        let block = CHUNK / 4;
        let slide = |k: usize| -> Vec<SlideResult> {
            let r = pool::chunk(k, block, bodies.len());
            (bodies[r.clone()].iter().zip(&motions[r]))
                .map(|(&b, &m)| self.slide_unchecked(b, m, options))
                .collect()
        };
        let mut blocks = Vec::new();
        pool::map_indices(bodies.len().div_ceil(block), &slide, &mut blocks);
        out.clear();
        out.extend(blocks.into_iter().flatten());
        Ok(())
    }

    /// Moves every bullet in a straight line along its motion, in parallel.
    ///
    /// Each bullet moves as in [`TileMap::cast`]. `response` says what happens when a
    /// bullet touches a solid tile. `hits` is cleared first. Then it lists every bullet
    /// that touched a solid tile in this call, in ascending index order.
    ///
    /// Bullets in open space are cheap. The cost depends on the bullet's swept box:
    /// - Inside the map's open interior, a bullet needs no lookup. The open interior is
    ///   one large rectangle of empty tiles, kept with the map. It stays a quarter of a
    ///   tile in from its edges, and in an arena it covers the whole inside. The test
    ///   takes four comparisons, eight bullets at a time.
    /// - Otherwise, a swept box no larger than a tile needs one lookup. The map keeps a
    ///   flag per cell that says whether the cell and its neighbours are all empty. The
    ///   test reads the flag at the box's centre.
    /// - Otherwise, the bullet tests the cells its swept box covers.
    ///
    /// When one of the first two tests decides, the bullet moves to
    /// `bullet.translated(motion)`. Each face is then the plain `f32` sum, rounded to
    /// nearest. So a face may land half an ulp past the motion. A motion far below the
    /// ulp of one face leaves that face in place while the other face moves. So the size
    /// is not kept exactly.
    ///
    /// The first two tests may not decide. This happens near walls, or for a swept box
    /// larger than a tile outside the interior. Then the bullet gets the exact answer of
    /// [`TileMap::cast`]. That answer never passes the motion and keeps the size.
    ///
    /// Contacts always match [`TileMap::cast`] exactly. Either way, no bullet passes
    /// through a solid tile.
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
    /// On error, nothing changes.
    /// - [`Error::LengthMismatch`] when the lengths differ.
    /// - [`Error::TooManyBoxes`] when there are more than [`MAX_BOXES`](crate::MAX_BOXES)
    ///   bullets.
    /// - [`Error::InvalidBox`] when a bullet is NaN, infinite or inverted.
    /// - [`Error::InvalidMotion`] when a motion is NaN or infinite.
    /// - [`Error::OutOfRange`] when a motion would carry a face beyond `±f32::MAX`.
    ///
    /// The last three name the lowest bad index.
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
        let mut chunks: Vec<&mut [Aabb]> = bullets.chunks_mut(CHUNK).collect();
        let mut parts: Vec<Vec<BulletHit>> = Vec::new();
        let work = |c: usize, bs: &mut &mut [Aabb]| {
            let mut local = Vec::new();
            let ms = &motions[pool::chunk(c, CHUNK, motions.len())];
            step(c, bs, ms, &mut local);
            local
        };
        pool::map_parts(&mut chunks, &work, &mut parts);
        for p in parts {
            hits.extend(p);
        }
        Ok(())
    }
}

/// Runs the open-space tests of [`TileMap::move_bullets`] on eight bullets at a time.
///
/// The tests are the interior test, then the one-lookup test. They do the same
/// operations as the scalar test, in lanes. Bullets that pass are moved. The others are
/// listed in `rest`, in order, for the scalar path. Returns how many are listed.
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
    /// This loop is software-pipelined. A group's lanes are stored one step before its
    /// bullets are moved. So the per-bullet reads find them in cache. They do not wait on
    /// store forwarding from the vector stores just made. The scatter of the broad phase
    /// has the same shape of loop and gained from the same change.
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
            let [mx, my] =
                W::load_transposed2(crate::math::vec2_records(&ms_all[r]).as_flattened());
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
        let mut oks = Vec::new();
        let block = |k: usize| pool::chunk(k, CHECK_CHUNK, bodies.len());
        pool::map_indices(
            bodies.len().div_ceil(CHECK_CHUNK),
            &|k| all(&bodies[block(k)], &motions[block(k)]),
            &mut oks,
        );
        oks.iter().all(|&ok| ok)
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
