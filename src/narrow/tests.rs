//! Every lane kernel at every SIMD level against its scalar reference, lane by lane, bit
//! for bit (the stated bound is 0 ulp), on hand-picked edge cases and on a seeded stream
//! biased toward special values, touching configurations and exact corner hits.

use super::wide::{self, AabbW, CircleW, Obb2W, Obb3W, RayW, Vec2W};
use super::{Mtv2, Mtv3, Sweep, scalar};
use crate::lanes::{F32W, LANES, MaskW, SimdLevel, SimdTask, dispatch};
use crate::math::{Aabb, Circle, Obb2, Obb3, Ray};
use crate::rng::Rng;
use glam::{Quat, Vec2, Vec3};

/// Values that break careless kernels.
const SPECIAL: [f32; 18] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MIN_POSITIVE,
    1.0e-40,
    f32::MAX,
    f32::MIN,
    1.0e30,
    -1.0e30,
    f32::EPSILON,
    3.0e38,
    1.0e7,
];

/// A value: often on a small grid (so equalities, i.e. touching, happen), sometimes
/// special, otherwise uniform in `[-r, r]`.
fn value(rng: &mut Rng, r: f32) -> f32 {
    match rng.below(16) {
        0 => SPECIAL[rng.below(SPECIAL.len() as u32) as usize],
        1..=6 => (rng.below(17) as f32 - 8.0) * 0.25,
        _ => rng.range_f32(-r, r),
    }
}

fn size(rng: &mut Rng) -> f32 {
    match rng.below(12) {
        0 => 0.0,
        1 => SPECIAL[rng.below(SPECIAL.len() as u32) as usize].abs(),
        2 => -0.5, // inverted: no panic, same answer everywhere
        3..=6 => (rng.below(8) as f32) * 0.25,
        _ => rng.range_f32(0.0, 4.0),
    }
}

fn aabb(rng: &mut Rng) -> Aabb {
    let min = Vec2::new(value(rng, 6.0), value(rng, 6.0));
    Aabb::new(min, min + Vec2::new(size(rng), size(rng)))
}

/// `b` built from `a`'s coordinates, so that edges and corners coincide exactly.
fn touching(rng: &mut Rng, a: &Aabb) -> Aabb {
    let pick = |rng: &mut Rng, lo: f32, hi: f32| if rng.below(2) == 0 { lo } else { hi };
    let x = pick(rng, a.min.x, a.max.x);
    let y = pick(rng, a.min.y, a.max.y);
    let w = Vec2::new(size(rng), size(rng));
    let min = Vec2::new(
        if rng.below(2) == 0 { x } else { x - w.x },
        if rng.below(2) == 0 { y } else { y - w.y },
    );
    Aabb::new(min, min + w)
}

fn motion(rng: &mut Rng) -> Vec2 {
    let mut c = || match rng.below(6) {
        0 => 0.0,
        1 => value(rng, 1.0e3),
        _ => value(rng, 12.0),
    };
    Vec2::new(c(), c())
}

fn circle(rng: &mut Rng) -> Circle {
    let r = if rng.below(10) == 0 {
        value(rng, 3.0)
    } else {
        size(rng)
    };
    Circle::new(Vec2::new(value(rng, 6.0), value(rng, 6.0)), r)
}

fn unit2(rng: &mut Rng) -> Vec2 {
    match rng.below(8) {
        0 => Vec2::X,
        1 => Vec2::new(0.0, -1.0),
        2 => Vec2::new(0.6, 0.8),
        3 => Vec2::new(value(rng, 2.0), value(rng, 2.0)), // not unit, maybe special
        _ => Vec2::from_angle(rng.range_f32(-4.0, 4.0)),
    }
}

fn obb2(rng: &mut Rng) -> Obb2 {
    Obb2::new(
        Vec2::new(value(rng, 4.0), value(rng, 4.0)),
        unit2(rng),
        Vec2::new(size(rng), size(rng)),
    )
}

fn rotation(rng: &mut Rng) -> Quat {
    match rng.below(6) {
        0 => Quat::IDENTITY,
        1 => Quat::from_rotation_z(core::f32::consts::FRAC_PI_2),
        2 => Quat::from_rotation_y(rng.range_f32(-1.0e-3, 1.0e-3)), // near-parallel edges
        _ => Quat::from_xyzw(
            rng.normal_f32(),
            rng.normal_f32(),
            rng.normal_f32(),
            rng.normal_f32(),
        )
        .normalize(),
    }
}

fn obb3(rng: &mut Rng) -> Obb3 {
    let c = Vec3::new(value(rng, 3.0), value(rng, 3.0), value(rng, 3.0));
    let h = Vec3::new(size(rng), size(rng), size(rng));
    let mut b = Obb3::from_rotation(c, rotation(rng), h);
    if rng.below(20) == 0 {
        b.axes[rng.below(3) as usize].x = SPECIAL[rng.below(SPECIAL.len() as u32) as usize];
    }
    b
}

/// The quarter turns: boxes so turned have exact world extents, so they can touch.
const QUARTERS: [Vec2; 4] = [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y];

fn grid(rng: &mut Rng) -> f32 {
    (rng.below(17) as f32 - 8.0) * 0.25
}

/// A box to sweep: often a quarter turn on the grid (to be touched exactly), else any.
fn sweep_obb2(rng: &mut Rng) -> Obb2 {
    if rng.below(2) == 0 {
        let c = Vec2::new(grid(rng), grid(rng));
        Obb2::new(
            c,
            QUARTERS[rng.below(4) as usize],
            Vec2::new(size(rng), size(rng)),
        )
    } else {
        obb2(rng)
    }
}

/// A quarter-turned box touching the box of center `c` and world half extents `e` on a
/// side or at a corner (exactly, on the grid).
fn touching_obb2(rng: &mut Rng, c: Vec2, e: Vec2) -> Obb2 {
    let axis = QUARTERS[rng.below(4) as usize];
    let h = Vec2::new(size(rng), size(rng));
    let eb = if axis.x != 0.0 {
        h
    } else {
        Vec2::new(h.y, h.x)
    };
    let mut sign = || if rng.below(2) == 0 { 1.0 } else { -1.0 };
    let (sx, sy) = (sign(), sign());
    let touch = Vec2::new(c.x + sx * (e.x + eb.x), c.y + sy * (e.y + eb.y));
    let center = match rng.below(3) {
        0 => Vec2::new(touch.x, c.y + grid(rng)),
        1 => Vec2::new(c.x + grid(rng), touch.y),
        _ => touch,
    };
    Obb2::new(center, axis, h)
}

/// Eight lanes of inputs for every kernel.
#[derive(Clone)]
struct Inputs {
    box_a: [Aabb; LANES],
    box_b: [Aabb; LANES],
    motion_a: [Vec2; LANES],
    motion_b: [Vec2; LANES],
    circle_a: [Circle; LANES],
    circle_b: [Circle; LANES],
    ray: [Ray; LANES],
    obb2_a: [Obb2; LANES],
    obb2_b: [Obb2; LANES],
    obb3_a: [Obb3; LANES],
    obb3_b: [Obb3; LANES],
    sweep_obb2_a: [Obb2; LANES],
    sweep_obb2_b: [Obb2; LANES],
    aabb_obb2_b: [Obb2; LANES],
    circle_box: [Circle; LANES],
}

/// A disc against `b`: often touching a face or a corner exactly (a 3-4-5 triangle on
/// the grid), else anywhere.
fn circle_at(rng: &mut Rng, b: &Aabb) -> Circle {
    let r = (rng.below(8) as f32) * 0.5;
    match rng.below(4) {
        0 => Circle::new(Vec2::new(b.min.x - r, b.max.y), r),
        1 => Circle::new(Vec2::new(b.max.x, b.min.y - r), r),
        2 => Circle::new(b.max + Vec2::new(3.0, 4.0) * 0.5, 2.5),
        _ => circle(rng),
    }
}

impl Inputs {
    fn random(rng: &mut Rng) -> Self {
        let box_a: [Aabb; LANES] = core::array::from_fn(|_| aabb(rng));
        let box_b = core::array::from_fn(|i| {
            if rng.below(3) == 0 {
                touching(rng, &box_a[i])
            } else {
                aabb(rng)
            }
        });
        let motion_a = core::array::from_fn(|_| motion(rng));
        // Sometimes equal motions (zero relative velocity) or a shared component.
        let motion_b = core::array::from_fn(|i| match rng.below(5) {
            0 => motion_a[i],
            1 => Vec2::new(motion_a[i].x, motion(rng).y),
            _ => motion(rng),
        });
        let circle_a: [Circle; LANES] = core::array::from_fn(|_| circle(rng));
        let circle_b = core::array::from_fn(|i| {
            if rng.below(4) == 0 {
                // Exactly touching on a grid: 3-4-5 triangles.
                let c = circle_a[i];
                Circle::new(c.center + Vec2::new(3.0, 4.0), 5.0 - c.radius)
            } else {
                circle(rng)
            }
        });
        let ray = core::array::from_fn(|i| {
            let origin = if rng.below(3) == 0 {
                box_b[i].max
            } else {
                Vec2::new(value(rng, 6.0), value(rng, 6.0))
            };
            Ray::new(origin, motion(rng))
        });
        Self {
            box_a,
            box_b,
            motion_a,
            motion_b,
            circle_a,
            circle_b,
            ray,
            obb2_a: core::array::from_fn(|_| obb2(rng)),
            obb2_b: core::array::from_fn(|_| obb2(rng)),
            obb3_a: core::array::from_fn(|_| obb3(rng)),
            obb3_b: core::array::from_fn(|_| obb3(rng)),
            sweep_obb2_a: [Obb2::default(); LANES],
            sweep_obb2_b: [Obb2::default(); LANES],
            aabb_obb2_b: [Obb2::default(); LANES],
            circle_box: core::array::from_fn(|i| circle_at(rng, &box_a[i])),
        }
        .with_obb2_sweeps(rng)
    }

    /// The swept oriented boxes' lanes, drawn after every other kernel's.
    fn with_obb2_sweeps(mut self, rng: &mut Rng) -> Self {
        for i in 0..LANES {
            let a = sweep_obb2(rng);
            self.sweep_obb2_a[i] = a;
            self.sweep_obb2_b[i] = if a.axis.x.abs() + a.axis.y.abs() == 1.0 && rng.below(2) == 0 {
                let e = if a.axis.x != 0.0 {
                    a.half_extents
                } else {
                    Vec2::new(a.half_extents.y, a.half_extents.x)
                };
                touching_obb2(rng, a.center, e)
            } else {
                sweep_obb2(rng)
            };
            let b = &self.box_a[i];
            self.aabb_obb2_b[i] = if rng.below(3) == 0 {
                touching_obb2(rng, (b.min + b.max) * 0.5, (b.max - b.min) * 0.5)
            } else {
                sweep_obb2(rng)
            };
        }
        self
    }
}

/// Every kernel's answer on every lane.
#[derive(Debug)]
struct Outputs {
    aabb: u32,
    circle: u32,
    aabb_circle: u32,
    sweep: [Sweep; LANES],
    sweep_circle: [Sweep; LANES],
    sweep_obb2: [Sweep; LANES],
    sweep_aabb_obb2: [Sweep; LANES],
    cast: [Sweep; LANES],
    obb2: [Option<Mtv2>; LANES],
    obb3: [Option<Mtv3>; LANES],
    sweep_aabb_circle: [Sweep; LANES],
    sweep_circle_obb2: [Sweep; LANES],
}

impl SimdTask for &Inputs {
    type Output = Outputs;
    #[inline(always)]
    fn run<W: F32W>(self) -> Outputs {
        let (a, b) = (
            AabbW::<W>::from_array(&self.box_a),
            AabbW::<W>::from_array(&self.box_b),
        );
        let (ma, mb) = (
            Vec2W::<W>::from_array(&self.motion_a),
            Vec2W::<W>::from_array(&self.motion_b),
        );
        let (ca, cb) = (
            CircleW::<W>::from_array(&self.circle_a),
            CircleW::<W>::from_array(&self.circle_b),
        );
        let o2 = wide::overlap_obb2_obb2(
            &Obb2W::<W>::from_array(&self.obb2_a),
            &Obb2W::from_array(&self.obb2_b),
        );
        let o3 = wide::overlap_obb3_obb3(
            &Obb3W::<W>::from_array(&self.obb3_a),
            &Obb3W::from_array(&self.obb3_b),
        );
        Outputs {
            aabb: wide::overlap_aabb_aabb(&a, &b).bitmask(),
            circle: wide::overlap_circle_circle(&ca, &cb).bitmask(),
            aabb_circle: wide::overlap_aabb_circle(&a, &cb).bitmask(),
            sweep: wide::sweep_aabb_aabb(&a, &ma, &b, &mb).to_array(),
            sweep_circle: wide::sweep_circle_circle(&ca, &ma, &cb, &mb).to_array(),
            sweep_obb2: wide::sweep_obb2_obb2(
                &Obb2W::<W>::from_array(&self.sweep_obb2_a),
                &ma,
                &Obb2W::from_array(&self.sweep_obb2_b),
                &mb,
            )
            .to_array(),
            sweep_aabb_obb2: wide::sweep_aabb_obb2(
                &a,
                &ma,
                &Obb2W::from_array(&self.aabb_obb2_b),
                &mb,
            )
            .to_array(),
            cast: wide::cast_point_aabb(&RayW::<W>::from_array(&self.ray), &b).to_array(),
            obb2: core::array::from_fn(|i| o2.lane(i)),
            obb3: core::array::from_fn(|i| o3.lane(i)),
            sweep_aabb_circle: wide::sweep_aabb_circle(
                &a,
                &ma,
                &CircleW::from_array(&self.circle_box),
                &mb,
            )
            .to_array(),
            sweep_circle_obb2: wide::sweep_circle_obb2(
                &ca,
                &ma,
                &Obb2W::from_array(&self.obb2_b),
                &mb,
            )
            .to_array(),
        }
    }
}

fn scalar_outputs(x: &Inputs) -> Outputs {
    let mask = |f: &dyn Fn(usize) -> bool| (0..LANES).fold(0, |m, i| m | (u32::from(f(i)) << i));
    Outputs {
        aabb: mask(&|i| scalar::overlap_aabb_aabb(&x.box_a[i], &x.box_b[i])),
        circle: mask(&|i| scalar::overlap_circle_circle(&x.circle_a[i], &x.circle_b[i])),
        aabb_circle: mask(&|i| scalar::overlap_aabb_circle(&x.box_a[i], &x.circle_b[i])),
        sweep: core::array::from_fn(|i| {
            scalar::sweep_aabb_aabb(&x.box_a[i], x.motion_a[i], &x.box_b[i], x.motion_b[i])
        }),
        sweep_circle: core::array::from_fn(|i| {
            scalar::sweep_circle_circle(
                &x.circle_a[i],
                x.motion_a[i],
                &x.circle_b[i],
                x.motion_b[i],
            )
        }),
        sweep_obb2: core::array::from_fn(|i| {
            scalar::sweep_obb2_obb2(
                &x.sweep_obb2_a[i],
                x.motion_a[i],
                &x.sweep_obb2_b[i],
                x.motion_b[i],
            )
        }),
        sweep_aabb_obb2: core::array::from_fn(|i| {
            scalar::sweep_aabb_obb2(&x.box_a[i], x.motion_a[i], &x.aabb_obb2_b[i], x.motion_b[i])
        }),
        cast: core::array::from_fn(|i| scalar::cast_point_aabb(&x.ray[i], &x.box_b[i])),
        obb2: core::array::from_fn(|i| scalar::overlap_obb2_obb2(&x.obb2_a[i], &x.obb2_b[i])),
        obb3: core::array::from_fn(|i| scalar::overlap_obb3_obb3(&x.obb3_a[i], &x.obb3_b[i])),
        sweep_aabb_circle: core::array::from_fn(|i| {
            scalar::sweep_aabb_circle(&x.box_a[i], x.motion_a[i], &x.circle_box[i], x.motion_b[i])
        }),
        sweep_circle_obb2: core::array::from_fn(|i| {
            scalar::sweep_circle_obb2(&x.circle_a[i], x.motion_a[i], &x.obb2_b[i], x.motion_b[i])
        }),
    }
}

/// Same bits (any NaN equals any NaN).
fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn same_sweep(a: &Sweep, b: &Sweep) -> bool {
    a.status == b.status
        && same(a.t, b.t)
        && same(a.normal.x, b.normal.x)
        && same(a.normal.y, b.normal.y)
        && same(a.stop.x, b.stop.x)
        && same(a.stop.y, b.stop.y)
}

fn same_mtv2(a: &Option<Mtv2>, b: &Option<Mtv2>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.axis == b.axis
                && same(a.depth, b.depth)
                && same(a.normal.x, b.normal.x)
                && same(a.normal.y, b.normal.y)
        }
        _ => false,
    }
}

fn same_mtv3(a: &Option<Mtv3>, b: &Option<Mtv3>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.axis == b.axis
                && same(a.depth, b.depth)
                && (0..3).all(|k| same(a.normal[k], b.normal[k]))
        }
        _ => false,
    }
}

fn check(x: &Inputs, round: usize) {
    let want = scalar_outputs(x);
    for &level in SimdLevel::available() {
        let got = dispatch(level, x);
        let ctx = |what: &str, i: usize| format!("round {round} {level:?} {what} lane {i}");
        assert_eq!(
            got.aabb,
            want.aabb,
            "{} a={:?} b={:?}",
            ctx("aabb", 0),
            x.box_a,
            x.box_b
        );
        assert_eq!(
            got.circle,
            want.circle,
            "{} {:?} {:?}",
            ctx("circle", 0),
            x.circle_a,
            x.circle_b
        );
        assert_eq!(
            got.aabb_circle,
            want.aabb_circle,
            "{}",
            ctx("aabb_circle", 0)
        );
        for i in 0..LANES {
            assert!(
                same_sweep(&got.sweep[i], &want.sweep[i]),
                "{}: {:?} {:?} {:?} {:?}: got {:?} want {:?}",
                ctx("sweep", i),
                x.box_a[i],
                x.motion_a[i],
                x.box_b[i],
                x.motion_b[i],
                got.sweep[i],
                want.sweep[i]
            );
            assert!(
                same_sweep(&got.sweep_circle[i], &want.sweep_circle[i]),
                "{}: {:?} {:?} {:?} {:?}: got {:?} want {:?}",
                ctx("sweep_circle", i),
                x.circle_a[i],
                x.motion_a[i],
                x.circle_b[i],
                x.motion_b[i],
                got.sweep_circle[i],
                want.sweep_circle[i]
            );
            assert!(
                same_sweep(&got.sweep_obb2[i], &want.sweep_obb2[i]),
                "{}: {:?} {:?} {:?} {:?}: got {:?} want {:?}",
                ctx("sweep_obb2", i),
                x.sweep_obb2_a[i],
                x.motion_a[i],
                x.sweep_obb2_b[i],
                x.motion_b[i],
                got.sweep_obb2[i],
                want.sweep_obb2[i]
            );
            assert!(
                same_sweep(&got.sweep_aabb_obb2[i], &want.sweep_aabb_obb2[i]),
                "{}: {:?} {:?} {:?} {:?}: got {:?} want {:?}",
                ctx("sweep_aabb_obb2", i),
                x.box_a[i],
                x.motion_a[i],
                x.aabb_obb2_b[i],
                x.motion_b[i],
                got.sweep_aabb_obb2[i],
                want.sweep_aabb_obb2[i]
            );
            assert!(
                same_sweep(&got.cast[i], &want.cast[i]),
                "{}: {:?} {:?}: got {:?} want {:?}",
                ctx("cast", i),
                x.ray[i],
                x.box_b[i],
                got.cast[i],
                want.cast[i]
            );
            assert!(
                same_mtv2(&got.obb2[i], &want.obb2[i]),
                "{}: {:?} {:?}: got {:?} want {:?}",
                ctx("obb2", i),
                x.obb2_a[i],
                x.obb2_b[i],
                got.obb2[i],
                want.obb2[i]
            );
            assert!(
                same_mtv3(&got.obb3[i], &want.obb3[i]),
                "{}: {:?} {:?}: got {:?} want {:?}",
                ctx("obb3", i),
                x.obb3_a[i],
                x.obb3_b[i],
                got.obb3[i],
                want.obb3[i]
            );
            assert!(
                same_sweep(&got.sweep_aabb_circle[i], &want.sweep_aabb_circle[i]),
                "{}: {:?} {:?} {:?} {:?}: got {:?} want {:?}",
                ctx("sweep_aabb_circle", i),
                x.box_a[i],
                x.motion_a[i],
                x.circle_box[i],
                x.motion_b[i],
                got.sweep_aabb_circle[i],
                want.sweep_aabb_circle[i]
            );
            assert!(
                same_sweep(&got.sweep_circle_obb2[i], &want.sweep_circle_obb2[i]),
                "{}: {:?} {:?} {:?} {:?}: got {:?} want {:?}",
                ctx("sweep_circle_obb2", i),
                x.circle_a[i],
                x.motion_a[i],
                x.obb2_b[i],
                x.motion_b[i],
                got.sweep_circle_obb2[i],
                want.sweep_circle_obb2[i]
            );
        }
    }
}

#[test]
fn every_level_matches_scalar_bit_for_bit() {
    let mut rng = Rng::new(0x5eed_0003);
    let mut hits = [0usize; 17];
    for round in 0..6000 {
        let x = Inputs::random(&mut rng);
        check(&x, round);
        // Count what was exercised, so the stream cannot silently test nothing.
        let w = scalar_outputs(&x);
        hits[0] += w.aabb.count_ones() as usize;
        hits[1] += w.circle.count_ones() as usize;
        hits[2] += w.aabb_circle.count_ones() as usize;
        hits[3] += w.sweep.iter().filter(|s| s.is_hit()).count();
        hits[4] += w.sweep.iter().filter(|s| s.is_corner()).count();
        hits[5] += w.obb2.iter().flatten().count();
        hits[6] += w.obb3.iter().flatten().filter(|m| m.axis >= 6).count();
        hits[7] += w.sweep_circle.iter().filter(|s| s.is_hit()).count();
        hits[8] += w
            .sweep_circle
            .iter()
            .filter(|s| s.is_hit() && s.t == 0.0)
            .count();
        let hit_t0 = |s: &[Sweep; LANES]| {
            let hit = s.iter().filter(|s| s.is_hit());
            (hit.clone().count(), hit.filter(|s| s.t == 0.0).count())
        };
        let (h, h0) = hit_t0(&w.sweep_obb2);
        hits[9] += h;
        hits[10] += h0;
        let (h, h0) = hit_t0(&w.sweep_aabb_obb2);
        hits[11] += h;
        hits[12] += h0;
        let round_hit = |s: &&Sweep| s.is_hit() && s.normal.x != 0.0 && s.normal.y != 0.0;
        hits[13] += w.sweep_aabb_circle.iter().filter(|s| s.is_hit()).count();
        hits[14] += w.sweep_aabb_circle.iter().filter(round_hit).count();
        hits[15] += w
            .sweep_aabb_circle
            .iter()
            .filter(|s| s.is_hit() && s.t == 0.0)
            .count();
        hits[16] += w.sweep_circle_obb2.iter().filter(|s| s.is_hit()).count();
    }
    // Every kernel both hit and missed a fair share, corners and edge-edge MTVs included.
    for (k, &h) in hits.iter().enumerate() {
        assert!(h > 100 && h < 6000 * LANES * 9 / 10, "kernel {k}: {h} hits");
    }
}

#[test]
fn hand_picked_edge_cases_match() {
    let nan = f32::NAN;
    let inf = f32::INFINITY;
    let unit = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
    // (a, motion a, b, motion b), one lane each.
    let cases: [(Aabb, Vec2, Aabb, Vec2); 8] = [
        (
            unit,
            Vec2::new(1.0, 0.0),
            Aabb::from_coords(2.0, 0.0, 3.0, 1.0),
            Vec2::ZERO,
        ), // t = 1
        (
            unit,
            Vec2::new(1.0, 1.0),
            Aabb::from_coords(1.0, 1.0, 2.0, 2.0),
            Vec2::ZERO,
        ), // corner at t = 0
        (
            unit,
            Vec2::new(2.0, 2.0),
            Aabb::from_coords(2.0, 2.0, 3.0, 3.0),
            Vec2::ZERO,
        ), // corner at t = 0.5
        (
            unit,
            Vec2::new(0.0, 5.0),
            Aabb::from_coords(1.0, 0.0, 2.0, 1.0),
            Vec2::ZERO,
        ), // sliding along
        (
            unit,
            Vec2::new(nan, 0.0),
            Aabb::from_coords(0.5, 0.0, 2.0, 1.0),
            Vec2::ZERO,
        ),
        (
            unit,
            Vec2::new(inf, 0.0),
            Aabb::from_coords(2.0, 0.0, 3.0, 1.0),
            Vec2::ZERO,
        ),
        (
            Aabb::from_coords(1e30, 0.0, 1e30, 0.0),
            Vec2::new(-3e30, 0.0),
            Aabb::from_coords(-1e30, 0.0, -1e30, 0.0),
            Vec2::ZERO,
        ),
        (
            Aabb::from_coords(0.5, 0.5, 0.5, 0.5),
            Vec2::ZERO,
            unit,
            Vec2::ZERO,
        ), // point inside
    ];
    let mut rng = Rng::new(9);
    let mut x = Inputs::random(&mut rng);
    for (i, (a, ma, b, mb)) in cases.into_iter().enumerate() {
        (x.box_a[i], x.motion_a[i], x.box_b[i], x.motion_b[i]) = (a, ma, b, mb);
        x.ray[i] = Ray::new(a.min, ma - mb);
    }
    check(&x, 0);
    let want = scalar_outputs(&x);
    assert_eq!(want.sweep[0].t, 1.0);
    assert!(want.sweep[1].is_corner() && want.sweep[1].t == 0.0);
    assert!(want.sweep[2].is_corner() && want.sweep[2].t == 0.5);
}
