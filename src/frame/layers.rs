//! The layers of a bullet-hell game, as [`Filter`]s: player bullets hit enemies, enemy
//! bullets hit the player, and bullets never test against bullets unless asked.
//!
//! | filter | is on layer | pairs with |
//! |---|---|---|
//! | [`player()`] | [`PLAYER`] | enemies, enemy bullets, walls |
//! | [`enemy()`] | [`ENEMY`] | the player, player bullets |
//! | [`player_bullet()`] | [`PLAYER_BULLET`] | enemies, walls |
//! | [`enemy_bullet()`] | [`ENEMY_BULLET`] | the player, walls |
//! | [`wall()`] | [`WALL`] | the player, every bullet |
//!
//! A pair needs both sides to agree ([`Filter::pairs_with`]); [`with_bullets_colliding`]
//! turns bullets × bullets on for a filter. Layers above [`WALL`] are free for the game.

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

/// The player: hit by enemies, enemy bullets and walls.
#[must_use]
pub const fn player() -> Filter {
    Filter::new(PLAYER, ENEMY | ENEMY_BULLET | WALL)
}

/// An enemy: hit by the player and player bullets.
#[must_use]
pub const fn enemy() -> Filter {
    Filter::new(ENEMY, PLAYER | PLAYER_BULLET)
}

/// A player bullet: hits enemies and walls.
#[must_use]
pub const fn player_bullet() -> Filter {
    Filter::new(PLAYER_BULLET, ENEMY | WALL)
}

/// An enemy bullet: hits the player and walls.
#[must_use]
pub const fn enemy_bullet() -> Filter {
    Filter::new(ENEMY_BULLET, PLAYER | WALL)
}

/// A wall: stops the player and every bullet.
#[must_use]
pub const fn wall() -> Filter {
    Filter::new(WALL, PLAYER | PLAYER_BULLET | ENEMY_BULLET)
}

/// Every filter of the table above, plus enemy bullets that also hit bullets (for tests
/// and demos that want a mix of everything).
pub const PRESETS: [Filter; 6] = [
    player(),
    enemy(),
    player_bullet(),
    enemy_bullet(),
    wall(),
    with_bullets_colliding(enemy_bullet()),
];

/// `filter` that also pairs with bullets of both sides (for bullets that cancel each
/// other). Both sides of a pair must allow it.
#[must_use]
pub const fn with_bullets_colliding(filter: Filter) -> Filter {
    Filter::new(filter.layers, filter.mask | PLAYER_BULLET | ENEMY_BULLET)
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
        assert!(!pairs(enemy(), enemy()) && !pairs(enemy(), wall()));
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
