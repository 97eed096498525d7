//! The touching rule for solid geometry: touching is not entering.
//!
//! A shape is *inside* a solid box when their interiors overlap. A shape that only
//! touches a face or a corner is outside. It enters the box only when its motion
//! carries it inward. [`TileMap`](crate::tilemap::TileMap) follows this rule, and so
//! does [`Frame::advance`](crate::frame::Frame::advance) against walls and static
//! boxes.
//!
//! [`outside_normal`] decides whether a shape is outside a solid box. [`enters`] decides
//! whether its motion carries it inward from there. Both are exact for boxes and work
//! in `f64` for discs, rectangles and capsules.

use super::{Aabb, Shape};
use glam::{DVec2, Vec2};

/// When `shape`'s interior does not overlap `solid`'s: the direction from `solid` toward
/// `shape` across the face or corner they share. `None` when the interiors overlap.
///
/// For a box the direction has components `-1`, `0` or `1`: both are set at a corner.
/// For a disc, a rectangle and a capsule it is a unit vector.
///
/// A zero-size box, disc or segment is inside when it lies in `solid`'s interior. On
/// its boundary it is outside.
#[must_use]
pub(crate) fn outside_normal(shape: &Shape, solid: &Aabb) -> Option<Vec2> {
    match shape {
        Shape::Aabb(b) => {
            let side = |a: usize| {
                if b.max[a] <= solid.min[a] {
                    -1.0
                } else if b.min[a] >= solid.max[a] {
                    1.0
                } else {
                    0.0
                }
            };
            let n = Vec2::new(side(0), side(1));
            // A zero-size box inside the solid's interior overlaps it; on the boundary
            // `side` has already answered.
            (n != Vec2::ZERO).then_some(n)
        }
        Shape::Circle(c) => {
            let p = c.center.as_dvec2();
            let (lo, hi) = (solid.min.as_dvec2(), solid.max.as_dvec2());
            let d = p - p.clamp(lo, hi);
            let r = f64::from(c.radius);
            if d == DVec2::ZERO {
                // The centre is in the closed box: outside only a point on its boundary.
                if r > 0.0 {
                    return None;
                }
                let side = |a: usize| {
                    if p[a] == lo[a] {
                        -1.0
                    } else if p[a] == hi[a] {
                        1.0
                    } else {
                        0.0
                    }
                };
                let n = Vec2::new(side(0), side(1));
                return (n != Vec2::ZERO).then(|| n.normalize());
            }
            if d.length_squared() < r * r {
                return None;
            }
            Some(d.normalize().as_vec2())
        }
        Shape::Obb2(o) => {
            // Separating axes: the solid's two and the rectangle's two. The one with the
            // least overlap (zero or less when outside) names the direction.
            let (c, e) = (o.center.as_dvec2(), o.half_extents.as_dvec2());
            let (u, v) = (o.axis.as_dvec2(), o.axis_y().as_dvec2());
            let (lo, hi) = (solid.min.as_dvec2(), solid.max.as_dvec2());
            let (sc, se) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
            let mut best: Option<(f64, DVec2)> = None;
            for axis in [DVec2::X, DVec2::Y, u, v] {
                let reach_o = e.x * u.dot(axis).abs() + e.y * v.dot(axis).abs();
                let reach_s = se.x * axis.x.abs() + se.y * axis.y.abs();
                let gap = (c - sc).dot(axis);
                let overlap = reach_o + reach_s - gap.abs();
                if overlap <= 0.0 && best.is_none_or(|(b, _)| overlap < b) {
                    let toward = if gap >= 0.0 { axis } else { -axis };
                    best = Some((overlap, toward));
                }
            }
            best.map(|(_, n)| n.normalize().as_vec2())
        }
        Shape::Capsule(c) => capsule_outside(c, solid),
    }
}

/// [`outside_normal`] for a capsule, in `f64`: the segment clipped to the closed box
/// (it meets the box), else the closest points of the two, which lie at an end of the
/// segment or at a corner of the box (two disjoint convex shapes in the plane).
fn capsule_outside(c: &super::Capsule, solid: &Aabb) -> Option<Vec2> {
    let (a, b) = (c.a.as_dvec2(), c.b.as_dvec2());
    let (lo, hi) = (solid.min.as_dvec2(), solid.max.as_dvec2());
    let r = f64::from(c.radius);
    let d = b - a;
    // A point of the segment on or in the closed box (`touch`), or the shortest gap
    // from the box to the segment.
    let touch = match clip_segment(a, d, lo, hi) {
        Some((t0, t1)) => a + d * ((t0 + t1) * 0.5),
        None => {
            let mut best = (f64::INFINITY, DVec2::ZERO, a);
            for p in [a, b] {
                let gap = p - p.clamp(lo, hi);
                if gap.length_squared() < best.0 {
                    best = (gap.length_squared(), gap, p);
                }
            }
            let len2 = d.length_squared();
            for q in [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)] {
                let t = if len2 > 0.0 {
                    ((q - a).dot(d) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let p = a + d * t;
                let gap = p - q;
                if gap.length_squared() < best.0 {
                    best = (gap.length_squared(), gap, p);
                }
            }
            let (len2, gap, p) = best;
            if len2 > 0.0 {
                return (len2 >= r * r).then(|| gap.normalize().as_vec2());
            }
            p
        }
    };
    // The segment meets the closed box: a capsule with a radius overlaps it; a plain
    // segment is outside only when it lies on the boundary (its middle there).
    if r > 0.0 || (touch.cmpgt(lo).all() && touch.cmplt(hi).all()) {
        return None;
    }
    let side = |k: usize| {
        if touch[k] <= lo[k] {
            -1.0
        } else if touch[k] >= hi[k] {
            1.0
        } else {
            0.0
        }
    };
    let n = Vec2::new(side(0), side(1));
    (n != Vec2::ZERO).then(|| n.normalize())
}

/// The part `[t0, t1]` of the segment `a + d·t`, `t` in `[0, 1]`, in the closed box
/// `lo..hi`, or `None` when it misses the box.
fn clip_segment(a: DVec2, d: DVec2, lo: DVec2, hi: DVec2) -> Option<(f64, f64)> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for k in 0..2 {
        if d[k] == 0.0 {
            if a[k] < lo[k] || a[k] > hi[k] {
                return None;
            }
            continue;
        }
        let (u, v) = ((lo[k] - a[k]) / d[k], (hi[k] - a[k]) / d[k]);
        t0 = t0.max(u.min(v));
        t1 = t1.min(u.max(v));
    }
    (t0 <= t1).then_some((t0, t1))
}

/// Whether `shape`, outside `solid` across `normal` (from [`outside_normal`]), enters it
/// when it moves by `motion`.
///
/// A box enters through a corner only when it moves inward on both axes. Otherwise it
/// slides along one face. Any other shape enters when its motion points against
/// `normal`.
#[must_use]
pub(crate) fn enters(shape: &Shape, normal: Vec2, motion: Vec2) -> bool {
    match shape {
        Shape::Aabb(_) => {
            let inward = |a: usize| normal[a] == 0.0 || motion[a] * normal[a] < 0.0;
            inward(0) && inward(1)
        }
        _ => motion.as_dvec2().dot(normal.as_dvec2()) < 0.0,
    }
}

/// Whether box `b`, moving by `m`, enters the interior of the still box `solid` at some
/// time in `[0, 1)`: on both axes at once, the open intervals overlap. Worked out in
/// `f64`, where the differences of `f32` coordinates are exact.
///
/// A box that only touches `solid` at one instant, grazes along a face, or arrives at
/// the very end of the motion does not enter it.
#[must_use]
pub(crate) fn box_enters(b: &Aabb, m: Vec2, solid: &Aabb) -> bool {
    let (mut from, mut to) = (f64::NEG_INFINITY, f64::INFINITY);
    for a in 0..2 {
        let (lo, hi) = (f64::from(b.min[a]), f64::from(b.max[a]));
        let (s0, s1) = (f64::from(solid.min[a]), f64::from(solid.max[a]));
        let v = f64::from(m[a]);
        if v == 0.0 {
            if !(lo < s1 && s0 < hi) {
                return false;
            }
            continue;
        }
        // The open intervals overlap while `hi + v·t > s0` and `lo + v·t < s1`.
        let (t0, t1) = if v > 0.0 {
            ((s0 - hi) / v, (s1 - lo) / v)
        } else {
            ((s1 - lo) / v, (s0 - hi) / v)
        };
        from = from.max(t0);
        to = to.min(t1);
    }
    from < to && from < 1.0 && to > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Circle, Obb2};

    fn cell() -> Aabb {
        Aabb::from_coords(10.0, 10.0, 20.0, 20.0)
    }

    #[test]
    fn boxes_touching_a_face_or_corner_are_outside() {
        let flush_left = Shape::Aabb(Aabb::from_coords(5.0, 12.0, 10.0, 14.0));
        assert_eq!(
            outside_normal(&flush_left, &cell()),
            Some(Vec2::new(-1.0, 0.0))
        );
        let corner = Shape::Aabb(Aabb::from_coords(20.0, 20.0, 22.0, 22.0));
        assert_eq!(outside_normal(&corner, &cell()), Some(Vec2::new(1.0, 1.0)));
        let inside = Shape::Aabb(Aabb::from_coords(9.0, 12.0, 10.5, 14.0));
        assert_eq!(outside_normal(&inside, &cell()), None);
        // A point in the interior is inside, on the boundary outside.
        let point = |x, y| Shape::Aabb(Aabb::from_coords(x, y, x, y));
        assert_eq!(outside_normal(&point(15.0, 15.0), &cell()), None);
        assert_eq!(
            outside_normal(&point(15.0, 10.0), &cell()),
            Some(Vec2::new(0.0, -1.0))
        );
    }

    #[test]
    fn a_box_enters_only_when_it_moves_inward_on_every_touching_axis() {
        let b = Shape::Aabb(Aabb::from_coords(5.0, 12.0, 10.0, 14.0));
        let n = Vec2::new(-1.0, 0.0);
        assert!(enters(&b, n, Vec2::new(1.0, 3.0)));
        assert!(
            !enters(&b, n, Vec2::new(0.0, 3.0)),
            "sliding along the face"
        );
        assert!(!enters(&b, n, Vec2::new(-1.0, 0.0)));
        let corner = Vec2::new(1.0, 1.0);
        assert!(enters(&b, corner, Vec2::new(-1.0, -1.0)));
        assert!(
            !enters(&b, corner, Vec2::new(-1.0, 0.0)),
            "along the top face"
        );
    }

    #[test]
    fn a_moving_box_enters_only_through_open_overlap() {
        let b = Aabb::from_coords(0.0, 0.0, 2.0, 2.0);
        let wall = Aabb::from_coords(4.0, -10.0, 5.0, 10.0);
        assert!(box_enters(&b, Vec2::new(3.0, 0.0), &wall));
        assert!(
            !box_enters(&b, Vec2::new(2.0, 0.0), &wall),
            "arrives touching"
        );
        let floor = Aabb::from_coords(-10.0, 2.0, 10.0, 3.0);
        assert!(!box_enters(&b, Vec2::new(5.0, 0.0), &floor), "grazes along");
        assert!(box_enters(&b, Vec2::new(5.0, 0.5), &floor));
        // Touching a corner and leaving on one axis while closing on the other.
        let corner = Aabb::from_coords(-1.0, -1.0, 0.0, 0.0);
        assert!(!box_enters(&b, Vec2::new(0.5, -1.0), &corner));
        assert!(box_enters(&b, Vec2::new(-0.5, -1.0), &corner));
    }

    #[test]
    fn discs_and_rectangles() {
        let tangent = Shape::Circle(Circle::new(Vec2::new(15.0, 8.0), 2.0));
        let n = outside_normal(&tangent, &cell()).expect("tangent to the top face");
        assert_eq!(n, Vec2::new(0.0, -1.0));
        assert!(enters(&tangent, n, Vec2::new(0.0, 1.0)));
        assert!(!enters(&tangent, n, Vec2::new(3.0, 0.0)));
        let deep = Shape::Circle(Circle::new(Vec2::new(15.0, 9.0), 2.0));
        assert_eq!(outside_normal(&deep, &cell()), None);
        let corner = Shape::Circle(Circle::new(Vec2::new(23.0, 24.0), 5.0));
        let n = outside_normal(&corner, &cell()).expect("tangent to the corner");
        assert!((n - Vec2::new(0.6, 0.8)).length() < 1e-6);
        // A square turned 45° whose corner touches the left face.
        let diamond = Obb2::from_angle(
            Vec2::new(8.5, 15.0),
            Vec2::ONE,
            core::f32::consts::FRAC_PI_4,
        );
        let shape = Shape::Obb2(diamond);
        let n = outside_normal(&shape, &cell()).expect("outside or touching");
        assert!(n.x < -0.99, "{n}");
        let overlapping = Shape::Obb2(Obb2::from_angle(Vec2::new(10.5, 15.0), Vec2::ONE, 0.3));
        assert_eq!(outside_normal(&overlapping, &cell()), None);
    }
}
