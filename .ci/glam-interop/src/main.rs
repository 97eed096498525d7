//! A game's glam values into and out of hantei with no conversion: this compiles only
//! when hantei and this crate share one glam. `glam` is bevy_math 0.20 (glam 0.33) in
//! the Bevy game and glam 0.34 in the other (.ci/interop builds both).

use glam::{IVec2, Quat, Vec2, Vec3};
use hantei::frame::{Frame, layers};
use hantei::tilemap::TileMap;
use hantei::{Aabb, BoxProps, BoxStore, Circle, Obb2, Obb3, Owner, Ray};

/// A type that hantei's `serde` feature serializes, the game's glam vectors inside.
fn serde_type<T: serde::Serialize + serde::de::DeserializeOwned>() {}

fn main() -> Result<(), hantei::Error> {
    // A game's own vectors, as bevy (or glam itself) hands them out.
    let bullet_at: Vec2 = Vec2::new(0.0, 0.0);
    let bullet_velocity: Vec2 = Vec2::new(100.0, 0.0);
    let enemy_at: Vec2 = Vec2::new(50.0, 0.0);

    let mut store = BoxStore::new();
    let bullet = store.insert_with(
        Aabb::from_center_half_extents(bullet_at, Vec2::splat(1.0)),
        BoxProps {
            filter: layers::player_bullet(),
            motion: bullet_velocity,
            ..Default::default()
        },
    )?;
    store.insert_with(
        Aabb::from_center_half_extents(enemy_at, Vec2::splat(4.0)),
        BoxProps {
            filter: layers::enemy(),
            owner: Owner(7),
            ..Default::default()
        },
    )?;
    store.set_motion(bullet, bullet_velocity)?;

    let mut frame = Frame::new();
    let report = frame.step(&store)?;
    assert_eq!(report.contacts.len(), 1);
    // And out again: hantei's results are the game's glam types.
    // (The enemy, an owner, is body `a`; the normal is the bullet's face toward it.)
    let normal: Vec2 = report.contacts[0].normal;
    assert_eq!(normal, Vec2::X);
    let centre: Vec2 = store.get(bullet).unwrap().center();
    assert_eq!(centre, bullet_at);

    let map = TileMap::from_ascii("..#\n...", Vec2::splat(16.0), Vec2::ZERO)?;
    let tile: Option<IVec2> = map.tile_at(Vec2::new(40.0, 4.0));
    assert_eq!(tile, Some(IVec2::new(2, 0)));
    let slid = map.move_and_slide(Aabb::from_coords(0.0, 0.0, 8.0, 8.0), Vec2::new(40.0, 0.0))?;
    assert_eq!(slid.aabb.max.x, 32.0);

    let _ = Circle::try_new(Vec2::ONE, 2.0)?;
    let _ = Ray::try_new(Vec2::ZERO, Vec2::X)?;
    let _ = Obb2::try_new(Vec2::ZERO, Vec2::new(3.0, 4.0), Vec2::ONE)?;
    let _ = Obb3::from_rotation(Vec3::ZERO, Quat::from_rotation_z(0.5), Vec3::ONE);

    serde_type::<Aabb>();
    serde_type::<Obb3>();
    serde_type::<BoxStore>();

    println!("glam interop: the game's vectors go into and come out of hantei");
    Ok(())
}
