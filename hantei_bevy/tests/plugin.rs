//! Headless tests of the plugin: Bevy's time and task pool plugins (the parts of
//! `MinimalPlugins` that the plugin needs) and one fixed step per `App::update`.

use bevy_app::{App, TaskPoolPlugin, Update};
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use hantei_bevy::hantei::frame::{FrameConfig, layers};
use hantei_bevy::hantei::{Response, Shape, TileMap};
use hantei_bevy::{
    AngularVelocity, Collider, ColliderDestroyed, CollisionEnded, CollisionError, CollisionLayers,
    CollisionResponse, CollisionStarted, CollisionWalls, CollisionWorld, DestroyMode, Destroyed,
    HanteiPlugin, StaticCollider, StaticHit, Velocity, WallHit,
};

/// Every message the plugin sent, in order.
#[derive(Resource, Default, Debug, PartialEq)]
struct Log {
    started: Vec<CollisionStarted>,
    ended: Vec<CollisionEnded>,
    walls: Vec<WallHit>,
    statics: Vec<StaticHit>,
    destroyed: Vec<ColliderDestroyed>,
    errors: Vec<CollisionError>,
}

fn collect(
    mut log: ResMut<Log>,
    mut started: MessageReader<CollisionStarted>,
    mut ended: MessageReader<CollisionEnded>,
    mut walls: MessageReader<WallHit>,
    mut statics: MessageReader<StaticHit>,
    mut destroyed: MessageReader<ColliderDestroyed>,
    mut errors: MessageReader<CollisionError>,
) {
    log.started.extend(started.read().copied());
    log.ended.extend(ended.read().copied());
    log.walls.extend(walls.read().copied());
    log.statics.extend(statics.read().copied());
    log.destroyed.extend(destroyed.read().copied());
    log.errors.extend(errors.read().cloned());
}

/// A headless app: one fixed step (1/64 s) per `update`.
fn app_with(plugin: HanteiPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((TaskPoolPlugin::default(), TimePlugin, plugin))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .init_resource::<Log>()
        .add_systems(Update, collect);
    app
}

fn app() -> App {
    app_with(HanteiPlugin::default())
}

fn steps(app: &App) -> u64 {
    app.world().resource::<CollisionWorld>().steps()
}

/// Updates until `n` fixed steps have run in all (at most `n + 2` updates).
fn run_steps(app: &mut App, n: u64) {
    for _ in 0..n + 2 {
        if steps(app) >= n {
            break;
        }
        app.update();
    }
    assert_eq!(steps(app), n, "the app ran {} fixed steps", steps(app));
}

fn pos(app: &App, e: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(e)
        .expect("alive")
        .translation
        .truncate()
}

fn store_len(app: &App) -> usize {
    app.world().resource::<CollisionWorld>().len()
}

#[test]
fn spawn_and_move_with_fixed_timestep() {
    let mut app = app();
    let e = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(0.0, 0.0, 5.0),
            Velocity(Vec2::new(64.0, -128.0)), // 1 and -2 units per step at 64 Hz
        ))
        .id();
    run_steps(&mut app, 1);
    assert_eq!(store_len(&app), 1);
    assert!(app.world().resource::<CollisionWorld>().handle(e).is_some());
    assert_eq!(pos(&app, e), Vec2::new(1.0, -2.0));
    run_steps(&mut app, 10);
    assert_eq!(pos(&app, e), Vec2::new(10.0, -20.0));
    // z is kept.
    assert_eq!(app.world().get::<Transform>(e).unwrap().translation.z, 5.0);

    // A teleport through the transform moves the box; a new velocity changes the motion.
    let mut ent = app.world_mut().entity_mut(e);
    ent.get_mut::<Transform>().unwrap().translation.x = 100.0;
    ent.insert(Velocity(Vec2::ZERO));
    run_steps(&mut app, 11);
    assert_eq!(pos(&app, e), Vec2::new(100.0, -20.0));
    let cw = app.world().resource::<CollisionWorld>();
    let shape = cw.store().shape(cw.handle(e).unwrap()).unwrap();
    assert_eq!(shape.bounds().center().x, 100.0);
}

#[test]
fn timestep_and_layer_changes_reach_the_store() {
    let mut app = app();
    let e = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::default(),
            Velocity(Vec2::new(64.0, 0.0)),
            CollisionLayers(layers::player()),
        ))
        .id();
    run_steps(&mut app, 1);
    assert_eq!(pos(&app, e), Vec2::new(1.0, 0.0));
    // Half the rate: each step is twice as long, so the motion doubles.
    app.world_mut()
        .resource_mut::<Time<Fixed>>()
        .set_timestep_hz(32.0);
    run_steps(&mut app, 2);
    assert_eq!(pos(&app, e), Vec2::new(3.0, 0.0));
    // A new filter is copied to the store.
    let sensor = CollisionLayers(layers::player()).sensor();
    app.world_mut().entity_mut(e).insert(sensor);
    run_steps(&mut app, 3);
    let cw = app.world().resource::<CollisionWorld>();
    let props = cw.store().props(cw.handle(e).unwrap()).unwrap();
    assert_eq!(props.filter, sensor.0);
    assert_eq!(props.filter.solid, 0);
}

fn bullet(at: Vec2, v: Vec2) -> impl Bundle {
    (
        Collider::circle(1.0),
        Transform::from_translation(at.extend(0.0)),
        Velocity(v),
        CollisionLayers(layers::player_bullet()),
        CollisionResponse(Response::Destroy),
    )
}

fn enemy(at: Vec2) -> impl Bundle {
    (
        Collider::circle(4.0),
        Transform::from_translation(at.extend(0.0)),
        CollisionLayers(layers::enemy()),
    )
}

#[test]
fn bullet_hits_enemy_and_is_despawned() {
    let mut app = app();
    let foe = app.world_mut().spawn(enemy(Vec2::new(30.0, 0.0))).id();
    // 10 units per step: it reaches the enemy's edge (x = 26) in step 3.
    let shot = app
        .world_mut()
        .spawn(bullet(Vec2::ZERO, Vec2::new(640.0, 0.0)))
        .id();
    run_steps(&mut app, 2);
    assert!(app.world().resource::<Log>().started.is_empty());
    assert_eq!(pos(&app, shot), Vec2::new(20.0, 0.0));
    run_steps(&mut app, 3);
    let log = app.world().resource::<Log>();
    assert_eq!(log.started.len(), 1);
    let hit = log.started[0];
    // The enemy spawned first, so its body sorts first.
    assert_eq!(hit.bodies, (foe, shot));
    assert_eq!(hit.colliders, (foe, shot));
    assert!(!hit.overlapping);
    assert!((hit.toi - 0.5).abs() < 1e-4, "toi {}", hit.toi);
    // The contact point: where the bullet's rim met the enemy's, at x = 26, on each.
    let p = hit.point;
    assert!((p.a - Vec2::new(26.0, 0.0)).length() < 1e-4, "{p:?}");
    assert!((p.b - Vec2::new(26.0, 0.0)).length() < 1e-4, "{p:?}");
    assert_eq!((p.normal, p.depth), (Vec2::X, 0.0)); // toward the enemy, colliders.0
    assert_eq!(log.destroyed.len(), 1);
    assert_eq!(log.destroyed[0].collider, shot);
    assert!(
        app.world().get_entity(shot).is_err(),
        "the bullet is despawned"
    );
    assert!(app.world().get_entity(foe).is_ok());
    assert_eq!(store_len(&app), 1);
    // Next step: the contact ends because the bullet left the store.
    run_steps(&mut app, 4);
    let log = app.world().resource::<Log>();
    assert_eq!(log.ended.len(), 1);
    assert_eq!(log.ended[0].bodies, (foe, shot));
    assert!(log.ended[0].removed);
    assert!(log.errors.is_empty());
}

#[test]
fn mark_mode_keeps_the_entity() {
    let mut app = app_with(HanteiPlugin {
        destroy: DestroyMode::Mark,
        ..Default::default()
    });
    app.world_mut().spawn(enemy(Vec2::new(5.0, 0.0)));
    let shot = app
        .world_mut()
        .spawn(bullet(Vec2::ZERO, Vec2::new(64.0, 0.0)))
        .id();
    run_steps(&mut app, 1);
    let w = app.world();
    assert!(w.get::<Destroyed>(shot).is_some());
    assert!(w.get::<Collider>(shot).is_none());
    assert!(w.get::<Transform>(shot).is_some());
    assert_eq!(store_len(&app), 1);
    // Moving the marked entity does not bring its collider back.
    app.world_mut()
        .get_mut::<Transform>(shot)
        .unwrap()
        .translation
        .x = 50.0;
    run_steps(&mut app, 2);
    assert_eq!(store_len(&app), 1);
}

#[test]
fn despawn_removes_the_box_without_panic() {
    let mut app = app();
    let a = app.world_mut().spawn(enemy(Vec2::ZERO)).id();
    let b = app
        .world_mut()
        .spawn(bullet(Vec2::new(50.0, 0.0), Vec2::ZERO))
        .id();
    let c = app
        .world_mut()
        .spawn(bullet(Vec2::new(90.0, 0.0), Vec2::ZERO))
        .id();
    run_steps(&mut app, 1);
    assert_eq!(store_len(&app), 3);
    app.world_mut().despawn(b);
    assert_eq!(store_len(&app), 2, "the box leaves at once");
    assert!(app.world().resource::<CollisionWorld>().handle(b).is_none());
    // Removing the collider alone removes the box too.
    app.world_mut().entity_mut(c).remove::<Collider>();
    assert_eq!(store_len(&app), 1);
    run_steps(&mut app, 3);
    assert_eq!(store_len(&app), 1);
    assert!(app.world().resource::<CollisionWorld>().handle(a).is_some());
    // Despawning within the same frame as spawning, before any step, is fine too.
    let d = app.world_mut().spawn(enemy(Vec2::ONE)).id();
    app.world_mut().despawn(d);
    run_steps(&mut app, 4);
    assert_eq!(store_len(&app), 1);
    assert!(app.world().resource::<Log>().errors.is_empty());
}

#[test]
fn respawn_begins_a_new_contact() {
    let mut app = app();
    let foe = app.world_mut().spawn(enemy(Vec2::ZERO)).id();
    let sensor = (
        Collider::circle(2.0),
        Transform::from_xyz(3.0, 0.0, 0.0),
        CollisionLayers(layers::player()),
    );
    let first = app.world_mut().spawn(sensor).id();
    run_steps(&mut app, 2);
    assert_eq!(app.world().resource::<Log>().started.len(), 1);
    app.world_mut().despawn(first);
    let second = app.world_mut().spawn(sensor).id();
    assert_ne!(first, second);
    run_steps(&mut app, 3);
    let log = app.world().resource::<Log>();
    assert_eq!(log.started.len(), 2);
    assert_eq!(log.started[1].colliders, (foe, second));
    assert_eq!(log.ended.len(), 1);
    assert_eq!(log.ended[0].colliders, (foe, first));
    assert!(log.ended[0].removed);
    assert_eq!(store_len(&app), 2);
}

#[test]
fn sensor_contact_does_not_stop_the_player() {
    let mut app = app();
    // The player stops at solid contacts, but only walls are solid to it.
    let player = app
        .world_mut()
        .spawn((
            Collider::circle(2.0),
            Transform::from_xyz(0.0, 0.0, 0.0),
            Velocity(Vec2::new(640.0, 0.0)),
            CollisionLayers(layers::player()),
            CollisionResponse(Response::Stop),
        ))
        .id();
    let shot = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(15.0, 0.0, 0.0),
            CollisionLayers(layers::enemy_bullet()),
        ))
        .id();
    run_steps(&mut app, 2);
    let log = app.world().resource::<Log>();
    assert_eq!(log.started.len(), 1);
    assert_eq!(log.started[0].colliders, (player, shot));
    assert_eq!(pos(&app, player), Vec2::new(20.0, 0.0), "not stopped");
    assert_eq!(pos(&app, shot), Vec2::new(15.0, 0.0));
}

#[test]
fn walls_from_a_tile_map() {
    let mut app = app();
    // Tiles 10 units wide: the wall tiles span x 50..60, in two rows.
    let map = TileMap::from_ascii(".....#\n.....#", Vec2::splat(10.0), Vec2::ZERO).unwrap();
    app.insert_resource(CollisionWalls::new(map));
    let shot = app
        .world_mut()
        .spawn(bullet(Vec2::new(5.0, 5.0), Vec2::new(1280.0, 0.0)))
        .id();
    let crate_ = app
        .world_mut()
        .spawn((
            Collider::rect(Vec2::splat(2.0)),
            Transform::from_xyz(40.0, 15.0, 0.0),
            Velocity(Vec2::new(640.0, 0.0)),
            CollisionLayers(layers::enemy()),
            CollisionResponse(Response::Stop),
        ))
        .id();
    run_steps(&mut app, 3);
    let log = app.world().resource::<Log>();
    assert!(log.walls.iter().any(|w| w.collider == shot));
    let hit = log.walls.iter().find(|w| w.collider == crate_).unwrap();
    assert_eq!(hit.tile.x, 5);
    assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
    // The crate's face (y 13..17) met the tile's (y 10..20) at x = 50: the middle of
    // the stretch they share.
    let p = hit.point;
    assert!((p.a - Vec2::new(50.0, 15.0)).length() < 1e-4, "{p:?}");
    assert!((p.b - Vec2::new(50.0, 15.0)).length() < 1e-4, "{p:?}");
    assert_eq!((p.normal, p.depth), (Vec2::new(-1.0, 0.0), 0.0));
    assert!(app.world().get_entity(shot).is_err());
    // The crate stops flush against the wall's face at x = 50.
    assert_eq!(pos(&app, crate_), Vec2::new(48.0, 15.0));
}

#[test]
fn static_colliders_stop_bullets_until_despawned() {
    let mut app = app();
    let pillar = app
        .world_mut()
        .spawn((
            Collider::rect(Vec2::splat(5.0)),
            Transform::from_xyz(30.0, 0.0, 0.0),
            CollisionLayers(layers::wall()),
            StaticCollider,
        ))
        .id();
    let first = app
        .world_mut()
        .spawn(bullet(Vec2::ZERO, Vec2::new(640.0, 0.0)))
        .id();
    run_steps(&mut app, 3);
    {
        let log = app.world().resource::<Log>();
        assert_eq!(log.statics.len(), 1);
        let hit = log.statics[0];
        assert_eq!((hit.collider, hit.static_collider), (first, pillar));
        assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
        assert!((hit.toi - 0.4).abs() < 1e-4, "toi {}", hit.toi);
        // The bullet's rim met the pillar's face at x = 25.
        let p = hit.point;
        assert!((p.a - Vec2::new(25.0, 0.0)).length() < 1e-4, "{p:?}");
        assert!((p.b - Vec2::new(25.0, 0.0)).length() < 1e-4, "{p:?}");
        assert_eq!((p.normal, p.depth), (Vec2::new(-1.0, 0.0), 0.0));
    }
    assert!(app.world().get_entity(first).is_err());
    let cw = app.world().resource::<CollisionWorld>();
    assert_eq!((cw.len(), cw.statics().store().len()), (0, 1));

    // Moved out of the way, the pillar lets the next bullet pass.
    app.world_mut()
        .get_mut::<Transform>(pillar)
        .unwrap()
        .translation
        .y = 50.0;
    let second = app
        .world_mut()
        .spawn(bullet(Vec2::ZERO, Vec2::new(640.0, 0.0)))
        .id();
    run_steps(&mut app, 7);
    assert_eq!(pos(&app, second), Vec2::new(40.0, 0.0));
    // Moved back, then despawned: the static level empties and nothing is hit.
    app.world_mut()
        .get_mut::<Transform>(pillar)
        .unwrap()
        .translation
        .y = 0.0;
    app.world_mut().despawn(pillar);
    run_steps(&mut app, 10);
    assert_eq!(pos(&app, second), Vec2::new(70.0, 0.0));
    let log = app.world().resource::<Log>();
    assert_eq!(log.statics.len(), 1);
    assert!(log.errors.is_empty());
    let cw = app.world().resource::<CollisionWorld>();
    assert!(cw.statics().store().is_empty());
    assert!(cw.handle(pillar).is_none());
}

#[test]
fn compound_children_share_their_parent_body() {
    let mut app = app();
    let boss = app
        .world_mut()
        .spawn((
            Collider::circle(4.0),
            Transform::from_xyz(0.0, 50.0, 0.0),
            Velocity(Vec2::new(64.0, 0.0)), // 1 unit per step
            CollisionLayers(layers::enemy()),
        ))
        .id();
    // Two arms that overlap the core: parts of one body never meet each other.
    let arms: Vec<Entity> = [-6.0, 6.0]
        .into_iter()
        .map(|dx| {
            let arm = (
                Collider::rect(Vec2::splat(3.0)),
                Transform::from_xyz(dx, 0.0, 0.0),
                CollisionLayers(layers::enemy()),
                ChildOf(boss),
            );
            app.world_mut().spawn(arm).id()
        })
        .collect();
    run_steps(&mut app, 2);
    assert!(app.world().resource::<Log>().started.is_empty());
    // The arms follow the core: the store holds them where the boss is now.
    let boss_at = pos(&app, boss);
    assert_eq!(boss_at, Vec2::new(2.0, 50.0));
    let cw = app.world().resource::<CollisionWorld>();
    let arm_at = cw.store().shape(cw.handle(arms[1]).unwrap()).unwrap();
    assert!((arm_at.bounds().center() - Vec2::new(8.0, 50.0)).length() < 1e-4);
    // Their own transforms stay local offsets.
    assert_eq!(pos(&app, arms[1]), Vec2::new(6.0, 0.0));

    // A bullet from below hits the right arm: the body is the boss.
    let shot = app
        .world_mut()
        .spawn(bullet(Vec2::new(9.0, 30.0), Vec2::new(0.0, 640.0)))
        .id();
    run_steps(&mut app, 4);
    let log = app.world().resource::<Log>();
    assert_eq!(log.started.len(), 1);
    assert_eq!(log.started[0].bodies, (boss, shot));
    assert_eq!(log.started[0].colliders, (arms[1], shot));
    assert!(app.world().get_entity(shot).is_err());

    // Despawning the boss despawns its arms, and all three boxes leave the store.
    app.world_mut().despawn(boss);
    assert!(app.world().get_entity(arms[0]).is_err());
    assert_eq!(store_len(&app), 0);
    run_steps(&mut app, 5);
    assert!(app.world().resource::<Log>().errors.is_empty());
}

#[test]
fn invalid_shape_is_refused_without_panic() {
    let mut app = app();
    let bad = app
        .world_mut()
        .spawn((Collider::circle(-1.0), Transform::default()))
        .id();
    let far = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(f32::NAN, 0.0, 0.0),
        ))
        .id();
    run_steps(&mut app, 1);
    assert_eq!(store_len(&app), 0);
    let errors: Vec<_> = app
        .world()
        .resource::<Log>()
        .errors
        .iter()
        .map(|e| e.entity)
        .collect();
    assert_eq!(errors, vec![Some(bad), Some(far)]);
    // Fixing the shape brings it in.
    app.world_mut()
        .entity_mut(bad)
        .insert(Collider::circle(1.0));
    run_steps(&mut app, 2);
    assert_eq!(store_len(&app), 1);
    app.world_mut().despawn(far);
    app.world_mut().despawn(bad);
    run_steps(&mut app, 3);
    assert_eq!(store_len(&app), 0);
}

#[test]
fn several_fixed_steps_in_one_update() {
    let mut app = app();
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(3));
    let foe = app.world_mut().spawn(enemy(Vec2::new(40.0, 0.0))).id();
    let shot = app
        .world_mut()
        .spawn(bullet(Vec2::ZERO, Vec2::new(640.0, 0.0)))
        .id();
    let mut updates = 0;
    while steps(&app) < 6 && updates < 4 {
        app.update();
        updates += 1;
    }
    assert_eq!(steps(&app), 6);
    assert_eq!(steps(&app) % 3, 0, "three steps per update");
    // The hit (in step 4) and its end (step 5) are both read in Update.
    let log = app.world().resource::<Log>();
    assert_eq!(log.started.len(), 1);
    assert_eq!(log.started[0].bodies, (foe, shot));
    assert_eq!(log.ended.len(), 1);
    assert!(log.ended[0].removed);
    assert!(app.world().get_entity(shot).is_err());
}

#[test]
fn a_refused_step_is_a_message_not_a_panic() {
    let mut app = app();
    // A tile map beyond hantei's coordinate limit: every step is refused.
    let far = Vec2::splat(2.0e8);
    let map = TileMap::from_ascii("#.", Vec2::splat(1000.0), far).unwrap();
    app.insert_resource(CollisionWalls::new(map));
    let e = app
        .world_mut()
        .spawn(bullet(Vec2::ZERO, Vec2::new(64.0, 0.0)))
        .id();
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(steps(&app), 0, "no step ran");
    let log = app.world().resource::<Log>();
    assert!(!log.errors.is_empty());
    assert!(log.errors.iter().all(|e| e.entity.is_none()));
    assert_eq!(pos(&app, e), Vec2::ZERO, "nothing moved");
    // Without the bad map, steps run again.
    app.world_mut().remove_resource::<CollisionWalls>();
    app.update();
    assert_eq!(steps(&app), 1);
    assert_eq!(pos(&app, e), Vec2::new(1.0, 0.0));
}

/// A bullet-hell scene: rings of bullets from enemies, enemies dying and respawning.
fn scene_log(seed: u32, plugin: HanteiPlugin) -> Log {
    let mut app = app_with(plugin);
    let map = TileMap::from_ascii(
        "##########\n#........#\n#........#\n#........#\n##########",
        Vec2::splat(20.0),
        Vec2::ZERO,
    )
    .unwrap();
    app.insert_resource(CollisionWalls::new(map));
    let mut foes: Vec<Entity> = (0..4)
        .map(|k| {
            let at = Vec2::new(40.0 + 30.0 * k as f32, 60.0);
            app.world_mut().spawn(enemy(at)).id()
        })
        .collect();
    let mut tick = 0u32;
    while steps(&app) < 60 {
        for k in 0..12u32 {
            let a = (k * 30 + tick * 7 + seed) as f32 * 0.0174533;
            let v = Vec2::from_angle(a) * 400.0;
            app.world_mut().spawn(bullet(Vec2::new(100.0, 30.0), v));
        }
        if tick % 20 == 19 {
            let old = foes.remove(0);
            app.world_mut().despawn(old);
            let at = Vec2::new(40.0 + tick as f32, 60.0);
            foes.push(app.world_mut().spawn(enemy(at)).id());
        }
        app.update();
        tick += 1;
    }
    assert!(tick <= 61);
    app.world_mut().remove_resource::<Log>().unwrap()
}

#[test]
fn identical_apps_send_identical_messages() {
    let a = scene_log(0, HanteiPlugin::default());
    let b = scene_log(0, HanteiPlugin::default());
    assert!(!a.started.is_empty() && !a.ended.is_empty());
    assert!(!a.walls.is_empty() && !a.destroyed.is_empty());
    assert_eq!(a, b);
    // A different scene gives different messages: the comparison is not vacuous.
    assert_ne!(a, scene_log(1, HanteiPlugin::default()));
}

#[test]
fn messages_do_not_depend_on_threads() {
    let one_thread = HanteiPlugin {
        config: FrameConfig {
            parallel: false,
            ..FrameConfig::default()
        },
        ..Default::default()
    };
    // Every frame on rayon's pool, even the small ones.
    let all_threads = HanteiPlugin {
        config: FrameConfig {
            parallel: true,
            parallel_threshold: 0,
            ..FrameConfig::default()
        },
        ..Default::default()
    };
    let a = scene_log(2, one_thread);
    assert!(!a.started.is_empty());
    assert_eq!(a, scene_log(2, all_threads));
}

/// A bullet that pairs with nothing, moving `k` units a step along x.
fn loner(at: Vec2, k: f32) -> impl Bundle {
    (
        Collider::circle(1.0),
        Transform::from_translation(at.extend(0.0)),
        Velocity(Vec2::new(64.0 * k, 0.0)),
        CollisionLayers::new(0, 0),
    )
}

/// Every collider's transform against its box in the store.
fn assert_transforms_match_the_store(app: &mut App) {
    let mut q = app
        .world_mut()
        .query_filtered::<(Entity, &Transform), (With<Collider>, Without<ChildOf>)>();
    let world = app.world();
    let cw = world.resource::<CollisionWorld>();
    for (e, t) in q.iter(world) {
        let h = cw.handle(e).expect("in the store");
        let center = match cw.store().shape(h).unwrap() {
            Shape::Aabb(a) => a.center(),
            Shape::Circle(c) => c.center,
            Shape::Obb2(o) => o.center,
            Shape::Capsule(c) => c.center(),
        };
        assert_eq!(t.translation.truncate(), center, "{e:?}");
    }
}

#[test]
fn write_back_follows_boxes_that_removals_moved() {
    let mut app = app();
    // Twenty bullets on rows of their own, each with its own speed, and an enemy
    // that destroys the bullets of row 0 as they reach it.
    let bullets: Vec<(Entity, Vec2, f32)> = (0..20)
        .map(|k| {
            let at = Vec2::new(0.0, 10.0 * k as f32);
            let speed = 1.0 + k as f32;
            let e = app.world_mut().spawn(loner(at, speed)).id();
            (e, at, speed)
        })
        .collect();
    let foe = app.world_mut().spawn(enemy(Vec2::new(40.0, -100.0))).id();
    let doomed = app
        .world_mut()
        .spawn(bullet(Vec2::new(0.0, -100.0), Vec2::new(640.0, 0.0)))
        .id();
    run_steps(&mut app, 2);
    // Despawning boxes in the middle and at the front of the store's dense order moves
    // its last boxes into their places.
    let gone = [bullets[0].0, bullets[7].0, bullets[8].0];
    for e in gone {
        app.world_mut().despawn(e);
    }
    run_steps(&mut app, 6);
    assert!(app.world().get_entity(doomed).is_err(), "destroyed");
    assert!(app.world().get_entity(foe).is_ok());
    for &(e, at, speed) in &bullets {
        if gone.contains(&e) {
            continue;
        }
        assert_eq!(pos(&app, e), at + Vec2::new(6.0 * speed, 0.0), "{e:?}");
    }
    assert_transforms_match_the_store(&mut app);
    // New bullets, and more removals: still every transform where its box is.
    let late = app
        .world_mut()
        .spawn(loner(Vec2::new(0.0, -50.0), 2.0))
        .id();
    app.world_mut().despawn(bullets[19].0);
    run_steps(&mut app, 9);
    assert_eq!(pos(&app, late), Vec2::new(6.0, -50.0));
    assert_transforms_match_the_store(&mut app);
    assert!(app.world().resource::<Log>().errors.is_empty());
}

#[test]
fn a_marked_entity_given_a_collider_again_moves_again() {
    let mut app = app_with(HanteiPlugin {
        destroy: DestroyMode::Mark,
        ..Default::default()
    });
    app.world_mut().spawn(enemy(Vec2::new(5.0, 0.0)));
    let shot = app
        .world_mut()
        .spawn(bullet(Vec2::ZERO, Vec2::new(64.0, 0.0)))
        .id();
    run_steps(&mut app, 1);
    assert!(app.world().get::<Destroyed>(shot).is_some());
    // Recycled as a bullet that passes through, far from the enemy.
    app.world_mut()
        .entity_mut(shot)
        .remove::<Destroyed>()
        .insert((
            Collider::circle(1.0),
            Transform::from_xyz(0.0, 100.0, 0.0),
            CollisionResponse(Response::Pass),
        ));
    run_steps(&mut app, 3);
    assert_eq!(store_len(&app), 2);
    assert_eq!(pos(&app, shot), Vec2::new(2.0, 100.0));
    assert_transforms_match_the_store(&mut app);
}

#[test]
fn a_collider_made_static_is_no_longer_written_back() {
    let mut app = app();
    let e = app.world_mut().spawn(loner(Vec2::ZERO, 1.0)).id();
    run_steps(&mut app, 2);
    assert_eq!(pos(&app, e), Vec2::new(2.0, 0.0));
    // The marker alone is noticed with the next change of a collider component.
    app.world_mut()
        .entity_mut(e)
        .insert((StaticCollider, Velocity(Vec2::new(64.0, 0.0))));
    run_steps(&mut app, 5);
    assert_eq!(pos(&app, e), Vec2::new(2.0, 0.0), "static: it stays");
    let cw = app.world().resource::<CollisionWorld>();
    assert_eq!((cw.len(), cw.statics().store().len()), (0, 1));
}

#[test]
fn a_reused_entity_index_gets_its_own_box() {
    let mut app = app();
    let old = app.world_mut().spawn(loner(Vec2::ZERO, 1.0)).id();
    run_steps(&mut app, 1);
    // The same index, one generation on.
    let next = app.world_mut().despawn_no_free(old).expect("alive");
    let new = app
        .world_mut()
        .spawn_at(next, loner(Vec2::new(0.0, 30.0), 2.0))
        .expect("a free id")
        .id();
    assert_eq!(new.index(), old.index());
    assert_ne!(new, old);
    let cw = app.world().resource::<CollisionWorld>();
    assert!(cw.handle(old).is_none() && cw.handle(new).is_none());
    run_steps(&mut app, 3);
    let cw = app.world().resource::<CollisionWorld>();
    assert!(cw.handle(old).is_none());
    assert!(cw.handle(new).is_some());
    assert_eq!(store_len(&app), 1);
    assert_eq!(pos(&app, new), Vec2::new(4.0, 30.0));
}

/// The angle of an entity's rotation about z, in radians.
fn angle(app: &App, e: Entity) -> f32 {
    let x = app.world().get::<Transform>(e).expect("alive").rotation * Vec3::X;
    x.y.atan2(x.x)
}

/// The shape of an entity's collider in the moving store.
fn stored_shape(app: &App, e: Entity) -> Shape {
    let cw = app.world().resource::<CollisionWorld>();
    cw.store()
        .shape(cw.handle(e).expect("in the store"))
        .unwrap()
}

/// One radian a step, in radians per second, at the default 64 steps a second.
const RAD_PER_STEP: f32 = 64.0;

#[test]
fn capsule_collider_hits_a_disc() {
    let mut app = app();
    // A capsule along x, 3 each side of its centre: its right end reaches x = 3.5.
    let rod = app
        .world_mut()
        .spawn((
            Collider::capsule(3.0, 0.5),
            Transform::default(),
            Velocity(Vec2::new(640.0, 0.0)), // 10 units per step
        ))
        .id();
    let disc = app
        .world_mut()
        .spawn((Collider::circle(1.0), Transform::from_xyz(20.5, 0.0, 0.0)))
        .id();
    // Turned by the transform: a quarter turn stands it up along y.
    let upright = app
        .world_mut()
        .spawn((
            Collider::capsule(2.0, 0.0),
            Transform::from_xyz(0.0, 100.0, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
        ))
        .id();
    run_steps(&mut app, 1);
    let Shape::Capsule(c) = stored_shape(&app, rod) else {
        panic!("not a capsule: {:?}", stored_shape(&app, rod));
    };
    assert_eq!(
        (c.a, c.b, c.radius),
        (Vec2::new(7.0, 0.0), Vec2::new(13.0, 0.0), 0.5)
    );
    let Shape::Capsule(u) = stored_shape(&app, upright) else {
        panic!("not a capsule");
    };
    assert!((u.a - Vec2::new(0.0, 98.0)).length() < 1e-5, "{u:?}");
    assert!((u.b - Vec2::new(0.0, 102.0)).length() < 1e-5, "{u:?}");
    assert!(app.world().resource::<Log>().started.is_empty());
    // The right end (13.5 now) meets the disc's rim (19.5) 0.6 into the next step.
    run_steps(&mut app, 2);
    let log = app.world().resource::<Log>();
    assert_eq!(log.started.len(), 1);
    let hit = log.started[0];
    assert_eq!(hit.colliders, (rod, disc));
    assert!(!hit.overlapping);
    assert!((hit.toi - 0.6).abs() < 1e-4, "toi {}", hit.toi);
    assert!(
        (hit.point.a - Vec2::new(19.5, 0.0)).length() < 1e-3,
        "{:?}",
        hit.point
    );
    assert!(log.errors.is_empty());
}

#[test]
fn capsules_as_static_colliders_and_parts() {
    let mut app = app();
    // A static capsule across the bullet's path, and a boss with a capsule arm.
    let bar = app
        .world_mut()
        .spawn((
            Collider::capsule(10.0, 1.0),
            Transform::from_xyz(30.0, 0.0, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
            CollisionLayers(layers::wall()),
            StaticCollider,
        ))
        .id();
    let boss = app
        .world_mut()
        .spawn((
            Collider::circle(2.0),
            Transform::from_xyz(0.0, 50.0, 0.0),
            CollisionLayers(layers::enemy()),
        ))
        .id();
    let arm = app
        .world_mut()
        .spawn((
            Collider::capsule(4.0, 1.0),
            Transform::from_xyz(6.0, 0.0, 0.0),
            CollisionLayers(layers::enemy()),
            ChildOf(boss),
        ))
        .id();
    let shot = app
        .world_mut()
        .spawn(bullet(Vec2::ZERO, Vec2::new(640.0, 0.0)))
        .id();
    let up = app
        .world_mut()
        .spawn(bullet(Vec2::new(8.0, 30.0), Vec2::new(0.0, 640.0)))
        .id();
    run_steps(&mut app, 3);
    let log = app.world().resource::<Log>();
    // The bullet's rim (x + 1) meets the bar's (x = 29) at x = 28: 0.8 into step 3.
    assert_eq!(log.statics.len(), 1);
    assert_eq!(
        (log.statics[0].collider, log.statics[0].static_collider),
        (shot, bar)
    );
    assert!(
        (log.statics[0].toi - 0.8).abs() < 1e-4,
        "{:?}",
        log.statics[0]
    );
    // The other bullet hits the arm (y = 49 at its bottom) and names the boss's body.
    assert_eq!(log.started.len(), 1);
    assert_eq!(log.started[0].bodies, (boss, up));
    assert_eq!(log.started[0].colliders, (arm, up));
    assert!(log.errors.is_empty());
}

/// A laser that turns 1 radian a step about the origin, and a small bullet at 0.5
/// radians from its start, 6 units out. The laser at its start and at its end passes
/// 2.9 units from the bullet: only a swept turn meets it.
fn laser_scene(laser: Collider) -> (App, Entity, Entity) {
    let mut app = app();
    let beam = app
        .world_mut()
        .spawn((
            laser,
            Transform::default(),
            AngularVelocity(RAD_PER_STEP),
            CollisionLayers(layers::enemy()),
        ))
        .id();
    let at = Vec2::from_angle(0.5) * 6.0;
    let shot = app
        .world_mut()
        .spawn((
            Collider::circle(0.2),
            Transform::from_translation(at.extend(0.0)),
            CollisionLayers(layers::player_bullet()),
            CollisionResponse(Response::Destroy),
        ))
        .id();
    // Not swept, the turn jumps over the bullet: neither end pose is near it.
    for a in [0.0f32, 1.0] {
        let off = Vec2::from_angle(a).perp_dot(at).abs();
        assert!(off > 2.8, "{off}");
    }
    (app, beam, shot)
}

fn laser_catches_the_bullet(laser: Collider) {
    let (mut app, beam, shot) = laser_scene(laser);
    run_steps(&mut app, 1);
    let log = app.world().resource::<Log>();
    assert!(log.errors.is_empty(), "{:?}", log.errors);
    assert_eq!(log.started.len(), 1, "{:?}", log.started);
    let hit = log.started[0];
    assert_eq!(hit.colliders, (beam, shot));
    // A little before 0.5: the laser and the bullet have widths.
    assert!(hit.toi > 0.4 && hit.toi < 0.5, "toi {}", hit.toi);
    assert_eq!(log.destroyed.len(), 1);
    assert!(app.world().get_entity(shot).is_err());
    // The laser passes through and turns the whole radian; its transform follows.
    assert!(
        (angle(&app, beam) - 1.0).abs() < 1e-5,
        "{}",
        angle(&app, beam)
    );
    assert_eq!(pos(&app, beam), Vec2::ZERO);
    // It goes on turning, a radian a step.
    run_steps(&mut app, 2);
    assert!(
        (angle(&app, beam) - 2.0).abs() < 1e-5,
        "{}",
        angle(&app, beam)
    );
    let stored = match stored_shape(&app, beam) {
        Shape::Obb2(o) => o.axis,
        Shape::Capsule(c) => (c.b - c.a).normalize(),
        other => panic!("cannot turn: {other:?}"),
    };
    assert!((stored - Vec2::from_angle(2.0)).length() < 1e-5);
    assert!(app.world().resource::<Log>().errors.is_empty());
}

#[test]
fn turning_capsule_laser_catches_a_bullet_it_would_jump_over() {
    laser_catches_the_bullet(Collider::capsule(10.0, 0.1));
}

#[test]
fn axis_aligned_rect_with_angular_velocity_turns() {
    // At angle 0 a rect is a plain box, which cannot turn: the plugin stores it
    // oriented when it has an angular velocity.
    laser_catches_the_bullet(Collider::rect(Vec2::new(10.0, 0.1)));
}

#[test]
fn a_stopped_laser_turns_only_until_its_hit() {
    let (mut app, beam, shot) = laser_scene(Collider::capsule(10.0, 0.1));
    // The bullet is a pillar now; the laser stops at its first solid hit.
    app.world_mut()
        .entity_mut(shot)
        .insert((StaticCollider, CollisionLayers(layers::wall())));
    app.world_mut()
        .entity_mut(beam)
        .insert(CollisionResponse(Response::Stop));
    run_steps(&mut app, 1);
    let log = app.world().resource::<Log>();
    assert!(log.errors.is_empty(), "{:?}", log.errors);
    assert_eq!(log.statics.len(), 1, "{:?}", log.statics);
    let toi = log.statics[0].toi;
    assert!(toi > 0.4 && toi < 0.5, "toi {toi}");
    // It turned toi radians, not the whole one.
    assert!(
        (angle(&app, beam) - toi).abs() < 1e-5,
        "{} {toi}",
        angle(&app, beam)
    );
}

#[test]
fn a_disc_with_angular_velocity_is_fine() {
    let mut app = app();
    let e = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::default(),
            Velocity(Vec2::new(64.0, 0.0)),
            AngularVelocity(RAD_PER_STEP),
        ))
        .id();
    run_steps(&mut app, 2);
    assert!(app.world().resource::<Log>().errors.is_empty());
    assert_eq!(pos(&app, e), Vec2::new(2.0, 0.0));
    assert_eq!(
        app.world().get::<Transform>(e).unwrap().rotation,
        Quat::IDENTITY
    );
    let cw = app.world().resource::<CollisionWorld>();
    assert_eq!(cw.store().turn(cw.handle(e).unwrap()), Some(0.0));
}

#[test]
fn removing_or_zeroing_angular_velocity_stops_the_turn() {
    let mut app = app();
    let spin = AngularVelocity(RAD_PER_STEP * 0.5);
    let a = app
        .world_mut()
        .spawn((
            Collider::rect(Vec2::new(4.0, 1.0)),
            Transform::default(),
            spin,
        ))
        .id();
    let b = app
        .world_mut()
        .spawn((Collider::capsule(4.0, 1.0), Transform::default(), spin))
        .id();
    run_steps(&mut app, 2);
    assert!((angle(&app, a) - 1.0).abs() < 1e-5);
    assert!((angle(&app, b) - 1.0).abs() < 1e-5);
    app.world_mut().entity_mut(a).remove::<AngularVelocity>();
    app.world_mut().entity_mut(b).insert(AngularVelocity(0.0));
    run_steps(&mut app, 4);
    assert!((angle(&app, a) - 1.0).abs() < 1e-5, "{}", angle(&app, a));
    assert!((angle(&app, b) - 1.0).abs() < 1e-5, "{}", angle(&app, b));
    let cw = app.world().resource::<CollisionWorld>();
    for e in [a, b] {
        assert_eq!(cw.store().turn(cw.handle(e).unwrap()), Some(0.0));
    }
    assert!(app.world().resource::<Log>().errors.is_empty());
}

#[test]
fn bad_turns_and_capsules_are_messages_not_panics() {
    let mut app = app();
    let nan = app
        .world_mut()
        .spawn((
            Collider::rect(Vec2::ONE),
            Transform::default(),
            AngularVelocity(f32::NAN),
        ))
        .id();
    let backwards = app
        .world_mut()
        .spawn((Collider::capsule(-1.0, 1.0), Transform::default()))
        .id();
    let spinning = app
        .world_mut()
        .spawn((
            Collider::capsule(1.0, 1.0),
            Transform::from_xyz(50.0, 0.0, 0.0),
            AngularVelocity(RAD_PER_STEP),
        ))
        .id();
    run_steps(&mut app, 1);
    {
        let log = app.world().resource::<Log>();
        let named: Vec<_> = log.errors.iter().map(|e| e.entity).collect();
        assert_eq!(named, vec![Some(nan), Some(backwards)]);
        assert!(matches!(
            log.errors[0].error,
            hantei_bevy::hantei::Error::InvalidMotion { .. }
        ));
        assert!(matches!(
            log.errors[1].error,
            hantei_bevy::hantei::Error::InvalidShape { .. }
        ));
    }
    assert_eq!(store_len(&app), 1);
    // Too fast a turn for a collider in the store: refused, and it keeps its turn.
    app.world_mut()
        .entity_mut(spinning)
        .insert(AngularVelocity(f32::INFINITY));
    run_steps(&mut app, 2);
    assert_eq!(app.world().resource::<Log>().errors.len(), 3);
    assert!((angle(&app, spinning) - 2.0).abs() < 1e-5);
    // Fixed, both join the store.
    app.world_mut().entity_mut(nan).insert(AngularVelocity(1.0));
    app.world_mut()
        .entity_mut(backwards)
        .insert(Collider::capsule(1.0, 1.0));
    run_steps(&mut app, 3);
    assert_eq!(store_len(&app), 3);
    assert_eq!(app.world().resource::<Log>().errors.len(), 3);
}

/// Turning lasers, capsules and rectangles, sweeping rings of bullets.
fn turning_scene_log(seed: u32) -> Log {
    let mut app = app();
    for k in 0..6u32 {
        let at = Vec2::new(30.0 * k as f32, 0.0);
        let laser = if k % 2 == 0 {
            Collider::capsule(12.0, 0.5)
        } else {
            Collider::rect(Vec2::new(12.0, 0.5))
        };
        let spin = (k as f32 - 2.5) * 0.3 * RAD_PER_STEP;
        app.world_mut().spawn((
            laser,
            Transform::from_translation(at.extend(0.0)),
            AngularVelocity(spin),
            CollisionLayers(layers::enemy()),
        ));
    }
    let mut tick = 0u32;
    while steps(&app) < 40 {
        for k in 0..8u32 {
            let a = (k * 45 + tick * 11 + seed) as f32 * 0.0174533;
            let v = Vec2::from_angle(a) * 300.0;
            app.world_mut().spawn((
                Collider::circle(0.5),
                Transform::from_xyz(75.0, 20.0, 0.0),
                Velocity(v),
                CollisionLayers(layers::player_bullet()),
                CollisionResponse(Response::Destroy),
            ));
        }
        app.update();
        tick += 1;
    }
    app.world_mut().remove_resource::<Log>().unwrap()
}

#[test]
fn turning_colliders_send_identical_messages_on_every_run() {
    let a = turning_scene_log(0);
    assert!(!a.started.is_empty() && !a.destroyed.is_empty());
    assert!(a.errors.is_empty(), "{:?}", a.errors);
    assert_eq!(a, turning_scene_log(0));
    assert_ne!(a, turning_scene_log(1));
}

#[test]
fn parts_take_up_a_turning_parents_rotation_a_step_later() {
    let mut app = app();
    let boss = app
        .world_mut()
        .spawn((
            Collider::rect(Vec2::splat(2.0)),
            Transform::default(),
            AngularVelocity(RAD_PER_STEP),
            CollisionLayers(layers::enemy()),
        ))
        .id();
    let arm = app
        .world_mut()
        .spawn((
            Collider::capsule(2.0, 0.5),
            Transform::from_xyz(6.0, 0.0, 0.0),
            CollisionLayers(layers::enemy()),
            AngularVelocity(RAD_PER_STEP), // ignored: parts do not turn
            ChildOf(boss),
        ))
        .id();
    run_steps(&mut app, 2);
    assert!((angle(&app, boss) - 2.0).abs() < 1e-5);
    // The arm was placed at the boss's angle after step 1, and did not turn in step 2.
    let Shape::Capsule(c) = stored_shape(&app, arm) else {
        panic!("not a capsule");
    };
    assert!(
        (c.center() - Vec2::from_angle(1.0) * 6.0).length() < 1e-4,
        "{c:?}"
    );
    assert!(((c.b - c.a).normalize() - Vec2::from_angle(1.0)).length() < 1e-5);
    let cw = app.world().resource::<CollisionWorld>();
    assert_eq!(cw.store().turn(cw.handle(arm).unwrap()), Some(0.0));
    // A part's transform is never written back.
    assert_eq!(angle(&app, arm), 0.0);
    assert!(app.world().resource::<Log>().errors.is_empty());
}

/// Each collider entity's dense index in the store, in the order of the query over
/// every collider (Bevy's tables, each in row order).
fn dense_indices(app: &mut App) -> Vec<Option<usize>> {
    let mut q = app.world_mut().query_filtered::<Entity, With<Collider>>();
    let world = app.world();
    let cw = world.resource::<CollisionWorld>();
    q.iter(world)
        .map(|e| cw.handle(e).and_then(|h| cw.store().index_of(h)))
        .collect()
}

#[test]
fn the_stores_order_follows_the_tables_order() {
    // Bullets of one archetype die on a column of enemies (the same archetype), a few
    // a step and several in one step, and new ones take their places each step. The
    // store's dense order stays the order of the one table: the write-back reads it
    // in sequence.
    let mut app = app();
    for k in 0..21 {
        app.world_mut()
            .spawn(enemy(Vec2::new(60.0, 10.0 * k as f32)));
    }
    let mut seed = 7u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let mut spawn = |app: &mut App| {
        let (row, speed) = (next() % 21, 1 + next() % 8);
        let at = Vec2::new((next() % 40) as f32, 10.0 * row as f32);
        app.world_mut()
            .spawn(bullet(at, Vec2::new(64.0 * speed as f32, 0.0)));
    };
    for _ in 0..60 {
        spawn(&mut app);
    }
    let (mut deaths, mut most) = (0, 0);
    for n in 1..=40 {
        run_steps(&mut app, n);
        let died = app.world().resource::<Log>().destroyed.len() - deaths;
        deaths += died;
        most = most.max(died);
        let order = dense_indices(&mut app);
        assert_eq!(order.len(), store_len(&app));
        for (row, &index) in order.iter().enumerate() {
            assert_eq!(index, Some(row), "step {n}: table row {row}");
        }
        for _ in 0..died {
            spawn(&mut app);
        }
    }
    assert!(
        deaths > 60 && most > 1,
        "{deaths} deaths, at most {most} in a step"
    );
    assert!(app.world().resource::<Log>().errors.is_empty());
}

#[test]
fn a_change_to_one_collider_among_many_reaches_the_store() {
    // Many colliders in one table, and one of each changed by a system: the sync's
    // walk over the change ticks finds each.
    let mut app = app();
    let rows: Vec<Entity> = (0..200)
        .map(|k| {
            let at = Vec2::new(0.0, 10.0 * k as f32);
            app.world_mut().spawn(loner(at, 1.0)).id()
        })
        .collect();
    let spinner = app
        .world_mut()
        .spawn((
            Collider::rect(Vec2::new(4.0, 1.0)),
            Transform::from_xyz(0.0, -50.0, 0.0),
            AngularVelocity(0.0),
        ))
        .id();
    run_steps(&mut app, 3);
    let world = app.world_mut();
    world.get_mut::<Velocity>(rows[10]).unwrap().0 = Vec2::new(128.0, 0.0);
    world.get_mut::<CollisionLayers>(rows[20]).unwrap().0 = layers::enemy();
    world.get_mut::<CollisionResponse>(rows[30]).unwrap().0 = Response::Stop;
    *world.get_mut::<Collider>(rows[40]).unwrap() = Collider::circle(2.5);
    world.get_mut::<Transform>(rows[50]).unwrap().translation.x = 100.0;
    world.get_mut::<AngularVelocity>(spinner).unwrap().0 = 6.4;
    run_steps(&mut app, 4);
    let cw = app.world().resource::<CollisionWorld>();
    let props = |e: Entity| cw.store().props(cw.handle(e).unwrap()).unwrap();
    let shape = |e: Entity| cw.store().shape(cw.handle(e).unwrap()).unwrap();
    assert_eq!(props(rows[10]).motion, Vec2::new(2.0, 0.0));
    assert_eq!(props(rows[20]).filter, layers::enemy());
    assert_eq!(props(rows[30]).response, Response::Stop);
    assert!(matches!(shape(rows[40]), Shape::Circle(c) if c.radius == 2.5));
    assert_eq!(pos(&app, rows[50]), Vec2::new(101.0, 500.0));
    assert_eq!(props(spinner).turn, 0.1);
    // The others kept what they had.
    for &e in [rows[0], rows[11], rows[199]].iter() {
        assert_eq!(props(e).motion, Vec2::new(1.0, 0.0));
        assert_eq!(props(e).filter, CollisionLayers::new(0, 0).0);
        assert_eq!(props(e).response, Response::Pass);
    }
    assert_eq!(pos(&app, rows[11]), Vec2::new(4.0, 110.0));
    assert!(app.world().resource::<Log>().errors.is_empty());
}

/// The entities whose `Transform` changed since the last update.
#[derive(Resource, Default)]
struct Moved(Vec<Entity>);

fn record_moved(mut moved: ResMut<Moved>, q: Query<Entity, Changed<Transform>>) {
    moved.0 = q.iter().collect();
}

#[test]
fn the_write_back_marks_only_the_transforms_it_moved() {
    let mut app = app();
    app.init_resource::<Moved>()
        .add_systems(Update, record_moved);
    let mover = app.world_mut().spawn(loner(Vec2::ZERO, 1.0)).id();
    let still = app.world_mut().spawn(loner(Vec2::new(0.0, 50.0), 0.0)).id();
    run_steps(&mut app, 1);
    for n in 2..6 {
        run_steps(&mut app, n);
        assert_eq!(app.world().resource::<Moved>().0, [mover], "step {n}");
    }
    assert_eq!(pos(&app, mover), Vec2::new(5.0, 0.0));
    assert_eq!(pos(&app, still), Vec2::new(0.0, 50.0));
}
