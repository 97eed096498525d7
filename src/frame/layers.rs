//! The layers of a bullet-hell game, as ready-made [`Filter`]s.
//!
//! Player bullets hit enemies, and enemy bullets hit the player. Bullets never test
//! against bullets unless you ask for it. Walls stop everything that moves.
//!
//! | filter | is on layer | pairs with | responds to (solid) |
//! |---|---|---|---|
//! | [`player()`] | [`PLAYER`] | enemies, enemy bullets, walls | walls |
//! | [`enemy()`] | [`ENEMY`] | the player, player bullets, walls | walls |
//! | [`player_bullet()`] | [`PLAYER_BULLET`] | enemies, walls | enemies, walls |
//! | [`enemy_bullet()`] | [`ENEMY_BULLET`] | the player, walls | the player, walls |
//! | [`wall()`] | [`WALL`] | the player, enemies, every bullet | everything |
//!
//! Two boxes pair only when both of their filters agree, as [`Filter::pairs_with`]
//! checks. A box's [`Response`](crate::Response) reacts only to its solid layers. So a
//! player with [`Response::Slide`](crate::Response::Slide) slides along walls, and the
//! bullets and enemies that touch it are only reported. A bullet with
//! [`Response::Destroy`](crate::Response::Destroy) is destroyed by what it hits.
//!
//! [`with_bullets_colliding`] makes a filter pair with bullets too. The layers above
//! [`WALL`] are free for the game to use.

use crate::store::Filter;

/// The player's hitbox.
pub const PLAYER: u32 = 1 << 0;
/// Enemies.
pub const ENEMY: u32 = 1 << 1;
/// Bullets fired by the player.
pub const PLAYER_BULLET: u32 = 1 << 2;
/// Bullets fired by enemies.
pub const ENEMY_BULLET: u32 = 1 << 3;
/// Walls and other solid boxes.
pub const WALL: u32 = 1 << 4;

/// The player's filter. Enemies, enemy bullets and walls hit the player. Only walls
/// are solid to it: enemies and bullets are reported and do not stop it.
#[must_use]
pub const fn player() -> Filter {
    Filter::new(PLAYER, ENEMY | ENEMY_BULLET | WALL).with_solid(WALL)
}

/// An enemy's filter. The player, player bullets and walls hit enemies. Only walls are
/// solid to them.
#[must_use]
pub const fn enemy() -> Filter {
    Filter::new(ENEMY, PLAYER | PLAYER_BULLET | WALL).with_solid(WALL)
}

/// A player bullet's filter. Player bullets hit enemies and walls, and both are solid.
#[must_use]
pub const fn player_bullet() -> Filter {
    Filter::new(PLAYER_BULLET, ENEMY | WALL)
}

/// An enemy bullet's filter. Enemy bullets hit the player and walls, and both are solid.
#[must_use]
pub const fn enemy_bullet() -> Filter {
    Filter::new(ENEMY_BULLET, PLAYER | WALL)
}

/// A wall's filter. Walls meet the player, enemies and every bullet.
#[must_use]
pub const fn wall() -> Filter {
    Filter::new(WALL, PLAYER | ENEMY | PLAYER_BULLET | ENEMY_BULLET)
}

/// Every filter in the module's table, plus an enemy bullet that also hits bullets.
///
/// Tests and demos use it when they want a mix of everything.
pub const PRESETS: [Filter; 6] = [
    player(),
    enemy(),
    player_bullet(),
    enemy_bullet(),
    wall(),
    with_bullets_colliding(enemy_bullet()),
];

/// Returns `filter`, changed so that it also pairs with the bullets of both sides, and
/// responds to them.
///
/// Use it for bullets that cancel each other. Both boxes of a pair must allow it, as
/// always.
///
/// ```
/// use hantei::frame::layers::{enemy_bullet, player_bullet, with_bullets_colliding};
/// let a = with_bullets_colliding(player_bullet());
/// let b = with_bullets_colliding(enemy_bullet());
/// assert!(a.pairs_with(b));
/// assert!(!a.pairs_with(enemy_bullet())); // the plain enemy bullet does not agree
/// ```
#[must_use]
pub const fn with_bullets_colliding(filter: Filter) -> Filter {
    Filter {
        layers: filter.layers,
        mask: filter.mask | PLAYER_BULLET | ENEMY_BULLET,
        solid: filter.solid | PLAYER_BULLET | ENEMY_BULLET,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds() {
        let all = [player(), enemy(), player_bullet(), enemy_bullet(), wall()];
        let pairs = |a: Filter, b: Filter| a.pairs_with(b);
        assert!(
            pairs(player(), enemy()) && pairs(player(), enemy_bullet()) && pairs(player(), wall())
        );
        assert!(!pairs(player(), player_bullet()));
        assert!(pairs(enemy(), player_bullet()) && !pairs(enemy(), enemy_bullet()));
        assert!(!pairs(enemy(), enemy()) && pairs(enemy(), wall()));
        // Solid: walls for the player and enemies, everything a bullet pairs with.
        assert!(player().responds_to(WALL) && !player().responds_to(ENEMY_BULLET));
        assert!(!player().responds_to(ENEMY) && enemy().responds_to(WALL));
        assert!(!enemy().responds_to(PLAYER_BULLET));
        assert!(player_bullet().responds_to(ENEMY) && enemy_bullet().responds_to(PLAYER));
        for b in [player_bullet(), enemy_bullet()] {
            assert!(!pairs(b, player_bullet()) && !pairs(b, enemy_bullet()));
            assert!(pairs(b, wall()));
        }
        // Symmetric.
        for a in all {
            for b in all {
                assert_eq!(pairs(a, b), pairs(b, a));
            }
        }
        let pb = with_bullets_colliding(player_bullet());
        let eb = with_bullets_colliding(enemy_bullet());
        assert!(pairs(pb, eb) && pairs(pb, pb));
        assert!(!pairs(pb, enemy_bullet()), "both sides must agree");
    }
}
