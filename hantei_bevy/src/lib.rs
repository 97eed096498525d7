//! # hantei_bevy
//!
//! A [Bevy](https://bevyengine.org) plugin for [hantei]: deterministic 2D collision
//! for games with many moving shapes, such as bullet-hell games.
//!
//! Add [`HanteiPlugin`] to an app, then give entities a [`Collider`]. Each fixed step
//! (Bevy's `FixedUpdate` schedule), the plugin:
//!
//! 1. copies what changed into one hantei [`BoxStore`]: new colliders, changed shapes,
//!    layers, responses, velocities, angular velocities and moved transforms.
//!    Despawned entities and removed colliders leave the store at once. Nothing is
//!    rebuilt from scratch.
//! 2. runs one [`Frame::advance`](hantei::frame::Frame::advance): contacts, walls from
//!    the [`CollisionWalls`] resource, the [`StaticCollider`]s, responses, motion.
//! 3. writes the new positions, and the new angles of turning colliders, back to each
//!    moving entity's `Transform`.
//! 4. writes the report as messages: [`CollisionStarted`], [`CollisionEnded`],
//!    [`WallHit`], [`StaticHit`] and [`ColliderDestroyed`], with an [`Entity`] on each
//!    side. Read them with a `MessageReader` in `FixedUpdate` after
//!    [`HanteiSystems::Step`], or in `Update`.
//! 5. despawns each collider that its [`Response::Destroy`] destroyed, or marks it with
//!    [`Destroyed`], as [`HanteiPlugin::destroy`] says.
//!
//! ```
//! use bevy_app::App;
//! use bevy_math::Vec2;
//! use bevy_transform::components::Transform;
//! use hantei_bevy::{Collider, CollisionLayers, CollisionResponse, HanteiPlugin, Velocity};
//! use hantei_bevy::hantei::{Response, frame::layers};
//!
//! let mut app = App::new();
//! app.add_plugins(HanteiPlugin::default()); // the one line
//! app.world_mut().spawn((
//!     Collider::circle(1.0),
//!     Transform::from_xyz(0.0, 0.0, 0.0),
//!     Velocity(Vec2::new(0.0, 300.0)), // units per second
//!     CollisionLayers(layers::player_bullet()),
//!     CollisionResponse(Response::Destroy),
//! ));
//! ```
//!
//! ## Time
//! A [`Velocity`] is in units per second. Each fixed step moves an entity by its
//! velocity times the fixed timestep, `Time<Fixed>::timestep()`. Add Bevy's
//! `TimePlugin` (part of `MinimalPlugins` and `DefaultPlugins`) to run `FixedUpdate`
//! on its clock. Without it the plugin uses Bevy's default timestep, 1/64 s, and runs
//! whenever something runs `FixedUpdate`.
//!
//! ## Positions and shapes
//! A collider's centre is its entity's `Transform` translation (x and y). A
//! [`Collider::Rect`] and a [`Collider::Capsule`] turn with the transform's rotation
//! about z; a capsule's segment lies along the local x axis. Scale is ignored. The
//! plugin reads `Transform`, not `GlobalTransform`, so it needs no transform
//! propagation and sees this step's positions.
//!
//! An [`AngularVelocity`] turns a rectangle or a capsule about its centre during each
//! step, in radians per second, with swept collision like a [`Velocity`]. After the
//! step the turn it made is added to the transform's rotation about z. A disc ignores
//! it. Parts of a compound body do not turn during a step (see below).
//!
//! ## Bodies and compound bodies
//! Each collider is a body of its own, and messages name bodies by entity. A collider
//! entity with a `ChildOf` parent is a part of its parent's body instead: the parts of
//! one body never collide with each other, and a contact with any part is one contact
//! with the body ([`CollisionStarted::bodies`] names the parent,
//! [`CollisionStarted::colliders`] the part). A part's `Transform` is its offset from
//! the parent, turned by the parent's rotation. It moves with the parent's
//! [`Velocity`] and its own is ignored; each step it is placed where the parent is.
//! A part does not turn during a step: its own [`AngularVelocity`] is ignored, and a
//! turning parent's parts take up the parent's new rotation at the next step's start.
//! Only one level counts: a grandchild is a part of its own parent's body. The parent
//! is usually a collider too (its core); despawning it despawns its parts.
//! A part's transform is never written back, so give parts [`Response::Pass`] or
//! [`Response::Destroy`].
//!
//! Bodies sort by entity index, then generation, so within one generation an entity
//! spawned earlier comes first in a pair.
//!
//! ## Features
//! - `gizmos`: `HanteiGizmosPlugin` (module `gizmos`) draws the walls,
//!   the colliders, their swept bounds and the last step's contacts with Bevy's gizmos.
//!   It brings in `bevy_gizmos` and its rendering-side dependencies.
//!
//! ## Build it with `-p`
//! This crate takes hantei with glam 0.33 (Bevy's), the workspace's root package with
//! glam 0.34. Build it on its own (`cargo test -p hantei_bevy`), never with
//! `--workspace`: cargo would turn on both of hantei's glam features and hantei refuses
//! that.
//!
//! ## Bad input
//! Nothing panics on bad input. A collider whose shape hantei refuses (a negative
//! radius, a NaN position, a coordinate beyond [`hantei::MAX_COORDINATE`]) stays out of
//! the store, and a [`CollisionError`] message names the entity and the error. It joins
//! the store when one of its components changes and the shape is then valid. The same
//! goes for a capsule with a negative half length, and for a new collider whose
//! [`AngularVelocity`] makes a turn that hantei refuses (NaN, infinite, or more than
//! [`hantei::MAX_TURN`] a step). A collider already in the store whose new turn is
//! refused keeps its last turn, and a message names it too. A step that hantei refuses
//! moves nothing and writes a [`CollisionError`] with no entity.
//!
//! ## Determinism
//! New colliders enter the store in the order of Bevy's tables: table by table, each
//! in row order, which is the order in which the entities came into the table as
//! despawns left it. Destroyed entities are despawned (or marked) from the last row
//! up. Bevy's tables and hantei's report are deterministic, so an app that spawns the
//! same entities in the same order gets the same messages in the same order on every
//! run and thread count. Messages of one step come in hantei's report order: each kind
//! sorted by body pair or by collider.
//!
//! ## What a message's entities may be
//! A message can name an entity that is gone by the time it is read: a bullet that its
//! hit destroyed, or an entity despawned since. Look entities up with `Query::get` and
//! skip the ones that fail.

use bevy_app::{App, FixedUpdate, Plugin};
use bevy_ecs::change_detection::{
    ContiguousComponentTicksRef, ContiguousMut, ContiguousRef, MAX_CHANGE_AGE, Tick,
};
use bevy_ecs::entity::{Entities, EntityGeneration, EntityIndex};
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemChangeTick;
use bevy_ecs::world::DeferredWorld;
use bevy_math::{IVec2, Quat, Vec2, Vec3};
use bevy_time::{Fixed, Time};
use bevy_transform::components::Transform;
use hantei::frame::{Body, Frame, FrameConfig, Level, StaticLevel};
use hantei::{
    Aabb, BoxHandle, BoxProps, BoxStore, Capsule, Circle, ContactPoint, Error, Filter, Obb2, Owner,
    Response, Shape,
};

pub use hantei;

#[cfg(feature = "gizmos")]
pub mod gizmos;
#[cfg(feature = "gizmos")]
pub use gizmos::{HanteiGizmos, HanteiGizmosPlugin};

/// The plugin. Add it once: `app.add_plugins(HanteiPlugin::default())`.
#[derive(Debug, Clone, Default)]
pub struct HanteiPlugin {
    /// What happens to an entity whose collider hantei destroys.
    pub destroy: DestroyMode,
    /// The frame's settings (threads, SIMD level). The default is hantei's.
    pub config: FrameConfig,
}

/// What happens to an entity whose collider a [`Response::Destroy`] destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DestroyMode {
    /// The entity is despawned (the default).
    #[default]
    Despawn,
    /// The entity gets the [`Destroyed`] marker and loses its [`Collider`]. Its other
    /// components stay, for an impact effect or a pool of bullets.
    Mark,
}

/// The plugin's systems, all in `FixedUpdate`, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, SystemSet)]
pub enum HanteiSystems {
    /// Copies changed components into the store.
    Sync,
    /// Runs the frame, writes transforms back and sends the messages.
    Step,
}

impl Plugin for HanteiPlugin {
    fn build(&self, app: &mut App) {
        if !app.world().contains_resource::<Time<Fixed>>() {
            app.init_resource::<Time<Fixed>>();
        }
        app.insert_resource(CollisionWorld::new(self.config, self.destroy))
            .add_message::<CollisionStarted>()
            .add_message::<CollisionEnded>()
            .add_message::<WallHit>()
            .add_message::<StaticHit>()
            .add_message::<ColliderDestroyed>()
            .add_message::<CollisionError>()
            .configure_sets(
                FixedUpdate,
                (HanteiSystems::Sync, HanteiSystems::Step).chain(),
            )
            .add_systems(FixedUpdate, sync_colliders.in_set(HanteiSystems::Sync))
            .add_systems(FixedUpdate, step.in_set(HanteiSystems::Step));
    }
}

/// A collider's shape, centred on its entity's `Transform` translation.
///
/// Adding it adds [`CollisionLayers`], [`CollisionResponse`], [`Velocity`] and
/// `Transform` with their defaults when the entity lacks them, and a private component
/// that remembers the collider's box. Removing it, or
/// despawning the entity, removes the collider from the store at once.
/// [`AngularVelocity`] is not added: a collider without one does not turn.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[component(on_remove = on_collider_remove, summary_tick)]
#[require(Transform, CollisionLayers, CollisionResponse, Velocity, MovingBox)]
pub enum Collider {
    /// A disc.
    Circle {
        /// Its radius, zero or more.
        radius: f32,
    },
    /// A rectangle, axis-aligned unless the transform turns it about z.
    Rect {
        /// Half its width and half its height, zero or more.
        half_extents: Vec2,
    },
    /// A capsule: every point within `radius` of a segment. The segment lies along the
    /// entity's local x axis, `half_length` each side of the centre, and turns with the
    /// transform's rotation about z. A radius of zero makes a plain segment, such as a
    /// thin laser.
    Capsule {
        /// Half the segment's length, zero or more. The plugin refuses a negative one.
        half_length: f32,
        /// Its radius, zero or more.
        radius: f32,
    },
}

impl Collider {
    /// A disc of this radius.
    #[must_use]
    pub const fn circle(radius: f32) -> Self {
        Collider::Circle { radius }
    }

    /// A rectangle with these half extents.
    #[must_use]
    pub const fn rect(half_extents: Vec2) -> Self {
        Collider::Rect { half_extents }
    }

    /// A capsule: a segment along the local x axis, `half_length` each side of the
    /// centre, with this radius.
    #[must_use]
    pub const fn capsule(half_length: f32, radius: f32) -> Self {
        Collider::Capsule {
            half_length,
            radius,
        }
    }

    /// The hantei shape of this collider at `center`, turned by `angle` radians.
    ///
    /// A rectangle at angle 0 is a plain box ([`Shape::Aabb`]). A rectangle that turns
    /// with an [`AngularVelocity`] is stored as an oriented one ([`Shape::Obb2`])
    /// instead, even at angle 0, as a plain box cannot turn.
    #[must_use]
    pub fn shape_at(&self, center: Vec2, angle: f32) -> Shape {
        match *self {
            Collider::Rect { half_extents } if angle == 0.0 => {
                Shape::Aabb(Aabb::from_center_half_extents(center, half_extents))
            }
            _ => self.oriented_shape_at(center, angle),
        }
    }

    /// The shape at `center`, turned by `angle`, with a rectangle always oriented.
    fn oriented_shape_at(&self, center: Vec2, angle: f32) -> Shape {
        match *self {
            Collider::Circle { radius } => Shape::Circle(Circle::new(center, radius)),
            Collider::Rect { half_extents } => {
                Shape::Obb2(Obb2::from_angle(center, half_extents, angle))
            }
            Collider::Capsule {
                half_length,
                radius,
            } => {
                let (s, c) = angle.sin_cos();
                let half = Vec2::new(c, s) * half_length;
                Shape::Capsule(Capsule::new(center - half, center + half, radius))
            }
        }
    }

    /// Whether an [`AngularVelocity`] turns this collider: a rectangle, or a capsule
    /// longer than a disc.
    fn can_turn(&self) -> bool {
        match *self {
            Collider::Circle { .. } => false,
            Collider::Rect { .. } => true,
            Collider::Capsule { half_length, .. } => half_length != 0.0,
        }
    }

    /// The shape to store: checked for what hantei does not check, and oriented when
    /// the collider turns (`turn` is not zero).
    fn store_shape(&self, center: Vec2, angle: f32, turn: f32) -> Result<Shape, Error> {
        if let Collider::Capsule { half_length, .. } = *self
            && half_length < 0.0
        {
            return Err(Error::InvalidShape {
                index: 0,
                reason: "negative capsule half length",
            });
        }
        Ok(if turn != 0.0 {
            self.oriented_shape_at(center, angle)
        } else {
            self.shape_at(center, angle)
        })
    }
}

/// A collider's layers, mask and solid layers: a hantei [`Filter`].
///
/// The default, [`Filter::ALL`], pairs with everything and responds to everything.
/// [`hantei::frame::layers`] has presets for a bullet-hell game. A filter with no solid
/// layer ([`CollisionLayers::sensor`]) reports its contacts and never responds.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[component(summary_tick)]
pub struct CollisionLayers(pub Filter);

impl CollisionLayers {
    /// Layers from their bits and mask; every paired layer is solid.
    #[must_use]
    pub const fn new(layers: u32, mask: u32) -> Self {
        CollisionLayers(Filter::new(layers, mask))
    }

    /// These layers with their solid layers set.
    #[must_use]
    pub const fn with_solid(self, solid: u32) -> Self {
        CollisionLayers(self.0.with_solid(solid))
    }

    /// These layers with no solid layer: a sensor.
    #[must_use]
    pub const fn sensor(self) -> Self {
        CollisionLayers(self.0.sensor())
    }
}

impl From<Filter> for CollisionLayers {
    fn from(filter: Filter) -> Self {
        CollisionLayers(filter)
    }
}

/// What a collider does at its first solid contact of a step: a hantei [`Response`].
/// The default is [`Response::Pass`].
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[component(summary_tick)]
pub struct CollisionResponse(pub Response);

/// A collider's velocity in units per second. Each fixed step moves it by the velocity
/// times the timestep, with swept collision (nothing tunnels).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
#[component(summary_tick)]
pub struct Velocity(pub Vec2);

/// How fast a collider turns, in radians per second, counter-clockwise about z. The
/// default is 0.
///
/// Add it to a collider that turns; [`Collider`] does not add it, so bullets that
/// never turn do not carry it. Removing it stops the turn at the next step.
///
/// Each fixed step turns a [`Collider::Rect`] or a [`Collider::Capsule`] about its
/// centre by the angular velocity times the timestep, with swept collision: a fast
/// laser does not jump over a bullet. After the step the plugin adds the turn it made
/// to the rotation about z of the entity's `Transform`. A collider stopped at its
/// first hit ([`Response::Stop`]) turns only up to that time.
///
/// A disc ignores it, and so does a capsule of half length 0, which is a disc. So do
/// a [`StaticCollider`] and a part of a compound body: a part does not turn with its
/// own angular velocity nor with its parent's. A part is placed at its parent's
/// transform at the start of each step, so it takes up the rotation that a turning
/// parent wrote back one step later, without a swept turn.
///
/// Hantei refuses a turn that is NaN, infinite or more than [`hantei::MAX_TURN`]
/// radians a step: the collider keeps its last turn and a [`CollisionError`] message
/// names it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
#[component(summary_tick)]
pub struct AngularVelocity(pub f32);

/// Marks a collider as level geometry that does not move: a pillar, a fixed turret.
///
/// Spawn it together with the [`Collider`]. The collider goes into a hantei
/// [`StaticLevel`] instead of the moving store: moving colliders meet it, with its
/// [`CollisionLayers`], and their hits come as [`StaticHit`] messages. Its
/// [`Velocity`], [`AngularVelocity`] and [`CollisionResponse`] are ignored. Moving
/// it, changing it or despawning it rebuilds the level's index once in the next step,
/// so keep such changes rare. Adding or removing this marker on an entity that already has a
/// collider is not noticed until one of its collider components changes.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StaticCollider;

/// The marker that [`DestroyMode::Mark`] adds to an entity whose collider was destroyed.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Destroyed;

/// The walls: the solid tiles of a hantei [`TileMap`](hantei::TileMap).
///
/// Insert it as a resource; replace or remove it at any time.
#[derive(Resource, Debug, Clone)]
pub struct CollisionWalls {
    /// The tile map. Every non-empty tile is a wall.
    pub map: hantei::TileMap,
    /// The walls' filter. The default is [`hantei::frame::layers::wall`].
    pub filter: Filter,
}

impl CollisionWalls {
    /// Walls from a tile map, with the filter [`hantei::frame::layers::wall`].
    #[must_use]
    pub fn new(map: hantei::TileMap) -> Self {
        CollisionWalls {
            map,
            filter: hantei::frame::layers::wall(),
        }
    }
}

/// Two bodies began to touch this step.
///
/// `bodies.0` sorts before `bodies.1` by hantei's body order. `colliders` are the two
/// collider entities that touched first; for a collider without a compound body, a
/// body is its collider.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct CollisionStarted {
    /// The two bodies.
    pub bodies: (Entity, Entity),
    /// The collider of each body that touched first.
    pub colliders: (Entity, Entity),
    /// The time of impact as a fraction of the step; `0` when they already overlapped.
    pub toi: f32,
    /// The normal of the face of `colliders.1` that `colliders.0` hit, pointing toward
    /// `colliders.0`; zero when they already overlapped.
    pub normal: Vec2,
    /// Whether they already touched as the step began.
    pub overlapping: bool,
    /// Where the colliders touched, in world coordinates: `point.a` on `colliders.0`
    /// and `point.b` on `colliders.1`, each where it was at `toi`. `point.normal` is
    /// the unit normal pointing toward `colliders.0`. For a hit the two points are the
    /// same (up to rounding) and `point.depth` is `0`. For an overlap, moving
    /// `colliders.0` by `point.normal * point.depth` separates them. All zero in the
    /// rare case where the step reports no contact for the pair.
    pub point: ContactPoint,
}

/// Two bodies stopped touching this step.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CollisionEnded {
    /// The two bodies, in the order of their [`CollisionStarted`].
    pub bodies: (Entity, Entity),
    /// The colliders of the last step's contact.
    pub colliders: (Entity, Entity),
    /// Whether it ended because a collider left the store (destroyed, despawned or its
    /// `Collider` removed) rather than moving apart.
    pub removed: bool,
}

/// A collider's earliest contact with a wall tile this step.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct WallHit {
    /// The collider.
    pub collider: Entity,
    /// The tile's column and row.
    pub tile: IVec2,
    /// The time of impact as a fraction of the step; `0` for an overlap.
    pub toi: f32,
    /// The normal of the tile's face, pointing toward the collider; zero for an overlap.
    pub normal: Vec2,
    /// Whether the collider touched or was inside the tile as the step began.
    pub overlapping: bool,
    /// Where they touched, in world coordinates: `point.a` on the collider, where it
    /// was at `toi`, and `point.b` on the tile, `point.normal` pointing toward the
    /// collider. For an overlap, `point.depth` is how far the collider is inside this
    /// one tile along `point.normal`.
    pub point: ContactPoint,
}

/// A moving collider's earliest contact with a [`StaticCollider`] this step.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct StaticHit {
    /// The moving collider.
    pub collider: Entity,
    /// The static collider.
    pub static_collider: Entity,
    /// The time of impact as a fraction of the step; `0` for an overlap.
    pub toi: f32,
    /// The normal of the static collider's face, pointing toward the moving collider;
    /// zero for an overlap.
    pub normal: Vec2,
    /// Whether they already touched as the step began.
    pub overlapping: bool,
    /// Where they touched, in world coordinates: `point.a` on the moving collider,
    /// where it was at `toi`, and `point.b` on the static one, `point.normal` pointing
    /// toward the moving collider. For an overlap, `point.depth` is how deep they
    /// overlap along `point.normal`.
    pub point: ContactPoint,
}

/// A collider that its [`Response::Destroy`] destroyed this step.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct ColliderDestroyed {
    /// The collider's entity, despawned or marked as [`HanteiPlugin::destroy`] says.
    pub collider: Entity,
    /// Its shape where it was at its first contact.
    pub shape: Shape,
    /// The time of that contact as a fraction of the step.
    pub toi: f32,
}

/// Something hantei refused.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct CollisionError {
    /// The collider whose shape or position was refused; `None` for a refused step.
    pub entity: Option<Entity>,
    /// hantei's error.
    pub error: hantei::Error,
}

/// What the plugin keeps of a collider in the store.
#[derive(Debug, Clone, Copy)]
struct Tracked {
    handle: BoxHandle,
    /// Whether the box is in the static level rather than the moving store.
    is_static: bool,
}

/// A collider's box in the moving store, kept on the entity for the write-back, which
/// reads it in the tables' own order. `handle` is `None` while the collider is not in
/// the moving store (not yet synced, refused, static or destroyed): the sync sets it
/// and the `Collider`'s remove hook clears it.
///
/// `Collider` requires it, so it comes with the collider at spawn and never moves the
/// entity to another archetype later (a component inserted after the spawn would).
#[derive(Component, Debug, Clone, Copy, Default)]
struct MovingBox {
    handle: Option<BoxHandle>,
    /// The box's dense index when last seen: right unless a removal moved the box.
    index: u32,
    /// Whether the box has a turn, so its angle is written back too.
    turns: bool,
}

/// The box of each collider entity, at the entity's index: no hashing, and a lookup
/// is one read.
#[derive(Default)]
struct Boxes(Vec<Option<(Entity, Tracked)>>);

impl Boxes {
    /// The box of `entity`, if it has one.
    #[inline]
    fn get(&self, entity: Entity) -> Option<Tracked> {
        match self.0.get(entity.index_u32() as usize) {
            Some(&Some((e, t))) if e == entity => Some(t),
            _ => None,
        }
    }

    fn insert(&mut self, entity: Entity, t: Tracked) {
        let i = entity.index_u32() as usize;
        if i >= self.0.len() {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some((entity, t));
    }

    /// Forgets the box of `entity` and returns it.
    fn remove(&mut self, entity: Entity) -> Option<Tracked> {
        let slot = self.0.get_mut(entity.index_u32() as usize)?;
        match *slot {
            Some((e, t)) if e == entity => {
                *slot = None;
                Some(t)
            }
            _ => None,
        }
    }
}

/// The collision state: one hantei [`BoxStore`] and [`Frame`], and the map from
/// entities to their boxes. The plugin inserts it.
#[derive(Resource)]
pub struct CollisionWorld {
    store: BoxStore,
    frame: Frame,
    boxes: Boxes,
    /// The step's destroyed entities by table and row (kept for its allocation).
    doomed: Vec<(u32, u32, Entity)>,
    /// The sync's list of colliders that may have changed (kept for its allocation).
    candidates: Vec<Entity>,
    statics: StaticLevel,
    /// Static boxes whose collider went, to remove at the next sync.
    statics_removed: Vec<BoxHandle>,
    destroy: DestroyMode,
    /// The timestep of the last sync, to reset every motion when it changes.
    dt: f32,
    steps: u64,
    /// The tick of the last write-back: a transform last changed at this tick holds
    /// what the store already has.
    write_tick: Tick,
}

impl CollisionWorld {
    fn new(config: FrameConfig, destroy: DestroyMode) -> Self {
        CollisionWorld {
            store: BoxStore::new(),
            frame: Frame::with_config(config),
            boxes: Boxes::default(),
            doomed: Vec::new(),
            candidates: Vec::new(),
            statics: StaticLevel::default(),
            statics_removed: Vec::new(),
            destroy,
            dt: f32::NAN,
            steps: 0,
            write_tick: Tick::new(0),
        }
    }

    /// The store of boxes. Each box's `user_data` is its entity's `to_bits()`.
    #[must_use]
    pub fn store(&self) -> &BoxStore {
        &self.store
    }

    /// The static level: the [`StaticCollider`]s. Each box's `user_data` is its
    /// entity's `to_bits()`.
    #[must_use]
    pub fn statics(&self) -> &StaticLevel {
        &self.statics
    }

    /// The frame, with the last step's full report ([`Frame::report`]).
    #[must_use]
    pub fn frame(&self) -> &Frame {
        &self.frame
    }

    /// The box of an entity's collider, if it is in the store.
    #[must_use]
    pub fn handle(&self, entity: Entity) -> Option<BoxHandle> {
        self.boxes.get(entity).map(|t| t.handle)
    }

    /// The entity of a box's `user_data`, if the bits name an entity.
    #[must_use]
    pub fn entity_of(user_data: u64) -> Option<Entity> {
        Entity::try_from_bits(user_data)
    }

    /// How many moving (not static) colliders are in the store.
    #[must_use]
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// Whether the moving store is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.store.is_empty()
    }

    /// How many steps have run.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }
}

/// Removes a collider's box when its `Collider` goes (removed or despawned).
fn on_collider_remove(mut world: DeferredWorld, ctx: HookContext) {
    if let Some(mut moving) = world.get_mut::<MovingBox>(ctx.entity) {
        moving.handle = None;
    }
    if let Some(mut cw) = world.get_resource_mut::<CollisionWorld>()
        && let Some(t) = cw.boxes.remove(ctx.entity)
    {
        if t.is_static {
            // Removed at the next sync, with one rebuild for all the changes.
            cw.statics_removed.push(t.handle);
        } else {
            // The handle is live: the map and the store change together.
            let _ = cw.store.remove(t.handle);
        }
    }
}

/// The angle of a transform's rotation about z, in radians.
fn angle_of(t: &Transform) -> f32 {
    let x = t.rotation * Vec3::X;
    if x.y == 0.0 && x.x > 0.0 {
        0.0
    } else {
        x.y.atan2(x.x)
    }
}

/// The angle of a turning shape's local x axis: a rectangle's axis, a capsule's segment
/// from `a` to `b`. `None` for other shapes and for a capsule of length 0.
fn angle_of_shape(shape: &Shape) -> Option<f32> {
    let x = match *shape {
        Shape::Obb2(o) => o.axis,
        Shape::Capsule(c) => c.b - c.a,
        Shape::Aabb(_) | Shape::Circle(_) => return None,
    };
    (x != Vec2::ZERO).then(|| x.y.atan2(x.x))
}

/// An angle brought into `[-pi, pi]`, so that a turn written back stays small.
fn wrap_angle(a: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    if a > PI {
        a - TAU
    } else if a < -PI {
        a + TAU
    } else {
        a
    }
}

/// A collider's turn each step: its angular velocity times the timestep, for a
/// rectangle or a capsule that is not a part of a compound body; 0 otherwise.
fn turn_of(collider: &Collider, spin: Option<&AngularVelocity>, part: bool, dt: f32) -> f32 {
    match spin {
        Some(s) if !part && collider.can_turn() && s.0 != 0.0 => s.0 * dt,
        _ => 0.0,
    }
}

type SyncItem<'a> = (
    Entity,
    Ref<'a, Collider>,
    Ref<'a, Transform>,
    Ref<'a, CollisionLayers>,
    Ref<'a, CollisionResponse>,
    Ref<'a, Velocity>,
    Option<Ref<'a, AngularVelocity>>,
    Has<StaticCollider>,
    Option<Ref<'a, ChildOf>>,
);

/// What the sync's first walk reads: the change ticks, and whether it is a part.
type ChangeItem<'a> = (
    Entity,
    Ref<'a, Collider>,
    Ref<'a, Transform>,
    Ref<'a, CollisionLayers>,
    Ref<'a, CollisionResponse>,
    Ref<'a, Velocity>,
    Option<Ref<'a, AngularVelocity>>,
    Has<ChildOf>,
);

/// What the write-back reads and writes: the entity's box and its transform.
type WriteBackItem<'a> = (&'a mut MovingBox, &'a mut Transform);

/// What a compound child reads of its parent.
type ParentItem<'a> = (Ref<'a, Transform>, Option<Ref<'a, Velocity>>);

/// Where a collider is in the world, how fast it moves and which body it belongs to.
struct Placement {
    pos: Vec2,
    angle: f32,
    velocity: Vec2,
    owner: Owner,
    /// Whether the position or angle may have changed since the last sync.
    moved: bool,
    /// Whether the velocity or the owner may have changed since the last sync.
    retargeted: bool,
}

/// The body of an entity as a hantei owner: its index and generation, so that bodies
/// sort in spawn order. It is never [`Owner::NONE`] (no entity has index `u32::MAX`).
fn owner_of(entity: Entity) -> Owner {
    Owner::new(entity.index_u32(), entity.generation().to_bits())
}

/// The entity of an owner made by [`owner_of`].
fn entity_of_owner(owner: Owner) -> Option<Entity> {
    let index = EntityIndex::from_raw_u32(owner.index())?;
    Some(Entity::from_index_and_generation(
        index,
        EntityGeneration::from_bits(owner.generation()),
    ))
}

/// The placement of a collider: its own, or for a child of a live entity, its
/// transform applied to its parent's.
fn placement(
    entity: Entity,
    transform: &Ref<Transform>,
    velocity: &Ref<Velocity>,
    child_of: Option<&Ref<ChildOf>>,
    parents: &Query<ParentItem>,
    write_tick: Tick,
) -> Placement {
    if let Some(child_of) = child_of
        && let Ok((pt, pv)) = parents.get(child_of.parent())
    {
        let offset = (pt.rotation * transform.translation).truncate();
        return Placement {
            pos: pt.translation.truncate() + offset,
            angle: angle_of(&pt) + angle_of(transform),
            velocity: pv.as_ref().map_or(Vec2::ZERO, |v| v.0),
            owner: owner_of(child_of.parent()),
            moved: transform.is_changed() || pt.is_changed() || child_of.is_changed(),
            retargeted: child_of.is_changed() || pv.is_some_and(|v| v.is_changed()),
        };
    }
    Placement {
        pos: transform.translation.truncate(),
        angle: angle_of(transform),
        velocity: velocity.0,
        owner: owner_of(entity),
        // The write-back's own changes match the store already.
        moved: transform.is_changed() && transform.last_changed() != write_tick,
        retargeted: velocity.is_changed() || child_of.is_some_and(|c| c.is_changed()),
    }
}

/// The change ticks of one table that the sync reads: the columns of the collider's
/// components whose summary tick does not rule out a change, and the transforms'.
struct TableTicks<'w> {
    /// A row changed when one of these changed since the system last ran.
    changed: [&'w [Tick]; 5],
    /// How many of `changed` are in use.
    len: usize,
    /// A row moved when its transform changed, other than by the write-back (at
    /// `write_tick`), which matches the store already. `None` when nothing moved.
    moved: Option<&'w [Tick]>,
}

impl<'w> TableTicks<'w> {
    fn new() -> Self {
        TableTicks {
            changed: [&[]; 5],
            len: 0,
            moved: None,
        }
    }

    /// Reads `ticks` unless its summary tick says that nothing in it changed.
    fn changed(&mut self, ticks: ContiguousComponentTicksRef<'w>) {
        if ticks.summary_tick_is_changed() != Some(false) {
            self.changed[self.len] = ticks.changed();
            self.len += 1;
        }
    }

    /// Pushes to `out` the entities whose row changed or moved since the system last
    /// ran, in row order.
    ///
    /// It goes a block of rows at a time and reads every column of the block before the
    /// next block, so that each column is read once, all of them side by side. One
    /// subtraction and one comparison a row and column, which the compiler vectorises.
    fn rows_into(
        &self,
        (this_run, age): (u32, u32),
        write_tick: Tick,
        entities: &[Entity],
        out: &mut Vec<Entity>,
    ) {
        const BLOCK: usize = 256;
        let write_tick = write_tick.get();
        let changed = &self.changed[..self.len];
        for (start, block) in (0..).step_by(BLOCK).zip(entities.chunks(BLOCK)) {
            let end = start + block.len();
            let mut marks = [0u8; BLOCK];
            let marks = &mut marks[..block.len()];
            for column in changed {
                for (m, t) in marks.iter_mut().zip(&column[start..end]) {
                    *m |= u8::from(this_run.wrapping_sub(t.get()) < age);
                }
            }
            if let Some(column) = self.moved {
                for (m, t) in marks.iter_mut().zip(&column[start..end]) {
                    let t = t.get();
                    *m |= u8::from(t != write_tick) & u8::from(this_run.wrapping_sub(t) < age);
                }
            }
            if marks.iter().fold(0, |a, &m| a | m) != 0 {
                out.extend(
                    block
                        .iter()
                        .zip(&*marks)
                        .filter_map(|(&e, &m)| (m != 0).then_some(e)),
                );
            }
        }
    }
}

/// The system's tick and the ticks since its last run, clamped as Bevy clamps them: a
/// tick `t` is newer than the last run (`Tick::is_newer_than`) exactly when
/// `this_run - t < age`, in wrapping arithmetic. One subtraction and one comparison a
/// row, which the compiler can vectorise.
fn run_age(this_run: Tick, last_run: Tick) -> (u32, u32) {
    let age = this_run.get().wrapping_sub(last_run.get());
    (this_run.get(), age.min(MAX_CHANGE_AGE))
}

/// A static collider's new or changed box, for the level's one rebuild.
struct StaticEdit {
    entity: Entity,
    /// The box to update; `None` for a new one.
    handle: Option<BoxHandle>,
    shape: Shape,
    filter: Filter,
}

/// Copies what changed into the store: changes, then new colliders in entity order,
/// then the static level's edits in one rebuild.
#[allow(clippy::too_many_arguments)]
fn sync_colliders(
    mut world: ResMut<CollisionWorld>,
    time: Res<Time<Fixed>>,
    changes: Query<ChangeItem>,
    query: Query<SyncItem>,
    parents: Query<ParentItem>,
    mut moving: Query<&mut MovingBox>,
    mut spin_removed: RemovedComponents<AngularVelocity>,
    mut errors: MessageWriter<CollisionError>,
) {
    let cw = &mut *world;
    let dt = time.timestep().as_secs_f32();
    let dt_changed = dt != cw.dt;
    cw.dt = dt;
    let mut new = Vec::new();
    let mut static_edits = Vec::new();
    // First the colliders that may have changed, in one tight walk over the change
    // ticks, table by table: the common case, nothing changed, reads nothing else. A
    // column whose summary tick says that nothing in it changed is not read at all. A
    // transform last changed by the write-back matches the store. Compound children are
    // always looked at, as their parent may have moved.
    let mut candidates = std::mem::take(&mut cw.candidates);
    candidates.clear();
    let write_tick = cw.write_tick;
    match changes.contiguous_iter() {
        Ok(tables) => {
            for (entities, collider, transform, layers, response, velocity, spin, child) in tables {
                if child || dt_changed {
                    candidates.extend_from_slice(entities);
                    continue;
                }
                let transform = ContiguousRef::split(transform).1;
                let age = run_age(transform.this_run(), transform.last_run());
                let mut ticks = TableTicks::new();
                ticks.changed(ContiguousRef::split(collider).1);
                ticks.changed(ContiguousRef::split(layers).1);
                ticks.changed(ContiguousRef::split(response).1);
                ticks.changed(ContiguousRef::split(velocity).1);
                if let Some(spin) = spin {
                    ticks.changed(ContiguousRef::split(spin).1);
                }
                if transform.summary_tick_is_changed() != Some(false) {
                    ticks.moved = Some(transform.changed());
                }
                ticks.rows_into(age, write_tick, entities, &mut candidates);
            }
        }
        // Not reached: every component of the walk is stored in tables.
        Err(_) => changes.iter().for_each(
            |(entity, collider, transform, layers, response, velocity, spin, child)| {
                let moved = transform.is_changed() && transform.last_changed() != write_tick;
                if collider.is_changed()
                    || moved
                    || layers.is_changed()
                    || response.is_changed()
                    || velocity.is_changed()
                    || spin.is_some_and(|s| s.is_changed())
                    || child
                    || dt_changed
                {
                    candidates.push(entity);
                }
            },
        ),
    }
    // Colliders that lost their `AngularVelocity` stop turning. Despawned entities
    // are in this list too, and skipped; it is almost always empty.
    let unspun: Vec<Entity> = spin_removed.read().filter(|&e| query.contains(e)).collect();
    for &e in &unspun {
        if !candidates.contains(&e) {
            candidates.push(e);
        }
    }
    for &entity in &candidates {
        let Ok(item) = query.get(entity) else {
            continue;
        };
        let (entity, collider, transform, layers, response, velocity, spin, is_static, child_of) =
            item;
        let place = placement(
            entity,
            &transform,
            &velocity,
            child_of.as_ref(),
            &parents,
            cw.write_tick,
        );
        let spun = spin.as_ref().is_some_and(|s| s.is_changed()) || unspun.contains(&entity);
        let edited = collider.is_changed()
            || layers.is_changed()
            || response.is_changed()
            || place.moved
            || place.retargeted;
        let changed = edited || spun;
        if !changed && !dt_changed {
            continue;
        }
        let Some(t) = cw.boxes.get(entity) else {
            new.push(entity);
            continue;
        };
        let h = t.handle;
        if t.is_static != is_static {
            // The marker came or went: the collider moves to the other store.
            if t.is_static {
                cw.statics_removed.push(h);
            } else {
                let _ = cw.store.remove(h);
                if let Ok(mut m) = moving.get_mut(entity) {
                    m.handle = None;
                }
            }
            cw.boxes.remove(entity);
            new.push(entity);
            continue;
        }
        let (pos, angle) = (place.pos, place.angle);
        if is_static {
            // An angular velocity changes nothing in the level.
            if edited {
                match collider.store_shape(pos, angle, 0.0) {
                    Ok(shape) => static_edits.push(StaticEdit {
                        entity,
                        handle: Some(h),
                        shape,
                        filter: layers.0,
                    }),
                    Err(error) => {
                        errors.write(CollisionError {
                            entity: Some(entity),
                            error,
                        });
                    }
                }
            }
            continue;
        }
        let turn = turn_of(&collider, spin.as_deref(), child_of.is_some(), dt);
        let mut result = Ok(());
        // A rectangle that begins to turn must become an oriented one first.
        let unturnable = || matches!(cw.store.shape(h), Some(Shape::Aabb(_)));
        if collider.is_changed() || place.moved || (turn != 0.0 && unturnable()) {
            result = collider
                .store_shape(pos, angle, turn)
                .and_then(|shape| cw.store.update_shape(h, shape));
        }
        if cw.store.turn(h) != Some(turn) {
            result = result.and(cw.store.set_turn(h, turn));
        }
        let turns = cw.store.turn(h).is_some_and(|t| t != 0.0);
        if let Ok(mut m) = moving.get_mut(entity)
            && m.turns != turns
        {
            m.turns = turns;
        }
        if layers.is_changed() {
            result = result.and(cw.store.set_filter(h, layers.0));
        }
        if response.is_changed() {
            result = result.and(cw.store.set_response(h, response.0));
        }
        if place.retargeted || dt_changed {
            result = result.and(cw.store.set_motion(h, place.velocity * dt));
            result = result.and(cw.store.set_owner(h, place.owner));
        }
        if let Err(error) = result {
            errors.write(CollisionError {
                entity: Some(entity),
                error,
            });
        }
    }
    cw.candidates = candidates;
    // New colliders go in as the walk met them: table by table, each table in row
    // order, the order in which its entities came into it. So the store's dense order
    // follows the tables' order, and the write-back reads the store in sequence.
    for entity in new {
        let Ok((_, collider, transform, layers, response, velocity, spin, is_static, child_of)) =
            query.get(entity)
        else {
            continue;
        };
        let place = placement(
            entity,
            &transform,
            &velocity,
            child_of.as_ref(),
            &parents,
            cw.write_tick,
        );
        let (pos, angle) = (place.pos, place.angle);
        let turn = if is_static {
            0.0
        } else {
            turn_of(&collider, spin.as_deref(), child_of.is_some(), dt)
        };
        // Until it is in the moving store, the write-back leaves the entity alone.
        let mut moving_box = MovingBox::default();
        let shape = match collider.store_shape(pos, angle, turn) {
            Ok(shape) => shape,
            Err(error) => {
                errors.write(CollisionError {
                    entity: Some(entity),
                    error,
                });
                if let Ok(mut m) = moving.get_mut(entity) {
                    *m = moving_box;
                }
                continue;
            }
        };
        if is_static {
            static_edits.push(StaticEdit {
                entity,
                handle: None,
                shape,
                filter: layers.0,
            });
        } else {
            let props = BoxProps::new(layers.0)
                .with_response(response.0)
                .with_motion(place.velocity * dt)
                .with_turn(turn)
                .with_owner(place.owner)
                .with_user_data(entity.to_bits());
            match cw.store.insert_shape(shape, props) {
                Ok(handle) => {
                    let is_static = false;
                    cw.boxes.insert(entity, Tracked { handle, is_static });
                    moving_box = MovingBox {
                        handle: Some(handle),
                        // A new box is the last in dense order.
                        index: (cw.store.len() - 1) as u32,
                        turns: turn != 0.0,
                    };
                }
                Err(error) => {
                    errors.write(CollisionError {
                        entity: Some(entity),
                        error,
                    });
                }
            }
        }
        if let Ok(mut m) = moving.get_mut(entity) {
            *m = moving_box;
        }
    }
    if static_edits.is_empty() && cw.statics_removed.is_empty() {
        return;
    }
    // One rebuild of the static index for every change of this step.
    let removed = std::mem::take(&mut cw.statics_removed);
    let (mut done, mut refused) = (Vec::new(), Vec::new());
    let rebuilt = cw.statics.edit(|s| {
        for h in removed {
            let _ = s.remove(h);
        }
        for e in static_edits {
            let result = match e.handle {
                Some(h) => s
                    .update_shape(h, e.shape)
                    .and_then(|()| s.set_filter(h, e.filter))
                    .map(|()| h),
                None => s.insert_shape(
                    e.shape,
                    BoxProps::new(e.filter).with_user_data(e.entity.to_bits()),
                ),
            };
            match result {
                Ok(handle) => done.push((e.entity, handle)),
                Err(error) => refused.push((e.entity, error)),
            }
        }
    });
    for (entity, handle) in done {
        let is_static = true;
        cw.boxes.insert(entity, Tracked { handle, is_static });
    }
    for (entity, error) in refused {
        errors.write(CollisionError {
            entity: Some(entity),
            error,
        });
    }
    if let Err(error) = rebuilt {
        errors.write(CollisionError {
            entity: None,
            error,
        });
    }
}

/// The entity of a body: its owner's bits, or the box's own entity.
fn body_entity(body: Body, collider: Entity) -> Entity {
    match body {
        Body::Owner(owner) => entity_of_owner(owner).unwrap_or(collider),
        Body::Box(_) => collider,
    }
}

/// The messages of one step's report.
#[derive(Default)]
struct Outbox {
    started: Vec<CollisionStarted>,
    ended: Vec<CollisionEnded>,
    walls: Vec<WallHit>,
    statics: Vec<StaticHit>,
    destroyed: Vec<ColliderDestroyed>,
}

/// Writes each moved box's centre, and each turning box's angle, to its entity's
/// `Transform`. Only boxes with a motion can have moved.
///
/// It walks Bevy's tables a whole table at a time, each entity's box at the dense
/// index that its `MovingBox` remembers (checked against the handle there), and marks
/// a transform changed only when it wrote to it. The sync keeps the store's dense order
/// close to the tables' order, so the reads of the store's columns go mostly in
/// sequence.
fn write_back(
    store: &BoxStore,
    transforms: &mut Query<WriteBackItem, (With<Collider>, Without<ChildOf>)>,
) {
    let columns = BoxColumns::new(store);
    match transforms.contiguous_iter_mut() {
        Ok(tables) => {
            for (mut boxes, transforms) in tables {
                let boxes = boxes.bypass_change_detection();
                let this_run = transforms.this_run_tick();
                let (values, mut ticks) = ContiguousMut::bypass_change_detection_split(transforms);
                let changed = ticks.changed_mut();
                for ((moving, transform), tick) in boxes.iter_mut().zip(values).zip(changed) {
                    if let Some(i) = columns.index(moving)
                        && columns.write(i, moving.turns, transform)
                    {
                        *tick = this_run;
                    }
                }
            }
        }
        // Not reached: `MovingBox` and `Transform` are stored in tables.
        Err(_) => transforms
            .iter_mut()
            .for_each(|(mut moving, mut transform)| {
                if let Some(i) = columns.index(moving.bypass_change_detection())
                    && columns.write(i, moving.turns, transform.bypass_change_detection())
                {
                    transform.set_changed();
                }
            }),
    }
}

/// What the write-back reads of the store, each column cut to the store's length.
struct BoxColumns<'a> {
    store: &'a BoxStore,
    handles: &'a [BoxHandle],
    motion_x: &'a [f32],
    motion_y: &'a [f32],
}

impl<'a> BoxColumns<'a> {
    fn new(store: &'a BoxStore) -> Self {
        let n = store.len();
        BoxColumns {
            store,
            handles: &store.handles()[..n],
            motion_x: &store.motion_x()[..n],
            motion_y: &store.motion_y()[..n],
        }
    }

    /// The dense index of the box of `moving`, updated when a removal moved the box;
    /// `None` when it has no box.
    #[inline(always)]
    fn index(&self, moving: &mut MovingBox) -> Option<usize> {
        let h = moving.handle?;
        let i = moving.index as usize;
        if self.handles.get(i) == Some(&h) {
            return Some(i);
        }
        let i = self.store.index_of(h)?;
        moving.index = i as u32;
        Some(i)
    }

    /// Writes the centre of the box at dense index `i` to the transform when the box
    /// moved, and its turn when it `turns`; returns whether the transform changed.
    #[inline(always)]
    fn write(&self, i: usize, turns: bool, transform: &mut Transform) -> bool {
        let (Some(&x), Some(&y)) = (self.motion_x.get(i), self.motion_y.get(i)) else {
            return false;
        };
        let mut changed = false;
        // Only a box with a motion can have moved. Its centre is read from its own
        // columns: no pass over every box first.
        if (x != 0.0 || y != 0.0)
            && let Some(c) = self.store.shape_at(i).as_ref().map(center_of)
            && transform.translation.truncate() != c
        {
            transform.translation.x = c.x;
            transform.translation.y = c.y;
            changed = true;
        }
        if turns {
            changed |= write_turn(self.store, i, transform);
        }
        changed
    }
}

/// The centre of a shape: a plain box's middle, a disc's or a rectangle's own centre,
/// the middle of a capsule's segment. It is where the collider's transform goes.
#[inline(always)]
fn center_of(shape: &Shape) -> Vec2 {
    match shape {
        Shape::Aabb(a) => a.center(),
        Shape::Circle(c) => c.center,
        Shape::Obb2(o) => o.center,
        Shape::Capsule(c) => c.center(),
    }
}

/// Adds the turn that the box at dense index `i` made to the transform's rotation:
/// the store's shape holds the box's new angle. Returns whether the rotation changed.
#[cold]
fn write_turn(store: &BoxStore, i: usize, transform: &mut Transform) -> bool {
    let Some(angle) = store.shape_at(i).as_ref().and_then(angle_of_shape) else {
        return false;
    };
    let turned = wrap_angle(angle - angle_of(transform));
    if turned != 0.0 {
        transform.rotation = Quat::from_rotation_z(turned) * transform.rotation;
    }
    turned != 0.0
}

/// Runs one frame, writes positions back, sends the messages, handles destroyed boxes.
#[allow(clippy::too_many_arguments)]
fn step(
    ticks: SystemChangeTick,
    entities: &Entities,
    mut commands: Commands,
    mut world: ResMut<CollisionWorld>,
    walls: Option<Res<CollisionWalls>>,
    mut transforms: Query<WriteBackItem, (With<Collider>, Without<ChildOf>)>,
    mut started: MessageWriter<CollisionStarted>,
    mut ended: MessageWriter<CollisionEnded>,
    mut wall_hits: MessageWriter<WallHit>,
    mut static_hits: MessageWriter<StaticHit>,
    mut destroyed: MessageWriter<ColliderDestroyed>,
    mut errors: MessageWriter<CollisionError>,
) {
    let cw = &mut *world;
    let statics = (!cw.statics.store().is_empty()).then_some(&cw.statics);
    let level = match &walls {
        Some(w) => Level {
            walls: Some(&w.map),
            wall_filter: w.filter,
            statics,
        },
        None => Level {
            statics,
            ..Level::none()
        },
    };
    if let Err(error) = cw.frame.advance(&mut cw.store, &level) {
        errors.write(CollisionError {
            entity: None,
            error,
        });
        return;
    }
    cw.steps += 1;
    cw.write_tick = ticks.this_run();

    // Positions and turns back to transforms.
    write_back(&cw.store, &mut transforms);

    let report = cw.frame.report();
    let ent = |bits: u64| Entity::try_from_bits(bits).unwrap_or(Entity::PLACEHOLDER);
    let mut out = Outbox::default();
    for e in report.began {
        let colliders = (ent(e.user_data.0), ent(e.user_data.1));
        let contact = report
            .contacts
            .binary_search_by(|c| c.bodies.cmp(&e.bodies))
            .ok()
            .map(|k| report.contacts[k]);
        out.started.push(CollisionStarted {
            bodies: (
                body_entity(e.bodies.a, colliders.0),
                body_entity(e.bodies.b, colliders.1),
            ),
            colliders,
            toi: contact.map_or(0.0, |c| c.toi),
            normal: contact.map_or(Vec2::ZERO, |c| c.normal),
            overlapping: contact
                .is_some_and(|c| c.status == hantei::narrow::SweepStatus::Overlapping),
            point: contact.map_or(ContactPoint::default(), |c| c.point),
        });
    }
    for e in report.ended {
        let colliders = (ent(e.user_data.0), ent(e.user_data.1));
        out.ended.push(CollisionEnded {
            bodies: (
                body_entity(e.bodies.a, colliders.0),
                body_entity(e.bodies.b, colliders.1),
            ),
            colliders,
            removed: e.removed,
        });
    }
    for w in report.wall_hits {
        out.walls.push(WallHit {
            collider: ent(w.user_data),
            tile: w.tile,
            toi: w.toi,
            normal: w.normal,
            overlapping: w.status == hantei::narrow::SweepStatus::Overlapping,
            point: w.point,
        });
    }
    for h in report.static_hits {
        out.statics.push(StaticHit {
            collider: ent(h.user_data),
            static_collider: ent(h.static_user_data),
            toi: h.toi,
            normal: h.normal,
            overlapping: h.status == hantei::narrow::SweepStatus::Overlapping,
            point: h.point,
        });
    }
    for d in report.destroyed {
        out.destroyed.push(ColliderDestroyed {
            collider: ent(d.user_data),
            shape: d.shape,
            toi: d.toi,
        });
    }
    // Destroyed entities leave their tables from the last row up, as the frame removed
    // their boxes from the last dense index down: each table then loses the same rows
    // as the store, and its order stays the store's dense order.
    let mut doomed = std::mem::take(&mut cw.doomed);
    doomed.clear();
    for d in &out.destroyed {
        cw.boxes.remove(d.collider);
        if let Ok(at) = entities.get_spawned(d.collider) {
            doomed.push((at.table_id.as_u32(), at.table_row.index_u32(), d.collider));
        }
    }
    doomed.sort_unstable_by(|a, b| b.cmp(a));
    for &(_, _, entity) in &doomed {
        let Ok(mut e) = commands.get_entity(entity) else {
            continue;
        };
        match cw.destroy {
            DestroyMode::Despawn => {
                e.try_despawn();
            }
            DestroyMode::Mark => {
                e.try_insert(Destroyed).try_remove::<Collider>();
            }
        }
    }
    cw.doomed = doomed;
    started.write_batch(out.started);
    ended.write_batch(out.ended);
    wall_hits.write_batch(out.walls);
    static_hits.write_batch(out.statics);
    destroyed.write_batch(out.destroyed);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sync's test of a change tick agrees with `Tick::is_newer_than`, across
    /// the wrap of the tick counter.
    #[test]
    fn run_age_agrees_with_bevys_change_test() {
        let ticks = [
            0,
            1,
            2,
            1000,
            MAX_CHANGE_AGE - 1,
            MAX_CHANGE_AGE,
            MAX_CHANGE_AGE + 1,
            u32::MAX / 2,
            u32::MAX - 1,
            u32::MAX,
        ];
        for &this in &ticks {
            for &last in &ticks {
                for &t in &ticks {
                    for d in [0u32, 1, 7] {
                        let (this, last, t) = (this, last.wrapping_add(d), t.wrapping_sub(d));
                        let (this_run, age) = run_age(Tick::new(this), Tick::new(last));
                        assert_eq!(
                            this_run.wrapping_sub(t) < age,
                            Tick::new(t).is_newer_than(Tick::new(last), Tick::new(this)),
                            "this {this}, last {last}, tick {t}"
                        );
                    }
                }
            }
        }
    }

    /// The sync's fused walk over a table's ticks finds exactly the rows that one
    /// `Tick::is_newer_than` a column finds, across blocks, and skips transforms that
    /// the write-back changed.
    #[test]
    fn table_ticks_find_the_changed_rows() {
        let (last, this, write) = (Tick::new(100), Tick::new(200), Tick::new(150));
        let rows = 700; // two full blocks and a part
        let entities: Vec<Entity> = (0..rows)
            .map(|k| Entity::from_raw_u32(k as u32 + 1).expect("a valid index"))
            .collect();
        // Each column is old except at a few rows: the blocks' edges and the last row.
        let column = |at: &[usize], tick: Tick| -> Vec<Tick> {
            (0..rows)
                .map(|k| if at.contains(&k) { tick } else { Tick::new(50) })
                .collect()
        };
        let a = column(&[0, 255], Tick::new(101));
        let b = column(&[256, 699], Tick::new(200));
        let stale = column(&[300], Tick::new(100)); // not newer than the last run
        let moved = column(&[3, 511, 512], Tick::new(180));
        let mut by_write_back = column(&[600], write);
        by_write_back[3] = Tick::new(180);
        let mut ticks = TableTicks::new();
        for c in [&a, &b, &stale] {
            ticks.changed[ticks.len] = c;
            ticks.len += 1;
        }
        // Moved: rows 0, 3, 255, 256, 511, 512 and 699. Written back: row 600 is the
        // write-back's own, so rows 0, 3, 255, 256 and 699.
        for (transforms, count) in [(&moved, 7), (&by_write_back, 5)] {
            ticks.moved = Some(transforms);
            let mut found = Vec::new();
            ticks.rows_into(run_age(this, last), write, &entities, &mut found);
            let newer = |t: Tick| t.is_newer_than(last, this);
            let expected: Vec<Entity> = (0..rows)
                .filter(|&k| {
                    newer(a[k])
                        || newer(b[k])
                        || newer(stale[k])
                        || (newer(transforms[k]) && transforms[k] != write)
                })
                .map(|k| entities[k])
                .collect();
            assert_eq!(found, expected);
            assert_eq!(found.len(), count);
        }
    }
}
