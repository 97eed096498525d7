//! Slice in, slice out: a narrow-phase kernel over every candidate pair of the broad
//! phase, keeping only the hits.
//!
//! ```text
//!  pairs  [ p0 p1 p2 … p4095 | p4096 … p8191 | … ]        fixed chunks of CHUNK pairs
//!            │ rayon: one task per chunk (one thread below the threshold: then each
//!            │ chunk appends straight behind the previous one and there is no merge)
//!            ▼ per chunk (per block of 512 pairs in a streaming overlap batch):
//!              check indices, then 8 pairs per step:
//!              gather 8 a-shapes and 8 b-shapes (from columns or records),
//!              run the wide kernel → a mask, append the lanes whose bit is set at
//!              the chunk's cursor (the plain overlap tests, whose hits are the
//!              pairs: every group's mask first, then a packing pass)
//!  scratch [ h h h · · · · · | h · · · · · · | … ]         each chunk writes its own region
//!            ▼ ordered merge: slide each chunk's hits down, in chunk order
//!  result  [ h h h h … ]                                    the hits, in pair order
//! ```
//!
//! # Determinism
//! The result lists the hits in the order of the input pairs, whatever the thread count
//! and the [`SimdLevel`]: the chunks are fixed-size (they do not depend on the thread
//! count), each writes only its own region, and the merge runs in chunk order. The SIMD
//! kernels are bit-identical to the scalar ones, so every level gives the same bytes.
//!
//! # Errors
//! On error, the results are not updated. Every [`SimdLevel`] and thread count gives the
//! same error.
//! - [`Error::TooManyBoxes`] when an input has more than [`MAX_BOXES`](crate::MAX_BOXES)
//!   shapes. This is checked before any pair is read.
//! - [`Error::LengthMismatch`] when the columns of a view differ in length, or when the
//!   boxes and motions of a sweep differ in length.
//! - [`Error::PairOutOfRange`] when a pair index is out of range of its columns. The
//!   error names the first bad pair in pair order.
//!
//! # Where things are
//! | file | what |
//! |---|---|
//! | `mod.rs` | [`NarrowPhase`] and its entry points, [`NarrowConfig`], the hit records |
//! | `chunk.rs` | the chunk machinery: `PairKernel`, `HitLanes`, `run_batch` (parallel chunks, ordered merge), `run_chunk` (streaming blocks), `ChunkTask` (eight pairs per step, packing) |
//! | `side.rs` | `Side` / `SideWith`: one side of a run of pairs, indices checked once, shapes gathered eight at a time |
//! | `shapes.rs` | `PairTest` (a scalar reference and its lane kernel on one pair of shapes) and `Shapes`, which runs it over two inputs |
//! | `sweep.rs` | what the swept tests share: `PairSweep` records packed in lanes |
//! | `swept.rs` | `SweepTest` (a swept test's scalar reference and lane kernel on two moving shapes) and `Swept`, which runs it over two inputs and their motions; the swept tests, one `sweep_test!` line each |
//! | `overlap.rs`, `cast_point_aabb.rs`, `obb2_obb2.rs`, `obb3_obb3.rs` | the other kernels' batch glue, named as their scalar and wide twins in `narrow::scalar` and `narrow::wide` |
//!
//! A new kernel is a scalar reference (`narrow/scalar/<name>.rs`), its lane twin
//! (`narrow/wide/<name>.rs`), a `PairTest` impl here (`<name>.rs`, or one `sweep_test!`
//! line in `swept.rs` for a swept test) and an entry point on [`NarrowPhase`].

use super::columns::{
    AabbInput, CapsuleInput, CircleInput, MotionInput, Obb2Input, Obb3Input, RayInput,
};
use super::{Mtv2, Mtv3, Sweep};
use crate::error::{Error, check_len};
use crate::lanes::SimdLevel;
use crate::pair::Pair;

mod cast_point_aabb;
mod chunk;
mod obb2_obb2;
mod obb3_obb3;
mod overlap;
mod shapes;
mod side;
mod sweep;
mod swept;

use cast_point_aabb::CastPointAabb;
use chunk::run_batch;
use obb2_obb2::Obb2Obb2;
use obb3_obb3::Obb3Obb3;
use overlap::{AabbAabb, AabbCircle, CircleCircle};
use shapes::Shapes;
use swept::{
    SweepAabbAabb, SweepAabbCircle, SweepAabbObb2, SweepCapsuleAabb, SweepCapsuleCapsule,
    SweepCapsuleCircle, SweepCapsuleObb2, SweepCircleCircle, SweepCircleObb2, SweepObb2Obb2, Swept,
};

/// Pairs per chunk: the unit of parallel work and of index checking.
pub const CHUNK: usize = 4096;

/// Settings of a [`NarrowPhase`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NarrowConfig {
    /// Which kernels run (default: the best this CPU supports).
    pub simd: SimdLevel,
    /// Whether to use rayon's current thread pool (default `true`). The result is the
    /// same either way.
    pub parallel: bool,
    /// Inputs with fewer pairs than this run on one thread (default `4 * CHUNK`).
    pub parallel_threshold: usize,
}

impl Default for NarrowConfig {
    fn default() -> Self {
        Self {
            simd: SimdLevel::best(),
            parallel: true,
            parallel_threshold: 4 * CHUNK,
        }
    }
}

/// A pair and its swept-test answer (a hit or an overlap; misses are left out).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct PairSweep {
    /// The pair, as given.
    pub pair: Pair,
    /// The answer.
    pub sweep: Sweep,
}

/// A pair of overlapping 2D oriented boxes and their minimum translation vector.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairMtv2 {
    /// The pair, as given.
    pub pair: Pair,
    /// The minimum translation vector.
    pub mtv: Mtv2,
}

/// A pair of overlapping 3D oriented boxes and their minimum translation vector.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairMtv3 {
    /// The pair, as given.
    pub pair: Pair,
    /// The minimum translation vector.
    pub mtv: Mtv3,
}

/// Runs the narrow-phase kernels over candidate pairs.
///
/// It keeps its result buffers between calls. So once they have grown, a call per frame
/// allocates nothing.
///
/// Each method takes shapes and pairs of indices into them, as
/// [`BroadPhase`](crate::BroadPhase) returns. The shapes come in one of two forms:
/// - Structure-of-arrays [`columns`](super::columns), such as `AabbColumns`. For example,
///   you can take them from a [`BoxStore`](crate::BoxStore).
/// - A plain slice of the shapes, such as `&[Aabb]`. See [`AabbInput`] and its siblings.
///
/// Each method gives back the pairs that hit, in pair order. The result is identical at
/// every [`SimdLevel`], thread count and input form. The [module docs](self) explain why.
/// Slices are the faster input when the shapes are already an array of structs. With
/// AVX2, a box is then gathered by one load instead of four.
///
/// ```
/// use hantei::{Aabb, BroadPhase, Pair};
/// use hantei::narrow::{NarrowPhase, columns::{AabbSoa, MotionSoa}};
/// use glam::Vec2;
/// let boxes = [
///     Aabb::from_coords(0.0, 0.0, 1.0, 1.0),   // a bullet moving right, fast
///     Aabb::from_coords(5.0, -1.0, 5.5, 2.0),  // a thin wall in its way
///     Aabb::from_coords(0.0, 5.0, 1.0, 6.0),   // a bullet moving left, away
/// ];
/// let motions = [Vec2::new(10.0, 0.0), Vec2::ZERO, Vec2::new(-10.0, 0.0)];
/// // Candidates: the broad phase on the swept boxes.
/// let swept: Vec<Aabb> = boxes.iter().zip(&motions).map(|(b, m)| b.swept(*m)).collect();
/// let pairs = BroadPhase::new().find_pairs(&swept[..])?.to_vec();
/// let mut narrow = NarrowPhase::new();
/// // The shapes as they are, one record each...
/// let hits = narrow.sweep_aabb_aabb(&boxes[..], &motions[..], &pairs)?;
/// assert_eq!(hits.len(), 1);
/// assert_eq!(hits[0].pair, Pair::new(0, 1));
/// assert_eq!(hits[0].sweep.t, 0.4); // (5 - 1) / 10
/// let by_records = hits.to_vec();
/// // ...or as columns (as a `BoxStore` keeps them): the same answers.
/// let (boxes, motions) = (AabbSoa::from(&boxes[..]), MotionSoa::from(&motions[..]));
/// let hits = narrow.sweep_aabb_aabb(boxes.columns(), motions.columns(), &pairs)?;
/// assert_eq!(hits, &by_records[..]);
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct NarrowPhase {
    config: NarrowConfig,
    pairs: Vec<Pair>,
    sweeps: Vec<PairSweep>,
    mtv2: Vec<PairMtv2>,
    mtv3: Vec<PairMtv3>,
}

impl NarrowPhase {
    /// Turns parallel work on or off (the frame decides per step).
    pub(crate) fn set_parallel(&mut self, on: bool) {
        self.config.parallel = on;
    }

    /// Whether parallel work is on.
    pub(crate) fn parallel(&self) -> bool {
        self.config.parallel
    }

    /// A narrow phase with the default [`NarrowConfig`].
    #[must_use]
    pub fn new() -> Self {
        Self::with_config(NarrowConfig::default())
    }

    /// A narrow phase with the given settings (an unsupported SIMD level falls back to
    /// the best supported one below it).
    #[must_use]
    pub fn with_config(config: NarrowConfig) -> Self {
        Self {
            config: NarrowConfig {
                simd: config.simd.supported(),
                ..config
            },
            ..Self::default()
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &NarrowConfig {
        &self.config
    }

    /// The pairs of boxes that overlap (closed), in pair order
    /// ([`scalar::overlap_aabb_aabb`](super::scalar::overlap_aabb_aabb)).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range; [`Error::TooManyBoxes`] for an input of more than
    /// [`crate::MAX_BOXES`] shapes.
    pub fn overlap_aabb_aabb(
        &mut self,
        boxes: impl AabbInput,
        pairs: &[Pair],
    ) -> Result<&[Pair], Error> {
        boxes.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<AabbAabb, _, _, 4, 4>::new(boxes, boxes),
            pairs,
            &mut self.pairs,
        )?;
        Ok(&self.pairs[..n])
    }

    /// The pairs of circles that overlap (closed), in pair order
    /// ([`scalar::overlap_circle_circle`](super::scalar::overlap_circle_circle)).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range; [`Error::TooManyBoxes`] for an input of more than
    /// [`crate::MAX_BOXES`] shapes.
    pub fn overlap_circle_circle(
        &mut self,
        circles: impl CircleInput,
        pairs: &[Pair],
    ) -> Result<&[Pair], Error> {
        circles.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<CircleCircle, _, _, 3, 3>::new(circles, circles),
            pairs,
            &mut self.pairs,
        )?;
        Ok(&self.pairs[..n])
    }

    /// The pairs `(box a, circle b)` that overlap (closed), in pair order
    /// ([`scalar::overlap_aabb_circle`](super::scalar::overlap_aabb_circle)): `Pair::a` indexes `boxes`, `Pair::b` indexes
    /// `circles`.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range; [`Error::TooManyBoxes`] for an input of more than
    /// [`crate::MAX_BOXES`] shapes.
    pub fn overlap_aabb_circle(
        &mut self,
        boxes: impl AabbInput,
        circles: impl CircleInput,
        pairs: &[Pair],
    ) -> Result<&[Pair], Error> {
        boxes.checked_len()?;
        circles.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<AabbCircle, _, _, 4, 3>::new(boxes, circles),
            pairs,
            &mut self.pairs,
        )?;
        Ok(&self.pairs[..n])
    }

    /// Sweeps every pair of moving boxes over one frame and keeps the hits and the
    /// overlaps (misses are left out), in pair order
    /// ([`scalar::sweep_aabb_aabb`](fn@super::scalar::sweep_aabb_aabb); in
    /// each answer `a` is `Pair::a`).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match the boxes; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for more than [`crate::MAX_BOXES`] boxes.
    pub fn sweep_aabb_aabb(
        &mut self,
        boxes: impl AabbInput,
        motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = boxes.checked_len()?;
        check_len("motions (one per box)", n, motions.checked_len()?)?;
        let n = run_batch(
            &self.config,
            &Swept::<SweepAabbAabb, _, _, _, _, 4, 4>::new(boxes, motions, boxes, motions),
            pairs,
            &mut self.sweeps,
        )?;
        Ok(&self.sweeps[..n])
    }

    /// Sweeps every pair of moving discs over one frame and keeps the hits and the
    /// overlaps (misses are left out), in pair order
    /// ([`scalar::sweep_circle_circle`](fn@super::scalar::sweep_circle_circle): the exact
    /// first root, so no speed tunnels; in each answer `a` is `Pair::a`).
    ///
    /// ```
    /// use hantei::{Circle, Pair};
    /// use hantei::narrow::NarrowPhase;
    /// use glam::Vec2;
    /// let discs = [
    ///     Circle::new(Vec2::ZERO, 1.0),             // a round bullet
    ///     Circle::new(Vec2::new(50.0, 0.0), 2.0),   // the player
    ///     Circle::new(Vec2::new(0.0, 3.5), 1.0),    // a bullet that grazes past
    /// ];
    /// let motions = [Vec2::new(100.0, 0.0), Vec2::ZERO, Vec2::new(100.0, 0.0)];
    /// let hits = NarrowPhase::new().sweep_circle_circle(
    ///     &discs[..],
    ///     &motions[..],
    ///     &[Pair::new(0, 1), Pair::new(1, 2)],
    /// )?.to_vec();
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!((hits[0].pair, hits[0].sweep.t), (Pair::new(0, 1), 0.47));
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match the discs; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for more than [`crate::MAX_BOXES`] discs.
    pub fn sweep_circle_circle(
        &mut self,
        circles: impl CircleInput,
        motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = circles.checked_len()?;
        check_len("motions (one per circle)", n, motions.checked_len()?)?;
        let n = run_batch(
            &self.config,
            &Swept::<SweepCircleCircle, _, _, _, _, 3, 3>::new(circles, motions, circles, motions),
            pairs,
            &mut self.sweeps,
        )?;
        Ok(&self.sweeps[..n])
    }

    /// Sweeps every pair of a moving box and a moving disc over one frame and keeps the
    /// hits and the overlaps (misses are left out), in pair order
    /// ([`scalar::sweep_aabb_circle`](fn@super::scalar::sweep_aabb_circle): the box
    /// against the disc's rounded outline, exact first roots at the corners, so no speed
    /// tunnels): `Pair::a` indexes `boxes` (and `box_motions`), `Pair::b` indexes
    /// `circles` (and `circle_motions`); in each answer `a` is the box.
    ///
    /// ```
    /// use hantei::{Aabb, Circle, Pair};
    /// use hantei::narrow::NarrowPhase;
    /// use glam::Vec2;
    /// let walls = [Aabb::from_coords(10.0, -5.0, 12.0, 5.0)];
    /// let bullets = [
    ///     Circle::new(Vec2::ZERO, 1.0),             // flies into the wall
    ///     Circle::new(Vec2::new(7.8, 10.8), 1.0),   // passes beyond its corner
    /// ];
    /// let bullet_motions = [Vec2::new(20.0, 0.0), Vec2::new(10.0, -10.0)];
    /// let hits = NarrowPhase::new().sweep_aabb_circle(
    ///     &walls[..],
    ///     &[Vec2::ZERO][..],
    ///     &bullets[..],
    ///     &bullet_motions[..],
    ///     &[Pair::new(0, 0), Pair::new(0, 1)],
    /// )?.to_vec();
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!((hits[0].pair, hits[0].sweep.t), (Pair::new(0, 0), 0.45));
    /// assert_eq!(hits[0].sweep.normal, Vec2::new(1.0, 0.0)); // from the bullet to the wall
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match their shapes; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for an input of more than [`crate::MAX_BOXES`] shapes.
    pub fn sweep_aabb_circle(
        &mut self,
        boxes: impl AabbInput,
        box_motions: impl MotionInput,
        circles: impl CircleInput,
        circle_motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = boxes.checked_len()?;
        check_len("box motions (one per box)", n, box_motions.checked_len()?)?;
        let n = circles.checked_len()?;
        check_len(
            "circle motions (one per circle)",
            n,
            circle_motions.checked_len()?,
        )?;
        let kernel = Swept::<SweepAabbCircle, _, _, _, _, 4, 3>::new(
            boxes,
            box_motions,
            circles,
            circle_motions,
        );
        let n = run_batch(&self.config, &kernel, pairs, &mut self.sweeps)?;
        Ok(&self.sweeps[..n])
    }

    /// Sweeps every pair of a moving disc and a moving oriented box (rotation held for
    /// the frame) and keeps the hits and the overlaps (misses are left out), in pair
    /// order ([`scalar::sweep_circle_obb2`](fn@super::scalar::sweep_circle_obb2): the
    /// rounded-box sweep in each box's frame): `Pair::a` indexes `circles` (and
    /// `circle_motions`), `Pair::b` indexes `boxes` (and `box_motions`); in each answer
    /// `a` is the disc.
    ///
    /// ```
    /// use hantei::{Circle, Obb2, Pair};
    /// use hantei::narrow::NarrowPhase;
    /// use glam::Vec2;
    /// // A rotated laser and two fast round bullets, one crossing it, one passing its end.
    /// let turn = core::f32::consts::FRAC_PI_4;
    /// let lasers = [Obb2::from_angle(Vec2::ZERO, Vec2::new(20.0, 0.1), turn)];
    /// let bullets = [
    ///     Circle::new(Vec2::new(-10.0, 10.0), 0.5),
    ///     Circle::new(Vec2::new(6.0, 26.0), 0.5),
    /// ];
    /// let motions = [Vec2::new(1.0e5, -1.0e5); 2];
    /// let hits = NarrowPhase::new().sweep_circle_obb2(
    ///     &bullets[..],
    ///     &motions[..],
    ///     &lasers[..],
    ///     &[Vec2::ZERO][..],
    ///     &[Pair::new(0, 0), Pair::new(1, 0)],
    /// )?.to_vec();
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!(hits[0].pair, Pair::new(0, 0));
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match their shapes; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for an input of more than [`crate::MAX_BOXES`] shapes.
    pub fn sweep_circle_obb2(
        &mut self,
        circles: impl CircleInput,
        circle_motions: impl MotionInput,
        boxes: impl Obb2Input,
        box_motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = circles.checked_len()?;
        check_len(
            "circle motions (one per circle)",
            n,
            circle_motions.checked_len()?,
        )?;
        let n = boxes.checked_len()?;
        check_len("box motions (one per box)", n, box_motions.checked_len()?)?;
        let kernel = Swept::<SweepCircleObb2, _, _, _, _, 3, 6>::new(
            circles,
            circle_motions,
            boxes,
            box_motions,
        );
        let n = run_batch(&self.config, &kernel, pairs, &mut self.sweeps)?;
        Ok(&self.sweeps[..n])
    }

    /// Casts moving points against still boxes and keeps the hits and the points that
    /// start inside (misses are left out), in pair order ([`scalar::cast_point_aabb`](super::scalar::cast_point_aabb)):
    /// `Pair::a` indexes `rays`, `Pair::b` indexes `boxes`.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range; [`Error::TooManyBoxes`] for an input of more than
    /// [`crate::MAX_BOXES`] shapes.
    pub fn cast_point_aabb(
        &mut self,
        rays: impl RayInput,
        boxes: impl AabbInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        rays.checked_len()?;
        boxes.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<CastPointAabb, _, _, 4, 4>::new(rays, boxes),
            pairs,
            &mut self.sweeps,
        )?;
        Ok(&self.sweeps[..n])
    }

    /// The pairs of 2D oriented boxes that overlap (closed), with their minimum
    /// translation vectors, in pair order ([`scalar::overlap_obb2_obb2`](super::scalar::overlap_obb2_obb2)).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range; [`Error::TooManyBoxes`] for an input of more than
    /// [`crate::MAX_BOXES`] shapes.
    pub fn overlap_obb2_obb2(
        &mut self,
        boxes: impl Obb2Input,
        pairs: &[Pair],
    ) -> Result<&[PairMtv2], Error> {
        boxes.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<Obb2Obb2, _, _, 6, 6>::new(boxes, boxes),
            pairs,
            &mut self.mtv2,
        )?;
        Ok(&self.mtv2[..n])
    }

    /// Sweeps every pair of moving 2D oriented boxes over one frame and keeps the hits and
    /// the overlaps (misses are left out), in pair order
    /// ([`scalar::sweep_obb2_obb2`](fn@super::scalar::sweep_obb2_obb2): the separating axis
    /// test for translating boxes, so no speed tunnels; rotations are held for the frame;
    /// in each answer `a` is `Pair::a`).
    ///
    /// ```
    /// use hantei::{Obb2, Pair};
    /// use hantei::narrow::NarrowPhase;
    /// use hantei::narrow::columns::{MotionSoa, Obb2Soa};
    /// use glam::Vec2;
    /// let boxes = [
    ///     Obb2::new(Vec2::ZERO, Vec2::X, Vec2::new(0.5, 0.5)), // a bullet
    ///     // A rotated laser, 20 long and 0.2 thick, crossing the bullet's path at x = 10.
    ///     Obb2::from_angle(Vec2::new(10.0, 0.0), Vec2::new(10.0, 0.1), 1.3),
    ///     Obb2::new(Vec2::new(0.0, 30.0), Vec2::X, Vec2::new(0.5, 0.5)), // far above it
    /// ];
    /// let motions = [Vec2::new(1e4, 0.0), Vec2::ZERO, Vec2::new(1e4, 0.0)];
    /// let pairs = [Pair::new(0, 1), Pair::new(2, 1)];
    /// let mut narrow = NarrowPhase::new();
    /// let hits = narrow.sweep_obb2_obb2(&boxes[..], &motions[..], &pairs)?.to_vec();
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!(hits[0].pair, Pair::new(0, 1));
    /// // Columns give the same bits.
    /// let (cols, moves) = (Obb2Soa::from(&boxes[..]), MotionSoa::from(&motions[..]));
    /// assert_eq!(narrow.sweep_obb2_obb2(cols.columns(), moves.columns(), &pairs)?, &hits[..]);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match the boxes; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for more than [`crate::MAX_BOXES`] boxes.
    pub fn sweep_obb2_obb2(
        &mut self,
        boxes: impl Obb2Input,
        motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = boxes.checked_len()?;
        check_len("motions (one per box)", n, motions.checked_len()?)?;
        let n = run_batch(
            &self.config,
            &Swept::<SweepObb2Obb2, _, _, _, _, 6, 6>::new(boxes, motions, boxes, motions),
            pairs,
            &mut self.sweeps,
        )?;
        Ok(&self.sweeps[..n])
    }

    /// Sweeps moving axis-aligned boxes against moving 2D oriented boxes over one frame and
    /// keeps the hits and the overlaps (misses are left out), in pair order
    /// ([`scalar::sweep_aabb_obb2`](fn@super::scalar::sweep_aabb_obb2)): `Pair::a` indexes
    /// `aabbs` (moved by `aabb_motions`), `Pair::b` indexes `obbs` (moved by
    /// `obb_motions`).
    ///
    /// ```
    /// use hantei::{Aabb, Obb2, Pair};
    /// use hantei::narrow::NarrowPhase;
    /// use glam::Vec2;
    /// let players = [Aabb::from_coords(-0.5, 3.0, 0.5, 4.0)];
    /// let slopes = [
    ///     Obb2::from_angle(Vec2::ZERO, Vec2::ONE, 0.5),
    ///     Obb2::from_angle(Vec2::new(9.0, 0.0), Vec2::ONE, 0.5),
    /// ];
    /// let mut narrow = NarrowPhase::new();
    /// let hits = narrow.sweep_aabb_obb2(
    ///     &players[..],
    ///     &[Vec2::new(0.0, -10.0)][..],
    ///     &slopes[..],
    ///     &[Vec2::ZERO; 2][..],
    ///     &[Pair::new(0, 0), Pair::new(0, 1)],
    /// )?;
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!(hits[0].pair, Pair::new(0, 0));
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match their boxes; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for more than [`crate::MAX_BOXES`] boxes on a side.
    pub fn sweep_aabb_obb2(
        &mut self,
        aabbs: impl AabbInput,
        aabb_motions: impl MotionInput,
        obbs: impl Obb2Input,
        obb_motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = aabbs.checked_len()?;
        check_len("AABB motions (one per box)", n, aabb_motions.checked_len()?)?;
        let n = obbs.checked_len()?;
        check_len("OBB motions (one per box)", n, obb_motions.checked_len()?)?;
        let n = run_batch(
            &self.config,
            &Swept::<SweepAabbObb2, _, _, _, _, 4, 6>::new(aabbs, aabb_motions, obbs, obb_motions),
            pairs,
            &mut self.sweeps,
        )?;
        Ok(&self.sweeps[..n])
    }

    /// Sweeps every pair of a moving capsule and a moving box over one frame (rotation
    /// held) and keeps the hits and the overlaps (misses are left out), in pair order
    /// ([`scalar::sweep_capsule_aabb`](fn@super::scalar::sweep_capsule_aabb): the point
    /// against the rounded hexagon `box - segment`, so no speed tunnels): `Pair::a`
    /// indexes `capsules` (and `capsule_motions`), `Pair::b` indexes `boxes` (and
    /// `box_motions`); in each answer `a` is the capsule.
    ///
    /// ```
    /// use hantei::{Aabb, Capsule, Pair};
    /// use hantei::narrow::NarrowPhase;
    /// use glam::Vec2;
    /// let floor = [Aabb::from_coords(-50.0, -5.0, 50.0, 0.0)];
    /// let lasers = [
    ///     Capsule::new(Vec2::new(0.0, 3.0), Vec2::new(4.0, 7.0), 0.5),   // falls onto it
    ///     Capsule::new(Vec2::new(51.0, 3.0), Vec2::new(55.0, 7.0), 0.5), // beside it
    /// ];
    /// let hits = NarrowPhase::new().sweep_capsule_aabb(
    ///     &lasers[..],
    ///     &[Vec2::new(0.0, -10.0); 2][..],
    ///     &floor[..],
    ///     &[Vec2::ZERO][..],
    ///     &[Pair::new(0, 0), Pair::new(1, 0)],
    /// )?.to_vec();
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!((hits[0].pair, hits[0].sweep.t), (Pair::new(0, 0), 0.25));
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match their shapes; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for an input of more than [`crate::MAX_BOXES`] shapes.
    pub fn sweep_capsule_aabb(
        &mut self,
        capsules: impl CapsuleInput,
        capsule_motions: impl MotionInput,
        boxes: impl AabbInput,
        box_motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = capsules.checked_len()?;
        check_len(
            "capsule motions (one per capsule)",
            n,
            capsule_motions.checked_len()?,
        )?;
        let n = boxes.checked_len()?;
        check_len("box motions (one per box)", n, box_motions.checked_len()?)?;
        let kernel = Swept::<SweepCapsuleAabb, _, _, _, _, 5, 4>::new(
            capsules,
            capsule_motions,
            boxes,
            box_motions,
        );
        let n = run_batch(&self.config, &kernel, pairs, &mut self.sweeps)?;
        Ok(&self.sweeps[..n])
    }

    /// Sweeps every pair of a moving capsule and a moving disc over one frame (rotation
    /// held) and keeps the hits and the overlaps (misses are left out), in pair order
    /// ([`scalar::sweep_capsule_circle`](fn@super::scalar::sweep_capsule_circle): the
    /// disc's center against the segment rounded by both radii, so no speed tunnels):
    /// `Pair::a` indexes `capsules` (and `capsule_motions`), `Pair::b` indexes `circles`
    /// (and `circle_motions`); in each answer `a` is the capsule.
    ///
    /// ```
    /// use hantei::{Capsule, Circle, Pair};
    /// use hantei::narrow::NarrowPhase;
    /// use glam::Vec2;
    /// let lasers = [Capsule::new(Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0), 0.5)];
    /// let bullets = [
    ///     Circle::new(Vec2::new(50.0, 2.0), 1.0), // crosses the laser
    ///     Circle::new(Vec2::new(50.0, 7.0), 1.0), // passes beyond its end
    /// ];
    /// let hits = NarrowPhase::new().sweep_capsule_circle(
    ///     &lasers[..],
    ///     &[Vec2::ZERO][..],
    ///     &bullets[..],
    ///     &[Vec2::new(-100.0, 0.0); 2][..],
    ///     &[Pair::new(0, 0), Pair::new(0, 1)],
    /// )?.to_vec();
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!((hits[0].pair, hits[0].sweep.t), (Pair::new(0, 0), 0.485));
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match their shapes; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for an input of more than [`crate::MAX_BOXES`] shapes.
    pub fn sweep_capsule_circle(
        &mut self,
        capsules: impl CapsuleInput,
        capsule_motions: impl MotionInput,
        circles: impl CircleInput,
        circle_motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = capsules.checked_len()?;
        check_len(
            "capsule motions (one per capsule)",
            n,
            capsule_motions.checked_len()?,
        )?;
        let n = circles.checked_len()?;
        check_len(
            "circle motions (one per circle)",
            n,
            circle_motions.checked_len()?,
        )?;
        let kernel = Swept::<SweepCapsuleCircle, _, _, _, _, 5, 3>::new(
            capsules,
            capsule_motions,
            circles,
            circle_motions,
        );
        let n = run_batch(&self.config, &kernel, pairs, &mut self.sweeps)?;
        Ok(&self.sweeps[..n])
    }

    /// Sweeps every pair of a moving capsule and a moving oriented box over one frame
    /// (rotations held) and keeps the hits and the overlaps (misses are left out), in
    /// pair order ([`scalar::sweep_capsule_obb2`](fn@super::scalar::sweep_capsule_obb2):
    /// the rounded hexagon in each box's frame): `Pair::a` indexes `capsules` (and
    /// `capsule_motions`), `Pair::b` indexes `boxes` (and `box_motions`); in each answer
    /// `a` is the capsule.
    ///
    /// ```
    /// use hantei::{Capsule, Obb2, Pair};
    /// use hantei::narrow::NarrowPhase;
    /// use glam::Vec2;
    /// let walls = [Obb2::new(Vec2::new(10.0, 0.0), Vec2::Y, Vec2::new(10.0, 1.0))];
    /// let bullets = [
    ///     Capsule::new(Vec2::new(-2.0, 1.0), Vec2::new(0.0, 1.0), 0.5),
    ///     Capsule::new(Vec2::new(-2.0, 11.0), Vec2::new(0.0, 11.0), 0.5), // above it
    /// ];
    /// let hits = NarrowPhase::new().sweep_capsule_obb2(
    ///     &bullets[..],
    ///     &[Vec2::new(1000.0, 0.0); 2][..],
    ///     &walls[..],
    ///     &[Vec2::ZERO][..],
    ///     &[Pair::new(0, 0), Pair::new(1, 0)],
    /// )?.to_vec();
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!(hits[0].pair, Pair::new(0, 0));
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match their shapes; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for an input of more than [`crate::MAX_BOXES`] shapes.
    pub fn sweep_capsule_obb2(
        &mut self,
        capsules: impl CapsuleInput,
        capsule_motions: impl MotionInput,
        boxes: impl Obb2Input,
        box_motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = capsules.checked_len()?;
        check_len(
            "capsule motions (one per capsule)",
            n,
            capsule_motions.checked_len()?,
        )?;
        let n = boxes.checked_len()?;
        check_len("box motions (one per box)", n, box_motions.checked_len()?)?;
        let kernel = Swept::<SweepCapsuleObb2, _, _, _, _, 5, 6>::new(
            capsules,
            capsule_motions,
            boxes,
            box_motions,
        );
        let n = run_batch(&self.config, &kernel, pairs, &mut self.sweeps)?;
        Ok(&self.sweeps[..n])
    }

    /// Sweeps every pair of moving capsules over one frame (rotations held) and keeps
    /// the hits and the overlaps (misses are left out), in pair order
    /// ([`scalar::sweep_capsule_capsule`](fn@super::scalar::sweep_capsule_capsule): the
    /// point against the rounded parallelogram of the two segments, so no speed
    /// tunnels; in each answer `a` is `Pair::a`).
    ///
    /// ```
    /// use hantei::{Capsule, Pair};
    /// use hantei::narrow::NarrowPhase;
    /// use hantei::narrow::columns::{CapsuleSoa, MotionSoa};
    /// use glam::Vec2;
    /// let capsules = [
    ///     Capsule::new(Vec2::new(10.0, -20.0), Vec2::new(10.0, 20.0), 0.5), // a laser
    ///     Capsule::new(Vec2::new(-1.0, 0.0), Vec2::ZERO, 0.25),            // crosses it
    ///     Capsule::new(Vec2::new(-1.0, 21.0), Vec2::new(0.0, 21.0), 0.25), // passes above
    /// ];
    /// let motions = [Vec2::ZERO, Vec2::new(1000.0, 0.0), Vec2::new(1000.0, 0.0)];
    /// let pairs = [Pair::new(1, 0), Pair::new(2, 0)];
    /// let mut narrow = NarrowPhase::new();
    /// let hits = narrow.sweep_capsule_capsule(&capsules[..], &motions[..], &pairs)?.to_vec();
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!((hits[0].pair, hits[0].sweep.t), (Pair::new(1, 0), 0.00925));
    /// // Columns give the same bits.
    /// let (cols, moves) = (CapsuleSoa::from(&capsules[..]), MotionSoa::from(&motions[..]));
    /// assert_eq!(narrow.sweep_capsule_capsule(cols.columns(), moves.columns(), &pairs)?, &hits[..]);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths or motions that do not
    /// match the capsules; [`Error::PairOutOfRange`] for a pair index out of range;
    /// [`Error::TooManyBoxes`] for more than [`crate::MAX_BOXES`] capsules.
    pub fn sweep_capsule_capsule(
        &mut self,
        capsules: impl CapsuleInput,
        motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = capsules.checked_len()?;
        check_len("motions (one per capsule)", n, motions.checked_len()?)?;
        let n = run_batch(
            &self.config,
            &Swept::<SweepCapsuleCapsule, _, _, _, _, 5, 5>::new(
                capsules, motions, capsules, motions,
            ),
            pairs,
            &mut self.sweeps,
        )?;
        Ok(&self.sweeps[..n])
    }

    /// The pairs of 3D oriented boxes that overlap (closed), with their minimum
    /// translation vectors, in pair order ([`scalar::overlap_obb3_obb3`](super::scalar::overlap_obb3_obb3)).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range; [`Error::TooManyBoxes`] for an input of more than
    /// [`crate::MAX_BOXES`] shapes.
    pub fn overlap_obb3_obb3(
        &mut self,
        boxes: impl Obb3Input,
        pairs: &[Pair],
    ) -> Result<&[PairMtv3], Error> {
        boxes.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<Obb3Obb3, _, _, 15, 15>::new(boxes, boxes),
            pairs,
            &mut self.mtv3,
        )?;
        Ok(&self.mtv3[..n])
    }
}
