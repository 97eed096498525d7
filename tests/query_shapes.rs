//! Scene queries answer by the true shapes: a region, point, ray or cast that reaches a
//! disc's or a rectangle's bounds but not the shape itself finds nothing.

use glam::Vec2;
use hantei::narrow::SweepStatus;
use hantei::{Aabb, BoxProps, BoxStore, Circle, Error, Filter, Obb2, Ray};

fn store() -> Result<(BoxStore, [hantei::BoxHandle; 3]), Error> {
    let mut s = BoxStore::new();
    let disc = s.insert_shape(Circle::new(Vec2::new(0.0, 0.0), 2.0), BoxProps::default())?;
    // A laser along the diagonal: its bounds are a 14 × 14 square, its body 1 wide.
    let laser = Obb2::from_angle(
        Vec2::new(20.0, 0.0),
        Vec2::new(10.0, 0.5),
        core::f32::consts::FRAC_PI_4,
    );
    let beam = s.insert_shape(laser, BoxProps::default())?;
    let plain = s.insert(Aabb::from_coords(-10.0, 10.0, -8.0, 12.0))?;
    Ok((s, [disc, beam, plain]))
}

#[test]
fn regions_and_points_see_the_shapes_not_their_bounds() -> Result<(), Error> {
    let (s, [disc, beam, plain]) = store()?;
    let mut hits = Vec::new();
    // The disc's bounds corner (1.8, 1.8) is outside the disc (|p| = 2.55 > 2).
    s.query_point(Vec2::new(1.8, 1.8), Filter::ALL, &mut hits)?;
    assert!(hits.is_empty(), "{hits:?}");
    s.query_point(Vec2::new(1.4, 1.4), Filter::ALL, &mut hits)?; // |p| = 1.98
    assert_eq!(hits, [disc]);
    hits.clear();
    // A region in the corner of the laser's bounds, far from its body.
    s.query_region(
        Aabb::from_coords(25.0, -6.0, 26.0, -5.0),
        Filter::ALL,
        &mut hits,
    )?;
    assert!(hits.is_empty(), "{hits:?}");
    // One on the laser's body, and one touching the disc at its rightmost point.
    s.query_region(
        Aabb::from_coords(25.0, 5.0, 26.0, 6.0),
        Filter::ALL,
        &mut hits,
    )?;
    s.query_region(
        Aabb::from_coords(2.0, -1.0, 3.0, 1.0),
        Filter::ALL,
        &mut hits,
    )?;
    s.query_region(
        Aabb::from_coords(-9.0, 11.0, -9.0, 11.0),
        Filter::ALL,
        &mut hits,
    )?;
    assert_eq!(hits, [beam, disc, plain]);
    Ok(())
}

#[test]
fn rays_and_casts_meet_the_shapes_first_and_exactly() -> Result<(), Error> {
    let (s, [disc, beam, _]) = store()?;
    // A ray across the disc's bounds corner (2.55 from the center at its closest): a
    // miss. Through its center: t at the rim.
    let grazing = Ray::new(Vec2::new(2.1, 1.5), Vec2::new(-0.6, 0.6));
    assert_eq!(s.ray_cast(grazing, Filter::ALL)?, None);
    let through = Ray::new(Vec2::new(-10.0, 0.0), Vec2::new(20.0, 0.0));
    let hit = s.ray_cast(through, Filter::ALL)?.unwrap();
    assert_eq!(
        (hit.handle, hit.t, hit.normal),
        (disc, 0.4, Vec2::new(-1.0, 0.0))
    );
    // Across the laser's body at right angles: hit; along its bounds' corner: miss.
    let across = Ray::new(Vec2::new(25.0, -5.0), Vec2::new(-10.0, 10.0));
    let hit = s.ray_cast(across, Filter::ALL)?.unwrap();
    assert_eq!((hit.handle, hit.status), (beam, SweepStatus::Hit));
    let corner = Ray::new(Vec2::new(27.0, -6.9), Vec2::new(-0.5, 0.0));
    assert_eq!(s.ray_cast(corner, Filter::ALL)?, None);
    // A disc cast: meets the disc at t where the centers are 2 + 1 apart.
    let hit = s
        .shape_cast(
            Circle::new(Vec2::new(-10.0, 0.0), 1.0),
            Vec2::new(20.0, 0.0),
            Filter::ALL,
        )?
        .unwrap();
    assert_eq!((hit.handle, hit.t), (disc, 0.35));
    // A box cast into the corner of the disc's bounds, stopping short of the disc: no
    // hit (the disc is 1.94 high at x = -0.5, the box's bottom 1.95).
    let over = Aabb::from_coords(-10.0, 1.95, -9.0, 2.95);
    let hit = s.shape_cast(over, Vec2::new(8.5, 0.0), Filter::ALL)?;
    assert_eq!(hit, None);
    // Bad shapes are refused.
    assert!(
        s.shape_cast(Circle::new(Vec2::ZERO, -1.0), Vec2::ONE, Filter::ALL)
            .is_err()
    );
    Ok(())
}
